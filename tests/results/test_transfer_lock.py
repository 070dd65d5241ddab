"""A tournament's file is imported in a short transaction: every row is built and every slip's values
prepared before the room's write lock (on SQLite, slips wait for it), and inside it the statements
sent do not grow with the file: the same for six slips as for hundreds, every slip in one statement.
What is imported is what the file holds: its players, games, rounds, slips and log."""

from __future__ import annotations

import contextlib
import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs.models import Club
from results import transfer
from tournaments.models import Game, Player, Round, Submission, SubmissionChange, Tournament

TOP = {"ref": "H4", "word": "BALEINE", "tiles": [[52 + i, 1 + i] for i in range(7)], "score": 80}


def _hall(tournament: Tournament, arbiter, *, players: int, games: int, rounds: int) -> None:
    """Every player a slip every round; in each round a correction of the first table's slip and
    the undo of it (the log names slips and changes)."""
    people = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Joueur {n}", club="Club", table_number=n)
        for n in range(1, players + 1)
    )
    now = timezone.now()
    for number in range(1, games + 1):
        game = Game.objects.create(tournament=tournament, number=number, seed=number, board=[0] * 225)
        made = Round.objects.bulk_create(
            Round(game=game, number=n, status="placed", rack="AEI+BLRN", tiles=[1, 5, 9, 2, 12, 18, 14],
                  top_state="ready", top_score=80, tops=[TOP], placed=TOP, closed_at=now)
            for n in range(1, rounds + 1)
        )  # fmt: skip
        sent = [{"slip": "H4 BALEINE 80", "at": now.isoformat()}]
        for rnd in made:
            slips = Submission.objects.bulk_create(
                Submission(round=rnd, player=p, ref="H4", word="BALEINE", claimed=80, paid=80,
                           received_at=now, history=sent, graded_at=now, entered_by=arbiter if i else None)
                for i, p in enumerate(people)
            )  # fmt: skip
            before, after = {"slip": "H4 BALEINE", "paid": 80}, {"slip": "H4 BALEINE 80", "paid": 80}
            fixed = SubmissionChange.objects.create(
                round=rnd,
                player=people[0],
                submission=slips[0],
                changed_by=arbiter,
                before=before,
                after=after,
            )
            SubmissionChange.objects.create(
                round=rnd, player=people[0], submission=slips[0], changed_by=arbiter, before=after,
                after=before, undoes=fixed,
            )  # fmt: skip


def _imported(data: bytes, club, user, monkeypatch) -> tuple[Tournament, list[dict]]:
    """The file imported, and the statements sent while the write lock was held."""
    sent = []
    taken = transfer.writing

    @contextlib.contextmanager
    def watched():
        with taken(), CaptureQueriesContext(connection) as inside:
            yield
        sent.extend(inside.captured_queries)

    monkeypatch.setattr(transfer, "writing", watched)
    return transfer.tournament_import(data=data, club=club, user=user), sent


def _held(tournament: Tournament) -> dict:
    slips = Submission.objects.filter(round__game__tournament=tournament)
    changes = SubmissionChange.objects.filter(round__game__tournament=tournament)
    return {
        "players": sorted(Player.objects.filter(tournament=tournament).values_list("table_number", "name")),
        "games": Game.objects.filter(tournament=tournament).count(),
        "rounds": sorted(
            Round.objects.filter(game__tournament=tournament).values_list(
                "game__number", "number", "drawn_at"
            )
        ),
        "slips": sorted(
            slips.values_list("round__game__number", "round__number", "player__table_number", "word", "paid")
        ),
        "typed": slips.filter(entered_by__isnull=False).count(),
        "log": sorted(
            (*row, undone is not None)
            for *row, undone in changes.values_list(
                "round__game__number",
                "round__number",
                "submission__player__table_number",
                "changed_at",
                "undoes__submission__player__table_number",
            )
        ),
    }


@pytest.mark.parametrize(("players", "games", "rounds"), [(3, 1, 2), (60, 2, 8)])
def test_an_import_holds_what_the_file_holds_in_the_same_few_statements(
    tournament, arbiter, monkeypatch, players, games, rounds
):
    _hall(tournament, arbiter, players=players, games=games, rounds=rounds)
    other = Club.objects.create(name="Club B")
    copy, sent = _imported(transfer.tournament_export(tournament), other, arbiter, monkeypatch)
    held = _held(copy)
    assert held == _held(tournament)
    assert len(held["players"]) == players and held["games"] == games
    assert len(held["slips"]) == players * games * rounds and held["typed"] == (players - 1) * games * rounds
    assert len(held["log"]) == 2 * games * rounds
    # Inside the lock: a constant number of statements, every slip sent by a single one.
    # (an INSERT run for each row on SQLite, a COPY on PostgreSQL)
    inserts = [
        q["sql"]
        for q in sent
        if re.search(r'^\d+ times: (INSERT INTO|COPY) "tournaments_submission"', q["sql"])
    ]
    assert inserts == [f"{players * games * rounds} times: " + inserts[0].split(": ", 1)[1]], inserts
    assert len(sent) == STATEMENTS, [q["sql"][:80] for q in sent]


#: The statements an import sends under the lock, whatever the file's size within these tests
#: (Django's batches aside: at most 76 players a statement on SQLite): the tournament, the join codes
#: taken, the players, the games and their times, the rounds and their times, the slips, the slips'
#: ids the log names, the log and its times and undos.
STATEMENTS = 11


def test_a_file_with_no_slip_nor_log_imports_its_players_and_games(tournament, arbiter, monkeypatch):
    _hall(tournament, arbiter, players=2, games=1, rounds=0)
    copy, _sent = _imported(transfer.tournament_export(tournament), Club.objects.create(name="B"), arbiter,
                            monkeypatch)  # fmt: skip
    assert _held(copy) == _held(tournament) and copy.date == datetime.date(2026, 11, 20)
