"""Results in the application: the rankings read from the database (solos, warnings turned into
penalties, several games), the live pages, printouts with their progress, exports and merges."""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path

import pytest
from django.urls import reverse
from pypdf import PdfReader

from live import services as live_services
from results import exports, sheets
from results import services as result_services
from results.models import Printout
from results.reports import render
from tournaments import services, standings
from tournaments.models import Round

GAMES = Path(__file__).resolve().parents[1] / "data" / "reference-games"
HTMX = {"HTTP_HX_REQUEST": "true"}


def _slip(rnd: Round, score: bool = True) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']}" + (f" {top['score']}" if score else "")


def _play(game, number: int, slips) -> Round:
    """One round through the services: draw, start, the slips ``{player: text}``, close, place."""
    rnd = services.round_draw(game_id=game.pk, expected_number=number).round
    rnd = services.round_start(round_id=rnd.pk)
    for player, text in slips(rnd).items():
        live_services.submission_record(player=player, round_id=rnd.pk, text=text)
    services.round_close(round_id=rnd.pk)
    return services.round_place_top(round_id=rnd.pk)


def _prepared(tournament, name="game-001.json"):
    return services.game_start(tournament=tournament, prepared=(GAMES / name).read_text())


def _pdf_text(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


# -- the rankings read from the database ---------------------------------------------------------


def test_warnings_beyond_the_threshold_cost_points_at_the_end_of_the_game(tournament, players):
    """Alice hands in every top without its score: a warning each round (§3.4); with a threshold of 1
    and 5 points each, 3 warnings cost 10."""
    tournament.warning_threshold, tournament.warning_penalty = 1, 5
    tournament.save()
    game = _prepared(tournament)
    alice, bruno, _ = players
    tops = [
        _play(game, n, lambda rnd: {alice: _slip(rnd, score=False), bruno: _slip(rnd)}).top_score
        for n in (1, 2, 3)
    ]

    ranking = standings.game_ranking(game)

    first, second, third = ranking.lines
    assert (first.entrant.key, first.total, first.warnings, first.penalty) == (bruno.pk, sum(tops), 0, 0)
    assert (second.entrant.key, second.paid, second.warnings, second.penalty) == (alice.pk, sum(tops), 3, 10)
    assert second.total == sum(tops) - 10 and ranking.negatif(second) == -10
    assert (third.rank, third.total) == (3, 0)


def test_a_player_alone_with_the_best_score_of_a_round_gets_a_solo_worth_its_setting(tournament, players):
    """With the solo threshold at 3 players, Chloé alone on the top of round 2 gets +10 (§3.5)."""
    tournament.solo_min_players = 3
    tournament.save()
    game = _prepared(tournament)
    alice, bruno, chloe = players
    _play(game, 1, lambda rnd: {alice: _slip(rnd), bruno: _slip(rnd), chloe: _slip(rnd)})
    top2 = _play(game, 2, lambda rnd: {chloe: _slip(rnd)}).top_score

    rows = standings.game_rows(standings.game_ranking(game))

    assert rows.solos == [(2, "Chloé")]
    best = rows.rows[0]
    assert (best.name, best.solos, best.total - best.paid) == ("Chloé", 1, 10)
    assert best.paid == rows.top and top2 > 0


def test_the_tournament_ranking_cumulates_its_games(tournament, players):
    alice, bruno, _ = players
    first, second = _prepared(tournament), _prepared(tournament, "game-002.json")
    top1 = _play(first, 1, lambda rnd: {alice: _slip(rnd)}).top_score
    top2 = _play(second, 1, lambda rnd: {bruno: _slip(rnd)}).top_score

    ranking = standings.tournament_ranking(tournament)

    assert ranking.top == top1 + top2
    by_key = {line.entrant.key: line for line in ranking.lines}
    assert [g.total for g in by_key[alice.pk].games] == [top1, 0]
    assert [g.total for g in by_key[bruno.pk].games] == [0, top2]
    assert ranking.lines[0].entrant.key == (alice.pk if top1 > top2 else bruno.pk)


def test_the_results_key_moves_when_a_round_counts_or_a_slip_is_corrected(tournament, players, arbiter):
    game = _prepared(tournament)
    before = standings.results_key(tournament.pk)
    rnd = _play(game, 1, lambda rnd: {players[0]: _slip(rnd)})
    after_round = standings.results_key(tournament.pk)
    live_services.submission_correct(round_id=rnd.pk, player=players[1], text=_slip(rnd), user=arbiter)
    corrected = standings.results_key(tournament.pk)
    assert len({before, after_round, corrected}) == 3
    # A rack drawn, a clock started, a slip sent: no ranking changes, nor does the key (a hall's
    # 1,500-player ranking is not made again at each).
    second = services.round_draw(game_id=game.pk, expected_number=2).round
    services.round_start(round_id=second.pk)
    second = Round.objects.get(pk=second.pk)  # its top, searched meanwhile
    live_services.submission_record(player=players[0], round_id=second.pk, text=_slip(second))
    assert standings.results_key(tournament.pk) == corrected
    services.round_close(round_id=second.pk)
    closed = standings.results_key(tournament.pk)
    assert closed != corrected
    # A round cancelled once closed (its scores void: the ranking before it, and its key), a game
    # added or abandoned: the rankings change.
    services.round_cancel(round_id=second.pk)
    cancelled = standings.results_key(tournament.pk)
    assert cancelled != closed
    other = _prepared(tournament, "game-002.json")
    added = standings.results_key(tournament.pk)
    services.game_abandon(game_id=other.pk)
    assert added != cancelled and standings.results_key(tournament.pk) != added


# -- the live pages ------------------------------------------------------------------------------


def test_the_game_results_page_shows_the_ranking_and_polls_with_204_until_a_round_counts(
    arbiter_client, tournament, players
):
    game = _prepared(tournament)
    _play(game, 1, lambda rnd: {players[1]: _slip(rnd)})
    url = reverse("results:game_results", args=[game.pk])
    page = arbiter_client.get(url).content.decode()
    assert ("Bruno" in page and "100,00" in page) or "100.00" in page
    key = standings.results_key(tournament.pk)
    assert arbiter_client.get(url, {"v": key}, **HTMX).status_code == 204
    _play(game, 2, lambda rnd: {players[2]: _slip(rnd)})
    partial = arbiter_client.get(url, {"v": key}, **HTMX)
    assert partial.status_code == 200 and "Chloé" in partial.content.decode()


def test_the_tournament_results_page_has_a_column_per_game(arbiter_client, tournament, players):
    first, second = _prepared(tournament), _prepared(tournament, "game-002.json")
    top1 = _play(first, 1, lambda rnd: {players[0]: _slip(rnd)}).top_score
    _play(second, 1, lambda rnd: {})
    page = arbiter_client.get(reverse("results:tournament_results", args=[tournament.pk])).content.decode()
    assert "P1" in page and "P2" in page and f'<td class="num">{top1}</td>' in page


def test_results_pages_need_the_arbiter(client, game):
    for url in (
        reverse("results:game_results", args=[game.pk]),
        reverse("results:tournament_results", args=[game.tournament_id]),
        reverse("results:game_export", args=[game.pk, "csv"]),
        reverse("results:merge_create"),
    ):
        assert client.get(url).status_code == 302


# -- printouts -----------------------------------------------------------------------------------


def test_printing_everything_gives_one_pdf_with_the_ranking_the_game_sheet_and_every_card(
    arbiter_client, tournament, players
):
    game = _prepared(tournament)
    for number in (1, 2, 3):
        _play(game, number, lambda rnd: {players[0]: _slip(rnd), players[1]: "H8 ZZZ 12"})
    response = arbiter_client.post(
        reverse("results:printout_request", args=[tournament.pk]), {"kind": "bundle", "game": game.pk}
    )
    printout = Printout.objects.get()
    assert response["Location"] == reverse("results:printout_detail", args=[printout.pk])
    assert (
        printout.status == Printout.Status.DONE and printout.done == printout.total == 5
    )  # 2 sheets, 3 cards
    page = arbiter_client.get(response["Location"]).content.decode()
    assert reverse("results:printout_pdf", args=[printout.pk]) in page
    pdf = arbiter_client.get(reverse("results:printout_pdf", args=[printout.pk]))
    assert pdf["Content-Type"] == "application/pdf"
    pages, text = _pdf_text(pdf.content)
    assert pages >= 5
    for expected in (
        "Coupe du club",
        "Alice",
        "Bruno",
        "Chloé",
        "Salle des fêtes",
        tournament.lexicon.sha256[:12],
    ):
        assert expected in text


def test_a_printout_in_english_when_the_tournament_says_so(arbiter_client, tournament, players):
    tournament.sheet_language = "en"
    tournament.save()
    game = _prepared(tournament)
    _play(game, 1, lambda rnd: {players[0]: _slip(rnd)})
    arbiter_client.post(
        reverse("results:printout_request", args=[tournament.pk]), {"kind": "ranking", "game": game.pk}
    )
    _, text = _pdf_text(bytes(Printout.objects.get().pdf))
    assert "Rank" in text and "Game 1" in text


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "es",
            ("Clasificación — Partida 1", "Hoja de partida", "Planilla del jugador", "cero sin papeleta"),
        ),
        (
            "ca",
            ("Classificació — Partida 1", "Full de partida", "Full de puntuació", "zero sense butlleta"),
        ),
    ],
)
def test_a_printout_in_spanish_or_catalan_when_the_tournament_says_so(
    arbiter_client, tournament, players, lang, expected
):
    tournament.sheet_language = lang
    tournament.save()
    game = _prepared(tournament)
    _play(game, 1, lambda rnd: {players[0]: _slip(rnd)})
    arbiter_client.post(
        reverse("results:printout_request", args=[tournament.pk]), {"kind": "bundle", "game": game.pk}
    )
    printout = Printout.objects.get()
    _, text = _pdf_text(bytes(printout.pdf))
    text = " ".join(text.split())
    assert [words for words in expected if words not in text] == []
    assert not any(
        word in text for word in ("Classement", "Feuille", "pas de bulletin", "Ranking", "no slip")
    )


def test_a_tournament_printout_needs_no_game_and_a_game_printout_needs_one(tournament, players):
    game = _prepared(tournament)
    _play(game, 1, lambda rnd: {players[0]: _slip(rnd)})
    whole = result_services.printout_request(tournament=tournament, kind=Printout.Kind.TOURNAMENT)
    whole.refresh_from_db()
    assert whole.status == Printout.Status.DONE and "Alice" in _pdf_text(bytes(whole.pdf))[1]
    with pytest.raises(services.ServiceError):
        result_services.printout_request(tournament=tournament, kind=Printout.Kind.CARDS)


def test_score_cards_printed_four_to_a_sheet_keep_the_choice_on_the_printout(
    arbiter_client, tournament, players
):
    game = _prepared(tournament)
    _play(game, 1, lambda rnd: {players[0]: _slip(rnd), players[1]: "H8 ZZZ 12"})
    url = reverse("results:printout_request", args=[tournament.pk])
    arbiter_client.post(url, {"kind": "cards", "game": game.pk, "cards_per_page": "4"})
    printout = Printout.objects.get()
    assert (printout.cards_per_page, printout.status) == (4, Printout.Status.DONE)
    pages, text = _pdf_text(bytes(printout.pdf))
    assert pages == 1 and all(name in text for name in ("Alice", "Bruno", "Chloé"))
    detail = arbiter_client.get(reverse("results:printout_detail", args=[printout.pk])).content.decode()
    assert "4 fiches par page (A6)" in detail


def test_cards_per_page_is_one_two_or_four_and_only_kept_where_there_are_cards(
    arbiter_client, tournament, players
):
    game = _prepared(tournament)
    _play(game, 1, lambda rnd: {players[0]: _slip(rnd)})
    url = reverse("results:printout_request", args=[tournament.pk])
    assert (
        arbiter_client.post(url, {"kind": "cards", "game": game.pk, "cards_per_page": "3"}).status_code == 404
    )
    arbiter_client.post(url, {"kind": "ranking", "game": game.pk, "cards_per_page": "4"})
    arbiter_client.post(url, {"kind": "bundle", "game": game.pk})
    assert [(p.kind, p.cards_per_page) for p in Printout.objects.order_by("pk")] == [
        ("ranking", 1),
        ("bundle", 1),
    ]


def test_the_evening_prints_the_tournament_ranking_then_each_played_game_in_order(
    arbiter_client, tournament, players
):
    """Two games played, a third started but without a counted round: the evening has the tournament's
    ranking, then each played game's ranking, game sheet and its three cards (two to a sheet)."""
    first, second = _prepared(tournament), _prepared(tournament, "game-002.json")
    _play(first, 1, lambda rnd: {players[0]: _slip(rnd)})
    _play(second, 1, lambda rnd: {players[1]: _slip(rnd)})
    _play(second, 2, lambda rnd: {players[2]: _slip(rnd)})
    _prepared(tournament)
    response = arbiter_client.post(
        reverse("results:printout_request", args=[tournament.pk]), {"kind": "evening", "cards_per_page": "2"}
    )
    printout = Printout.objects.get()
    assert response["Location"] == reverse("results:printout_detail", args=[printout.pk])
    assert (printout.kind, printout.game, printout.cards_per_page) == ("evening", None, 2)
    assert printout.status == Printout.Status.DONE and printout.done == printout.total == 1 + 2 * (2 + 3)
    reader = PdfReader(io.BytesIO(bytes(printout.pdf)))
    texts = [page.extract_text() for page in reader.pages]
    assert len(texts) == 1 + 2 * (1 + 1 + 2)
    assert "Classement — Classement général" in texts[0]
    for number, start in ((1, 1), (2, 5)):
        assert f"Classement — Partie {number}" in texts[start]
        assert f"Feuille de partie — Partie {number}" in texts[start + 1]
        cards = texts[start + 2] + texts[start + 3]
        assert cards.count(f"Fiche du joueur — Partie {number}") == 3
        assert all(name in cards for name in ("Alice", "Bruno", "Chloé"))
    assert "Partie 3" not in "".join(texts)
    assert printout.filename == "soiree-coupe-du-club.pdf"


def test_the_game_sheet_prints_a_cancelled_round_as_a_cancel_not_as_a_rejection(tournament, players):
    """§3.1.6: the cancelled draw struck through and marked "annulé", then the rack drawn again
    without the "-" of a rejection (the record keeps it: every tile went back)."""
    game = services.game_start(tournament=tournament, seed=42)
    _play(game, 1, lambda rnd: {})
    first = services.round_draw(game_id=game.pk, expected_number=2).round
    again = services.round_cancel(round_id=first.pk).round
    assert again.rack.startswith("-") and not again.rejections  # the record's way: all tiles back
    services.round_start(round_id=again.pk)
    services.round_close(round_id=again.pk)
    services.round_place_top(round_id=again.pk)

    sheet = sheets.game_sheet(game)
    assert (sheet.rounds[1].cancelled, sheet.rounds[1].rejected) == ((first.rack,), ())
    assert sheet.rounds[1].rack == again.rack[1:]
    text = _pdf_text(render.game_sheet(sheet)[2])[1]
    assert f"{first.rack} (annulé)" in text
    assert again.rack[1:] in text and again.rack not in text
    assert text.index(first.rack) < text.index(again.rack[1:])


def test_the_tournament_results_page_offers_the_evening_and_the_cards_per_page(arbiter_client, tournament):
    page = arbiter_client.get(reverse("results:tournament_results", args=[tournament.pk])).content.decode()
    assert 'value="evening"' in page and 'name="cards_per_page"' in page
    assert '<label for="id_cards_per_page">' in page and "4 fiches par page (A6)" in page


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_a_printout_builds_in_a_thread_and_its_page_follows_the_progress(
    arbiter_client, tournament, players, settings
):
    settings.PRINTOUTS_IN_THREAD = True
    game = _prepared(tournament)
    _play(game, 1, lambda rnd: {players[0]: _slip(rnd)})
    response = arbiter_client.post(
        reverse("results:printout_request", args=[tournament.pk]), {"kind": "cards", "game": game.pk}
    )
    url = response["Location"]
    for _ in range(200):
        partial = arbiter_client.get(url, **HTMX).content.decode()
        if "hx-trigger" not in partial:
            break
        assert "<progress" in partial
        time.sleep(0.05)
    printout = Printout.objects.get()
    assert printout.status == Printout.Status.DONE and printout.done == printout.total == 3
    assert _pdf_text(bytes(printout.pdf))[0] == 3


# -- exports through the pages -------------------------------------------------------------------


def test_the_game_exports_download_as_files(arbiter_client, tournament, players):
    game = _prepared(tournament)
    _play(game, 1, lambda rnd: {players[0]: _slip(rnd)})

    def get(what):
        return arbiter_client.get(reverse("results:game_export", args=[game.pk, what]))

    record = json.loads(get("partie").content)
    assert (
        record["rounds"][0]["rack"] == json.loads((GAMES / "game-001.json").read_text())["rounds"][0]["rack"]
    )
    csv_bytes = get("csv").content
    assert csv_bytes.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(csv_bytes.decode("utf-8-sig")), delimiter=";"))
    assert rows[1][4] == "Alice"
    federation = get("federation")
    assert federation["Content-Type"] == "text/plain; charset=iso-8859-1"
    assert federation.content.decode("latin-1").splitlines()[2] == "3;NL;Chloé;;0"
    assert json.loads(get("resultats").content)["format"] == exports.RESULTS_FORMAT
    assert get("autre").status_code == 404


def test_the_tournament_ranking_exports_as_csv(arbiter_client, tournament, players):
    game = _prepared(tournament)
    top = _play(game, 1, lambda rnd: {players[2]: _slip(rnd)}).top_score
    response = arbiter_client.get(reverse("results:tournament_export", args=[tournament.pk, "csv"]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert (rows[1][4], rows[1][rows[0].index("Total")]) == ("Chloé", str(top))


# -- merging clubs (§5) --------------------------------------------------------------------------


def _club_results(tournament, names, slips_for) -> bytes:
    game = _prepared(tournament)
    players = [services.player_register(tournament=tournament, name=n) for n in names]
    for number in (1, 2):
        _play(game, number, lambda rnd: slips_for(players, rnd))
    return exports.results_export(game)


def test_two_clubs_merge_through_the_page_into_one_ranking(arbiter_client, arbiter, tournament):
    other = services.tournament_create(
        created_by=arbiter, lexicon=tournament.lexicon, name="Simultané", date=tournament.date, place="Club B"
    )
    a = _club_results(tournament, ["Alice", "Bruno"], lambda p, rnd: {p[0]: _slip(rnd)})
    b = _club_results(other, ["Zoë"], lambda p, rnd: {p[0]: _slip(rnd, score=False)})
    files = [
        _upload("club-a.json", a),
        _upload("club-b.json", b),
    ]
    response = arbiter_client.post(reverse("results:merge_create"), {"files": files})
    detail = response["Location"]
    page = arbiter_client.get(detail).content.decode()
    assert "Alice" in page and "Zoë" in page and "club-a.json" in page
    pk = int(detail.rstrip("/").split("/")[-1])
    csv_rows = arbiter_client.get(reverse("results:merge_export", args=[pk, "csv"])).content.decode(
        "utf-8-sig"
    )
    names = [row[4] for row in csv.reader(io.StringIO(csv_rows), delimiter=";")][1:]
    assert names[:2] == ["Alice", "Zoë"] and "Bruno" in names
    pdf = arbiter_client.get(reverse("results:merge_export", args=[pk, "pdf"]))
    assert "Zoë" in _pdf_text(pdf.content)[1]
    # A merge has no tournament, hence no sheet language: its files speak the reader's.
    catalan = {"Accept-Language": "ca"}
    csv_rows = arbiter_client.get(reverse("results:merge_export", args=[pk, "csv"]), headers=catalan)
    header = next(csv.reader(io.StringIO(csv_rows.content.decode("utf-8-sig")), delimiter=";"))
    assert header[:5] == ["Posició", "Posició a la sèrie", "Posició a la categoria", "Taula", "Nom"]
    pdf = arbiter_client.get(reverse("results:merge_export", args=[pk, "pdf"]), headers=catalan)
    text = " ".join(_pdf_text(pdf.content)[1].split())
    assert "Classificació — Classificació fusionada" in text and "Lloc: " in text and "Lieu" not in text


def test_a_merge_of_different_games_is_refused_with_the_reason(arbiter_client, arbiter, tournament):
    a = _club_results(tournament, ["Alice"], lambda p, rnd: {p[0]: _slip(rnd)})
    data = json.loads(a)
    data["game"]["rounds"][1]["score"] += 1
    data["game"]["total"] += 1
    response = arbiter_client.post(
        reverse("results:merge_create"),
        {"files": [_upload("a.json", a), _upload("b.json", json.dumps(data).encode())]},
    )
    page = response.content.decode()
    assert response.status_code == 200 and "b.json" in page and "coup 2" in page


def _upload(name: str, data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type="application/json")


def test_the_shared_ranking_is_computed_once_until_a_result_changes(tournament, players, arbiter):
    game = _prepared(tournament)
    rnd = _play(game, 1, lambda rnd: {players[0]: _slip(rnd)})
    first = standings.tournament_ranking_shared(tournament)
    assert standings.tournament_ranking_shared(tournament) == first
    live_services.submission_correct(round_id=rnd.pk, player=players[1], text=_slip(rnd), user=arbiter)
    after = standings.tournament_ranking_shared(tournament)
    assert [line.total for line in after.lines][:2] == [rnd.top_score, rnd.top_score]
    assert [line.rank for line in after.lines][:2] == [1, 1] != [line.rank for line in first.lines][:2]


def test_a_printout_made_before_a_correction_or_a_rename_says_it_is_out_of_date(
    arbiter_client, tournament, players, arbiter
):
    game = _prepared(tournament)
    rnd = _play(game, 1, lambda rnd: {players[0]: _slip(rnd)})
    printout = result_services.printout_request(tournament=tournament, kind=Printout.Kind.RANKING, game=game)
    detail = reverse("results:printout_detail", args=[printout.pk])
    results = reverse("results:game_results", args=[game.pk])
    assert "Périmée" not in arbiter_client.get(detail).content.decode()
    assert "périmée" not in arbiter_client.get(results).content.decode()

    live_services.submission_correct(round_id=rnd.pk, player=players[1], text=_slip(rnd), user=arbiter)
    assert "Périmée : les résultats ou les joueurs ont changé" in arbiter_client.get(detail).content.decode()
    assert "périmée" in arbiter_client.get(results).content.decode()

    again = result_services.printout_request(tournament=tournament, kind=Printout.Kind.RANKING, game=game)
    fresh = reverse("results:printout_detail", args=[again.pk])
    assert "Périmée" not in arbiter_client.get(fresh).content.decode()
    # A rename moves no ranking, but the sheet prints the old name.
    services.player_update(player=players[2], table_number=players[2].table_number, name="Chloé Dupont")
    assert "Périmée" in arbiter_client.get(fresh).content.decode()
