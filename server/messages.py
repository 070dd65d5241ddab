"""Sentences of the server's own answers, French first (registered with the engine's catalogue)."""

from engine.messages import register

register(
    {
        "csrf_failed": {
            "fr": "Cette page a expiré ou les cookies sont bloqués : rechargez la page, puis recommencez. "
            "Rien n'a été enregistré.",
            "en": "This page has expired or cookies are blocked: reload the page, then try again. "
            "Nothing was saved.",
        },
        "csrf_reload": {"fr": "Recharger la page", "en": "Reload the page"},
        "forbidden": {
            "fr": "Votre compte n'a pas le droit de faire ceci. Rien n'a été enregistré.",
            "en": "Your account may not do this. Nothing was saved.",
        },
        "forbidden_home": {"fr": "Retour à l'accueil", "en": "Back to the home page"},
        "text_too_long": {
            "fr": "Texte trop long pour « {field} » : {limit} caractères au plus.",
            "en": "Text too long for '{field}': {limit} characters at most.",
        },
        "copy_missing": {
            "fr": "Pas de copie à cet endroit : {path}. Rien n'a été changé.",
            "en": "No copy at this place: {path}. Nothing was changed.",
        },
        "copy_not_sqlite": {
            "fr": "{path} n'est pas une copie de l'arbitre (ce n'est pas une base SQLite). "
            "Rien n'a été changé.",
            "en": "{path} is not a copy of the arbiter (not an SQLite database). Nothing was changed.",
        },
        "copy_truncated": {
            "fr": "La copie {path} est tronquée (écriture interrompue ?) : prenez la précédente. "
            "Rien n'a été changé.",
            "en": "The copy {path} is truncated (interrupted writing?): take the previous one. "
            "Nothing was changed.",
        },
        "copy_corrupt": {
            "fr": "La copie {path} est abîmée ({reason}) : prenez la précédente. Rien n'a été changé.",
            "en": "The copy {path} is damaged ({reason}): take the previous one. Nothing was changed.",
        },
        "copy_foreign": {
            "fr": "{path} est une base SQLite d'une autre application, pas une copie de l'arbitre. "
            "Rien n'a été changé.",
            "en": "{path} is an SQLite database of another application, not a copy of the arbiter. "
            "Nothing was changed.",
        },
        "copy_newer": {
            "fr": "La copie {path} vient d'une version plus récente de l'arbitre ({migration}) : mettez "
            "à jour ce portable d'abord. Rien n'a été changé.",
            "en": "The copy {path} comes from a newer version of the arbiter ({migration}): update this "
            "laptop first. Nothing was changed.",
        },
        "resume_not_empty": {
            "fr": "Ce portable a déjà une soirée ({path}) : elle n'est pas écrasée. Reprenez la copie "
            "dans un autre dossier (ARBITER_VAR_DIR), ou ajoutez --replace pour remplacer celle-ci.",
            "en": "This laptop already holds an evening ({path}): it is not overwritten. Resume the "
            "copy in another folder (ARBITER_VAR_DIR), or add --replace to replace this one.",
        },
        "resume_not_sqlite": {
            "fr": "La reprise d'une copie est pour le portable (SQLite) ; ce serveur a sa propre base.",
            "en": "Resuming from a copy is for the laptop (SQLite); this server has its own database.",
        },
        "backup_folder_relative": {
            "fr": "Indiquez le chemin complet du dossier (par exemple /media/cle ou E:\\copies), "
            "pas « {path} ».",
            "en": "Give the folder's full path (for instance /media/key or E:\\copies), not '{path}'.",
        },
        "backup_folder_unwritable": {
            "fr": "Impossible d'écrire dans {path} ({reason}) : les copies restent où elles étaient.",
            "en": "Cannot write in {path} ({reason}): the copies stay where they were.",
        },
        "login_locked": {
            "fr": "Trop d'essais de mot de passe depuis cet appareil : réessayez dans {minutes} min.",
            "en": "Too many password attempts from this device: try again in {minutes} min.",
        },
    }
)
