"""Sentences of the results' refusals, French first (registered with the engine's catalogue)."""

from engine.messages import register

register(
    {
        "printout_needs_game": {
            "fr": "Cette impression porte sur une partie : choisissez-la.",
            "en": "This printout is about one game: choose it.",
        },
        "outbox_url": {
            "fr": "Donnez l'adresse de la page publique du simultané (https://…/simultane/…/), telle que "
            "l'organisateur l'a envoyée : l'adresse d'un serveur public, sans nom d'utilisateur, ni "
            "« ? », ni « # ».",
            "en": "Give the address of the event's public page (https://…/simultane/…/), as the organiser "
            "sent it: a public server's address, with no user name, '?' or '#'.",
        },
        "outbox_unreachable": {
            "fr": "Serveur injoignable, ou sa réponse n'est pas celle du serveur de la fédération (vérifiez "
            "l'adresse) : les résultats attendent ici, nouvel essai toutes les 30 s.",
            "en": "Server unreachable, or its answer is not the federation server's (check the address): "
            "the results wait here, tried again every 30 s.",
        },
        "outbox_token": {
            "fr": "Donnez le jeton de votre club, tel que la page du club sur le serveur de la fédération "
            "l'affiche (lettres, chiffres, « - » et « _ », de 16 à 64).",
            "en": "Give your club's token as the club's page on the federation's server shows it "
            "(letters, digits, '-' and '_', 16 to 64 of them).",
        },
        "outbox_refused": {
            "fr": "Refusé par le serveur : {reason}",
            "en": "Refused by the server: {reason}",
        },
        "outbox_address_dropped": {
            "fr": "Jamais envoyé : cette adresse n'est plus acceptée (seules les pages publiques de "
            "simultané sur un serveur public le sont). Envoyez à nouveau avec l'adresse de l'organisateur.",
            "en": "Never sent: this address is no longer accepted (only an event's public page on a public "
            "server is). Send again with the organiser's address.",
        },
        "outbox_token_dropped": {
            "fr": "Jamais envoyé : ce jeton n'est pas un jeton de club. Envoyez à nouveau avec celui de la "
            "page du club.",
            "en": "Never sent: this token is not a club token. Send again with the one on the club's page.",
        },
        "outbox_failed": {
            "fr": "Envoi abandonné : une erreur sur cet ordinateur (notée dans son journal). Envoyez à "
            "nouveau les résultats.",
            "en": "Sending given up: an error on this computer (written in its log). Send the results again.",
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
        # A results file read as strictly as a prepared game (reading.py): its limits, then its contents.
        "merge_too_many_files": {
            "fr": "Une fusion prend au plus {limit} fichiers (ici {count}).",
            "en": "A merge takes at most {limit} files (here {count}).",
        },
        "merge_file_too_big": {
            "fr": "Le fichier « {file} » est trop gros : au plus {limit} Mo par fichier.",
            "en": "The file '{file}' is too big: at most {limit} MB per file.",
        },
        "merge_files_too_big": {
            "fr": "Les fichiers sont trop gros ensemble : au plus {limit} Mo en tout.",
            "en": "The files are too big together: at most {limit} MB in all.",
        },
        "merge_file_players": {
            "fr": "Le fichier « {file} » a {count} joueurs : au plus {limit} par fichier.",
            "en": "The file '{file}' has {count} players: at most {limit} per file.",
        },
        "merge_players": {
            "fr": "Avec le fichier « {file} », la fusion dépasse {limit} joueurs en tout.",
            "en": "With the file '{file}', the merge goes over {limit} players in all.",
        },
        "merge_duplicate_key": {
            "fr": "Le fichier « {file} » donne deux fois « {key} ».",
            "en": "The file '{file}' gives '{key}' twice.",
        },
        "merge_unknown_key": {
            "fr": "Le fichier « {file} » a une clé inconnue : « {key} ».",
            "en": "The file '{file}' has an unknown key: '{key}'.",
        },
        "merge_char": {
            "fr": "Le fichier « {file} » : « {key} » contient un caractère interdit ({char}).",
            "en": "The file '{file}': '{key}' holds a forbidden character ({char}).",
        },
        "merge_long": {
            "fr": "Le fichier « {file} » : « {key} » a plus de {limit} caractères.",
            "en": "The file '{file}': '{key}' is over {limit} characters.",
        },
        "merge_date": {
            "fr": "Le fichier « {file} » : date « {value} » illisible (AAAA-MM-JJ).",
            "en": "The file '{file}': cannot read the date '{value}' (YYYY-MM-DD).",
        },
        "merge_setting": {
            "fr": "Le fichier « {file} » : le réglage « {key} » vaut « {value} » ; attendu : {expected}.",
            "en": "The file '{file}': the setting '{key}' is '{value}'; expected: {expected}.",
        },
        "merge_top_range": {
            "fr": "Le fichier « {file} » : le top du coup {round} dépasse {limit} points.",
            "en": "The file '{file}': the top of round {round} is over {limit} points.",
        },
        "merge_player_char": {
            "fr": "Le fichier « {file} », joueur {player} : « {key} » contient un caractère interdit "
            "({char}).",
            "en": "The file '{file}', player {player}: '{key}' holds a forbidden character ({char}).",
        },
        "merge_player_long": {
            "fr": "Le fichier « {file} », joueur {player} : « {key} » a plus de {limit} caractères.",
            "en": "The file '{file}', player {player}: '{key}' is over {limit} characters.",
        },
        "merge_player_name": {
            "fr": "Le fichier « {file} », joueur {player} : nom vide.",
            "en": "The file '{file}', player {player}: empty name.",
        },
        "merge_player_category": {
            "fr": "Le fichier « {file} », joueur {player} : catégorie « {value} » inconnue.",
            "en": "The file '{file}', player {player}: unknown category '{value}'.",
        },
        "merge_player_table": {
            "fr": "Le fichier « {file} », joueur {player} : table {table} hors de 1 à {max}.",
            "en": "The file '{file}', player {player}: table {table} is not between 1 and {max}.",
        },
        "merge_player_score": {
            "fr": "Le fichier « {file} », joueur {player} : coup {round}, score {score} hors de 0 à {top} "
            "(le top).",
            "en": "The file '{file}', player {player}: round {round}, score {score} is not between 0 and "
            "{top} (the top).",
        },
        "merge_unreadable": {
            "fr": "Cette fusion ne se relit plus : {reason_fr}",
            "en": "This merge can no longer be read: {reason_en}",
        },
        "transfer_refused": {
            "fr": "Fichier de tournoi refusé ({count} problème(s), les premiers ci-dessous). Rien n'a été "
            "importé.",
            "en": "Tournament file refused ({count} problem(s), the first ones below). Nothing was imported.",
        },
        "transfer_too_big": {
            "fr": "Le fichier dépasse {limit} Mo : un fichier de tournoi exporté d'ici (gzip) tient bien en "
            "dessous.",
            "en": "The file is over {limit} MB: a tournament file exported from here (gzip) is well under.",
        },
        "transfer_unpacked_too_big": {
            "fr": "Une fois décompressé, le fichier dépasse {limit} Mo.",
            "en": "Unpacked, the file is over {limit} MB.",
        },
        "transfer_gzip": {
            "fr": "Le fichier gzip est endommagé ou incomplet : exportez-le et envoyez-le de nouveau.",
            "en": "The gzip file is damaged or incomplete: export it and send it again.",
        },
        "transfer_not_json": {
            "fr": "Ce fichier n'est pas un fichier JSON lisible (coupé ou endommagé ?).",
            "en": "This file is not readable JSON (cut short or damaged?).",
        },
        "transfer_too_deep": {
            "fr": "Le fichier imbrique plus de {limit} niveaux : ce n'est pas un fichier de tournoi.",
            "en": "The file nests more than {limit} levels: it is not a tournament file.",
        },
        "transfer_duplicate_key": {
            "fr": "La clé « {key} » est donnée deux fois dans le même objet.",
            "en": "The key '{key}' is given twice in one object.",
        },
        "transfer_format": {
            "fr": "Ce n'est pas un fichier de tournoi de cette version (format « {found} », attendu "
            "« {expected} »).",
            "en": "This is not a tournament file of this version (format '{found}', expected '{expected}').",
        },
        "transfer_not_object": {
            "fr": "{where} : un objet est attendu.",
            "en": "{where}: an object is expected.",
        },
        "transfer_not_list": {
            "fr": "{where} : « {key} » doit être une liste.",
            "en": "{where}: '{key}' must be a list.",
        },
        "transfer_key_missing": {
            "fr": "{where} : la clé « {key} » manque.",
            "en": "{where}: the key '{key}' is missing.",
        },
        "transfer_key_unknown": {
            "fr": "{where} : clé « {key} » inconnue.",
            "en": "{where}: unknown key '{key}'.",
        },
        "transfer_too_many": {
            "fr": "{where} : {count} éléments dans « {key} », au plus {limit}.",
            "en": "{where}: {count} items in '{key}', at most {limit}.",
        },
        "transfer_value": {
            "fr": "{where} : « {key} » ne peut valoir {value}.",
            "en": "{where}: '{key}' cannot be {value}.",
        },
        "transfer_choice": {
            "fr": "{where} : « {key} » vaut {value}, hors des choix ({expected}).",
            "en": "{where}: '{key}' is {value}, not among the choices ({expected}).",
        },
        "transfer_range": {
            "fr": "{where} : « {key} » vaut {value}, hors de {low} à {high}.",
            "en": "{where}: '{key}' is {value}, not between {low} and {high}.",
        },
        "transfer_char": {
            "fr": "{where} : « {key} » contient un caractère interdit ({char}).",
            "en": "{where}: '{key}' holds a forbidden character ({char}).",
        },
        "transfer_long": {
            "fr": "{where} : « {key} » a plus de {limit} caractères.",
            "en": "{where}: '{key}' is over {limit} characters.",
        },
        "transfer_shape": {
            "fr": "{where} : « {key} » n'a pas la forme attendue.",
            "en": "{where}: '{key}' does not have the expected form.",
        },
        "transfer_prepared": {
            "fr": "{where} : la partie préparée est invalide : {reason_fr}",
            "en": "{where}: the prepared game is invalid: {reason_en}",
        },
        "transfer_id": {
            "fr": "{where} : l'identifiant {value} n'est pas un nombre entier positif.",
            "en": "{where}: the id {value} is not a positive whole number.",
        },
        "transfer_twice": {
            "fr": "{where} : « {key} » {value} est donné deux fois.",
            "en": "{where}: '{key}' {value} is given twice.",
        },
        "transfer_dangling": {
            "fr": "{where} : « {key} » renvoie à {value}, absent du fichier.",
            "en": "{where}: '{key}' refers to {value}, which the file does not hold.",
        },
        "transfer_lexicon": {
            "fr": "Ce tournoi se joue avec la liste de mots « {name} » (sha256 {sha256}…), que ce club "
            "n'a pas ici : chargez d'abord cette liste (page des dictionnaires), puis importez de nouveau.",
            "en": "This tournament is played with the word list '{name}' (sha256 {sha256}…), which this "
            "club does not have here: load that list first (word lists page), then import again.",
        },
        "transfer_conflict": {
            "fr": "Import annulé : la base a refusé une ligne du fichier. Rien n'a été importé.",
            "en": "Import cancelled: the database refused a row of the file. Nothing was imported.",
        },
        "transfer_no_club": {
            "fr": "Choisissez un de vos clubs pour le tournoi importé.",
            "en": "Choose one of your clubs for the imported tournament.",
        },
    }
)
