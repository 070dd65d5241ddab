"""The sentences of drawing's refusals, rejections and ends of game (``engine.draw``)."""

from __future__ import annotations

from engine.messages import register

register(
    {
        "draw_not_in_bag": {
            "fr": "Ces lettres ne sont pas dans le sac : {tiles}.",
            "en": "These tiles are not in the bag: {tiles}.",
        },
        "draw_not_in_rack": {
            "fr": "Ces lettres ne sont pas dans le tirage : {tiles}.",
            "en": "These tiles are not in the rack: {tiles}.",
        },
        "draw_rack_too_big": {
            "fr": "Un tirage a au plus 7 lettres (ici {size}).",
            "en": "A rack has at most 7 tiles (here {size}).",
        },
        "draw_joker_missing": {
            "fr": "Dans cette partie chaque tirage a un joker tant qu'il en reste : ajoutez-en un.",
            "en": "In this game every rack holds a blank while one is left: add one.",
        },
        "draw_joker_two": {
            "fr": "Dans cette partie un tirage a un seul joker (ici {count}).",
            "en": "In this game a rack holds a single blank (here {count}).",
        },
        "draw_rack_short": {
            "fr": "Le tirage doit compter {expected} lettres tant que le sac en contient (ici {size}).",
            "en": "The rack must hold {expected} tiles while the bag has them (here {size}).",
        },
        "draw_below_minimum": {
            "fr": "Ce tirage n'a pas au moins {minimum} voyelle(s) et {minimum} consonne(s), "
            "Y et joker comptant pour l'une ou l'autre : il doit être rejeté.",
            "en": "This rack lacks {minimum} vowel(s) and {minimum} consonant(s), "
            "Y and blanks counting as either: it must be rejected.",
        },
        "draw_below_minimum_blank": {
            "fr": "Ce tirage n'a pas au moins {minimum} voyelle(s) et {minimum} consonne(s), "
            "le joker comptant pour l'une ou l'autre : il doit être rejeté.",
            "en": "This rack lacks {minimum} vowel(s) and {minimum} consonant(s), "
            "blanks counting as either: it must be rejected.",
        },
        "rejection_vowels": {"fr": "pas assez de voyelles", "en": "not enough vowels"},
        "rejection_consonants": {"fr": "pas assez de consonnes", "en": "not enough consonants"},
        "rejection_vowels_and_consonants": {
            "fr": "pas assez de voyelles ni de consonnes",
            "en": "not enough vowels nor consonants",
        },
        "rejection_no_move": {"fr": "aucun coup possible", "en": "no move possible"},
        "draw_end_all_played": {
            "fr": "Fin de partie : toutes les lettres ont été jouées.",
            "en": "End of the game: every tile has been played.",
        },
        "draw_end_too_few_tiles": {
            "fr": "Fin de partie : il reste au plus une lettre.",
            "en": "End of the game: one tile or none is left.",
        },
        "draw_end_no_vowel_or_no_consonant": {
            "fr": "Fin de partie : il ne reste que des voyelles ou que des consonnes.",
            "en": "End of the game: only vowels or only consonants are left.",
        },
        "draw_end_no_move_possible": {
            "fr": "Fin de partie : aucun tirage possible ne permet de jouer.",
            "en": "End of the game: no rack that can be drawn has a legal move.",
        },
        "draw_end_cancel_impossible": {
            "fr": "Fin de partie : le coup annulé ne peut pas être retiré avec un autre tirage.",
            "en": "End of the game: the cancelled round cannot be redrawn with a different rack.",
        },
        "draw_end_rejection_limit": {
            "fr": "Fin de partie : aucun tirage valable n'a pu être tiré.",
            "en": "End of the game: no valid rack could be drawn.",
        },
    }
)
