"""Sentences of the results' refusals, French first (registered with the engine's catalogue)."""

from engine.messages import register

register(
    {
        "printout_needs_game": {
            "fr": "Cette impression porte sur une partie : choisissez-la.",
            "en": "This printout is about one game: choose it.",
        },
        "export_no_round": {
            "fr": "Aucun coup n'a encore été placé : la partie n'a rien à exporter.",
            "en": "No round has been placed yet: the game has nothing to export.",
        },
        "merge_too_few": {
            "fr": "Une fusion demande au moins deux fichiers de résultats (ici {count}).",
            "en": "A merge needs at least two results files (here {count}).",
        },
        "merge_not_json": {
            "fr": "Le fichier « {file} » n'est pas un fichier JSON lisible.",
            "en": "The file '{file}' is not a readable JSON file.",
        },
        "merge_format": {
            "fr": "Le fichier « {file} » n'est pas un fichier de résultats ({format}).",
            "en": "The file '{file}' is not a results file ({format}).",
        },
        "merge_malformed": {
            "fr": "Le fichier « {file} » est incomplet ou abîmé (« {key} » manque ou est illisible).",
            "en": "The file '{file}' is incomplete or damaged ('{key}' is missing or unreadable).",
        },
        "merge_game_invalid": {
            "fr": "La partie du fichier « {file} » est illisible : {reason_fr}",
            "en": "The game in the file '{file}' cannot be read: {reason_en}",
        },
        "merge_lexicon": {
            "fr": "Le fichier « {file} » a été joué avec une autre liste de mots que « {first} » : "
            "{lexicon} au lieu de {expected}.",
            "en": "The file '{file}' was played with another word list than '{first}': {lexicon} "
            "instead of {expected}.",
        },
        "merge_round_count": {
            "fr": "Le fichier « {file} » n'a pas la même partie que « {first} » : {count} coups au lieu "
            "de {expected}.",
            "en": "The file '{file}' does not hold the same game as '{first}': {count} rounds instead "
            "of {expected}.",
        },
        "merge_rack": {
            "fr": "Le fichier « {file} » n'a pas la même partie que « {first} » : coup {round}, tirage "
            "{found} au lieu de {expected}.",
            "en": "The file '{file}' does not hold the same game as '{first}': round {round}, rack "
            "{found} instead of {expected}.",
        },
        "merge_top": {
            "fr": "Le fichier « {file} » n'a pas la même partie que « {first} » : coup {round}, top "
            "{found} au lieu de {expected}.",
            "en": "The file '{file}' does not hold the same game as '{first}': round {round}, top "
            "{found} instead of {expected}.",
        },
    }
)
