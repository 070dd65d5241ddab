"""Scripts the club's word list resume test runs in processes of their own (each its own
``ARBITER_VAR_DIR``, so its own database and MEDIA_ROOT):

``python -m tests.server.club_list play``: a fresh laptop's evening on the club's uploaded list (the
shipped words and ODS words the shipped list lacks), a random game, round 1 drawn, searched and
running; ``python -m tests.server.club_list go_on``: the last round played out and placed, the next
drawn and its top searched with the tournament's list, and where that list was read from (or the
sentence that refuses it); ``python -m tests.server.club_list send_again``: the club sends its list
again."""

from __future__ import annotations

import datetime
import gzip
import json
import sys

#: Words of the ODS the shipped list lacks: only the club's list knows them.
CLUB_WORDS = ("WOK", "ZEF", "KI", "QI", "BLOG")


def club_list() -> bytes:
    from engine.lexicon import DEFAULT_PATH

    words = gzip.decompress(DEFAULT_PATH.read_bytes()).decode("utf-8").split()
    return gzip.compress("\n".join([*words, *CLUB_WORDS]).encode("utf-8"))


def play() -> dict:
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from clubs.models import Club, Member, Role
    from lexicons.services import lexicon_upload
    from tournaments import services
    from tournaments.models import Round

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Montluçon")
    arbiter = User.objects.create_superuser("arbitre", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    row = lexicon_upload(name="ODS du club", data=club_list(), club=club)
    tournament = services.tournament_create(
        created_by=arbiter, owner=club, lexicon=row, name="Soirée", date=datetime.date(2026, 11, 29)
    )
    services.player_register(tournament=tournament, name="Émile")
    game = services.game_start(tournament=tournament, seed=7)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    if rnd.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=rnd.pk)
    services.round_start(round_id=rnd.pk)
    return {"sha256": row.sha256, "path": row.path}


def go_on() -> dict:
    from lexicons.files import lexicon_file
    from lexicons.loaded import engine_lexicon
    from server.writes import ServiceError
    from tournaments import services
    from tournaments.models import Round, Tournament

    row = Tournament.objects.select_related("lexicon").get().lexicon
    read = {"path": row.path, "file": str(lexicon_file(row.path).resolve())}
    try:
        lexicon = engine_lexicon(row)
        rnd = Round.objects.order_by("-pk").first()
        if rnd.status == Round.Status.DRAWN:
            rnd = services.round_start(round_id=rnd.pk)
        if rnd.status == Round.Status.RUNNING:  # still running (the start closes one whose time is up)
            services.round_close(round_id=rnd.pk)
        services.round_place_top(round_id=rnd.pk)
        following = services.round_draw(game_id=rnd.game_id, expected_number=rnd.number + 1).round
        if following.top_state != Round.TopState.READY:
            services.round_compute_top(round_id=following.pk)
    except ServiceError as error:
        return {**read, "refused": error.message.text("fr")}
    following = Round.objects.get(pk=following.pk)
    known = [word for word in CLUB_WORDS if word in lexicon]
    top = following.tops[0]["word"]
    return {**read, "sha256": lexicon.sha256, "club_words": known, "next": following.number, "top": top,
            "state": following.top_state}  # fmt: skip


def send_again() -> dict:
    from clubs.models import Club
    from lexicons.services import lexicon_upload

    row = lexicon_upload(name="ODS du club", data=club_list(), club=Club.objects.get(name="Montluçon"))
    return {"sha256": row.sha256, "path": row.path}


if __name__ == "__main__":
    import django

    django.setup()
    action = sys.argv[1]
    print(json.dumps({"play": play, "go_on": go_on, "send_again": send_again}[action]()))
