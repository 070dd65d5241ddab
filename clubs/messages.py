"""Sentences of the clubs' refusals, French first (registered with the engine's catalogue)."""

from engine.messages import register

register(
    {
        "club_name_empty": {"fr": "Donnez un nom au club.", "en": "Give the club a name."},
        "club_name_taken": {
            "fr": "Un club s'appelle déjà « {name} » sur ce serveur.",
            "en": "A club is already called '{name}' on this server.",
        },
        "club_role_unknown": {"fr": "Rôle inconnu.", "en": "Unknown role."},
        "club_invitation_used": {
            "fr": "Cette invitation a déjà servi ou a expiré : demandez-en une nouvelle à l'arbitre du club.",
            "en": "This invitation has been used or has expired: ask the club's arbiter for a new one.",
        },
        "club_username_taken": {
            "fr": "Le nom « {name} » est déjà pris : choisissez-en un autre.",
            "en": "The name '{name}' is taken: choose another.",
        },
        # The 403 page says why (server.answers.forbidden).
        "forbidden_arbiters_only": {
            "fr": "Ceci est réservé aux arbitres du club. Votre compte y est adjoint : il saisit les "
            "bulletins papier et les corrections pendant une partie. Demandez-le à un arbitre du club.",
            "en": "This is for the club's arbiters only. Your account is a deputy there: it enters paper "
            "slips and corrections during a game. Ask one of the club's arbiters.",
        },
        "forbidden_no_club": {
            "fr": "Votre compte n'est membre d'aucun club : demandez un lien d'invitation à l'arbitre "
            "d'un club.",
            "en": "Your account is not a member of any club: ask a club's arbiter for an invitation link.",
        },
        "club_last_arbiter": {
            "fr": "C'est le dernier arbitre du club : invitez-en un autre avant de le retirer.",
            "en": "This is the club's last arbiter: invite another before removing them.",
        },
    }
)
