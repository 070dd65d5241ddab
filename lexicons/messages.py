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
        "lexicon_other_letters": {
            "fr": (
                "La liste « {name} » est écrite pour un autre jeu de lettres ({letters}) : choisissez "
                "une liste de ce jeu, ou envoyez-en une."
            ),
            "en": (
                "The list “{name}” is written for another letter set ({letters}): choose a list of "
                "this set, or send one."
            ),
        },
        "lexicon_none_shipped": {
            "fr": "Aucune liste n'est livrée pour ce jeu de lettres ({letters}) : envoyez la vôtre.",
            "en": "No list is shipped for this letter set ({letters}): send your own.",
        },
        "lexicon_empty": {
            "fr": "Cette liste ne contient aucun mot utilisable (2 à 15 lettres).",
            "en": "This list holds no usable word (2 to 15 letters).",
        },
    }
)
