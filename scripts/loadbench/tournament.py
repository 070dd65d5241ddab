"""What the benchmark makes and reads through the ORM (in the client's process, Django set up on the
deployment's database): the tournament and its players, a simultaneous's centres, a public page as long
as a hall's, a round's top and its times and rows after the round."""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter

from . import ARBITER, ROOT
from .client import Plan


def setup_django(env: dict) -> None:
    os.environ.update(env)
    for name in ("DATABASE_URL", "REDIS_URL"):
        if name not in env:
            os.environ.pop(name, None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def make_tournament(players: int, round_seconds: int) -> tuple[int, list[tuple[int, str]]]:
    import datetime

    from django.contrib.auth.models import User

    from lexicons.loaded import lexicon_default_row
    from tournaments import services
    from tournaments.models import Player

    user = User.objects.filter(username=ARBITER[0]).first()
    if user is None:
        user = User.objects.create_superuser(ARBITER[0], password=ARBITER[1])
    tournament = services.tournament_create(
        created_by=user,
        lexicon=lexicon_default_row(),
        name="Banc d'essai",
        date=datetime.date.today(),
        place="loadbench",
    )
    # Shorter than any round time the form offers: set through the ORM, as the report says.
    tournament.round_seconds = round_seconds
    tournament.save(update_fields=["round_seconds"])
    for n in range(1, players + 1):
        services.player_register(tournament=tournament, name=f"Joueur {n:03d}", table_number=n)
    rows = Player.objects.filter(tournament=tournament).order_by("table_number").values_list("pk", "token")
    return tournament.pk, list(rows)


def wait_top_ready(round_id: int, seconds: float = 120) -> Plan:
    from django.db import connection

    from tournaments.models import Round

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        rnd = Round.objects.get(pk=round_id)
        if rnd.top_state == Round.TopState.READY:
            connection.close()
            return Plan(rnd.number, rnd.tops)
        if rnd.top_state == Round.TopState.FAILED:
            raise SystemExit(f"the top search failed for round {round_id}")
        time.sleep(0.2)
    raise SystemExit(f"no top for round {round_id} after {seconds} s")


def round_times(round_id: int) -> dict:
    from django.db import connection
    from django.db.models import Count, Max, Min

    from tournaments.models import Round, Submission

    rnd = Round.objects.select_related("game__tournament").get(pk=round_id)
    slips = Submission.objects.filter(round_id=round_id)
    agg = slips.aggregate(n=Count("id"), graded_last=Max("graded_at"), graded_first=Min("graded_at"))
    per_player = slips.values("player_id").annotate(n=Count("id")).filter(n__gt=1).count()
    rows = {s.player_id: s for s in slips}
    reasons = Counter(f"{s.sanction or 'ok'}/{s.reason or '-'}" for s in rows.values())
    ungraded = sum(1 for s in rows.values() if s.graded_at is None)
    connection.close()
    return {
        "deadline": rnd.deadline.timestamp() if rnd.deadline else None,
        "grace": rnd.game.tournament.grace_seconds,
        "closed": rnd.closed_at.timestamp() if rnd.closed_at else None,
        "graded_first": agg["graded_first"].timestamp() if agg["graded_first"] else None,
        "graded_last": agg["graded_last"].timestamp() if agg["graded_last"] else None,
        "slips": agg["n"],
        "players_with_two_rows": per_player,
        "ungraded": ungraded,
        "rows": {pid: s.slip_text() for pid, s in rows.items()},
        "reasons": reasons,
    }


def make_event(players: int, centres: int, round_seconds: int, seed: int) -> tuple[str, list[tuple]]:
    """A prepared simultaneous (a game the engine plays from ``seed``), ``centres`` clubs joined as its
    centres and the players shared among them: the event's public key and, per centre, (tournament
    id, game id, players' rows)."""
    import datetime

    from django.contrib.auth.models import User

    from clubs.models import Club
    from engine import record as engine_record
    from engine.cli import play_game
    from lexicons.loaded import engine_lexicon, lexicon_default_row
    from simultaneous import services as simultaneous
    from simultaneous.models import Event
    from tournaments import services
    from tournaments.models import Player, Tournament

    user = User.objects.filter(username=ARBITER[0]).first() or User.objects.create_superuser(
        ARBITER[0], password=ARBITER[1]
    )
    lexicon = lexicon_default_row()
    record = engine_record.to_dict(play_game(seed, engine_lexicon(lexicon)))
    clubs = [Club.objects.create(name=f"Centre {n}") for n in range(1, centres + 1)]
    event = simultaneous.event_create(
        organiser=clubs[0], created_by=user, record_file=json.dumps(record).encode(),
        kind=Event.Kind.PREPARED, name="Simultané d'essai", date=datetime.date.today(), lexicon=lexicon,
        round_seconds=180,
    )  # fmt: skip
    rooms = []
    for n, club in enumerate(clubs):
        simultaneous.centre_register(event=event, club=club)  # the organiser's registration: live
        centre = simultaneous.event_join(event=event, club=club, created_by=user)
        # Shorter than any round time the form offers: set through the ORM, as for one room.
        Tournament.objects.filter(pk=centre.tournament_id).update(round_seconds=round_seconds)
        count = players // centres + (n < players % centres)
        for table in range(1, count + 1):
            services.player_register(
                tournament=centre.tournament, name=f"Joueur {n + 1}-{table}", table_number=table
            )
        rows = Player.objects.filter(tournament_id=centre.tournament_id).order_by("table_number")
        rooms.append((centre.tournament_id, centre.game_id, list(rows.values_list("pk", "token"))))
    return event.public_key, rooms


def make_public_event(players: int, seed: int) -> str:
    """For --public-rps with one room: a prepared simultaneous whose one centre played a round with
    ``players`` players, every one of them sending the top: a public page as long as a hall's."""
    from live import services as live_services
    from tournaments import services
    from tournaments.models import Player, Round

    key, ((_tournament_id, game_id, rows),) = make_event(players, 1, 180, seed + 1)
    rnd = services.round_draw(game_id=game_id, expected_number=1).round
    if rnd.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=rnd.pk)
    rnd = services.round_start(round_id=rnd.pk)
    top = rnd.tops[0]
    slip = f"{top['ref']} {top['word']} {top['score']}"
    for player in Player.objects.filter(pk__in=[pk for pk, _token in rows]):
        live_services.submission_record(player=player, round_id=rnd.pk, text=slip)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    return key
