"""The engine's command line, run as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import record
from engine.alphabet import LetterSet
from engine.cli import CliError, Lexicons
from engine.cli import play_game as cli_play_game
from engine.draw import bag_left
from engine.movegen import all_plays, find_best, find_tops
from tests.conftest import REFERENCE_GAMES
from tests.engine import languages
from tests.engine.games import reference_positions

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_replay_prints_one_json_object_per_round_and_exits_0_when_every_top_matches():
    game = REFERENCE_GAMES / "game-001.json"
    done = run("replay", str(game), "--json")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) == len(json.loads(game.read_text())["rounds"])
    assert set(rows[0]) == {"file", "round", "top", "expected", "tied", "expected_tied", "ms"}
    assert [r["round"] for r in rows] == list(range(1, len(rows) + 1))
    assert all(r["top"] == r["expected"] for r in rows)
    assert all(r["tied"] == r["expected_tied"] for r in rows)


def test_replay_exits_1_when_the_number_of_tied_placements_differs(tmp_path):
    data = json.loads((REFERENCE_GAMES / "game-001.json").read_text())
    data["rounds"][0]["tied"] += 1
    path = tmp_path / "tied.json"
    path.write_text(json.dumps(data))
    done = run("replay", str(path), "--json")
    assert done.returncode == 1
    first = json.loads(done.stdout.splitlines()[0])
    assert (first["top"], first["expected"]) == (data["rounds"][0]["score"],) * 2
    assert first["tied"] == first["expected_tied"] - 1


def test_replay_exits_1_when_a_recorded_move_is_not_the_top(tmp_path, french):
    _name, _number, position, _recorded = next(reference_positions(REFERENCE_GAMES, french))
    top = find_tops(position).score
    lower = next(p for p in all_plays(position) if p.score < top)
    rack = record.parse(REFERENCE_GAMES.joinpath("game-001.json").read_text()).rounds[0].rack
    path = tmp_path / "lower.json"
    path.write_text(record.dumps(record.from_plays("fr-wfrench", [rack], [lower])))
    done = run("replay", str(path), "--json")
    assert done.returncode == 1
    row = json.loads(done.stdout)
    assert (row["top"], row["expected"]) == (top, lower.score)


def test_replay_of_a_broken_record_says_which_round_and_exits_2(tmp_path):
    data = json.loads(REFERENCE_GAMES.joinpath("game-002.json").read_text())
    data["rounds"][2]["score"] += 1
    data["total"] += 1
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    done = run("replay", str(path))
    assert done.returncode == 2
    assert "Tour 3" in done.stderr


def test_play_is_reproducible_from_its_seed_and_its_record_replays(tmp_path):
    out = tmp_path / "seed5.json"
    first = run("play", "--seed", "5", "--out", str(out))
    assert first.returncode == 0, first.stderr
    again = run("play", "--seed", "5")
    assert again.stdout == out.read_text()
    assert json.loads(again.stdout)["seed"] == 5
    other = run("play", "--seed", "6")
    assert other.stdout != again.stdout
    replayed = run("replay", str(out), "--json")
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_grade_prints_paid_sanction_reason_and_message():
    game = str(REFERENCE_GAMES / "game-001.json")
    right = json.loads(run("grade", game, "2", "G8 EH 20", "--json").stdout)
    assert right["paid"] == 20 and right["sanction"] == "none" and right["reason"] is None
    wrong_score = json.loads(run("grade", game, "2", "G8 EH 18", "--json").stdout)
    assert (wrong_score["paid"], wrong_score["sanction"]) == (20, "warning")
    computed = json.loads(run("grade", game, "2", "G8 EH", "--computed", "--json").stdout)
    assert (computed["paid"], computed["sanction"]) == (20, "none")
    no_ref = json.loads(run("grade", game, "2", "- EH 20", "--json").stdout)
    assert (no_ref["paid"], no_ref["sanction"]) == (15, "penalty")
    bad = json.loads(run("grade", game, "2", "G8 XQZ 20", "--json").stdout)
    assert (bad["paid"], bad["sanction"], bad["reason"]) == (0, "zero", "word")
    assert "XQZ" in bad["message"]


def test_grade_refuses_a_round_the_record_does_not_have():
    done = run("grade", str(REFERENCE_GAMES / "game-001.json"), "99", "H8 MOT")
    assert done.returncode == 2
    assert "99" in done.stderr


def test_best_prints_the_ten_best_placements_of_a_round_as_a_json_list_with_ref_word_score_and_ms(french):
    done = run("best", str(REFERENCE_GAMES / "game-001.json"), "5", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    rounds = reference_positions(REFERENCE_GAMES, french)
    position = next(p for name, number, p, _ in rounds if (name, number) == ("game-001.json", 5))
    bag = bag_left(filter(None, position.board.cells), position.rack)
    expected = [(str(p.ref), p.word, p.score) for p in find_best(position, 10, bag)]
    assert [(r["ref"], r["word"], r["score"]) for r in rows] == expected
    assert len(rows) >= 10 and rows[0]["score"] == 35
    assert len({r["ms"] for r in rows}) == 1 and rows[0]["ms"] > 0


def test_best_with_n_prints_a_table_every_tie_of_the_last_score_included_and_jokers_in_lower_case():
    done = run("best", str(REFERENCE_GAMES / "game-001.json"), "1", "--n", "2")
    assert done.returncode == 0, done.stderr
    header, *lines = done.stdout.splitlines()
    assert "round 1" in header and "VDFIR?A" in header
    # FAVoRI alone scores 30; six placements tie at 26 for the second place.
    assert lines[0].split() == ["1", "H4", "FAVoRI", "30"]
    assert [line.split()[-1] for line in lines[1:]] == ["26"] * 6


def test_best_refuses_a_round_the_record_does_not_have_a_broken_record_and_a_count_below_1(tmp_path):
    game = str(REFERENCE_GAMES / "game-001.json")
    for args in ((game, "0"), (game, "24"), (game, "2", "--n", "0")):
        done = run("best", *args)
        assert done.returncode == 2
        assert done.stderr.strip()
    assert "rounds 1 to 23" in run("best", game, "24").stderr
    data = json.loads(REFERENCE_GAMES.joinpath("game-002.json").read_text())
    data["rounds"][2]["score"] += 1
    data["total"] += 1
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    done = run("best", str(path), "1")
    assert done.returncode == 2
    assert "Tour 3" in done.stderr


# -- other letter sets --------------------------------------------------------------------


def run_with(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ARBITER_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "engine", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)


@pytest.fixture
def spanish_list(tmp_path) -> Path:
    path = tmp_path / "palabras.txt"
    lines = [*languages.word_list("es"), "kiwi", "web"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_spanish_game_is_played_and_replayed_with_a_list_made_here(tmp_path, spanish_list):
    game = tmp_path / "partida.json"
    played = run_with(
        tmp_path, "--letters", "es", "--lexicon", str(spanish_list), "play", "--seed", "3", "--out", str(game)
    )
    assert played.returncode == 0, played.stderr
    # The two words the Spanish set cannot spell are counted, not silently dropped.
    assert "2 ligne(s)" in played.stderr and "kiwi" in played.stderr
    data = json.loads(game.read_text(encoding="utf-8"))
    assert data["format"] == "duplicate-game/2" and data["letters"] == "es"
    assert any("[" in r["rack"] for r in data["rounds"])
    done = run_with(tmp_path, "--lexicon", str(spanish_list), "replay", str(game), "--json")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) == len(data["rounds"])
    assert all(r["top"] == r["expected"] and r["tied"] == r["expected_tied"] for r in rows)


def test_a_catalan_record_written_without_brackets_in_its_words_replays(tmp_path):
    words = tmp_path / "paraules.txt"
    words.write_text("\n".join(languages.word_list("ca")) + "\n", encoding="utf-8")
    lexicon = languages.lexicon("ca")
    data = record.to_dict(cli_play_game(9, lexicon))
    for r in data["rounds"]:
        r["word"] = r["word"].replace("[", "").replace("]", "")
    game = tmp_path / "partida.json"
    game.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    done = run_with(tmp_path, "--lexicon", str(words), "replay", str(game), "--json")
    assert done.returncode == 0, done.stderr
    assert all(
        json.loads(line)["tied"] == json.loads(line)["expected_tied"] for line in done.stdout.splitlines()
    )


def test_a_rack_with_a_tile_the_set_lacks_is_refused_with_its_round(tmp_path, spanish_list):
    data = {
        "format": "duplicate-game/2",
        "letters": "es",
        "lexicon": "palabras",
        "rounds": [{"rack": "KOCHEAA", "ref": "H8", "word": "COCHE", "score": 20}],
        "total": 20,
    }
    game = tmp_path / "k.json"
    game.write_text(json.dumps(data), encoding="utf-8")
    done = run_with(tmp_path, "--lexicon", str(spanish_list), "replay", str(game))
    assert done.returncode == 2
    assert "Tour 1" in done.stderr and "« K » n'est pas une tuile du jeu « es »" in done.stderr


def test_a_record_of_an_unknown_set_and_a_set_without_a_list_are_said(tmp_path):
    data = {"format": "duplicate-game/2", "letters": "tlh", "lexicon": "x", "rounds": [], "total": 0}
    game = tmp_path / "tlh.json"
    game.write_text(json.dumps(data), encoding="utf-8")
    done = run_with(tmp_path, "replay", str(game))
    assert done.returncode == 2
    assert "« tlh » inconnu" in done.stderr
    klingon = LetterSet.make("tlh", (("A", 1, 10), ("B", 2, 10)))
    with pytest.raises(CliError) as refused:
        Lexicons(None, klingon).get()
    assert "--lexicon" in refused.value.message.text("en")


@pytest.mark.slow
def test_a_set_plays_with_its_shipped_list_when_none_is_given(tmp_path):
    game = tmp_path / "juego.json"
    played = run_with(tmp_path, "--letters", "es", "play", "--seed", "1", "--out", str(game))
    assert played.returncode == 0, played.stderr
    data = json.loads(game.read_text(encoding="utf-8"))
    assert data["letters"] == "es" and data["lexicon"] == "es-hunspell"
    replayed = run_with(tmp_path, "replay", str(game))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


# -- original games ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["joker", "explosive", "7of8"])
def test_an_original_game_is_played_replayed_and_listed_and_another_variant_refused(tmp_path, variant):
    game = tmp_path / f"{variant}.json"
    played = run("--variant", variant, "play", "--seed", "4", "--out", str(game))
    assert played.returncode == 0, played.stderr
    data = json.loads(game.read_text(encoding="utf-8"))
    assert (data["format"], data["letters"], data["variant"]) == ("duplicate-game/2", "fr", variant)
    done = run("replay", str(game), "--json")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) == len(data["rounds"])
    assert all(r["top"] == r["expected"] and r["tied"] == r["expected_tied"] for r in rows)
    assert run("--variant", variant, "replay", str(game)).returncode == 0
    best = run("best", str(game), "5", "--n", "3", "--json")
    assert best.returncode == 0, best.stderr
    assert json.loads(best.stdout)[0]["score"] == data["rounds"][4]["score"]
    other = run("--variant", "classic", "replay", str(game))
    assert other.returncode == 2 and f"« {variant} », pas « classic »" in other.stderr


def test_grade_refuses_a_slip_of_eight_tiles_in_seven_among_eight(tmp_path):
    words = tmp_path / "mots.txt"
    words.write_text("TRANSIES\nSATINER\n", encoding="utf-8")
    rounds = [{"rack": "AEINRSST", "ref": "H2", "word": "SATINER", "score": 66}]
    data = {"format": "duplicate-game/2", "letters": "fr", "lexicon": "mots", "variant": "7of8"}
    game = tmp_path / "huit.json"
    game.write_text(json.dumps({**data, "rounds": rounds, "total": 66}), encoding="utf-8")
    done = run_with(tmp_path, "--lexicon", str(words), "grade", str(game), "1", "H1 TRANSIES 104", "--json")
    assert done.returncode == 0, done.stderr
    graded = json.loads(done.stdout)
    assert (graded["paid"], graded["sanction"], graded["reason"]) == (0, "zero", "place")
    assert "au plus 7 lettres" in graded["message"]
    paid = run_with(tmp_path, "--lexicon", str(words), "grade", str(game), "1", "H2 SATINER 66", "--json")
    assert json.loads(paid.stdout)["paid"] == 66
