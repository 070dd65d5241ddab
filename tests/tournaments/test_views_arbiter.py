"""The arbiter's laptop and the projector, through the views: login, tournaments, players and their
join links, the game screen through a round's states, its cheap poll, corrections, and the voice."""

from __future__ import annotations

import datetime
import json
import re
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from lexicons.loaded import lexicon_default_row
from live import announce
from live import services as live_services
from tournaments import selectors, services, standings
from tournaments.models import Game, Player, Round, Submission, SubmissionChange, Tournament

HTMX = {"HTTP_HX_REQUEST": "true"}


def _poll_key(response) -> str:
    found = re.search(r'\?v=([^"]+)"', response.content.decode())
    assert found, "the page carries its poll key"
    return unquote(found.group(1))


def _draw(client, game, number=1, **data) -> Round:
    client.post(reverse("live:game_draw", args=[game.pk]), {"expected_number": number, **data}, **HTMX)
    return Round.objects.filter(game=game).exclude(status=Round.Status.CANCELLED).latest("number", "attempt")


def _running_round(client, game) -> Round:
    rnd = _draw(client, game)
    client.post(reverse("live:round_start", args=[rnd.pk]), **HTMX)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.RUNNING
    return rnd


def _top_slip(rnd: Round) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']} {top['score']}"


def _past_deadline(rnd: Round) -> None:
    """The round's deadline and grace window passed (as if the clock had run out)."""
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))


# -- login ---------------------------------------------------------------------------------------


def test_arbiter_pages_send_an_anonymous_visitor_to_the_login_page(client, game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    urls = [
        reverse("tournaments:home"),
        reverse("tournaments:tournament_create"),
        reverse("tournaments:tournament_detail", args=[game.tournament_id]),
        reverse("tournaments:tournament_cards", args=[game.tournament_id]),
        reverse("live:game_detail", args=[game.pk]),
        reverse("live:game_poll", args=[game.pk]),
        reverse("live:projector", args=[game.pk]),
        reverse("live:projector_poll", args=[game.pk]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login") + "?next="), url
    response = client.post(reverse("live:round_start", args=[rnd.pk]))
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAWN


def test_the_login_page_lets_the_arbiter_in(client, arbiter):
    assert "Connexion" in client.get(reverse("login")).content.decode()
    response = client.post(reverse("login"), {"username": "arbitre", "password": "secret-123"})
    assert response.status_code == 302
    assert client.get(reverse("tournaments:home")).status_code == 200


# -- tournaments and players ---------------------------------------------------------------------


def _tournament_data(**extra) -> dict:
    data = {
        "name": "Open de printemps",
        "date": "2027-04-03",
        "place": "Maison des associations",
        "lexicon": lexicon_default_row().pk,
        "round_seconds": 120,
        "grading": "computed",
        "warning_threshold": 5,
        "warning_penalty": 5,
        "solo_value": 10,
        "solo_min_players": 16,
        "grace_seconds": 3,
        "percent_base": "total",
        "tie_break": "last",
        "aggregate": "average",
        "sheet_language": "en",
    }
    data.update(extra)
    return data


def test_a_blitz_tournament_tolerates_five_warnings_unless_the_arbiter_says_otherwise(arbiter_client):
    """§3.4: the penalty threshold is 5 in blitz; a threshold the arbiter typed stands."""
    url = reverse("tournaments:tournament_create")
    arbiter_client.post(url, _tournament_data(name="Blitz", round_seconds=60, warning_threshold=3))
    arbiter_client.post(url, _tournament_data(name="Blitz strict", round_seconds=60, warning_threshold=2))
    arbiter_client.post(url, _tournament_data(name="Normal", round_seconds=180, warning_threshold=3))
    thresholds = dict(Tournament.objects.values_list("name", "warning_threshold"))
    assert thresholds == {"Blitz": 5, "Blitz strict": 2, "Normal": 3}


def test_a_tournament_is_created_through_the_form(arbiter_client, arbiter):
    assert "Nouveau tournoi" in arbiter_client.get(reverse("tournaments:tournament_create")).content.decode()
    response = arbiter_client.post(reverse("tournaments:tournament_create"), _tournament_data())
    tournament = Tournament.objects.get(name="Open de printemps")
    assert response["Location"] == reverse("tournaments:tournament_detail", args=[tournament.pk])
    assert (tournament.round_seconds, tournament.grading, tournament.grace_seconds) == (120, "computed", 3)
    assert (tournament.tie_break, tournament.aggregate, tournament.sheet_language) == (
        "last",
        "average",
        "en",
    )
    assert tournament.lexicon == lexicon_default_row() and tournament.created_by == arbiter
    assert "Open de printemps" in arbiter_client.get(reverse("tournaments:home")).content.decode()


def test_a_tournament_can_be_created_on_an_uploaded_word_list(arbiter_client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    upload = SimpleUploadedFile("club.txt", "MOT\nMOTS\nTOME\nÉTÉ\n".encode())
    arbiter_client.post(reverse("tournaments:tournament_create"), _tournament_data(lexicon_file=upload))
    tournament = Tournament.objects.get(name="Open de printemps")
    assert tournament.lexicon.name == "club.txt" and tournament.lexicon.word_count == 4


def test_players_are_added_one_by_one_on_the_next_free_tables(arbiter_client, tournament):
    url = reverse("tournaments:player_add", args=[tournament.pk])
    arbiter_client.post(url, {"name": "Alice", "club": "Lyon", "table_number": 3})
    arbiter_client.post(url, {"name": "Bruno"})
    response = arbiter_client.post(url, {"name": "Chloé", "table_number": 3})
    assert "La table 3 est déjà prise." in response.content.decode()
    assert list(tournament.players.values_list("name", "table_number")) == [("Bruno", 1), ("Alice", 3)]


def test_players_are_imported_from_a_csv_file(arbiter_client, tournament):
    data = "Nom;Club;Licence;Série;Catégorie;Table\nÉlise Dupré;Lyon;123;4B;Vermeil;7\nMarc;Nice;;2;;\n"
    upload = SimpleUploadedFile("joueurs.csv", data.encode("cp1252"), content_type="text/csv")
    response = arbiter_client.post(
        reverse("tournaments:players_import", args=[tournament.pk]), {"file": upload}
    )
    assert response.status_code == 302
    assert list(tournament.players.values_list("name", "table_number")) == [("Marc", 1), ("Élise Dupré", 7)]


def test_the_tournament_page_shows_each_players_join_link_and_edit_link_but_no_qr_code(
    arbiter_client, tournament, players
):
    """The QR codes are drawn on the table cards page only: 2,000 of them would make an 18 MB page."""
    page = arbiter_client.get(reverse("tournaments:tournament_detail", args=[tournament.pk])).content.decode()
    for player in players:
        assert f"/j/{player.token}/" in page
        assert reverse("tournaments:player_edit", args=[player.pk]) in page
    assert "<svg" not in page


def test_the_table_cards_page_prints_one_card_per_player_with_its_qr_code(
    arbiter_client, tournament, players
):
    page = arbiter_client.get(
        reverse("tournaments:tournament_cards", args=[tournament.pk]), HTTP_HOST="192.168.1.20:8000"
    ).content.decode()
    assert page.count('class="table-card"') == 3 and page.count("<svg") == 3
    assert f"http://192.168.1.20:8000/j/{players[1].token}/" in page
    assert "@media print" not in page and "data-print" in page  # the script prints (no inline handler)


# -- starting a game -----------------------------------------------------------------------------


def test_a_game_is_started_and_its_screen_offers_the_first_draw(arbiter_client, tournament, players):
    response = arbiter_client.post(reverse("tournaments:game_start", args=[tournament.pk]))
    game = tournament.games.get()
    assert response["Location"] == reverse("live:game_detail", args=[game.pk])
    page = arbiter_client.get(response["Location"]).content.decode()
    assert "Tirer le coup 1" in page and 'name="expected_number" value="1"' in page


def test_a_prepared_game_that_does_not_replay_is_refused_with_the_round_and_reason(
    arbiter_client, tournament
):
    record = Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-001.json"
    data = json.loads(record.read_text())
    data["rounds"][3]["score"] += 2
    data["total"] += 2
    upload = SimpleUploadedFile("partie.json", json.dumps(data).encode())
    response = arbiter_client.post(
        reverse("tournaments:game_start", args=[tournament.pk]), {"prepared": upload}
    )
    page = response.content.decode()
    assert "Partie préparée refusée" in page and "Tour 4" in page
    assert not tournament.games.exists()


# -- the game screen through a round ---------------------------------------------------------------


def test_drawing_twice_with_the_same_expected_number_draws_one_round(arbiter_client, game):
    first = _draw(arbiter_client, game)
    response = arbiter_client.post(reverse("live:game_draw", args=[game.pk]), {"expected_number": 1}, **HTMX)
    assert Round.objects.filter(game=game).count() == 1
    page = response.content.decode()
    assert first.rack in page and 'id="live"' in page and "<html" not in page


def test_a_typed_rack_not_in_the_bag_is_refused_with_the_reason(arbiter_client, game):
    response = arbiter_client.post(
        reverse("live:game_draw", args=[game.pk]), {"expected_number": 1, "rack": "ZZEAUIT"}, **HTMX
    )
    assert "Tirage refusé" in response.content.decode()
    assert not Round.objects.filter(game=game).exists()


def test_a_rejected_rack_is_shown_as_rejet(arbiter_client, game):
    rnd = _draw(arbiter_client, game)
    Round.objects.filter(pk=rnd.pk).update(rejections=["AEIOUEA"])
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert "rejet\u00a0: AEIOUEA" in page


def test_the_clock_cannot_start_before_the_top_is_ready(arbiter_client, game):
    rnd = _draw(arbiter_client, game)
    Round.objects.filter(pk=rnd.pk).update(top_state=Round.TopState.PENDING, tops=[])
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert "calcul du top…" in page
    assert re.search(r"<button[^>]*disabled[^>]*>Lancer le chrono", page)
    response = arbiter_client.post(reverse("live:round_start", args=[rnd.pk]), **HTMX)
    assert "Le top n&#x27;est pas encore calculé" in response.content.decode()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAWN


def test_the_running_poll_answers_204_while_nothing_changes_and_shows_only_the_slip_count(
    arbiter_client, game, players, django_assert_max_num_queries
):
    rnd = _running_round(arbiter_client, game)
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk]))
    key = _poll_key(page)
    poll = reverse("live:game_poll", args=[game.pk])
    with django_assert_max_num_queries(5):  # session, user, the user's clubs, the round, the slip count
        assert arbiter_client.get(poll, {"v": key}, **HTMX).status_code == 204
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=_top_slip(rnd))
    changed = arbiter_client.get(poll, {"v": key}, **HTMX)
    assert changed.status_code == 200
    content = changed.content.decode()
    assert "1 / 3" in content
    assert rnd.tops[0]["word"] not in content
    assert arbiter_client.get(poll, {"v": _poll_key(changed)}, **HTMX).status_code == 204


def test_the_countdown_is_sent_as_seconds_left_and_the_servers_time(arbiter_client, game):
    _running_round(arbiter_client, game)
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    left = float(re.search(r'data-seconds-left="([0-9.]+)"', page).group(1))
    assert 170 < left <= 180
    assert 'data-server-now="' in page


def test_after_the_deadline_the_poll_closes_the_round_and_shows_the_graded_slips(
    arbiter_client, game, players
):
    rnd = _running_round(arbiter_client, game)
    live_services.submission_record(player=players[1], round_id=rnd.pk, text=_top_slip(rnd))
    key = _poll_key(arbiter_client.get(reverse("live:game_detail", args=[game.pk])))
    _past_deadline(rnd)
    response = arbiter_client.get(reverse("live:game_poll", args=[game.pk]), {"v": key}, **HTMX)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    page = response.content.decode()
    assert "Placer ce top" in page and "(proposé)" in page
    # The live region names the graded round; its slips come in their own panel.
    assert f'hx-get="/parties/{game.pk}/bulletins/?coup=1"' in page and "data-latest" in page
    panel = arbiter_client.get(reverse("live:game_slips", args=[game.pk]), **HTMX).content.decode()
    assert "Bulletins corrigés du coup 1" in panel and _top_slip(rnd) in panel
    assert Submission.objects.get(player=players[1]).paid == rnd.top_score


def test_a_correction_in_place_regrades_the_slip_and_the_log_shows_it(arbiter_client, game, players, arbiter):
    rnd = _running_round(arbiter_client, game)
    live_services.submission_record(player=players[0], round_id=rnd.pk, text="H8 ZZZZ 10")
    _past_deadline(rnd)
    arbiter_client.get(reverse("live:game_poll", args=[game.pk]), **HTMX)
    response = arbiter_client.post(
        reverse("live:slip_enter", args=[rnd.pk]),
        {"table_number": players[0].table_number, "text": _top_slip(rnd)},
        **HTMX,
    )
    sub = Submission.objects.get(player=players[0])
    assert sub.paid == rnd.top_score and sub.entered_by == arbiter
    change = SubmissionChange.objects.get(submission=sub)
    assert change.before["slip"] == "H8 ZZZZ 10" and change.after["paid"] == rnd.top_score
    page = response.content.decode()
    assert "Journal des corrections" in page
    log = page[page.index("Journal des corrections") :]
    # The log shows the sanction with the points.
    assert "arbitre" in log and "H8 ZZZZ 10 (0, zéro)" in log and f"{_top_slip(rnd)} ({rnd.top_score})" in log


def test_a_paper_slip_is_typed_by_table_number_and_the_last_correction_can_be_undone(
    arbiter_client, game, players
):
    rnd = _running_round(arbiter_client, game)
    _past_deadline(rnd)
    arbiter_client.get(reverse("live:game_detail", args=[game.pk]))
    url = reverse("live:slip_enter", args=[rnd.pk])
    response = arbiter_client.post(url, {"table_number": 2, "text": _top_slip(rnd), "paper": "1"}, **HTMX)
    assert Submission.objects.get(player=players[1]).paid == rnd.top_score
    assert 'id="paper-table" min="1" required inputmode="numeric" autofocus' in response.content.decode()
    refused = arbiter_client.post(url, {"table_number": 9, "text": "H8 MOT"}, **HTMX)
    assert "Aucun joueur à la table 9." in refused.content.decode()
    arbiter_client.post(reverse("live:correction_undo", args=[rnd.pk]), **HTMX)
    assert not Submission.objects.filter(player=players[1]).exists()


def test_placing_a_chosen_tied_top_puts_it_on_the_board(arbiter_client, game, players):
    rnd = _running_round(arbiter_client, game)
    _past_deadline(rnd)
    arbiter_client.get(reverse("live:game_detail", args=[game.pk]))
    index = len(Round.objects.get(pk=rnd.pk).tops) - 1
    response = arbiter_client.post(reverse("live:round_place", args=[rnd.pk]), {"index": index}, **HTMX)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PLACED and rnd.placed == rnd.tops[index]
    page = response.content.decode()
    assert "Tirer le coup 2" in page
    assert page.count("tile last") == len(rnd.placed["tiles"])
    assert f"<strong>{rnd.top_score}</strong>" in page  # the game's top so far


def test_cancelling_a_round_draws_another_rack(arbiter_client, game):
    rnd = _draw(arbiter_client, game)
    arbiter_client.post(reverse("live:round_cancel", args=[rnd.pk]), **HTMX)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CANCELLED
    assert Round.objects.get(game=game, attempt=2).status == Round.Status.DRAWN


def test_a_plain_form_post_without_htmx_comes_back_to_the_game_page(arbiter_client, game):
    response = arbiter_client.post(reverse("live:game_draw", args=[game.pk]), {"expected_number": 1})
    assert response["Location"] == reverse("live:game_detail", args=[game.pk])


# -- ranking -------------------------------------------------------------------------------------


def test_the_ranking_counts_closed_rounds_with_the_negative_and_percentage(game, players, arbiter):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    rnd = services.round_start(round_id=rnd.pk)
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=_top_slip(rnd))
    services.round_close(round_id=rnd.pk)
    rnd.refresh_from_db()
    ranking = standings.game_rows(standings.game_ranking(game))
    assert ranking.top == rnd.top_score
    first, second, third = ranking.rows
    assert (first.key, first.total, first.negatif, first.percent) == (players[0].pk, rnd.top_score, 0, 100.0)
    assert (second.rank, third.rank, second.negatif) == (2, 2, -rnd.top_score)
    late = services.player_register(tournament=game.tournament, name="Denis")
    assert [r.key for r in standings.game_rows(standings.game_ranking(game)).rows][-1] == late.pk


# -- the projector -------------------------------------------------------------------------------


def test_the_projector_shows_the_rack_and_clock_but_no_slip_during_a_round(arbiter_client, game, players):
    rnd = _running_round(arbiter_client, game)
    live_services.submission_record(player=players[0], round_id=rnd.pk, text="H8 ZYTHUMS 99")
    page = arbiter_client.get(reverse("live:projector", args=[game.pk])).content.decode()
    assert "ZYTHUMS" not in page and players[0].name not in page
    assert "data-countdown" in page and 'class="rack large"' in page
    assert "Trente secondes." in page and "Terminé." in page


def test_the_projector_poll_is_cheap_and_shows_the_top_once_placed(
    arbiter_client, game, players, django_assert_max_num_queries
):
    rnd = _running_round(arbiter_client, game)
    key = _poll_key(arbiter_client.get(reverse("live:projector", args=[game.pk])))
    poll = reverse("live:projector_poll", args=[game.pk])
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=_top_slip(rnd))
    with django_assert_max_num_queries(4):  # session, user, the user's clubs, the round
        assert arbiter_client.get(poll, {"v": key}, **HTMX).status_code == 204
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    rnd.refresh_from_db()
    page = arbiter_client.get(poll, {"v": key}, **HTMX).content.decode()
    assert rnd.placed["word"] in page and f"{rnd.top_score} points" in page
    assert players[0].name in page  # the ranking, between rounds


# -- the voice (§3.3.1) ----------------------------------------------------------------------------


def test_a_rack_with_a_reliquat_is_announced_count_then_reliquat_in_order_then_new_tiles():
    assert announce.announcement(3, "IAE+BLRN") == [
        "Coup numéro 3.",
        "Trois lettres restantes : Algérie A, Égypte E, Italie I.",
        "Tirage :",
        "Belgique B.",
        "Luxembourg L.",
        "Roumanie R.",
        "Norvège N.",
    ]


def test_a_rejection_is_announced_with_the_number_of_letters_returned():
    assert announce.announcement(5, "-BONSOIR", ["AEIOUEA"], reliquat=5) == [
        "Coup numéro 5.",
        "Cinq lettres restantes : Algérie A, Égypte E, Italie I, Océanie O, Uruguay U.",
        "Tirage :",
        "Égypte E.",
        "Algérie A.",
        "Rejet : sept lettres remises dans le sac.",
        "Belgique B.",
        "Océanie O.",
        "Norvège N.",
        "Suisse S.",
        "Océanie O.",
        "Italie I.",
        "Roumanie R.",
    ]


def test_after_two_rejections_in_round_one_every_rack_is_spelled_as_drawn():
    sentences = announce.announcement(1, "-BONSOIR", ["AEIOUEA", "BCDFGHA"])
    rejet = "Rejet : sept lettres remises dans le sac."
    assert sentences[1:9] == [
        "Algérie A.", "Égypte E.", "Italie I.", "Océanie O.", "Uruguay U.", "Égypte E.", "Algérie A.", rejet,
    ]  # fmt: skip
    assert sentences[9:17] == [
        "Belgique B.", "Canada C.", "Danemark D.", "France F.", "Grèce G.", "Hongrie H.", "Algérie A.", rejet,
    ]  # fmt: skip
    assert sentences[17:] == [announce.spelled(ord(ch) - 64) + "." for ch in "BONSOIR"]


def test_a_blank_is_announced_last_in_the_reliquat_and_as_joker_lettre_blanche():
    sentences = announce.announcement(2, "?E+AS")
    assert sentences[1] == "Deux lettres restantes : Égypte E, Joker, lettre blanche."
    assert announce.rack_sentences("KE?") == ["Kenya K.", "Égypte E.", "Joker, lettre blanche."]
    assert announce.rack_sentences("S+?")[0] == "Une lettre restante : Suisse S."


def test_the_voice_sentences_of_the_current_rack_are_in_the_projector_page(arbiter_client, game):
    rnd = _draw(arbiter_client, game)
    page = arbiter_client.get(reverse("live:projector", args=[game.pk])).content.decode()
    found = re.search(r'<script id="announcement-sentences" type="application/json">(.*?)</script>', page)
    sentences = json.loads(found.group(1))
    assert sentences[0] == "Coup numéro 1." and sentences[1] == announce.spelled(rnd.tiles[0]) + "."


def test_dates_parse_in_the_form(arbiter_client):
    arbiter_client.post(reverse("tournaments:tournament_create"), _tournament_data(date="2027-12-31"))
    assert Tournament.objects.get().date == datetime.date(2027, 12, 31)


def test_a_player_added_late_appears_in_the_slip_count(arbiter_client, game, players):
    _running_round(arbiter_client, game)
    Player.objects.create(tournament=game.tournament, name="Retard", table_number=9)
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert "0 / 4" in page


def test_an_ended_game_says_why_and_offers_no_draw(arbiter_client, game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ENDED, end_reason="all_played")
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert "Partie terminée" in page and "Tirer le coup" not in page
    assert selectors.end_text(Game.objects.get(pk=game.pk)) in page
