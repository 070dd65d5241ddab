"""Sentences of the review, French first (registered with the engine's catalogue)."""

from engine.messages import register

register(
    {
        "review_not_yet": {
            "fr": "La revue de la partie s'ouvre quand la partie est terminée.",
            "en": "The game's review opens once the game is over.",
        },
        "review_no_such_round": {
            "fr": "Cette partie compte {count} coups.",
            "en": "This game has {count} rounds.",
        },
        "review_no_slip": {
            "fr": "Pas de bulletin.",
            "en": "No slip.",
        },
        "review_no_round": {
            "fr": "Aucun coup n'a été joué dans cette partie.",
            "en": "No round was played in this game.",
        },
    }
)
