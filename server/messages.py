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
        "forbidden_admin_only": {
            "fr": "Seul l'administrateur de ce portable (le compte « arbitre » créé au premier démarrage) "
            "peut reprendre une soirée. Rien n'a été enregistré.",
            "en": "Only this laptop's administrator (the 'arbitre' account made at the first start) may "
            "resume an evening. Nothing was saved.",
        },
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
        "copy_altered": {
            "fr": "La copie {path} n'est pas telle que l'arbitre l'écrit ({reason_fr}) : elle n'est pas "
            "reprise. Prenez la précédente. Rien n'a été changé.",
            "en": "The copy {path} is not as the arbiter writes it ({reason_en}): it is not resumed. "
            "Take the previous one. Nothing was changed.",
        },
        "copy_unverifiable": {
            "fr": "La copie {path} n'a pas pu être vérifiée ({reason}) : elle n'est pas reprise. "
            "Rien n'a été changé.",
            "en": "The copy {path} could not be checked ({reason}): it is not resumed. Nothing was changed.",
        },
        "copy_none_there": {
            "fr": "Pas de copie de l'arbitre utilisable à cet endroit : {path} (absente, illisible, abîmée, "
            "d'une autre application ou d'une version plus récente). Envoyez le fichier de la copie "
            "ci-dessus pour savoir pourquoi. Rien n'a été changé.",
            "en": "No usable copy of the arbiter at this place: {path} (missing, unreadable, damaged, of "
            "another application or of a newer version). Send the copy's file above to learn why. "
            "Nothing was changed.",
        },
        "altered_trigger": {"fr": "elle contient un déclencheur, {name}", "en": "it holds a trigger, {name}"},
        "altered_view": {"fr": "elle contient une vue, {name}", "en": "it holds a view, {name}"},
        "altered_extra": {
            "fr": "elle contient un objet que l'arbitre ne crée pas : {kind} {name}",
            "en": "it holds an object the arbiter does not make: {kind} {name}",
        },
        "altered_missing": {
            "fr": "il lui manque un objet que l'arbitre crée : {kind} {name}",
            "en": "it lacks an object the arbiter makes: {kind} {name}",
        },
        "altered_table": {
            "fr": "sa table {name} n'est pas une table ordinaire",
            "en": "its table {name} is not a plain table",
        },
        "altered_columns": {
            "fr": "les colonnes de sa table {table} diffèrent de celles de l'arbitre ({column})",
            "en": "its table {table}'s columns differ from the arbiter's ({column})",
        },
        "altered_migrations": {
            "fr": "elle dit avoir la migration {migration} sans {missing}, qui la précède",
            "en": "it claims the migration {migration} without {missing}, which comes before it",
        },
        "altered_value": {
            "fr": "table {table}, colonne {column}, ligne {row} : {expected_fr} attendu",
            "en": "table {table}, column {column}, row {row}: {expected_en} expected",
        },
        "altered_rows": {
            "fr": "les lignes de sa table {table} ne respectent pas ses contraintes ({reason})",
            "en": "its table {table}'s rows break its constraints ({reason})",
        },
        "altered_foreign_key": {
            "fr": "table {table}, ligne {row} : renvoie à une ligne absente de {parent}",
            "en": "table {table}, row {row}: refers to a missing row of {parent}",
        },
        "altered_integrity": {
            "fr": "reconstruite, elle ne passe pas le contrôle d'intégrité ({verdict})",
            "en": "rebuilt, it fails the integrity check ({verdict})",
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
            "fr": "Trop d'essais de mot de passe depuis cette adresse : connectez-vous depuis "
            "l'ordinateur (le même navigateur) où vous vous êtes déjà connecté à ce compte, ou "
            "réessayez dans {minutes} min.",
            "en": "Too many password attempts from this address: log in from the computer (the same "
            "browser) where you already logged in to this account, or try again in {minutes} min.",
        },
        "login_locked_device": {
            "fr": "Trop d'essais de mot de passe depuis cet appareil : réessayez dans {minutes} min.",
            "en": "Too many password attempts from this device: try again in {minutes} min.",
        },
    }
)
