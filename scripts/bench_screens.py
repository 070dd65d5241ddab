"""The arbiter's game screen and the projector of a hall, measured: bytes and time of each redraw
and action, and of the polls that find nothing new.

    .venv/bin/python scripts/bench_screens.py [--players 1500] [--repeat 20]

On a fresh SQLite file in a temporary folder (the laptop default), or on a throwaway PostgreSQL
database beside the one ``DATABASE_URL`` names.  One game of ``--players`` players: round 1 played
(four slips in five sent), closed and its top placed; round 2 drawn and started.  Every request goes
through Django's test client logged in as the arbiter (its middlewares, session and user included),
in this one process: the times are the application's own, no network.  Prints, for each screen and
state: the answer's size, and the median time of ``--repeat`` answers (the first one apart, when the
process made something it then keeps).  Nothing is asserted: the figures, dated, go on
docs/developer/benchmarks.md.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import html
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HTMX = {"HTTP_HX_REQUEST": "true"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1500)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as var:
        os.environ["ARBITER_VAR_DIR"] = var  # never the real var/ folder
        sys.path.insert(0, str(ROOT))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
        import django

        django.setup()
        from django.db import connection

        database = _throwaway_database(connection)
        try:
            _bench(args.players, args.repeat)
        finally:
            database.close()


@contextlib.contextmanager
def _postgres_test_database(connection):
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield name
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


def _throwaway_database(connection) -> contextlib.ExitStack:
    stack = contextlib.ExitStack()
    if connection.vendor == "postgresql":
        stack.enter_context(_postgres_test_database(connection))
    else:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor}")
    return stack


def _csv(players: int) -> bytes:
    lines = ["Nom;Club;Table"] + [f"Joueur n°{n} Dupré;Club {n % 50};{n + 1}" for n in range(players)]
    return ("\r\n".join(lines) + "\r\n").encode()


class Screens:
    """The arbiter's browser: the game screen and the projector, asked as their scripts ask."""

    def __init__(self, client, game_id: int):
        from django.urls import reverse

        self.client = client
        self.page = reverse("live:game_detail", args=[game_id])
        self.projector = reverse("live:projector", args=[game_id])
        self.slips = reverse("live:game_slips", args=[game_id])

    def get(self, url: str, **data):
        return self.client.get(url, data, **HTMX)

    @staticmethod
    def poll_address(content: bytes, element: str) -> str:
        """The address the element's script polls (its ``hx-get``, with the key it shows, and the
        values it adds, ``hx-vals``)."""
        tag = re.search(rf'<div id="{element}"[^>]*>', content.decode(), re.S).group(0)
        address = html.unescape(re.search(r'hx-get="([^"]+)"', tag).group(1))
        values = re.search(r"hx-vals='([^']+)'", tag)
        for name, value in json.loads(html.unescape(values.group(1))).items() if values else ():
            address += f"&{name}={value}"
        return address

    def live_poll(self) -> str:
        return self.poll_address(self.client.get(self.page).content, "live")

    def projector_poll(self) -> str:
        return self.poll_address(self.client.get(self.projector).content, "projection")


def _timed(ask, repeat: int) -> tuple[int, float, float, int]:
    """(bytes, first answer's ms, median ms of the next ``repeat``, status) of ``ask()``."""
    start = time.perf_counter()
    response = ask()
    first = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = ask()
        times.append((time.perf_counter() - start) * 1000)
    return len(response.content), first, statistics.median(times), response.status_code


def _line(label: str, measured: tuple[int, float, float, int]) -> None:
    size, first, median, status = measured
    print(f"  {label:<58} {status}  {size / 1000:9.1f} KB  first {first:7.1f} ms  median {median:7.2f} ms")


def _action(label: str, act) -> None:
    start = time.perf_counter()
    response = act()
    ms = (time.perf_counter() - start) * 1000
    print(f"  {label:<58} {response.status_code}  {len(response.content) / 1000:9.1f} KB  {ms:7.1f} ms")


def _redraws(screens: Screens, repeat: int, slips: bool = False) -> None:
    """What each screen's script asks in this state: a redraw (the key left out), the poll that
    finds nothing new (the key the screen shows)."""
    poll = screens.live_poll()
    redraw = poll.split("?")[0]
    _line(
        "game screen's live region redrawn (poll, key changed)", _timed(lambda: screens.get(redraw), repeat)
    )
    _line("game screen's poll, nothing new", _timed(lambda: screens.get(poll), repeat))
    poll = screens.projector_poll()
    redraw = poll.split("?")[0]
    _line("projector redrawn (poll, key changed)", _timed(lambda: screens.get(redraw), repeat))
    _line("projector's poll, nothing new", _timed(lambda: screens.get(poll), repeat))
    if slips:
        _line("slips panel (the last graded round)", _timed(lambda: screens.get(screens.slips), repeat))
    _line("game screen, whole page", _timed(lambda: screens.client.get(screens.page), max(3, repeat // 4)))


def _bench(players: int, repeat: int) -> None:
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    from lexicons.loaded import lexicon_default_row
    from live import services as live_services
    from server import memo
    from tournaments import services
    from tournaments.models import Player, Round

    arbiter = User.objects.create_superuser("bench", password="bench-123")  # every club's
    tournament = services.tournament_create(
        created_by=arbiter, lexicon=lexicon_default_row(), name="Hall", date=datetime.date(2026, 11, 20)
    )
    services.players_import_csv(tournament=tournament, data=_csv(players))
    game = services.game_start(tournament=tournament, seed=42)
    everyone = list(Player.objects.filter(tournament=tournament).order_by("table_number"))
    client = Client()
    client.force_login(arbiter)
    screens = Screens(client, game.pk)
    print(f"{players:,} players; medians of {repeat} answers, in this process")

    started = time.perf_counter()
    rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    top = rnd.tops[0]
    for n, player in enumerate(everyone):
        if n % 5:
            text = f"{top['ref']} {top['word']} {top['score']}" if n % 3 else "H8 ZZZ 10"
            live_services.submission_record(player=player, round_id=rnd.pk, text=text)
    sent = sum(1 for n in range(players) if n % 5)
    print(f"(round 1's {sent:,} slips stored in {time.perf_counter() - started:.1f} s)")

    print("round 1 running, 4 in 5 slips received:")
    _redraws(screens, repeat)
    poll = screens.live_poll()
    Round.objects.filter(pk=rnd.pk).update(deadline=rnd.deadline - datetime.timedelta(hours=1))
    memo.forget_all()  # as the round's save would: its clock read again
    _action("the poll that closes the round", lambda: screens.get(poll))
    print("round 1 closed, its top to place:")
    _redraws(screens, repeat, slips=True)
    _action(
        "action: place the top",
        lambda: client.post(reverse("live:round_place", args=[rnd.pk]), {"index": 0}, **HTMX),
    )
    print("round 1 placed:")
    _redraws(screens, repeat, slips=True)
    _action(
        "action: draw round 2",
        lambda: client.post(reverse("live:game_draw", args=[game.pk]), {"expected_number": 2}, **HTMX),
    )
    second = Round.objects.get(game=game, number=2, status=Round.Status.DRAWN)
    _action(
        "action: start the clock",
        lambda: client.post(reverse("live:round_start", args=[second.pk]), **HTMX),
    )
    print("round 2 running, no slip yet (every table missing):")
    _redraws(screens, repeat)


if __name__ == "__main__":
    main()
