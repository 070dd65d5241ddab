"""A tournament as a file between installations.  Exported, then imported for another club (here the
same database plays the other installation): the same rankings, slips and log, new ids, and new
players' tokens made here, whatever the file names.  Every kind of bad file is refused with a clear
message, and nothing of it is written."""

from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path

import pytest

from clubs.models import Club
from engine.messages import Message
from live import services as live_services
from results import transfer
from results.transfer_reading import MAX_PLAYERS, TransferRefused, token_ok
from tournaments import services, standings
from tournaments.models import Game, Player, Round, Submission, SubmissionChange, Tournament

GAMES = Path(__file__).resolve().parents[1] / "data" / "reference-games"


def _play(game, number: int, slips) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=number).round
    rnd = services.round_start(round_id=rnd.pk)
    for player, text in slips(rnd).items():
        live_services.submission_record(player=player, round_id=rnd.pk, text=text)
    services.round_close(round_id=rnd.pk)
    return services.round_place_top(round_id=rnd.pk)


def _top(rnd: Round, score: bool = True) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']}" + (f" {top['score']}" if score else "")


@pytest.fixture
def played(tournament, players, arbiter):
    """Two rounds of a prepared game, a correction and its undo, another correction; a second game
    with a round cancelled and drawn again, running."""
    alice, bruno, chloe = players
    game = services.game_start(tournament=tournament, prepared=(GAMES / "game-001.json").read_text())
    _play(game, 1, lambda r: {alice: _top(r), bruno: _top(r, score=False)})
    second = _play(game, 2, lambda r: {alice: _top(r), chloe: "H8 ZZZ 12"})
    live_services.submission_correct(round_id=second.pk, player=bruno, text=_top(second), user=arbiter)
    live_services.submission_correction_undo(round_id=second.pk, user=arbiter)
    live_services.submission_correct(round_id=second.pk, player=chloe, text=_top(second), user=arbiter)
    other = services.game_start(tournament=tournament, seed=7)
    cancelled = services.round_draw(game_id=other.pk, expected_number=1).round
    rnd = services.round_cancel(round_id=cancelled.pk).round
    services.round_start(round_id=rnd.pk)
    return tournament


@pytest.fixture
def club_b(db):
    return Club.objects.create(name="Club B")


def _ranking(tournament: Tournament) -> list:
    """The tournament's ranking lines, and each game's, as every screen prints them (without the
    players' ids)."""
    rankings = [standings.tournament_rows(standings.tournament_ranking(tournament))]
    rankings += [standings.game_rows(standings.game_ranking(g)) for g in tournament.games.all()]
    return [[dataclasses.replace(row, key=None) for row in ranking.rows] for ranking in rankings]


def _slips(tournament: Tournament) -> list[tuple]:
    return sorted(
        (
            s.round.game.number,
            s.round.number,
            s.player.table_number,
            s.player.name,
            s.slip_text(),
            s.paid,
            s.sanction,
            s.reason,
            s.received_at,
            bool(s.entered_by_id),
        )
        for s in Submission.objects.filter(round__game__tournament=tournament).select_related(
            "round__game", "player"
        )
    )


def _log(tournament: Tournament) -> list[tuple]:
    changes = SubmissionChange.objects.filter(round__game__tournament=tournament).order_by("id")
    return [
        (
            c.round.number,
            c.player.name,
            c.before,
            c.after,
            c.changed_at,
            c.undoes.before if c.undoes else None,
        )
        for c in changes.select_related("round", "player", "undoes")
    ]


def _counts() -> tuple:
    return tuple(m.objects.count() for m in (Tournament, Player, Game, Round, Submission, SubmissionChange))


def test_a_tournament_goes_to_another_club_and_ranks_the_same(played, club_b, arbiter):
    data = transfer.tournament_export(played)
    copy = transfer.tournament_import(data=data, club=club_b, user=arbiter)
    assert copy.pk != played.pk and copy.owner == club_b and copy.created_by == arbiter
    assert (copy.name, copy.date, copy.lexicon_id, copy.grading) == (
        played.name,
        played.date,
        played.lexicon_id,
        played.grading,
    )
    assert _ranking(copy) == _ranking(played)
    assert [row.name for row in _ranking(copy)[0]] == ["Alice", "Bruno", "Chloé"]
    assert _slips(copy) == _slips(played)
    assert len(_log(copy)) == 3 and _log(copy) == _log(played)

    def rounds(tournament):
        return list(
            Round.objects.filter(game__tournament=tournament)
            .order_by("game__number", "number", "attempt")
            .values_list("number", "attempt", "status", "rack", "tiles", "tops", "placed", "deadline")
        )

    assert [r[:3] for r in rounds(copy)] == [
        (1, 1, "placed"),
        (2, 1, "placed"),
        (1, 1, "cancelled"),
        (1, 2, "running"),
    ]
    assert rounds(copy) == rounds(played)
    # The same database already holds every token: none is kept (that would take over the link).
    tokens = set(Player.objects.filter(tournament=played).values_list("token", flat=True))
    assert not tokens & set(Player.objects.filter(tournament=copy).values_list("token", flat=True))
    # A copy exported again carries the same games, slips and log.
    again = json.loads(gzip.decompress(transfer.tournament_export(copy)))
    first = json.loads(gzip.decompress(data))
    for doc in (again, first):
        for p in doc["players"]:
            p.pop("token"), p.pop("id"), p.pop("join_code")
        for g in doc["games"]:
            for r in g["rounds"]:
                for s in r["slips"]:
                    s.pop("id"), s.pop("player")
                for c in r["changes"]:
                    c.pop("id"), c.pop("player"), c.pop("slip"), c.pop("undoes")
    assert again == first


def test_a_file_that_chooses_its_players_tokens_gets_tokens_made_here(played, club_b, arbiter, client):
    doc = _document(played)
    for player, letter in zip(doc["players"], "ABC"):
        player["token"] = letter * 32  # a well-formed token anyone can guess
    Tournament.objects.filter(pk=played.pk).delete()
    copy = transfer.tournament_import(data=_encoded(doc), club=club_b, user=arbiter)
    tokens = list(Player.objects.filter(tournament=copy).values_list("token", flat=True))
    assert len(set(tokens)) == 3 and not set(tokens) & {"A" * 32, "B" * 32, "C" * 32}
    assert all(len(token) == 32 and token_ok(token) for token in tokens)
    assert client.get(f"/j/{'A' * 32}/").status_code == 404  # the chosen link joins no one
    assert client.get(f"/j/{tokens[0]}/").status_code == 200


def test_a_file_naming_the_links_of_this_installation_takes_over_none(played, club_b, arbiter):
    tokens = set(Player.objects.filter(tournament=played).values_list("token", flat=True))
    copy = transfer.tournament_import(data=transfer.tournament_export(played), club=club_b, user=arbiter)
    assert not tokens & set(Player.objects.filter(tournament=copy).values_list("token", flat=True))
    assert set(Player.objects.filter(tournament=played).values_list("token", flat=True)) == tokens


def test_a_top_still_searched_in_the_file_is_searched_here(played, club_b, arbiter):
    doc = _document(played)
    running = doc["games"][1]["rounds"][-1]
    assert running["status"] == "running" and running["tops"]
    tops = running["tops"]
    running.update(top_state="pending", tops=[], top_score=None)
    copy = transfer.tournament_import(data=_encoded(doc), club=club_b, user=arbiter)
    searched = Round.objects.get(game__tournament=copy, game__number=2, attempt=2)
    assert (searched.top_state, searched.tops) == ("ready", tops)


# -- bad files: a clear refusal, nothing written -------------------------------------------------


def _document(tournament: Tournament) -> dict:
    return json.loads(gzip.decompress(transfer.tournament_export(tournament)))


def _refused(data: bytes, club, user) -> list[str]:
    before = _counts()
    with pytest.raises(TransferRefused) as refused:
        transfer.tournament_import(data=data, club=club, user=user)
    assert _counts() == before
    problems = refused.value.problems
    assert problems and all(isinstance(m, Message) for m in problems)
    assert refused.value.message.text("fr").startswith("Fichier de tournoi refusé")
    return [m.text("en") for m in problems]


def _encoded(doc: dict) -> bytes:
    return json.dumps(doc).encode()


def _slip(doc: dict) -> dict:
    return doc["games"][0]["rounds"][1]["slips"][0]


BAD = {
    "newer format": (lambda d: d.update(format="arbiter-tournament/4"), "format 'arbiter-tournament/4'"),
    "unknown key": (lambda d: d["tournament"].update(colour="red"), "tournament: unknown key 'colour'"),
    "missing key": (lambda d: d["players"][0].pop("name"), "players[0]: the key 'name' is missing"),
    "NUL in a name": (
        lambda d: d["players"][1].update(name="Bruno\x00"),
        "players[1]: 'name' holds a forbidden character (U+0000)",
    ),
    "lone surrogate": (
        lambda d: d["tournament"].update(place="\ud800"),
        "tournament: 'place' holds a forbidden character (U+D800)",
    ),
    "text too long": (
        lambda d: d["players"][0].update(club="x" * 121),
        "players[0]: 'club' is over 120 characters",
    ),
    "number out of range": (
        lambda d: d["tournament"].update(solo_value=-1),
        "tournament: 'solo_value' is -1, not between 0 and 32767",
    ),
    "table out of range": (
        lambda d: d["players"][0].update(table_number=10_000),
        "'table_number' is 10000, not between 1 and 9999",
    ),
    "not among the choices": (
        lambda d: d["tournament"].update(grading="guess"),
        "'grading' is guess, not among the choices (fisf, computed)",
    ),
    "a boolean for a number": (lambda d: _slip(d).update(paid=True), "'paid' cannot be true"),
    "dangling player": (
        lambda d: _slip(d).update(player=999_999),
        "games[0].rounds[1].slips[0]: 'player' refers to 999999, which the file does not hold",
    ),
    "a list for a reference": (lambda d: _slip(d).update(player=[1]), "'player' refers to [1]"),
    "dangling undo": (
        lambda d: d["games"][0]["rounds"][1]["changes"][1].update(undoes=424_242),
        "'undoes' refers to 424242",
    ),
    "token twice": (lambda d: d["players"][1].update(token=d["players"][0]["token"]), "players: 'token'"),
    "table twice": (
        lambda d: d["players"][1].update(table_number=d["players"][0]["table_number"]),
        "players: 'table_number' 1 is given twice",
    ),
    "slip twice for a player": (
        lambda d: d["games"][0]["rounds"][1]["slips"][1].update(player=_slip(d)["player"]),
        "'player'",
    ),
    "bad time": (lambda d: _slip(d).update(received_at="yesterday"), "'received_at' cannot be"),
    "bad board": (
        lambda d: d["games"][0].update(board=[99] * 225),
        "games[0]: 'board' does not have the expected form",
    ),
    "bad prepared game": (
        lambda d: d["games"][0].update(prepared={"format": "x"}),
        "games[0]: the prepared game is invalid",
    ),
    "bad rack": (lambda d: d["games"][0]["rounds"][0].update(rack="AEI+BLRN+X"), "'rack' does not have"),
    "bad top": (
        lambda d: d["games"][0]["rounds"][0]["placed"].update(tiles=[[300, 1]]),
        "games[0].rounds[0]: 'placed' does not have the expected form",
    ),
    "bad slip time": (
        lambda d: _slip(d)["history"].append({"slip": "H4 MOT", "at": "soon"}),
        "games[0].rounds[1].slips[0]: 'history' does not have the expected form",
    ),
    "bad category": (
        lambda d: d["players"][0].update(category="Martian"),
        "'category' does not have the expected form",
    ),
    "too many players": (
        lambda d: d.update(players=[d["players"][0]] * (MAX_PLAYERS + 1)),
        f"/: {MAX_PLAYERS + 1} items in 'players', at most {MAX_PLAYERS}",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_file_is_refused_saying_where_and_nothing_is_written(played, club_b, arbiter, case):
    change, said = BAD[case]
    doc = _document(played)
    change(doc)
    problems = _refused(_encoded(doc), club_b, arbiter)
    assert any(said in p for p in problems), problems


@pytest.mark.parametrize(
    "data, said",
    [
        (b'{"format": "arbiter-tournament/1", "players": [', "not readable JSON"),
        (gzip.compress(b'{"format": "arbiter-tournament/1"}')[:-9], "gzip file is damaged"),
        (b"[" * 5_000 + b"]" * 5_000, "nests more than 12 levels"),
        (b'{"format": "arbiter-tournament/1", "format": "x"}', "key 'format' is given twice"),
        (b'{"format": "arbiter-tournament/1", "players": [NaN]}', "not readable JSON"),
        (b"\xff\xfe not text", "not readable JSON"),
        (b'"just a text"', "format '?'"),
    ],
    ids=["truncated", "cut gzip", "too deep", "duplicate key", "NaN", "not UTF-8", "not an object"],
)
def test_a_file_that_is_no_tournament_is_refused(club_b, arbiter, data, said):
    problems = _refused(data, club_b, arbiter)
    assert any(said in p for p in problems), problems


def test_a_file_too_big_is_refused_before_it_is_read(club_b, arbiter):
    problems = _refused(b" " * (20 * 1024 * 1024 + 1), club_b, arbiter)
    assert "over 20 MB" in problems[0]
    bomb = gzip.compress(b" " * (65 * 1024 * 1024))
    assert "Unpacked, the file is over 64 MB" in _refused(bomb, club_b, arbiter)[0]


def test_an_unknown_word_list_is_named_and_nothing_is_written(played, club_b, arbiter):
    doc = _document(played)
    doc["lexicon"] = {"name": "ODS 9", "sha256": "ab" * 32}
    problems = _refused(_encoded(doc), club_b, arbiter)
    assert "word list 'ODS 9' (sha256 abababababab…)" in problems[0] and "load that list first" in problems[0]


def test_the_first_problems_are_listed_at_most_twenty(played, club_b, arbiter):
    doc = _document(played)
    for p in doc["players"]:
        p["name"] = "\x01"
    doc["players"] = doc["players"] * 10
    problems = _refused(_encoded(doc), club_b, arbiter)
    assert len(problems) == 20 and "players[0]: 'name' holds a forbidden character (U+0001)" in problems[0]


def _nodes(value, path=()):
    """Every place in a document: (container, key) pairs."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield value, key
        yield from _nodes(inner, (*path, key))


def test_any_value_of_any_type_anywhere_is_refused_or_imported_never_an_error(played, club_b, arbiter):
    """300 files, each with one value anywhere replaced by a value of another kind: each is refused
    with its problems (never another exception), or imported whole."""
    import random

    chance = random.Random(25)
    kinds = [None, True, -1, 2**70, 1.5, "", "\x00", "x" * 400, [], [1], {}, {"a": 1}, "2026-13-45"]
    original = _document(played)
    places = len(list(_nodes(original)))
    for _ in range(300):
        doc = json.loads(json.dumps(original))
        container, key = list(_nodes(doc))[chance.randrange(places)]
        container[key] = chance.choice(kinds)
        before = _counts()
        try:
            transfer.tournament_import(data=_encoded(doc), club=club_b, user=arbiter)
        except TransferRefused as refused:
            assert refused.problems and _counts() == before


def test_every_column_is_carried_or_said_not_to_be():
    """A column added later to a tournament's models fails here until the file carries it (a new
    format version if older files cannot give it) or this list says why it does not."""
    from results import transfer_reading as r

    not_carried = {
        # The list by its sha256; the importer; "letters" beside them when not French.
        # "room_languages": the languages the phones of this installation read.
        Tournament: {"id", "lexicon", "created_by", "created_at", "owner", "letters", "room_languages"},
        Player: {"id", "tournament", "created_at"},
        Game: {"id", "tournament", "growing"},  # no lead is followed on the other side
        Round: {"id", "game"},
        # "player" by the file's id, "entered"; "message_more" beside them when the grade has it.
        Submission: {"id", "round", "player", "entered_by", "message_more"},
        SubmissionChange: {"id", "round", "player", "submission", "changed_by", "undoes"},
    }
    # A game's "variant" and a round's "exploded" beside their columns when set (``GAME_BESIDE``).
    carried = {
        Tournament: r.TOURNAMENT_FIELDS, Player: r.PLAYER_FIELDS, Game: r.GAME_FIELDS + r.GAME_BESIDE,
        Round: r.ROUND_FIELDS + r.ROUND_BESIDE, Submission: r.SLIP_FIELDS, SubmissionChange: r.CHANGE_FIELDS,
    }  # fmt: skip
    for model, fields in carried.items():
        columns = {f.name for f in model._meta.concrete_fields}
        assert columns == set(fields) | not_carried[model], model.__name__
