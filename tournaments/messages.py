"""Sentences of the live room's refusals, French first (registered with the engine's catalogue)."""

from engine.messages import register

register(
    {
        "player_no_name": {"fr": "Le nom du joueur est vide.", "en": "The player's name is empty."},
        "player_table_taken": {"fr": "La table {table} est déjà prise.", "en": "Table {table} is taken."},
        "csv_empty": {"fr": "Le fichier CSV est vide.", "en": "The CSV file is empty."},
        "csv_table": {
            "fr": "Ligne {line} : table « {value} » illisible.",
            "en": "Line {line}: cannot read table '{value}'.",
        },
        "game_prepared_invalid": {
            "fr": "Partie préparée refusée : {reason_fr}",
            "en": "Prepared game refused: {reason_en}",
        },
        "rack_typed_invalid": {"fr": "Tirage refusé : {reason_fr}", "en": "Rack refused: {reason_en}"},
        "game_variant_unknown": {"fr": "Partie refusée : {reason_fr}", "en": "Game refused: {reason_en}"},
        "draw_waits_for_lead": {
            "fr": "Le coup {number} n'est pas encore tiré dans le centre principal : attendez son tirage.",
            "en": "Round {number} is not drawn in the lead centre yet: wait for its draw.",
        },
        "place_waits_for_lead": {
            "fr": "En attente du choix du centre principal : le top du coup {number} se place ici "
            "quand le centre principal a placé le sien.",
            "en": "Waiting for the lead centre's choice: round {number}'s top is placed here once the "
            "lead centre has placed its own.",
        },
        "place_leads_choice": {
            "fr": "Tous les centres placent le top choisi par le centre principal.",
            "en": "Every centre places the top the lead centre chose.",
        },
        "place_records_move": {
            "fr": "Le top placé est celui de la partie préparée : tous les centres jouent la même "
            "partie (un autre top à égalité laisserait un autre reliquat).",
            "en": "The top placed is the prepared game's: every centre plays the same game (another "
            "tied top would leave another reliquat).",
        },
        "draw_record_impossible": {
            "fr": "Le tirage du coup {number} de la partie préparée ne peut pas sortir du sac : le "
            "plateau ne suit plus la partie préparée. Terminez la partie ici.",
            "en": "The prepared game's rack for round {number} cannot be drawn from the bag: the "
            "board no longer follows the prepared game. End the game here.",
        },
        "cancel_follows_lead": {
            "fr": "Ce tirage vient du centre principal : seul son arbitre annule le coup, et son "
            "nouveau tirage arrive alors ici.",
            "en": "This rack comes from the lead centre: only its arbiter cancels the round, and its "
            "new rack then reaches this room.",
        },
        "round_not_drawn": {
            "fr": "Ce coup n'attend pas le départ du chrono.",
            "en": "This round is not waiting for the clock to start.",
        },
        "round_top_not_ready": {
            "fr": "Le top n'est pas encore calculé : le chrono partira quand il le sera.",
            "en": "The top is not computed yet: the clock starts once it is.",
        },
        "slip_unreadable": {"fr": "Bulletin illisible : {reason_fr}", "en": "Unreadable slip: {reason_en}"},
        "slip_wrong_tournament": {
            "fr": "Ce coup n'est pas celui de votre tournoi.",
            "en": "This round is not your tournament's.",
        },
        "slip_round_not_running": {
            "fr": "Aucun coup n'est en cours : bulletin non reçu.",
            "en": "No round is running: slip not received.",
        },
        "slip_late": {
            "fr": "Trop tard : le coup s'est terminé à {deadline}. Bulletin non reçu.",
            "en": "Too late: the round ended at {deadline}. Slip not received.",
        },
        "correct_round_open": {
            "fr": "On ne corrige un bulletin qu'une fois le coup terminé.",
            "en": "A slip is corrected only once the round is over.",
        },
        "place_round_open": {
            "fr": "Le top se place une fois le coup terminé.",
            "en": "The top is placed once the round is over.",
        },
        "place_no_such_top": {"fr": "Ce top n'existe pas.", "en": "No such top."},
        "cancel_not_possible": {
            "fr": "Ce coup ne peut plus être annulé.",
            "en": "This round can no longer be cancelled.",
        },
        "top_broker_down": {
            "fr": "Le serveur de tâches (Redis) ne répond pas : calculez le top sur ce portable.",
            "en": "The task server (Redis) does not answer: compute the top on this laptop.",
        },
        "top_overdue": {
            "fr": "Le top n'est toujours pas calculé : aucun serveur de tâches ne semble s'en charger. "
            "Calculez-le sur ce portable.",
            "en": "The top is still not computed: no task worker seems to take it. "
            "Compute it on this laptop.",
        },
        "top_compute_here": {"fr": "Calculer le top ici", "en": "Compute the top here"},
        "player_database_busy": {
            "fr": "Le serveur est occupé un instant : nouvel essai automatique…",
            "en": "The server is busy for a moment: trying again automatically…",
        },
        "player_database_busy_slip": {
            "fr": "Le serveur est occupé un instant : bulletin pas encore reçu, nouvel essai automatique…",
            "en": "The server is busy for a moment: slip not received yet, trying again automatically…",
        },
        "slip_no_such_table": {
            "fr": "Aucun joueur à la table {table}.",
            "en": "No player at table {table}.",
        },
        "undo_nothing": {
            "fr": "Aucune correction à annuler pour ce coup.",
            "en": "No correction to undo for this round.",
        },
        # The phone's script says these itself, when the server's answer never came (player.js).
        "phone_no_answer": {
            "fr": "Pas de réponse du serveur : bulletin pas encore reçu, nouvel essai automatique…",
            "en": "No answer from the server: slip not received yet, trying again automatically…",
        },
        "phone_given_up": {
            "fr": "Bulletin non reçu : le serveur ne répond pas. Il est gardé sur ce téléphone avec "
            "l'heure de votre essai et sera montré à l'arbitre dès que ce serveur répondra.",
            "en": "Slip not received: the server does not answer. It is kept on this phone with the time "
            "you tried, and will be shown to the arbiter as soon as this server answers.",
        },
        "phone_kept_slip": {
            "fr": "Bulletin gardé ici : {slip} ({time}). Ailleurs, il ne suit pas : remettez-le sur papier.",
            "en": "Slip kept here: {slip} ({time}). It does not follow elsewhere: hand it in on paper.",
        },
        "phone_server_lost": {
            "fr": "Serveur injoignable depuis {time}. Gardez cette page ouverte. Nouvel ordinateur de "
            "l'arbitre ? Scannez sa nouvelle adresse ou tapez votre code {code}.",
            "en": "Server unreachable since {time}. Keep this page open. The arbiter on a new computer? "
            "Scan its new address or type your code {code}.",
        },
        "phone_server_back": {
            "fr": "Serveur retrouvé.",
            "en": "Server back.",
        },
        "phone_refused": {
            "fr": "Bulletin non reçu : rechargez la page, puis renvoyez-le.",
            "en": "Slip not received: reload the page, then send it again.",
        },
        "tournament_locked": {
            "fr": "Ce réglage ({field}) ne change plus : une partie a commencé et ses bulletins ont été "
            "corrigés avec lui.",
            "en": "This setting ({field}) can no longer change: a game has started and its slips were "
            "graded with it.",
        },
        "player_category": {
            "fr": "Catégorie « {category} » inconnue : choisissez-la dans la liste.",
            "en": "Unknown category '{category}': choose it from the list.",
        },
        "csv_category": {
            "fr": "Ligne {line} : catégorie « {value} » inconnue.",
            "en": "Line {line}: unknown category '{value}'.",
        },
        "player_has_slips": {
            "fr": "{name} a déjà remis des bulletins : ses résultats restent, le joueur ne peut pas "
            "être retiré.",
            "en": "{name} has handed in slips: their results stay, the player cannot be removed.",
        },
        # A player removed by the arbiter (services/registration.py player_remove), told to the
        # arbiter's other screens and to the player's phone, in whatever process.
        "player_gone": {
            "fr": "{name} n'est plus inscrit au tournoi (retiré entre-temps) : rien n'a été enregistré.",
            "en": "{name} is no longer registered for the tournament (removed meanwhile): nothing was saved.",
        },
        "player_removed_title": {"fr": "Retiré du tournoi", "en": "Removed from the tournament"},
        "player_removed": {
            "fr": "Vous avez été retiré du tournoi par l'arbitre : ce lien ne sert plus. "
            "Si c'est une erreur, adressez-vous à l'arbitre.",
            "en": "The arbiter removed you from the tournament: this link no longer works. "
            "If this is a mistake, see the arbiter.",
        },
        "slip_player_removed": {
            "fr": "Vous avez été retiré du tournoi par l'arbitre : bulletin non reçu.",
            "en": "The arbiter removed you from the tournament: slip not received.",
        },
        "game_not_playing": {
            "fr": "Cette partie n'est plus en cours.",
            "en": "This game is no longer playing.",
        },
        "game_end_round_open": {
            "fr": "Placez le top du coup en cours (ou annulez le coup) avant de terminer la partie.",
            "en": "Place the current round's top (or cancel the round) before ending the game.",
        },
        "game_delete_has_slips": {
            "fr": "Des bulletins ont été remis dans cette partie : abandonnez-la plutôt (elle sort des "
            "classements).",
            "en": "Slips were handed in in this game: abandon it instead (it leaves the rankings).",
        },
        "game_ended_by_arbiter": {
            "fr": "Partie terminée par l'arbitre.",
            "en": "Game ended by the arbiter.",
        },
        "game_abandoned": {
            "fr": "Partie abandonnée : elle ne compte pas dans les classements.",
            "en": "Game abandoned: it does not count in the rankings.",
        },
        "rack_rejected_typed": {
            "fr": "Rejet : {reason} ({rack}). Toutes les lettres retournent au sac : tirez sept nouvelles "
            "lettres et saisissez-les, précédées de -.",
            "en": "Rejected: {reason} ({rack}). Every tile goes back to the bag: draw seven new tiles and "
            "type them, after a -.",
        },
        "token_guesses_title": {"fr": "Trop de liens inconnus", "en": "Too many unknown links"},
        "token_guesses_too_many": {
            "fr": "Cet appareil a demandé trop de liens qui ne mènent à aucun joueur. "
            "Réessayez dans {seconds} secondes, avec le code de votre carte.",
            "en": "This device asked for too many links that lead to no player. "
            "Try again in {seconds} seconds, with the code on your card.",
        },
        # A join code typed on /moi/ (views/player.py _join_by_code, live/codes.py).
        "join_code_empty": {
            "fr": "Tapez le code imprimé sur votre carte de table, à côté du QR code.",
            "en": "Type the code printed on your table card, beside the QR code.",
        },
        "join_code_malformed": {
            "fr": "Ce n'est pas un code de table : un code a 8 lettres et chiffres, comme ABCD-EFGH. "
            "Vérifiez-le sur votre carte.",
            "en": "This is not a table code: a code has 8 letters and digits, like ABCD-EFGH. "
            "Check it on your card.",
        },
        "join_code_unknown": {
            "fr": "Aucun joueur n'a le code {code}. Vérifiez-le sur votre carte de table, ou demandez "
            "votre carte à l'arbitre.",
            "en": "No player has the code {code}. Check it on your table card, or ask the arbiter for "
            "your card.",
        },
        "join_code_guesses_title": {"fr": "Trop de codes inconnus", "en": "Too many unknown codes"},
        "join_code_too_many": {
            "fr": "Cet appareil a essayé trop de codes ou de liens qui ne mènent à aucun joueur. "
            "Réessayez dans {seconds} secondes, ou demandez votre carte à l'arbitre.",
            "en": "This device tried too many codes or links that lead to no player. "
            "Try again in {seconds} seconds, or ask the arbiter for your card.",
        },
        # Said by the phone's script of a rack tile the slip being typed uses (player.js).
        "phone_tile_used": {"fr": "dans le bulletin", "en": "in the slip"},
        # Said under the slip as it is typed (player.js): the word takes a tile the rack lacks.
        "phone_rack_no_blank": {
            "fr": "Votre tirage n'a pas de joker pour ce mot.",
            "en": "Your rack has no blank for this word.",
        },
        "phone_rack_no_letter": {
            "fr": "Votre tirage n'a pas de {letter} pour ce mot.",
            "en": "Your rack has no {letter} for this word.",
        },
        # Said by the phone's live region to a screen reader (player_access.js).
        "phone_new_rack": {"fr": "Nouveau tirage :", "en": "New rack:"},
        "phone_thirty": {"fr": "Trente secondes.", "en": "Thirty seconds."},
        "phone_time_up": {"fr": "Temps écoulé.", "en": "Time is up."},
        "phone_across": {"fr": "horizontal", "en": "across"},
        "phone_down": {"fr": "vertical", "en": "down"},
        # The CSV player import (services/players_csv.py): the file, then each bad row.
        "csv_rows_refused": {
            "fr": "Lignes refusées : {count}. Rien n'a été importé : corrigez le fichier et envoyez-le "
            "à nouveau.",
            "en": "Rows refused: {count}. Nothing was imported: correct the file and send it again.",
        },
        "csv_too_big": {
            "fr": "Fichier CSV trop gros : au plus {limit} Mo.",
            "en": "CSV file too big: at most {limit} MB.",
        },
        "csv_too_many_rows": {
            "fr": "Le fichier a plus de {limit} joueurs : au plus {limit} par import. Rien n'a été importé.",
            "en": "The file has more than {limit} players: at most {limit} per import. Nothing was imported.",
        },
        "csv_binary": {
            "fr": "Ce fichier n'est pas du texte : enregistrez la liste au format CSV depuis le tableur.",
            "en": "This file is not text: save the list as CSV from the spreadsheet.",
        },
        "csv_encoding": {
            "fr": "Le fichier commence comme un texte {encoding} mais ne se lit pas ainsi : "
            "enregistrez-le à nouveau au format CSV (UTF-8).",
            "en": "The file starts as {encoding} text but does not read as such: save it again as CSV "
            "(UTF-8).",
        },
        "csv_no_name_column": {
            "fr": "La ligne d'en-tête n'a pas de colonne « nom ».",
            "en": "The header row has no 'name' column.",
        },
        "csv_row_unreadable": {
            "fr": "Ligne {line} : illisible (un champ trop long, ou des guillemets mal fermés).",
            "en": "Line {line}: unreadable (a field too long, or quotes left open).",
        },
        "csv_extra_cells": {
            "fr": "Ligne {line} : plus de {count} colonnes.",
            "en": "Line {line}: more than {count} columns.",
        },
        "csv_no_name": {"fr": "Ligne {line} : nom vide.", "en": "Line {line}: empty name."},
        "csv_too_long": {
            "fr": "Ligne {line} : {column_fr} de plus de {limit} caractères.",
            "en": "Line {line}: {column_en} over {limit} characters.",
        },
        "csv_char": {
            "fr": "Ligne {line} : {column_fr} avec un caractère interdit ({char}).",
            "en": "Line {line}: {column_en} with a forbidden character ({char}).",
        },
        "csv_table_range": {
            "fr": "Ligne {line} : table {value} hors de 1 à {max}.",
            "en": "Line {line}: table {value} is not between 1 and {max}.",
        },
        "csv_table_taken": {
            "fr": "Ligne {line} : la table {table} est déjà prise.",
            "en": "Line {line}: table {table} is taken.",
        },
        "csv_table_twice": {
            "fr": "Ligne {line} : la table {table} est déjà donnée ligne {first}.",
            "en": "Line {line}: table {table} is already given on line {first}.",
        },
        "csv_no_free_table": {
            "fr": "Ligne {line} : plus de table libre jusqu'à {max}.",
            "en": "Line {line}: no free table up to {max}.",
        },
        "csv_tables_changed": {
            "fr": "Une table a été prise pendant l'import : rien n'a été importé, envoyez le fichier à "
            "nouveau.",
            "en": "A table was taken during the import: nothing was imported, send the file again.",
        },
    }
)
