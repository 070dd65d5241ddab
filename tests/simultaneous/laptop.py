"""A centre's laptop for the upload tests: its game played (a prepared record replayed, the first
player playing every top), and the laptop as a second server on loopback (``Laptop``): run as
``python -m tests.simultaneous.laptop RECORD URL TOKEN ROUNDS`` in a process of its own (its own
``ARBITER_VAR_DIR``, so its own SQLite database) it plays the game and puts its results in the outbox
for the federation's server at URL, whose first try finds nothing listening; then ``manage.py serve``
runs on that database, and its chores send the file once the hall's connection is back (``Relay``)."""

from __future__ import annotations

import datetime
import json
import os
import socket
import socketserver
import subprocess
import sys
import threading
from pathlib import Path

from tests.live_services import free_port

ROOT = Path(__file__).resolve().parents[2]


def laptop_game(club, arbiter, record: bytes, rounds: int):
    from lexicons.loaded import lexicon_default_row
    from live import services as live_services
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
        live_services.submission_record(
            player=players[0], round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score']}"
        )
        services.round_close(round_id=rnd.pk)
        services.round_place_top(round_id=rnd.pk)
    return game


def main(record_path: str, url: str, token: str, rounds: str) -> None:
    import django

    django.setup()
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
    game = laptop_game(club, arbiter, Path(record_path).read_bytes(), rounds=int(rounds))
    first = outbox.outbox_add(game=game, url=url, token=token)
    # Its next try is due (the laptop waits 30 s between tries): the server's chores take it.
    Outbox.objects.update(tried_at=timezone.now() - datetime.timedelta(minutes=1))
    print(json.dumps({"status": first.status, "attempts": first.attempts, "error": first.last_error}))


class Relay(socketserver.ThreadingTCPServer):
    """The hall's connection coming back: bytes relayed both ways to the federation's server."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port: int, target: tuple[str, int]):
        self.target = target
        super().__init__(("127.0.0.1", port), _Pipe)

    def start(self) -> Relay:
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class _Pipe(socketserver.BaseRequestHandler):
    def handle(self):
        upstream = socket.create_connection(self.server.target)

        def pump(source, sink):
            try:
                while chunk := source.recv(65536):
                    sink.sendall(chunk)
            except OSError:
                pass
            finally:
                sink.close() if sink is self.request else sink.shutdown(socket.SHUT_WR)

        back = threading.Thread(target=pump, args=(upstream, self.request), daemon=True)
        back.start()
        pump(self.request, upstream)
        back.join(10)
        upstream.close()


class Laptop:
    """A centre's laptop: its own database in ``folder``, its game played, its results waiting for
    the server behind ``port`` (nothing listens there until a ``Relay`` does); ``serve()`` starts its
    server (``manage.py serve``, chores every second)."""

    def __init__(self, folder: Path, record: Path, url: str, token: str, rounds: int):
        self.folder = folder
        self.env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        self.env.update(ARBITER_VAR_DIR=str(folder / "var"), DJANGO_SETTINGS_MODULE="arbiter.settings")
        self.env["ARBITER_OUTBOX_ALLOW_PRIVATE"] = "true"  # its federation server is on loopback
        made = subprocess.run(
            [sys.executable, "-m", "tests.simultaneous.laptop", str(record), url, token, str(rounds)],
            cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=180,
        )  # fmt: skip
        assert made.returncode == 0, made.stderr[-3000:]
        #: The outbox after the first try: status, attempts, error.
        self.first = json.loads(made.stdout.strip().splitlines()[-1])
        self.server: subprocess.Popen | None = None

    def serve(self) -> None:
        log = (self.folder / "serve.log").open("w")
        self.server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(free_port()), "--chores-seconds", "1"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def stop(self) -> None:
        if self.server is not None and self.server.poll() is None:
            self.server.terminate()
            self.server.wait(30)

    def says(self) -> str:
        """The laptop's outbox as its database holds it, and the end of its server's log."""
        import sqlite3

        with sqlite3.connect(self.folder / "var" / "arbiter.sqlite3") as db:
            rows = db.execute("SELECT status, attempts, last_error, tried_at FROM results_outbox").fetchall()
        log = self.folder / "serve.log"
        return f"outbox {rows}; log: {log.read_text()[-2000:] if log.exists() else '-'}"


if __name__ == "__main__":
    main(*sys.argv[1:5])
