"""The printed sheets: built from plain data, parsed back with pypdf (no database)."""

from __future__ import annotations

import dataclasses
import datetime
import io
import re
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from engine.ranking import Row
from results.reports import cards as card_layout
from results.reports import game as game_layout
from results.reports import ranking as ranking_layout
from results.reports import render
from results.reports.board import BoardGrid
from results.reports.data import (
    CardRound,
    GameRound,
    GameSheet,
    RankingSheet,
    ScoreCard,
    SheetHeader,
)
from results.reports.sample import TEXTS, board_of, sample_evening, sample_results
from results.reports.text import LABELS, day, duration, fit, label_value, pdf_text, percent, signed

CHECKSUM = "9b1f0c3e5a7d2b4c6e8f0a1b3c5d7e9f00112233445566778899aabbccddeeff"
LONG_NAME = "Marie-Thérèse de La Tour d'Auvergne-Lauraguais Castelnau-Montmirail, épouse Exupéry de La Fin"
#: The header's settings as the sheet's language names them: (grading, base, tie-break).
SETTINGS = {
    "fr": ("calculé", "scores seuls", "dernière partie"),
    "en": ("computed", "scores only", "last game"),
    "es": ("calculada", "solo puntuaciones", "última partida"),
    "ca": ("calculada", "només puntuacions", "darrera partida"),
}


def _header(lang: str = "fr", **changes) -> SheetHeader:
    header = SheetHeader(
        tournament="Festival de Vichy",
        game="Partie 3",
        date=datetime.date(2026, 5, 14),
        place="Palais des congrès",
        lexicon="ODS 9",
        lexicon_checksum=CHECKSUM,
        grading=SETTINGS[lang][0],
        grace_seconds=3,
        round_seconds=150,
        base=SETTINGS[lang][1],
        tie_break=SETTINGS[lang][2],
        generated_at=datetime.datetime(2026, 5, 14, 17, 5),
        lang=lang,
    )
    return dataclasses.replace(header, **changes)


def _row(rank: int, name: str, total: int = 700, **changes) -> Row:
    row = Row(
        rank=rank,
        series_rank=rank,
        category_rank=0,
        table=rank,
        name=name,
        club="Club de Vichy",
        series="4B",
        category="Vermeil",
        total=total,
        paid=total,
        negatif=total - 800,
        percent=round(100 * total / 800, 2),
        percent_total=round(100 * total / 800, 2),
        percent_paid=round(100 * total / 800, 2),
        solos=0,
        warnings=0,
        penalty=0,
    )
    return dataclasses.replace(row, **changes)


def _ranking(names, lang: str = "fr", solos=()) -> RankingSheet:
    rows = tuple(_row(i + 1, name, 780 - 3 * i) for i, name in enumerate(names))
    return RankingSheet(header=_header(lang), top=800, rows=rows, solos=solos)


def _card(name: str, lang: str = "fr", rounds: int = 20, reason: str = "") -> ScoreCard:
    card_rounds = tuple(
        CardRound(
            number=n,
            slip=f"H{n % 9 + 2} MOT{n} 20",
            paid=20,
            sanction="-5" if reason else "",
            reason=reason,
            top=30,
            top_move=f"H{n % 9 + 2} MOTS",
            total=20 * n,
        )
        for n in range(1, rounds + 1)
    )
    row = _row(
        12, name, total=20 * rounds + 5, table=7, series="2", category="Jeunes", paid=20 * rounds,
        solos=1, warnings=4, penalty=5, percent=round(100 * (20 * rounds + 5) / (30 * rounds), 2),
    )  # fmt: skip
    return ScoreCard(
        header=_header(lang),
        row=row,
        rounds=card_rounds,
        solo_points=10,
        top=30 * rounds,
    )


def _game(rounds: int = 20, lang: str = "fr") -> GameSheet:
    played = tuple(
        GameRound(
            number=n,
            rack=f"-ABCDE{n:02d}" if n == 5 else f"EIR+ST{n:02d}",
            rejected=("UUOIAEE", "IIUEAOA") if n == 5 else (),
            ref=f"H{n % 9 + 2}",
            word="FAVoRI" if n == 1 else f"MOT{n}",
            score=30 + n,
            cumulated=sum(30 + k for k in range(1, n + 1)),
            tied=n % 3,
        )
        for n in range(1, rounds + 1)
    )
    board = board_of([("", (), "H4", "FAVoRI", 30, 1), ("", (), "4H", "FEZ", 20, 1)])
    return GameSheet(header=_header(lang), rounds=played, board=board, total=played[-1].cumulated)


def _read(pdf: bytes) -> tuple[int, str]:
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_ranking_sheet_lists_forty_players_with_their_figures_over_numbered_pages():
    names = [f"Joueur numéro {i:02d}" for i in range(40)]
    filename, mimetype, pdf = render.ranking_sheet(_ranking(names))
    pages, text = _read(pdf)
    assert (filename, mimetype) == ("classement-festival-de-vichy-partie-3.pdf", "application/pdf")
    assert pages == 2
    assert "page 1 / 2" in text and "page 2 / 2" in text
    assert all(name in text for name in names)
    assert "780" in text and "-20" in text and "97,50" in text


def test_ranking_table_header_is_repeated_on_every_page():
    pdf = render.ranking_sheet(_ranking([f"Joueur {i}" for i in range(60)]))[2]
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert all("Négatif" in page.extract_text() for page in reader.pages)


def test_accents_and_ligatures_come_out_right():
    names = ["Chloé Dupré", "Zoë Lefèvre", "Œdipe Cœur", "Ça « va »"]
    text = _read(render.ranking_sheet(_ranking(names))[2])[1]
    assert "Chloé Dupré" in text and "Zoë Lefèvre" in text and "Œdipe Cœur" in text and "Ça « va »" in text


def test_header_prints_every_setting_the_sheet_was_played_with():
    text = _read(render.ranking_sheet(_ranking(["Anne"]))[2])[1]
    for expected in (
        "Festival de Vichy",
        "Classement — Partie 3",
        "14/05/2026",
        "Palais des congrès",
        "ODS 9 (sha256 9b1f0c3e5a7d)",
        "Arbitrage : calculé",
        "Délai de grâce : 3 s",
        "Temps par coup : 2 min 30 s",
        "Base : scores seuls",
        "Départage : dernière partie",
        "Imprimé le : 14/05/2026 à 17:05",
        "Top : 800",
    ):
        assert expected in text
    assert CHECKSUM not in text


def test_english_sheets_use_english_labels():
    ranking = render.ranking_sheet(_ranking(["Anne"], lang="en"))
    game = render.game_sheet(_game(lang="en"))
    cards = render.score_cards([_card("Anne", lang="en")])
    texts = [_read(pdf)[1] for _, _, pdf in (ranking, game, cards)]
    assert ranking[0] == "ranking-festival-de-vichy-partie-3.pdf"
    assert "Ranking — Partie 3" in texts[0] and "Grace window: 3 s" in texts[0] and "Below" in texts[0]
    assert "Printed: 2026-05-14 at 17:05" in texts[0] and "page 1 / 1" in texts[0]
    assert "Game sheet" in texts[1] and "Final board" in texts[1] and "triple word" in texts[1]
    assert "Score card" in texts[2] and "Reason" in texts[2] and "Warnings" in texts[2]
    assert not any(word in text for text in texts for word in ("Classement", "Négatif", "Lieu", "Motif"))


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "es",
            (
                ("Clasificación — Partie 3", "Periodo de gracia: 3 s", "Negativo", "Puntos", "Pos.", "Mesa"),
                ("Impreso: 14/05/2026 a las 17:05", "página 1 / 1", "Desempate: última partida"),
                ("Hoja de partida", "Tablero final", "palabra triple", "comodín (minúscula)", "Atril"),
                ("Planilla del jugador", "Motivo", "Advertencias", "Papeleta", "Penalización", "Puesto"),
            ),
        ),
        (
            "ca",
            (
                ("Classificació — Partie 3", "Temps de gràcia: 3 s", "Negatiu", "Punts", "Pos.", "Taula"),
                ("Imprès: 14/05/2026 a les 17:05", "pàgina 1 / 1", "Desempat: darrera partida"),
                ("Full de partida", "Tauler final", "paraula triple", "escarràs (minúscula)", "Faristol"),
                ("Full de puntuació", "Motiu", "Advertiments", "Butlleta", "Penalització", "Posició"),
            ),
        ),
    ],
)
def test_spanish_and_catalan_sheets_use_their_own_labels(lang, expected):
    ranking = render.ranking_sheet(_ranking(["Anne"], lang=lang, solos=((4, "Anne"),)))
    game = render.game_sheet(_game(lang=lang))
    cards = render.score_cards([_card("Anne", lang=lang, reason="x")])
    ranking_text, game_text, card_text = (_read(pdf)[1] for _, _, pdf in (ranking, game, cards))
    assert ranking[0] == f"{LABELS[lang]['file_ranking']}-festival-de-vichy-partie-3.pdf"
    for text, words in (
        (ranking_text, expected[0] + expected[1]),
        (game_text, expected[2]),
        (card_text, expected[3]),
    ):
        assert [word for word in words if word not in text] == []
    assert "67,50" in card_text and "97,50" in ranking_text  # a decimal comma
    assert f"Solos — {LABELS[lang]['solo_item'].format(round=4, name='Anne')}." in ranking_text
    french_or_english = (
        "Classement",
        "Négatif",
        "Lieu",
        "Motif",
        "Ranking",
        "Below",
        "Reason",
        "Warnings",
        "Tirage",
    )
    assert [
        word for text in (ranking_text, game_text, card_text) for word in french_or_english if word in text
    ] == []


def test_every_language_of_the_sheets_has_every_label_of_the_french_ones():
    french = LABELS["fr"]
    for lang, labels in LABELS.items():
        assert labels.keys() == french.keys(), lang
        assert all(text.strip() for text in labels.values()), lang
        # The same fields to fill in ("{round}", "{name}"…) as the French label.
        for key, text in labels.items():
            assert re.findall(r"{\w+}", text) == re.findall(r"{\w+}", french[key]), (lang, key)
        # Every label prints in the standard fonts as written (accents included).
        lines = [line for text in labels.values() for line in text.split("\n")]
        assert [line for line in lines if pdf_text(line) != line] == [], lang
    assert set(TEXTS) == set(LABELS) and all(TEXTS[lang].keys() == TEXTS["fr"].keys() for lang in TEXTS)


def test_every_column_heading_fits_its_column_in_every_language():
    """A table's heading is one line per label line, not wrapped: Spanish and Catalan words are longer
    than English ones, and each must stay inside its column's rules (padding may be eaten, not more)."""
    tables = (
        (ranking_layout.COLUMNS, 7.5),
        ((ranking_layout.CENTRE,), 7.5),
        (game_layout.COLUMNS, 7.5),
        (card_layout.COLUMNS, 7.5),
        (card_layout.CUT_COLUMNS, 7),  # an A6 card's widths, the narrowest
    )
    too_wide = [
        (lang, key, line)
        for lang, labels in LABELS.items()
        for columns, size in tables
        for key, width in columns
        if width >= 1
        for line in labels[key].split("\n")
        if stringWidth(line, "Helvetica-Bold", size) > width - 2
    ]
    assert too_wide == []


def test_spanish_and_catalan_write_a_label_and_its_value_and_a_date_as_they_do():
    assert [label_value(lang, "X") for lang in ("fr", "en", "es", "ca")] == ["X\u00a0: ", "X: ", "X: ", "X: "]
    may = datetime.date(2026, 5, 14)
    assert [day(may, lang) for lang in ("fr", "en", "es", "ca")] == [
        "14/05/2026",
        "2026-05-14",
        "14/05/2026",
        "14/05/2026",
    ]


def test_solos_are_announced_under_the_ranking():
    sheet = _ranking(["Anne", "Basile"], solos=((4, "Anne"), (17, "Basile")))
    text = _read(render.ranking_sheet(sheet)[2])[1]
    assert "Solos — coup 4 : Anne ; coup 17 : Basile." in text


def test_a_ranking_without_solo_says_so():
    assert "Aucun solo." in _read(render.ranking_sheet(_ranking(["Anne"]))[2])[1]


def test_names_outside_the_standard_fonts_are_replaced_not_fatal():
    names = ["Œlla Groß", "Mia 🌟 Dupont", "王芳", "Nguyễn Văn", "a\u2212b"]
    text = _read(render.ranking_sheet(_ranking(names))[2])[1]
    assert "Œlla Groß" in text and "Mia Dupont" in text and "??" in text and "Nguyen Van" in text
    assert "a-b" in text and "\u2212" not in text


def test_a_very_long_name_wraps_in_its_cell_and_is_not_lost():
    ranking_text = _read(render.ranking_sheet(_ranking([LONG_NAME, "Anne"]))[2])[1]
    card_text = _read(render.score_cards([_card(LONG_NAME)])[2])[1]
    for text in (ranking_text, card_text):
        assert "Marie-Thérèse" in text and "de La Fin" in text
    assert "Club de Vichy" in ranking_text


def test_absurdly_long_texts_are_clipped_rather_than_breaking_the_layout():
    pages, text = _read(render.ranking_sheet(_ranking(["Nom " * 2000]))[2])
    assert pages == 1 and "…" in text


def test_game_sheet_lists_every_round_and_draws_the_board_on_one_page():
    filename, _, pdf = render.game_sheet(_game(20))
    pages, text = _read(pdf)
    assert filename == "feuille-de-partie-festival-de-vichy-partie-3.pdf"
    assert pages == 1
    assert all(f"MOT{n}" in text for n in range(2, 21))
    assert "FAVoRI" in text and "Top de la partie" in text and str(sum(range(31, 51))) in text
    assert "Grille finale" in text and "mot compte triple" in text and "joker (minuscule)" in text


def test_game_sheet_prints_rejected_racks_before_the_rack_played():
    text = _read(render.game_sheet(_game(20))[2])[1]
    assert "UUOIAEE" in text and "IIUEAOA" in text
    assert text.index("UUOIAEE") < text.index("-ABCDE05")


def test_a_long_game_runs_on_to_a_second_page_for_the_board():
    pages, text = _read(render.game_sheet(_game(40))[2])
    assert pages == 2 and "page 2 / 2" in text


def test_board_needs_its_225_cells():
    with pytest.raises(ValueError):
        BoardGrid(("",) * 224, "fr")


def test_score_cards_take_one_page_each_and_report_progress_after_each_card():
    calls = []
    cards = [_card(f"Joueur {i}") for i in range(40)]
    filename, _, pdf = render.score_cards(cards, progress=lambda done, total: calls.append((done, total)))
    pages, text = _read(pdf)
    assert filename == "fiches-festival-de-vichy-partie-3.pdf"
    assert pages == 40
    assert calls == [(n, 40) for n in range(1, 41)]
    assert all(f"Joueur {i}" in text for i in range(40))


def test_score_card_shows_each_round_and_the_end_of_game_figures():
    text = _read(render.score_cards([_card("Chloé", reason="référence absente ; mot et score justes")])[2])[1]
    assert "Chloé" in text and "H3 MOT10 20" in text and "référence absente" in text
    assert "Avertissements" in text and "+10" in text and "-5" in text and "405" in text


def test_a_long_reason_wraps_within_the_card():
    reason = "le mot principal est valable mais un rajout ne l'est pas : " + "TRUC " * 30 + "fin du motif"
    pages, text = _read(render.score_cards([_card("Anne", rounds=20, reason=reason)])[2])
    assert "fin du motif" in text and pages >= 1


def test_score_cards_without_any_player_still_make_a_pdf():
    pages, text = _read(render.score_cards([])[2])
    assert pages == 1 and "Aucune fiche" in text


def test_bundle_of_forty_players_holds_every_sheet_and_reports_progress_to_the_end():
    ranking, game, cards = sample_results(players=40)
    calls = []
    filename, mimetype, pdf = render.bundle(ranking, game, cards, progress=lambda d, t: calls.append((d, t)))
    pages, text = _read(pdf)
    assert filename.startswith("resultats-") and mimetype == "application/pdf"
    assert pages == 2 + 1 + 40
    assert calls == [(n, 42) for n in range(1, 43)]
    assert "page 2 / 2" in text and "/ 43" not in text
    assert "Classement" in text and "Feuille de partie" in text and text.count("Fiche du joueur —") == 40
    assert "Chloé Martin" in text and "Zoë Lefèvre" in text and "Étienne Œhmichen" in text


# -- several cards to a sheet, and the whole evening ---------------------------------------------

#: Reasons as the grader words them (engine/grading.py), one line each on an A6 card.
REASONS = (
    "0 — le mot croisé TAJINES (5G) n'est pas dans le dictionnaire.",
    "35 — avertissement : score annoncé 37 (J2 DARIQUE vaut 35).",
    "21 — pénalité de 5 points : référence manquante (le coup se place en 12B).",
)


def _long_card(name: str, table: int, sanctions: int, rounds: int = 25, reason: str = "") -> ScoreCard:
    """A game of ``rounds`` rounds, the first ``sanctions`` of them sanctioned with a reason."""
    card = _card(name, rounds=rounds)
    sanctioned = [
        dataclasses.replace(r, sanction="zéro", reason=reason or REASONS[r.number % 3])
        if r.number <= sanctions
        else r
        for r in card.rounds
    ]
    row = dataclasses.replace(
        card.row, table=table, total=400 + table, club="Les Mots d'Aÿ", category="Vermeil"
    )
    return dataclasses.replace(card, row=row, rounds=tuple(sanctioned))


def _sizes(pdf: bytes) -> set[float]:
    """Every font size set on every page (the ``Tf`` operator)."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    streams = b"".join(page.get_contents().get_data() for page in reader.pages)
    return {float(size) for size in re.findall(rb"/F\d+ ([\d.]+) Tf", streams)}


def _page_texts(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


@pytest.mark.parametrize(("per_page", "pages"), [(1, 9), (2, 5), (4, 3)])
def test_nine_score_cards_take_nine_five_or_three_sheets_with_every_name_and_total(per_page, pages):
    cards = sample_results(players=9)[2]
    filename, _, pdf = render.score_cards(cards, per_page=per_page)
    texts = _page_texts(pdf)
    assert filename == "fiches-coupe-du-club-de-montreal-nord-partie-2.pdf"
    assert len(texts) == pages
    for index, card in enumerate(cards):  # by table, ``per_page`` to a sheet
        text = texts[index // per_page]
        assert pdf_text(card.row.name) in text and f"\n{card.row.total}" in text
    assert "page 2 /" not in "".join(texts)  # no card ran on


def test_two_cards_share_a_landscape_sheet_and_four_an_upright_one_with_cut_lines_between():
    cards = sample_results(players=4)[2]
    for per_page, (width, height) in ((1, (595, 842)), (2, (842, 595)), (4, (595, 842))):
        pdf = render.score_cards(cards, per_page=per_page)[2]
        page = pypdf.PdfReader(io.BytesIO(pdf)).pages[0]
        assert (round(page.mediabox.width), round(page.mediabox.height)) == (width, height)
        assert (b"[3 3] 0 d" in page.get_contents().get_data()) == (per_page > 1)


def test_a_game_of_25_rounds_with_eight_sanctions_fits_on_an_a6_card_never_below_7_pt():
    cards = [_long_card(f"Joueur {n}", n, sanctions=8) for n in range(1, 9)]
    pdf = render.score_cards(cards, per_page=4)[2]
    texts = _page_texts(pdf)
    assert len(texts) == 2 and all(text.count("page 1 / 1") == 4 for text in texts)
    assert all(f"Joueur {n}" in texts[(n - 1) // 4] for n in range(1, 9))
    assert "H2 MOTS" in texts[0] and "n'est pas dans le dictionnaire" in texts[0]
    assert min(_sizes(pdf)) == 7


def test_a_card_too_long_for_its_quarter_runs_on_to_the_next_quarter_numbered_and_whole():
    reason = "le mot principal est valable mais un rajout ne l'est pas : " + "TRUC " * 12 + "fin du motif"
    cards = [_long_card("Anne", 1, sanctions=25, reason=reason), _long_card("Basile", 2, sanctions=0)]
    texts = _page_texts(render.score_cards(cards, per_page=4)[2])
    assert len(texts) == 1
    assert "page 1 / 2" in texts[0] and "page 2 / 2" in texts[0] and "page 1 / 1" in texts[0]
    assert texts[0].count("fin du motif") == 25 and "Basile" in texts[0]


def test_score_cards_come_one_two_or_four_to_a_sheet_only():
    with pytest.raises(ValueError):
        render.score_cards([_card("Anne")], per_page=3)


def test_the_bundle_cuts_its_cards_from_sheets_too():
    ranking, game, cards = sample_results(players=9)
    pages = len(_page_texts(render.bundle(ranking, game, cards, per_page=4)[2]))
    assert pages == 1 + 1 + 3


def test_the_evening_prints_the_tournament_ranking_then_each_game_in_order_and_reports_progress():
    overall, games = sample_evening(games=3, players=9)
    calls = []
    filename, _, pdf = render.evening(overall, games, progress=lambda d, t: calls.append((d, t)), per_page=4)
    texts = _page_texts(pdf)
    assert filename == "soiree-coupe-du-club-de-montreal-nord.pdf"
    assert len(texts) == 1 + 3 * (1 + 1 + 3)
    assert "Classement — Classement général" in texts[0]
    for number in (1, 2, 3):
        first = 1 + (number - 1) * 5
        assert f"Classement — Partie {number}" in texts[first]
        assert f"Feuille de partie — Partie {number}" in texts[first + 1]
        cards = texts[first + 2 : first + 5]
        assert all(f"Fiche du joueur — Partie {number}" in text for text in cards)
        assert all(pdf_text(card.row.name) in "".join(cards) for card in games[number - 1].cards)
    assert calls[-1] == (1 + 3 * 11, 1 + 3 * 11) and len(calls) == 34


def test_the_evening_in_english_is_named_and_labelled_in_english():
    overall, games = sample_evening(games=2, players=3, lang="en")
    filename, _, pdf = render.evening(overall, games, per_page=2)
    text = "".join(_page_texts(pdf))
    assert filename == "evening-coupe-du-club-de-montreal-nord.pdf"
    assert "Ranking — Overall ranking" in text and "Score card — Game 2" in text and "Fiche" not in text


@pytest.mark.parametrize(
    ("lang", "name", "titles"),
    [
        (
            "es",
            "velada",
            ("Clasificación — Clasificación general", "Planilla del jugador — Partida 2", "advertencia"),
        ),
        (
            "ca",
            "vetllada",
            ("Classificació — Classificació general", "Full de puntuació — Partida 2", "advertiment"),
        ),
    ],
)
def test_the_evening_in_spanish_and_catalan_is_named_and_labelled_so(lang, name, titles):
    overall, games = sample_evening(games=2, players=20, lang=lang)
    filename, _, pdf = render.evening(overall, games, per_page=2)
    text = "".join(_page_texts(pdf))
    assert filename == f"{name}-coupe-du-club-de-montreal-nord.pdf"
    assert [title for title in titles if title not in text] == []
    assert "Fiche" not in text and "Score card" not in text


def test_the_sample_players_are_the_same_in_every_language():
    """Only the words change: the same slips, the same warnings and so the same ranking."""
    figures = {
        lang: [(row.name, row.total, row.warnings, row.penalty) for row in sample_results(lang=lang)[0].rows]
        for lang in TEXTS
    }
    assert figures["es"] == figures["ca"] == figures["en"] == figures["fr"]
    assert any(warnings for _, _, warnings, _ in figures["fr"])


def test_text_helpers_keep_what_the_fonts_print():
    assert pdf_text("Cœur\u2212Groß\u200b🌟王") == "Cœur-Groß?"
    assert fit("Castelnau-Montmirail", "Helvetica", 8, 40).endswith("…")
    assert fit("Anne", "Helvetica", 8, 40) == "Anne"
    assert [percent(96.5, lang) for lang in ("fr", "en", "es", "ca")] == ["96,50", "96.50", "96,50", "96,50"]
    assert (signed(-35), signed(0), signed(5)) == ("-35", "0", "+5")
    assert (duration(180), duration(150), duration(45)) == ("3 min", "2 min 30 s", "45 s")


def test_the_renderers_import_neither_django_nor_the_database():
    code = (
        "import sys, results.reports.render, results.reports.bench\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery', 'arbiter')))"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_file_names_spell_out_the_ligatures_of_french_names():
    from results.reports.text import slug

    assert slug("Coupe de l'Œuvre (été)") == "coupe-de-l-oeuvre-ete"
