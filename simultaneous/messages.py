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
        "upload_not_centre": {
            "fr": "Votre club n'est pas un centre de ce simultané : l'organisateur l'inscrit comme "
            "centre sur son ordinateur, puis envoyez à nouveau.",
            "en": "Your club is not a centre of this simultaneous event: the organiser registers it "
            "as a centre playing on its laptop, then send again.",
        },
        "upload_centre_live": {
            "fr": "Votre club est inscrit pour jouer en direct sur le serveur : l'organisateur "
            "l'inscrit comme centre sur son ordinateur pour recevoir son fichier.",
            "en": "Your club is registered to play live on the server: the organiser registers it "
            "as a centre playing on its laptop to take its file.",
        },
        "upload_unknown": {
            "fr": "Cet envoi n'est pas un envoi de ce simultané.",
            "en": "This upload is not one of this simultaneous event's.",
        },
        "event_already_centre": {
            "fr": "Votre club est déjà un centre de ce simultané.",
            "en": "Your club is already a centre of this simultaneous event.",
        },
        "event_not_registered": {
            "fr": "Votre club n'est pas inscrit comme centre en direct de ce simultané : "
            "demandez à l'organisateur de l'inscrire.",
            "en": "Your club is not registered as a live centre of this simultaneous event: "
            "ask the organiser to register it.",
        },
        "centre_unknown": {
            "fr": "Ce club n'est pas un centre de ce simultané.",
            "en": "This club is not a centre of this simultaneous event.",
        },
        "centre_mode_unknown": {
            "fr": "Choisissez comment le centre joue : en direct ou sur son ordinateur.",
            "en": "Choose how the centre plays: live or on its laptop.",
        },
        "centre_lead_stays": {
            "fr": "Le centre principal tire les lettres de tous les centres : il reste, en direct.",
            "en": "The lead centre draws every centre's racks: it stays, live.",
        },
    }
)
