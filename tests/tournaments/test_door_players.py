"""Hold the door: the CSV player import.  Any file is either imported whole or refused with what is
wrong (every bad row with its line), never a 500 and never a part of it; each limit holds just under
and refuses just over; the file is read before the write lock, in a constant number of queries; the
tournament page draws no QR code (the table cards page does)."""

from __future__ import annotations

import codecs
import csv
import html
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from server.writes import ServiceError
from tournaments import services
from tournaments.services import players_csv
from tournaments.services.players_csv import MAX_CSV_BYTES, MAX_CSV_ROWS, MAX_TABLE, CsvRefused

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
HEADER = "Nom;Club;Licence;Série;Catégorie;Table\n"


def _post(client, tournament, data: bytes, name: str = "joueurs.csv"):
    upload = SimpleUploadedFile(name, data, content_type="text/csv")
    return client.post(reverse("tournaments:players_import", args=[tournament.pk]), {"file": upload})


def _page(response) -> str:
    """The page's text as a reader sees it (entities decoded)."""
    return html.unescape(response.content.decode())


def _problems(response) -> list[str]:
    """The bad rows the page lists, as shown."""
    found = re.search(r'<ul class="errors csv-problems"[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", found.group(1))] if found else []


def _refusal(tournament, data: bytes) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        services.players_import_csv(tournament=tournament, data=data)
    return refused.value


# -- what a spreadsheet sends --------------------------------------------------------------------


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: text.encode("utf-8"),
        lambda text: codecs.BOM_UTF8 + text.encode("utf-8"),
        lambda text: text.encode("utf-16"),  # with its byte-order mark, little-endian here
        lambda text: codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
        lambda text: text.encode("cp1252"),
        lambda text: text.encode("latin-1"),
    ],
    ids=["utf-8", "utf-8-bom", "utf-16-le", "utf-16-be", "cp1252", "latin-1"],
)
def test_a_french_list_reads_the_same_in_every_encoding_a_spreadsheet_writes(
    arbiter_client, tournament, encode
):
    text = HEADER + "Élise Dupré;Lyon;123;4B;Vermeil;7\r\nZoë Ñúñez;Nice;;2;;\r\n"
    response = _post(arbiter_client, tournament, encode(text))
    assert response.status_code == 302
    assert list(tournament.players.values_list("name", "club", "category", "table_number")) == [
        ("Zoë Ñúñez", "Nice", "", 1),
        ("Élise Dupré", "Lyon", "V", 7),
    ]


def test_a_one_column_list_of_names_keeps_the_commas_in_the_names(arbiter_client, tournament):
    response = _post(arbiter_client, tournament, "Nom\nDupré, Élise\nMarc\n".encode())
    assert response.status_code == 302
    assert list(tournament.players.values_list("name", "table_number")) == [("Dupré, Élise", 1), ("Marc", 2)]


def test_columns_in_any_order_with_unknown_ones_ignored_and_tabs_between_cells(tournament):
    data = "Table\tE-mail\tName\tCategory\n12\ta@b.fr\tAnne\tBenjamin\n\n\t\t\t\n\tx@y.fr\tBen\t\n"
    created = services.players_import_csv(tournament=tournament, data=data.encode())
    assert [(p.name, p.table_number, p.category) for p in created] == [("Anne", 12, "B"), ("Ben", 1, "")]


def test_rows_without_a_table_take_the_first_tables_neither_registered_nor_given_in_the_file(
    tournament, players
):
    data = (HEADER + "Denis;;;;;\nEstelle;;;;;5\nFanny;;;;;\nGaston;;;;;4\n").encode()
    services.players_import_csv(tournament=tournament, data=data)
    assert list(tournament.players.values_list("name", "table_number")) == [
        ("Alice", 1), ("Bruno", 2), ("Chloé", 3), ("Gaston", 4), ("Estelle", 5), ("Denis", 6), ("Fanny", 7),
    ]  # fmt: skip


# -- bad rows: nothing imported, every one of them said -----------------------------------------

BAD_ROWS = [
    (";Lyon;;;;", "Ligne 2 : nom vide."),
    ("Anne;;;;Cadette royale;", "Ligne 3 : catégorie « Cadette royale » inconnue."),
    ("Ben;;;;;²", "Ligne 4 : table « ² » illisible."),
    ("Carl;;;;;99999999999999999999", "Ligne 5 : table 99999999999999999999 hors de 1 à 9999."),
    ("Dora;;;;;0", "Ligne 6 : table 0 hors de 1 à 9999."),
    ("Eve;;;;;10000", "Ligne 7 : table 10000 hors de 1 à 9999."),
    (f"{'N' * 121};;;;;", "Ligne 8 : nom de plus de 120 caractères."),
    ("Fred;;" + "1" * 31 + ";;;", "Ligne 9 : licence de plus de 30 caractères."),
    ("Gina;;;12345;;", "Ligne 10 : série de plus de 4 caractères."),
    ("Hugo\x1b[31m;;;;;", "Ligne 11 : nom avec un caractère interdit (U+001B)."),
    ("Iris;;;;;1", "Ligne 12 : la table 1 est déjà prise."),
    ("Jean;;;;;8", None),
    ("Kim;;;;;8", "Ligne 14 : la table 8 est déjà donnée ligne 13."),
    ("Léa;;;;;;;surplus", "Ligne 15 : plus de 6 colonnes."),
    ("Marc;;;;;2147483648", "Ligne 16 : table 2147483648 hors de 1 à 9999."),
    ("Nina;;;;;-3", "Ligne 17 : table « -3 » illisible."),
]


def test_a_file_with_bad_rows_imports_nothing_and_says_every_bad_row_with_its_line(
    arbiter_client, tournament, players
):
    rows = "\n".join(row for row, _said in BAD_ROWS)
    response = _post(arbiter_client, tournament, (HEADER + rows + "\n").encode())
    assert response.status_code == 200
    assert tournament.players.count() == 3
    assert "Lignes refusées : 15. Rien n'a été importé" in _page(response)
    assert _problems(response) == [said for _row, said in BAD_ROWS if said]


def test_each_bad_row_is_said_in_french_and_english(tournament, players):
    rows = "\n".join(row for row, _said in BAD_ROWS)
    refusal = _refusal(tournament, (HEADER + rows + "\n").encode())
    assert isinstance(refusal, CsvRefused)
    assert [message.text("fr") for message in refusal.rows] == [said for _row, said in BAD_ROWS if said]
    english = [message.text("en") for message in refusal.rows]
    assert english[0] == "Line 2: empty name." and english[10] == "Line 12: table 1 is taken."
    assert refusal.message.text("en") == (
        "Rows refused: 15. Nothing was imported: correct the file and send it again."
    )


def test_hundreds_of_bad_rows_list_the_first_fifty_and_count_the_others(arbiter_client, tournament):
    data = HEADER + "".join(f"Joueur {n};;;;Inconnue;\n" for n in range(300))
    response = _post(arbiter_client, tournament, data.encode())
    problems = _problems(response)
    assert (
        len(problems) == 50 and problems[0].startswith("Ligne 2 :") and problems[-1].startswith("Ligne 51 :")
    )
    assert "… et 250 autres problèmes." in _page(response)
    assert not tournament.players.exists()


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"\n\r\n ; ;\n", "Le fichier CSV est vide."),
        (b"PK\x03\x04\x14\x00\x06\x00" + bytes(range(256)) * 4, "Ce fichier n'est pas du texte"),
        ("Nom;Table\nAnne;1\n".encode("utf-16-le"), "Ce fichier n'est pas du texte"),  # no BOM
        (codecs.BOM_UTF16_LE + b"N\x00o\x00m\x00\n\x00\x00\xd8", "commence comme un texte UTF-16"),
        (codecs.BOM_UTF8 + b"Nom\n\xff\xfe\n", "commence comme un texte UTF-8"),
        (b"Club;Table\nLyon;3\n", "La ligne d'en-tête n'a pas de colonne « nom »."),
        (HEADER.encode() + b"Anne;" + b"x" * 200_000 + b";;;;\nBen;;;;;\n", "Ligne 2 : illisible"),
        (HEADER.encode() + b'Zoe;;;;;\n"Anne;Lyon;;;;\nBen;;;;;\n', "Ligne 3 : illisible"),
    ],
    ids=[
        "blank",
        "zip",
        "utf-16-without-bom",
        "utf-16-broken",
        "utf-8-bom-broken",
        "no-name-column",
        "huge-field",
        "open-quote",
    ],
)
def test_files_that_are_no_player_list_are_refused_with_the_reason(arbiter_client, tournament, data, said):
    response = _post(arbiter_client, tournament, data)
    assert response.status_code == 200
    assert said in _page(response)
    assert not tournament.players.exists()


def test_an_empty_file_is_refused_by_the_form(arbiter_client, tournament):
    response = _post(arbiter_client, tournament, b"")
    assert response.status_code == 200 and not tournament.players.exists()
    assert 'class="error" role="alert"' in _page(response)


# -- the limits: just under, just over ------------------------------------------------------------


def _rows(count: int, start: int = 0) -> bytes:
    return (HEADER + "".join(f"Joueur {n};Club;;;;\n" for n in range(start, start + count))).encode()


def test_a_file_of_the_row_limit_is_imported(arbiter_client, tournament):
    response = _post(arbiter_client, tournament, _rows(MAX_CSV_ROWS))
    assert response.status_code == 302
    assert tournament.players.count() == MAX_CSV_ROWS == 3_000
    assert tournament.players.order_by("-table_number").first().table_number == MAX_CSV_ROWS


def test_a_file_over_the_row_limit_is_refused_whole(arbiter_client, tournament):
    response = _post(arbiter_client, tournament, _rows(MAX_CSV_ROWS + 1))
    assert "Le fichier a plus de 3000 joueurs : au plus 3000 par import." in _page(response)
    assert not tournament.players.exists()


def test_a_file_just_under_the_size_limit_is_read(arbiter_client, tournament):
    data = _rows(3)
    data += b"\n" * (MAX_CSV_BYTES - len(data))
    assert len(data) == MAX_CSV_BYTES
    assert _post(arbiter_client, tournament, data).status_code == 302
    assert tournament.players.count() == 3


def test_a_file_just_over_the_size_limit_is_refused_before_it_is_read(arbiter_client, tournament):
    data = _rows(3)
    data += b"\n" * (MAX_CSV_BYTES + 1 - len(data))
    response = _post(arbiter_client, tournament, data)
    assert "Fichier CSV trop gros : au plus 2 Mo." in _page(response)
    assert not tournament.players.exists()
    with pytest.raises(ServiceError):  # the service holds the limit too
        services.players_import_csv(tournament=tournament, data=data)


@pytest.mark.parametrize(
    ("column", "limit"), [(0, 120), (1, 120), (2, 30), (3, 4)], ids=["name", "club", "licence", "series"]
)
def test_each_text_is_taken_up_to_its_columns_length_and_refused_past_it(tournament, column, limit):
    def row(length: int) -> bytes:
        cells = ["Anne", "", "", "", "", ""]
        cells[column] = "é" * length
        return (HEADER + ";".join(cells) + "\n").encode()

    refusal = _refusal(tournament, row(limit + 1))
    assert refusal.rows[0].text("fr").endswith(f"de plus de {limit} caractères.")
    [player] = services.players_import_csv(tournament=tournament, data=row(limit))
    assert (
        len(player.name if column == 0 else (player.club, player.licence, player.series)[column - 1]) == limit
    )


def test_tables_run_from_1_to_the_limit(tournament):
    created = services.players_import_csv(
        tournament=tournament, data=(HEADER + f"Anne;;;;;1\nBen;;;;;{MAX_TABLE}\nCarl;;;;;0009\n").encode()
    )
    assert [p.table_number for p in created] == [1, 9999, 9]
    for table in ("0", str(MAX_TABLE + 1)):
        assert (
            _refusal(tournament, (HEADER + f"Dora;;;;;{table}\n").encode()).rows[0].code == "csv_table_range"
        )


def test_a_row_left_without_a_free_table_up_to_the_limit_is_refused(tournament, monkeypatch):
    monkeypatch.setattr(players_csv, "MAX_TABLE", 3)
    refusal = _refusal(tournament, (HEADER + "Anne;;;;;2\nBen;;;;;\nCarl;;;;;\nDora;;;;;\n").encode())
    assert [m.text("fr") for m in refusal.rows] == ["Ligne 5 : plus de table libre jusqu'à 3."]
    assert not tournament.players.exists()


# -- how the import runs ----------------------------------------------------------------------------


@pytest.mark.parametrize("rows", [1, 10, MAX_CSV_ROWS])
def test_the_import_takes_the_same_few_queries_whatever_the_number_of_rows(
    tournament, players, rows, django_assert_max_num_queries
):
    data = _rows(rows)
    # The codes already held (read before the lock), the tables in use, the insert (and a savepoint's two).
    with django_assert_max_num_queries(5):
        created = services.players_import_csv(tournament=tournament, data=data)
    assert len(created) == rows and tournament.players.count() == rows + 3


def test_a_refused_file_takes_one_query_whatever_the_number_of_bad_rows(
    tournament, django_assert_max_num_queries
):
    data = (HEADER + "".join(f";Club{n};;;;\n" for n in range(MAX_CSV_ROWS))).encode()
    with django_assert_max_num_queries(1):
        refusal = _refusal(tournament, data)
    assert len(refusal.rows) == MAX_CSV_ROWS


def test_the_file_is_read_and_checked_before_the_write_lock_is_taken(tournament, monkeypatch):
    held = []
    writing, read = players_csv.writing, players_csv.players_csv_read

    def watched_writing():
        held.append("lock")
        return writing()

    def watched_read(data, **kwargs):
        assert not held, "the file was read inside the write lock"
        return read(data, **kwargs)

    monkeypatch.setattr(players_csv, "writing", watched_writing)
    monkeypatch.setattr(players_csv, "players_csv_read", watched_read)
    services.players_import_csv(tournament=tournament, data=_rows(5))
    assert held == ["lock"] and tournament.players.count() == 5


def test_a_table_taken_from_another_screen_during_the_import_imports_nothing(
    tournament, players, monkeypatch
):
    """The tables in use were read, then Alice's table 1 was given again: the insert is refused whole."""
    monkeypatch.setattr(players_csv.selectors, "tables_in_use", lambda tournament: set())
    refusal = _refusal(tournament, (HEADER + "Denis;;;;;1\nEstelle;;;;;\n").encode())
    assert refusal.message.code == "csv_tables_changed"
    assert list(tournament.players.values_list("name", flat=True)) == ["Alice", "Bruno", "Chloé"]


# -- fuzz: any file is imported whole or refused, never in part, never a 500 ----------------------

_ODD = st.sampled_from(
    ["\x00", "\x1b", "\u202e", "\ufeff", "\u0301", "²", "٣", "１", "\U0001f600", "=", '"', ";", ",", "\t",
     "\r", "\n", "\r\n", "é", "Œ", " ", "9999", "10000", "0", "-1", "Vermeil", "v", "cadet"]
)  # fmt: skip
_CELL = st.one_of(
    st.text(max_size=12),
    st.lists(_ODD, max_size=5).map("".join),
    st.sampled_from(["", "Anne", "Lyon", "4B", "Vermeil", "7", "12", "N" * 121, "x" * 200]),
)
_ENCODINGS = st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "cp1252", "latin-1"])


@st.composite
def _csv_files(draw) -> tuple[bytes, int]:
    """A file a spreadsheet (or an attacker) could write, and how many player rows it holds: its rows
    that are not blank, read with the separator its first line suggests, less its header."""
    delimiter = draw(st.sampled_from([";", ",", "\t"]))
    rows = draw(st.lists(st.lists(_CELL, min_size=1, max_size=7), max_size=8))
    header = draw(st.booleans())
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)
    if header:
        writer.writerow(["Nom", "Club", "Licence", "Série", "Catégorie", "Table"])
    writer.writerows(rows)
    text = out.getvalue()
    try:
        data = text.encode(draw(_ENCODINGS))
    except UnicodeEncodeError:
        data = text.encode("utf-8", errors="surrogatepass")
    read = csv.reader(io.StringIO(text, newline=""), delimiter=players_csv._delimiter(text))
    return data, sum(1 for row in read if any(cell.strip() for cell in row)) - header


def _imported_or_refused(client, tournament, data: bytes) -> tuple[int, int]:
    """Post the file: (status, players added), after checking the page says which happened."""
    before = tournament.players.count()
    response = _post(client, tournament, data)
    added = tournament.players.count() - before
    assert response.status_code in (200, 302)
    if response.status_code == 302:
        said = client.get(response["Location"]).content.decode()
        assert re.search(rf"\b{added} joueurs? importés?\.", said), said[-2000:]
    else:
        assert added == 0
        assert 'role="alert"' in _page(response)
    return response.status_code, added


@FUZZ
@given(file=_csv_files())
@example(file=("Nom;Table\nAnne;²\n".encode(), 1))
@example(file=(b"Anne;;;;;99999999999999999999\n", 1))
@example(file=("Nom;Table\nAnne Dupré;\n\n;\nBen;\n".encode("utf-16"), 2))
def test_any_spreadsheet_file_is_imported_whole_or_refused(arbiter_client, tournament, file):
    data, rows = file
    status, added = _imported_or_refused(arbiter_client, tournament, data)
    assert added == (rows if status == 302 else 0)


@FUZZ
@given(data=st.one_of(st.binary(max_size=3000), st.binary(max_size=100).map(lambda b: HEADER.encode() + b)))
@example(data=b"")
@example(data=b"\xff\xfe")
@example(data=b"\xfe\xff\x00")
@example(data=b'"' * 5000)
def test_any_bytes_are_imported_whole_or_refused(arbiter_client, tournament, data):
    _imported_or_refused(arbiter_client, tournament, data)


# -- the tournament page: a link per player, no QR code (the table cards page draws them) --------------


def test_the_tournament_page_of_two_thousand_players_draws_no_qr_code(arbiter_client, tournament):
    services.players_import_csv(tournament=tournament, data=_rows(2000), max_rows=2000)
    page = _page(arbiter_client.get(reverse("tournaments:tournament_detail", args=[tournament.pk])))
    assert "<svg" not in page and page.count("/j/") == 2 * 2000  # each link, as its href and its text
    assert len(page) < 2_000_000  # a QR code per player would make it 18 MB
