"""Sentences of the word lists' refusals, French first (registered with the engine's catalogue)."""

from engine.messages import register

register(
    {
        "lexicon_refused": {
            "fr": "Liste de mots refusée : {reason_fr}",
            "en": "Word list refused: {reason_en}",
        },
        "lexicon_missing": {
            "fr": (
                "La liste de mots « {name} » ({sha256}…) n'est pas sur ce portable (une soirée reprise "
                "sans le dossier media/ de sa copie) : envoyez-la de nouveau avec « Nouveau tournoi »."
            ),
            "en": (
                "The word list “{name}” ({sha256}…) is not on this laptop (an evening resumed without "
                "its copy's media/ folder): send it again with “Nouveau tournoi”."
            ),
        },
        "lexicon_empty": {
            "fr": "Cette liste ne contient aucun mot utilisable (2 à 15 lettres).",
            "en": "This list holds no usable word (2 to 15 letters).",
        },
    }
)
