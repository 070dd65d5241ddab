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
    }
)
