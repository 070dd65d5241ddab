"""Sentences of training, French first (registered with the engine's catalogue)."""

from engine.messages import register

register(
    {
        "training_none": {
            "fr": "Aucun entraînement en cours : choisissez une partie.",
            "en": "No training under way: choose a game.",
        },
        "training_game_gone": {
            "fr": "Cette partie n'est plus disponible : choisissez-en une autre.",
            "en": "This game is no longer available: choose another one.",
        },
        "training_game_closed": {
            "fr": "Vous n'avez pas accès à cette partie : choisissez-en une autre.",
            "en": "You have no access to this game: choose another one.",
        },
        "training_lexicon_closed": {
            "fr": "Vous n'avez pas accès à ce dictionnaire : choisissez-en un autre.",
            "en": "You have no access to this word list: choose another one.",
        },
        "training_event_secret": {
            "fr": "Cette partie d'un simultané reste secrète tant que tous ses centres ne l'ont pas "
            "terminée.",
            "en": "This simultaneous event's game stays secret until every centre has finished it.",
        },
        "training_game_not_over": {
            "fr": "Seule une partie terminée peut servir à l'entraînement.",
            "en": "Only a finished game can be used for training.",
        },
        "training_file_invalid": {
            "fr": "Partie préparée refusée : {reason_fr}",
            "en": "Prepared game refused: {reason_en}",
        },
        "training_file_missing": {
            "fr": "Choisissez le fichier de la partie préparée.",
            "en": "Choose the prepared game's file.",
        },
        "training_game_missing": {
            "fr": "Choisissez une partie du club.",
            "en": "Choose one of the club's games.",
        },
        "training_too_long": {
            "fr": "Cette partie est trop longue pour l'entraînement (au plus {rounds} coups).",
            "en": "This game is too long for training (at most {rounds} rounds).",
        },
        "training_round_over": {
            "fr": "Ce coup est terminé : passez au suivant.",
            "en": "This round is over: go on to the next one.",
        },
        "training_late": {
            "fr": "Temps écoulé : bulletin arrivé après la fin du coup.",
            "en": "Time is up: the slip arrived after the round ended.",
        },
        "training_not_top": {
            "fr": "{paid} points : ce n'est pas le top, cherchez encore.",
            "en": "{paid} points: not the top, keep looking.",
        },
        "training_topped": {
            "fr": "Top trouvé en {seconds} s.",
            "en": "Top found in {seconds} s.",
        },
        "training_topping_timeout": {
            "fr": "Temps écoulé : {seconds} s comptées ({limit} s et {penalty} s de pénalité).",
            "en": "Time is up: {seconds} s counted ({limit} s and a {penalty} s penalty).",
        },
        "training_gave_up": {
            "fr": "Abandonné : {seconds} s comptées ({penalty} s de pénalité en plus).",
            "en": "Given up: {seconds} s counted (a {penalty} s penalty added).",
        },
        "training_preparing": {
            "fr": "La partie se prépare : elle s'affiche dans un instant.",
            "en": "The game is being prepared: it will show in a moment.",
        },
        "training_busy": {
            "fr": "Le serveur prépare déjà d'autres parties : réessayez dans un instant.",
            "en": "The server is already preparing other games: try again in a moment.",
        },
        "training_games_too_many": {
            "fr": "Trop de nouvelles parties depuis cet appareil : réessayez dans {seconds} s.",
            "en": "Too many new games from this device: try again in {seconds} s.",
        },
        "training_no_slip": {
            "fr": "Pas de bulletin : 0.",
            "en": "No slip: 0.",
        },
    }
)
