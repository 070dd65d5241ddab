"""Sentences of the simultaneous events' refusals, French first (registered with the engine's catalogue)."""

from engine.messages import register

register(
    {
        "event_record_invalid": {
            "fr": "Partie préparée refusée : {reason_fr}",
            "en": "Prepared game refused: {reason_en}",
        },
        "event_record_missing": {
            "fr": "Une partie préparée a besoin de son fichier de partie.",
            "en": "A prepared game needs its game record file.",
        },
        "upload_token_unknown": {
            "fr": "Jeton de club inconnu sur ce serveur : recopiez celui de la page du club.",
            "en": "Unknown club token on this server: copy the one on the club's page.",
        },
        "upload_too_big": {
            "fr": "Fichier trop gros pour ce serveur.",
            "en": "File too big for this server.",
        },
        "event_already_centre": {
            "fr": "Votre club est déjà un centre de ce simultané.",
            "en": "Your club is already a centre of this simultaneous event.",
        },
    }
)
