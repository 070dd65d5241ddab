"""The sentences of game records (``record``): every refusal of a record's file or round, and its
warnings, French and English."""

from __future__ import annotations

from engine.messages import register

register(
    {
        "record_in_round": {"fr": "Tour {round} : {reason_fr}", "en": "Round {round}: {reason_en}"},
        "record_encoding": {
            "fr": "Le fichier n'est pas un texte UTF-8.",
            "en": "The file is not UTF-8 text.",
        },
        "record_json": {
            "fr": "Le fichier n'est pas du JSON valide (ligne {line}, colonne {column}).",
            "en": "The file is not valid JSON (line {line}, column {column}).",
        },
        "record_json_unreadable": {
            "fr": "Le fichier JSON ne peut pas être lu : {why_fr}.",
            "en": "The JSON file cannot be read: {why_en}.",
        },
        "record_too_big": {
            "fr": "Fichier trop gros : un enregistrement de partie fait au plus {kib} Ko.",
            "en": "File too large: a game record is at most {kib} KB.",
        },
        "record_too_many_rounds": {
            "fr": "Une partie a au plus {limit} tours (102 jetons) ; ce fichier en a {count}.",
            "en": "A game has at most {limit} rounds (102 tiles); this file has {count}.",
        },
        "record_text_long": {
            "fr": "« {key} » a plus de {limit} caractères.",
            "en": "'{key}' is over {limit} characters.",
        },
        "record_text_char": {
            "fr": "« {key} » contient {char}, un caractère de contrôle ou une moitié de paire UTF-16.",
            "en": "'{key}' holds {char}, a control character or half of a UTF-16 pair.",
        },
        "record_duplicate_key": {
            "fr": "La clé « {key} » apparaît deux fois.",
            "en": "The key '{key}' appears twice.",
        },
        "record_game_not_object": {
            "fr": "Une partie est un objet JSON ({{ ... }}).",
            "en": "A game is a JSON object ({{ ... }}).",
        },
        "record_round_not_object": {
            "fr": "Un tour est un objet JSON ({{ ... }}).",
            "en": "A round is a JSON object ({{ ... }}).",
        },
        "record_format": {
            "fr": "Format inconnu « {found} » : ce programme lit « {expected} ».",
            "en": "Unknown format '{found}': this program reads '{expected}'.",
        },
        "record_missing_key": {"fr": "Clé « {key} » manquante.", "en": "The key '{key}' is missing."},
        "record_unknown_key": {"fr": "Clé « {key} » inconnue.", "en": "Unknown key '{key}'."},
        "record_not_text": {
            "fr": "« {key} » doit être un texte non vide.",
            "en": "'{key}' must be a non-empty text.",
        },
        "record_not_integer": {
            "fr": "« {key} » doit être un nombre entier de {minimum} à {maximum}.",
            "en": "'{key}' must be a whole number from {minimum} to {maximum}.",
        },
        "record_not_list": {"fr": "« {key} » doit être une liste.", "en": "'{key}' must be a list."},
        "record_seed": {
            "fr": "« seed » doit être un nombre entier (moins de 2^63 en valeur absolue) ou un texte.",
            "en": "'seed' must be a whole number (below 2^63 in absolute value) or a text.",
        },
        "record_no_rounds": {"fr": "La partie n'a aucun tour.", "en": "The game has no round."},
        "record_rack_empty": {"fr": "Le tirage est vide.", "en": "The rack is empty."},
        "record_total": {
            "fr": "Total annoncé {claimed}, somme des tours {actual}.",
            "en": "Total given {claimed}, sum of the rounds {actual}.",
        },
        "record_first_reliquat": {
            "fr": "Le premier tirage n'a pas de reliquat (ici {given}).",
            "en": "The first rack has no kept letters (here {given}).",
        },
        "record_reliquat_extra": {
            "fr": "Le reliquat ne correspond pas au tirage précédent : le top a utilisé toutes ses "
            "lettres, il ne reste rien (ici {given}).",
            "en": "The kept letters do not match the previous rack: its top used every tile, "
            "nothing is left (here {given}).",
        },
        "record_reliquat_missing": {
            "fr": "Le reliquat ne correspond pas au tirage précédent : il reste {expected}, mais le "
            "tirage n'a ni reliquat ni rejet.",
            "en": "The kept letters do not match the previous rack: {expected} is left, but the rack "
            "shows neither kept letters nor a rejection.",
        },
        "record_reliquat_wrong": {
            "fr": "Le reliquat ne correspond pas au tirage précédent : il reste {expected}, pas {given}.",
            "en": "The kept letters do not match the previous rack: {expected} is left, not {given}.",
        },
        "record_first_vertical": {
            "fr": "Le premier coup se joue horizontalement ({ref} est vertical).",
            "en": "The first move is played across ({ref} is down).",
        },
        "record_blank_on_board": {
            "fr": "En {square}, le {letter} de la grille est un joker : il s'écrit en minuscule.",
            "en": "On {square}, the board's {letter} is a blank: it is written in lower case.",
        },
        "record_letter_on_board": {
            "fr": "En {square}, le {letter} de la grille n'est pas un joker : il s'écrit en majuscule.",
            "en": "On {square}, the board's {letter} is not a blank: it is written in upper case.",
        },
        "record_score": {
            "fr": "Score annoncé {claimed}, score réel {actual}.",
            "en": "Score given {claimed}, actual score {actual}.",
        },
        "record_lexicon_name": {
            "fr": "La partie a été enregistrée avec la liste « {record} » et vérifiée avec « {lexicon} ».",
            "en": "The game was recorded with the list '{record}' and checked with '{lexicon}'.",
        },
        "record_letters": {
            "fr": "« letters » manque : un enregistrement duplicate-game/2 nomme son jeu de lettres.",
            "en": "'letters' is missing: a duplicate-game/2 record names its letter set.",
        },
        "record_variant_v1": {
            "fr": "Un enregistrement duplicate-game/1 est une partie classique et n'a pas de clé "
            "« variant » : écrivez duplicate-game/2.",
            "en": "A duplicate-game/1 record is a classic game and has no 'variant' key: "
            "write duplicate-game/2.",
        },
        "record_letters_v1": {
            "fr": "Un enregistrement duplicate-game/1 est français et n'a pas de clé « letters » : "
            "écrivez duplicate-game/2.",
            "en": "A duplicate-game/1 record is French and has no 'letters' key: write duplicate-game/2.",
        },
        "record_letters_lexicon": {
            "fr": "La partie se joue avec le jeu de lettres « {record} », mais la liste de mots a été lue "
            "pour le jeu « {lexicon} ».",
            "en": "The game is played with the '{record}' letter set, but the word list was read for the "
            "'{lexicon}' set.",
        },
    }
)
