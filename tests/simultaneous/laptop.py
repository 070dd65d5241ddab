"""A centre's laptop for the upload tests: its game played (a prepared record replayed, the first
player playing every top), and, run as ``python -m tests.simultaneous.laptop RECORD URL TOKEN`` in a
process of its own (its own ``ARBITER_VAR_DIR``, so its own SQLite database), the laptop's whole
set-up: the game played, then its results put in the outbox for the federation's server at URL, whose
first try finds nothing listening.  Prints the outbox row as JSON."""

from __future__ import annotations

import datetime
import json
import sys


def laptop_game(club, arbiter, record: bytes, rounds: int):
    from lexicons.loaded import lexicon_default_row
    from tournaments import services
    from tournaments.models import Round

    tournament = services.tournament_create(
        created_by=arbiter, owner=club, lexicon=lexicon_default_row(), name="Simultané",
        date=datetime.date(2026, 11, 28), club=club.name,
    )  # fmt: skip
    players = [services.player_register(tournament=tournament, name=n) for n in ("Émile", "Fanny")]
    game = services.game_start(tournament=tournament, prepared=record)
    for number in range(1, rounds + 1):
        rnd = services.round_draw(game_id=game.pk, expected_number=number).round
        if rnd.top_state != Round.TopState.READY:
            services.round_compute_top(round_id=rnd.pk)
        rnd = services.round_start(round_id=Round.objects.get(pk=rnd.pk).pk)
        top = rnd.tops[0]
        services.submission_record(
            player=players[0], round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score']}"
        )
        services.round_close(round_id=rnd.pk)
        services.round_place_top(round_id=rnd.pk)
    return game


def main(record_path: str, url: str, token: str) -> None:
    import django

    django.setup()
    from pathlib import Path

    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.utils import timezone

    from clubs.models import Club, Member, Role
    from results import outbox
    from results.models import Outbox

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Montluçon")
    arbiter = User.objects.create_user("arbitre-montlucon", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    game = laptop_game(club, arbiter, Path(record_path).read_bytes(), rounds=2)
    first = outbox.outbox_add(game=game, url=url, token=token)
    # Its next try is due (the laptop waits 30 s between tries): the server's chores take it.
    Outbox.objects.update(tried_at=timezone.now() - datetime.timedelta(minutes=1))
    print(json.dumps({"status": first.status, "attempts": first.attempts, "error": first.last_error}))


if __name__ == "__main__":
    main(*sys.argv[1:4])
