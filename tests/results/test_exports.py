"""The files a game leaves behind: the game record (replayed by the engine's command line), the ranking
as CSV, the federation's file, and the results files of a simultaneous game and their merge (§4, §5)."""

from __future__ import annotations

import copy
import csv
import datetime
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import formats

from engine.ranking import Base, Entrant, GameScores, Rules, Score, rank_game, rank_tournament
from lexicons.loaded import lexicon_default_row
from live import services as live_services
from results import exports, merges
from results.merges import MergeError
from server.writes import ServiceError
from tournaments import services
from tournaments.models import Game, Player, Round

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "tests" / "data" / "reference-games"


def _play_round(game, number: int, slips=None, cancel: bool = False, pick=lambda rnd: 0) -> Round | None:
    """One round through the services: draw (and cancel once if asked), start, slips, close, place."""
    rnd = services.round_draw(game_id=game.pk, expected_number=number).round
    if rnd is not None and cancel:
        rnd = services.round_cancel(round_id=rnd.pk).round
    if rnd is None:
        return None
    rnd = services.round_start(round_id=rnd.pk)
    for player, text in (slips(rnd) if slips else {}).items():
        live_services.submission_record(player=player, round_id=rnd.pk, text=text)
    services.round_close(round_id=rnd.pk)
    return services.round_place_top(round_id=rnd.pk, index=pick(rnd))


def _top_slip(rnd: Round, score: bool = True) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']}" + (f" {top['score']}" if score else "")


def _replay(tmp_path: Path, text: str) -> tuple[int, list[dict]]:
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()]


# -- the game record -------------------------------------------------------------------------------


def test_a_whole_random_game_with_a_cancelled_round_exports_a_record_the_engine_replays(tournament, tmp_path):
    game = services.game_start(tournament=tournament, seed=2)
    number = 1
    while _play_round(game, number, cancel=number == 5):
        number += 1
    placed = list(game.rounds.filter(status=Round.Status.PLACED).order_by("number"))
    assert len(placed) > 15 and any(r.rejections for r in placed)  # seed 2 draws racks that are rejected
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED  # its seed leaves with the record only now

    record = exports.game_record(game)
    code, rows = _replay(tmp_path, exports.game_record_text(game))

    assert code == 0
    assert [row["top"] for row in rows] == [r.placed["score"] for r in placed]
    assert [row["tied"] for row in rows] == [r["tied"] for r in record["rounds"]]
    assert record["rounds"][4]["rack"].startswith("-")  # drawn again after the cancellation
    assert game.rounds.filter(number=5, status=Round.Status.CANCELLED).exists()
    assert [(r["ref"], r["word"]) for r in record["rounds"]] == [
        (r.placed["ref"], r.placed["word"]) for r in placed
    ]
    assert record["total"] == sum(r.placed["score"] for r in placed)
    assert (record["lexicon"], record["seed"], record["date"]) == ("fr-wfrench", 2, "2026-11-20")
    assert record["title"] == "Coupe du club — partie 1"


@pytest.mark.parametrize("path", sorted(GAMES.glob("game-*.json")), ids=lambda p: p.stem)
def test_a_prepared_game_played_through_exports_the_same_rounds(tournament, path):
    """The proposed top of a prepared game is the record's, read as the record reads it (a one-tile
    move has two readings), so the game round-trips exactly (§5)."""
    prepared = json.loads(path.read_text())
    game = services.game_start(tournament=tournament, prepared=json.dumps(prepared))
    for number in range(1, len(prepared["rounds"]) + 1):
        _play_round(game, number)
    assert _play_round(game, len(prepared["rounds"]) + 1) is None  # the prepared game is over

    exported = exports.game_record(game)

    keys = ("rack", "ref", "word", "score")
    assert [[r[k] for k in keys] for r in exported["rounds"]] == [
        [r[k] for k in keys] for r in prepared["rounds"]
    ]
    assert "seed" not in exported


def _index_of(rnd: Round, wanted: dict) -> int:
    """Which tied top is the prepared game's: every centre places the same one (§5)."""
    return next(
        i for i, top in enumerate(rnd.tops) if (top["ref"], top["word"]) == (wanted["ref"], wanted["word"])
    )


def test_the_round_being_played_is_left_out_of_the_record(game):
    _play_round(game, 1)
    _play_round(game, 2)
    services.round_draw(game_id=game.pk, expected_number=3)
    assert len(exports.game_record(game)["rounds"]) == 2


def test_a_game_with_no_round_placed_has_nothing_to_export(game):
    services.round_draw(game_id=game.pk, expected_number=1)
    with pytest.raises(ServiceError) as refused:
        exports.game_record_text(game)
    assert refused.value.message.code == "export_no_round"


def test_the_record_downloads_as_a_json_file(game):
    _play_round(game, 1)
    name, mimetype, data = exports.game_record_file(game)
    assert (name, mimetype) == ("partie-1.json", "application/json")
    assert json.loads(data.decode("utf-8"))["format"] == "duplicate-game/1"


# -- the ranking as CSV and the federation's file --------------------------------------------------

ALICE = Entrant(1, 'Alice "la Reine"; Dupré', table=3, club="Lyon", series="4A", category="V")
BRUNO = Entrant(2, "Bruno", table=1, club="Nice", series="2")
CHLOE = Entrant(3, "Chloé", table=2)


def _ranking(rules: Rules | None = None):
    """Three players over three rounds of tops 30, 20, 25: Alice 74 with a solo is not counted (fewer
    than 16 players); Bruno two warnings under the threshold; Chloé 35."""
    scores = {
        1: [Score(30), Score(20), Score(24)],
        2: [Score(30, True), Score(18, True), Score(20)],
        3: [Score(15), Score(20), Score(0)],
    }
    return rank_game([ALICE, BRUNO, CHLOE], GameScores(tops=(30, 20, 25), scores=scores), rules or Rules())


#: The percentage the ranking uses, its header naming the base (§4).
BASED = "Pourcentage (base : total avec solos et pénalités)"


def _csv_rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))


def test_the_ranking_csv_opens_in_a_french_spreadsheet(db):
    data = exports.ranking_csv(_ranking())
    assert data.startswith(b"\xef\xbb\xbf")
    header, *rows = _csv_rows(data)
    assert header[:5] == ["Rang", "Rang série", "Rang catégorie", "Table", "Nom"]
    assert header[-3:] == [BASED, "% total", "% scores"]
    line = dict(zip(header, rows[0]))
    assert line["Nom"] == 'Alice "la Reine"; Dupré'
    assert (line["Rang"], line["Table"], line["Série"], line["Catégorie"]) == ("1", "3", "4A", "Vermeil")
    assert (line["Total"], line["Scores"], line["Négatif"]) == ("74", "74", "-1")
    assert (line[BASED], line["% total"], line["% scores"]) == ("98,67", "98,67", "98,67")
    assert [r[4] for r in rows] == ['Alice "la Reine"; Dupré', "Bruno", "Chloé"]
    assert rows[2][1:3] == ["", ""]  # Chloé has no series and no category


def test_the_ranking_csv_has_english_headers_on_request(db):
    header, first, *_ = _csv_rows(exports.ranking_csv(_ranking(), lang="en"))
    assert header[:5] == ["Rank", "Series rank", "Category rank", "Table", "Name"]
    assert first[-1] == "98.67"


def test_the_ranking_csv_in_spanish_has_spanish_headers_and_a_decimal_comma(db):
    header, *rows = _csv_rows(exports.ranking_csv(_ranking(Rules(base=Base.PAID)), lang="es"))
    assert header[:5] == ["Puesto", "Puesto en la serie", "Puesto en la categoría", "Mesa", "Nombre"]
    assert header[-3:] == ["Porcentaje (base: solo puntuaciones)", "% total", "% puntuaciones"]
    line = dict(zip(header, rows[0]))
    assert (line["Nombre"], line["Categoría"], line["Negativo"]) == (ALICE.name, "Vermeil (62+)", "-1")
    assert (line["Porcentaje (base: solo puntuaciones)"], line["% puntuaciones"]) == ("98,67", "98,67")
    assert "Penalización" in header and "Advertencias" in header


def test_the_ranking_csv_in_catalan_has_catalan_headers_and_a_decimal_comma(db):
    header, first, *_ = _csv_rows(exports.ranking_csv(_ranking(), lang="ca"))
    assert header[:5] == ["Posició", "Posició a la sèrie", "Posició a la categoria", "Taula", "Nom"]
    assert header[-3] == "Percentatge (base: total amb solos i penalitzacions)"
    line = dict(zip(header, first))
    assert (line["Sèrie"], line["Negatiu"], line["% puntuacions"]) == ("4A", "-1", "98,67")


def test_the_ranking_csv_has_headers_for_every_interface_language_and_django_s_decimal_mark(db):
    for lang, _name in settings.LANGUAGES:
        header, first, *_ = _csv_rows(exports.ranking_csv(_ranking(), lang=lang))
        assert len(header) == len(first) == 19 and len(set(header)) == 19, lang
        mark = formats.get_format("DECIMAL_SEPARATOR", lang, use_l10n=True)
        assert first[-1] == f"98{mark}67", lang


def test_a_tournament_ranking_exports_its_cumulated_lines(db):
    game = GameScores(tops=(30,), scores={1: [Score(30)], 2: [Score(15)], 3: [Score(0)]})
    ranking = rank_tournament([ALICE, BRUNO, CHLOE], [game, game])
    header, *rows = _csv_rows(exports.ranking_csv(ranking))
    name, total, percent = (header.index(h) for h in ("Nom", "Total", BASED))
    assert [(r[name], r[total], r[percent]) for r in rows] == [
        (ALICE.name, "60", "100,00"),
        ("Bruno", "30", "50,00"),
        ("Chloé", "0", "0,00"),
    ]


def test_the_federation_file_is_latin1_with_crlf_in_rank_order(db):
    """Table, licence (NL: none), name, club, score: what the federation needs."""
    players = [
        Entrant(1, "Œdipe Martin", table=4, club="Vichy; Allier", licence="123456"),
        Entrant(2, "Ştefan Ionescu", table=7),
        Entrant(3, "Zoé 😀 l’Aînée – Lyon", table=2),
    ]
    scores = {1: [Score(30)], 2: [Score(20)], 3: [Score(10)]}
    ranking = rank_game(players, GameScores(tops=(30,), scores=scores))
    data = exports.federation_file(ranking)
    assert data.decode("latin-1").split("\r\n") == [
        "4;123456;OEdipe Martin;Vichy, Allier;30",
        "7;NL;Stefan Ionescu;;20",
        "2;NL;Zoé ? l'Aînée - Lyon;;10",
        "",
    ]


def test_the_federation_score_is_the_total_the_ranking_is_based_on(db):
    paid_only = exports.federation_file(_ranking(Rules(base=Base.PAID, warning_threshold=1)))
    with_penalty = exports.federation_file(_ranking(Rules(warning_threshold=1)))
    assert b"1;NL;Bruno;Nice;68\r\n" in paid_only
    assert b"1;NL;Bruno;Nice;63\r\n" in with_penalty  # a warning beyond the one tolerated costs 5 (§3.4)
    assert b'Alice "la Reine", Dupr\xe9' in paid_only  # a ";" would add a field


# -- results of a simultaneous game -----------------------------------------------------------------


@pytest.fixture
def second_club(arbiter):
    return services.tournament_create(
        created_by=arbiter,
        lexicon=lexicon_default_row(),
        name="Simultané d'automne",
        date=datetime.date(2026, 11, 20),
        place="Maison des associations",
    )


def _play_prepared(tournament, names: list[str], rounds: int = 4):
    """The first rounds of reference game 1 in a club: the first player plays the top with its score,
    the second without a score (a warning, §3.4), the others hand in nothing."""
    prepared = json.loads((GAMES / "game-001.json").read_text())
    game = services.game_start(tournament=tournament, prepared=json.dumps(prepared))
    players = [services.player_register(tournament=tournament, name=n) for n in names]

    def slips(rnd: Round) -> dict:
        return {players[0]: _top_slip(rnd), players[1]: _top_slip(rnd, score=False)}

    placed = [
        _play_round(game, number, slips, pick=lambda rnd, w=wanted: _index_of(rnd, w))
        for number, wanted in enumerate(prepared["rounds"][:rounds], 1)
    ]
    return game, [rnd.placed["score"] for rnd in placed]


def test_the_results_file_gives_each_players_paid_score_and_warning_per_round(tournament):
    game, tops = _play_prepared(tournament, ["Alice", "Bruno", "Chloé"])
    data = json.loads(exports.results_export(game))
    assert data["format"] == "duplicate-results/1"
    assert (data["club"], data["tournament"], data["date"]) == (
        "Salle des fêtes",
        "Coupe du club",
        "2026-11-20",
    )
    assert data["lexicon"] == {"name": "fr-wfrench", "sha256": tournament.lexicon.sha256}
    assert data["game"] == exports.game_record(game)
    assert [(p["name"], p["table"], p["scores"]) for p in data["players"]] == [
        ("Alice", 1, [[top, False] for top in tops]),
        ("Bruno", 2, [[top, True] for top in tops]),
        ("Chloé", 3, [[0, False] for _ in tops]),
    ]


def test_two_clubs_results_of_one_prepared_game_merge_into_one_ranking(tournament, second_club):
    first, tops = _play_prepared(tournament, ["Alice", "Bruno", "Chloé"])
    second, _ = _play_prepared(second_club, ["Denis", "Estelle"])
    files = [exports.results_file(first)[::2], exports.results_file(second)[::2]]
    assert [name for name, _ in files] == [
        "resultats-salle-des-fetes-partie-1.json",
        "resultats-maison-des-associations-partie-1.json",
    ]

    merged = merges.results_merge(files)
    ranking = merges.merged_ranking(merged, Rules(warning_threshold=0))

    assert merged.clubs == ("Salle des fêtes", "Maison des associations")
    assert [r.score for r in merged.record.rounds] == tops
    assert [(e.key, e.name, e.club) for e in merged.entrants] == [
        ((0, 0), "Alice", "Salle des fêtes"),
        ((0, 1), "Bruno", "Salle des fêtes"),
        ((0, 2), "Chloé", "Salle des fêtes"),
        ((1, 0), "Denis", "Maison des associations"),
        ((1, 1), "Estelle", "Maison des associations"),
    ]
    assert [(line.entrant.name, line.rank, line.total) for line in ranking.lines] == [
        ("Alice", 1, sum(tops)),
        ("Denis", 1, sum(tops)),
        ("Bruno", 3, sum(tops) - 5 * len(tops)),
        ("Estelle", 3, sum(tops) - 5 * len(tops)),
        ("Chloé", 5, 0),
    ]


def _results(club: str, **changes) -> dict:
    """A results file written by hand around reference game 1, for the refusals."""
    data = {
        "format": "duplicate-results/1",
        "club": club,
        "tournament": "Simultané",
        "date": "2026-11-20",
        "lexicon": {"name": "fr-wfrench", "sha256": "ab" * 32},
        "game": json.loads((GAMES / "game-001.json").read_text()),
        "players": [
            {
                "name": "Alice",
                "club": "",
                "series": "",
                "category": "",
                "table": 1,
                "scores": [[10, False]] * 23,
            }
        ],
    }
    data.update(changes)
    return data


def _set_top(results: dict, number: int, top: str) -> None:
    """Write another top in round ``number`` (the total follows, so the record still reads)."""
    ref, word, score = top.split()
    game = results["game"]
    game["rounds"][number - 1].update(ref=ref, word=word, score=int(score))
    game["total"] = sum(r["score"] for r in game["rounds"])


def _files(*objects) -> list[tuple[str, bytes]]:
    names = ("club-a.json", "club-b.json", "club-c.json")
    return [(name, json.dumps(obj).encode()) for name, obj in zip(names, objects)]


def _refusal(files) -> MergeError:
    with pytest.raises(MergeError) as refused:
        merges.results_merge(files)
    return refused.value


def test_files_written_by_hand_merge_when_they_agree():
    merged = merges.results_merge(_files(_results("A"), _results("B"), _results("C")))
    assert len(merged.entrants) == 3 and merged.scores.tops[0] == 30
    assert merged.tournament == "Simultané"


def test_a_licence_travels_from_a_clubs_results_file_to_the_merged_federation_file(tournament, second_club):
    """A file written by this version carries each player's licence (one from an older version,
    none: those players are "NL"); the merged federation file and CSV have it."""
    first, _tops = _play_prepared(tournament, ["Alice", "Bruno", "Chloé"])
    Player.objects.filter(tournament=tournament, name="Alice").update(licence="0123456")
    second, _ = _play_prepared(second_club, ["Denis", "Estelle"])
    data = json.loads(exports.results_export(first))
    assert [p["licence"] for p in data["players"]] == ["0123456", "", ""]
    older = json.loads(exports.results_export(second))
    for player in older["players"]:
        del player["licence"]
    files = [("a.json", json.dumps(data).encode()), ("b.json", json.dumps(older).encode())]
    merged = merges.results_merge(files)
    ranking = merges.merged_ranking(merged, Rules())
    lines = exports.federation_file(ranking).decode("latin-1").split("\r\n")
    assert "1;0123456;Alice;Salle des fêtes;" in "\n".join(lines)
    assert sum(line.startswith(("1;NL;Denis;", "2;NL;Bruno;")) for line in lines) == 2
    header, *rows = _csv_rows(exports.ranking_csv(ranking))
    assert {row[header.index("Nom")]: row[header.index("Licence")] for row in rows}["Alice"] == "0123456"


def test_a_merge_needs_two_files():
    refusal = _refusal(_files(_results("A")))
    assert refusal.message.text("fr") == "Une fusion demande au moins deux fichiers de résultats (ici 1)."
    assert refusal.message.text("en") == "A merge needs at least two results files (here 1)."


def test_a_file_that_is_not_json_is_refused_by_name():
    files = [*_files(_results("A")), ("notes.txt", "pas du JSON".encode("latin-1"))]
    refusal = _refusal(files)
    assert refusal.message.text("fr") == "Le fichier « notes.txt » n'est pas un fichier JSON lisible."
    assert isinstance(refusal, ServiceError)  # the views show it like any refusal


def test_a_game_record_is_not_a_results_file():
    record = json.loads((GAMES / "game-001.json").read_text())
    refusal = _refusal(_files(_results("A"), record))
    assert refusal.message.code == "merge_format"
    assert "« club-b.json »" in refusal.message.text("fr") and "duplicate-results/1" in refusal.message.text(
        "fr"
    )


def test_results_played_with_another_word_list_are_refused():
    other = _results("B", lexicon={"name": "fr-wfrench", "sha256": "cd" * 32})
    refusal = _refusal(_files(_results("A"), other))
    assert refusal.message.text("fr") == (
        "Le fichier « club-b.json » a été joué avec une autre liste de mots que « club-a.json » : "
        "fr-wfrench cdcdcdcdcdcd au lieu de fr-wfrench abababababab."
    )


def test_results_of_another_game_name_the_first_round_that_differs():
    first, other = _results("A"), _results("B")
    _set_top(first, 7, "8G FAVORI 30")
    _set_top(other, 7, "H4 FAVORI 30")
    refusal = _refusal(_files(first, other))
    assert refusal.message.text("fr") == (
        "Le fichier « club-b.json » n'a pas la même partie que « club-a.json » : "
        "coup 7, top H4 FAVORI 30 au lieu de 8G FAVORI 30."
    )
    assert refusal.message.text("en") == (
        "The file 'club-b.json' does not hold the same game as 'club-a.json': "
        "round 7, top H4 FAVORI 30 instead of 8G FAVORI 30."
    )


def test_results_with_another_rack_are_refused_at_that_round():
    other = _results("B")
    other["game"]["rounds"][1]["rack"] = "D+IBHIQS"
    refusal = _refusal(_files(_results("A"), other))
    assert refusal.message.text("fr").endswith(": coup 2, tirage D+IBHIQS au lieu de D+IBHIQE.")


def test_results_of_a_shorter_game_are_refused():
    short = copy.deepcopy(_results("B"))
    short["game"]["rounds"] = short["game"]["rounds"][:20]
    short["game"]["total"] = sum(r["score"] for r in short["game"]["rounds"])
    short["players"][0]["scores"] = short["players"][0]["scores"][:20]
    refusal = _refusal(_files(_results("A"), short))
    assert refusal.message.text("fr") == (
        "Le fichier « club-b.json » n'a pas la même partie que « club-a.json » : 20 coups au lieu de 23."
    )


def test_a_damaged_file_is_refused_with_what_is_wrong():
    damaged = _results("B")
    damaged["players"][0]["scores"] = [[10, "non"]] * 23
    refusal = _refusal(_files(_results("A"), damaged))
    assert refusal.message.text("fr") == (
        "Le fichier « club-b.json » est incomplet ou abîmé (« scores » manque ou est illisible)."
    )


def test_a_file_whose_game_record_is_wrong_says_the_records_reason():
    wrong = _results("B")
    wrong["game"]["total"] += 1
    refusal = _refusal(_files(_results("A"), wrong))
    assert refusal.message.text("fr").startswith("La partie du fichier « club-b.json » est illisible : Total")
