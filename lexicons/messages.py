"""Sentences of the word lists' refusals, French first (registered with the engine's catalogue)."""

from engine.messages import register

register(
    {
        "lexicon_refused": {
            "fr": "Liste de mots refusée : {reason_fr}",
            "en": "Word list refused: {reason_en}",
        },
        "lexicon_empty": {
            "fr": "Cette liste ne contient aucun mot utilisable (2 à 15 lettres).",
            "en": "This list holds no usable word (2 to 15 letters).",
        },
    }
)
