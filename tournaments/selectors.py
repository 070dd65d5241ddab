"""Every read that is more than a ``.get()``."""

from tournaments.models import Tournament


def tournament_list():
    return Tournament.objects.select_related("lexicon").order_by("-date", "-id")
