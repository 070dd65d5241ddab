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
        "login_locked": {
            "fr": "Trop d'essais de mot de passe depuis cet appareil : réessayez dans {minutes} min.",
            "en": "Too many password attempts from this device: try again in {minutes} min.",
        },
    }
)
