"""A real club evening through the services: racks drawn from a physical bag and typed, a game that
ends or was started by mistake, mistakes at registration, what the arbiter needs to settle a
dispute, solos only where they count, and the projector's top."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from engine.draw import Bag, Draw, Rejection
from engine.notation import parse_rack
from live import announce, phone, room, screens
from live import selectors as live_selectors
from live import services as live_services
from results import exports, sheets
from tournaments import selectors, services, standings
from tournaments.models import Game, Player, Round, Submission

REFERENCE = ("VDFIR?A", "IBHIQE")  # the first reference game's first two racks, as typed


@pytest.fixture
def bag_game(tournament):
    """A game whose racks the arbiter types from a physical bag."""
    return services.game_start(tournament=tournament, typed=True)


def _type(game, number: int, text: str):
    return services.round_draw(game_id=game.pk, expected_number=number, typed=text)


def _play(rnd: Round, slips=None) -> Round:
    """Start, take the slips {player: text}, close, place the proposed top."""
    services.round_start(round_id=rnd.pk)
    for player, text in (slips or {}).items():
        live_services.submission_record(player=player, round_id=rnd.pk, text=text)
    services.round_close(round_id=rnd.pk)
    return services.round_place_top(round_id=rnd.pk)


def _top(rnd: Round) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']} {top['score']}"


# -- 1. drawing from a physical bag ---------------------------------------------------------------


def test_after_a_reliquat_only_the_new_letters_are_typed_and_the_top_is_ready(bag_game):
    first = _type(bag_game, 1, REFERENCE[0]).round
    assert (first.rack, first.typed, first.top_state) == ("VDFIR?A", True, Round.TopState.READY)
    _play(first)
    second = _type(bag_game, 2, REFERENCE[1]).round
    assert second.rack == "D+IBHIQE"  # the reliquat D stayed on the rack
    bag_game.refresh_from_db()
    assert len(bag_game.bag) == 102 - 7 - 6


def test_a_typed_rack_missing_the_minimum_is_a_rejection_with_its_reason_then_seven_new_letters(bag_game):
    outcome = _type(bag_game, 1, "AEIOUEA")
    assert outcome.round is None and outcome.rejected == {"rack": "AEIOUEA", "reason": "consonants"}
    bag_game.refresh_from_db()
    assert len(bag_game.bag) == 102 and bag_game.pending_rejections == [outcome.rejected]
    screen = screens.game_screen(bag_game)
    assert screen.pending == [("AEIOUEA", "pas assez de consonnes")] and screen.fresh
    rnd = _type(bag_game, 1, REFERENCE[0]).round
    assert (rnd.rack, rnd.rejections, rnd.rejection_reasons) == ("-VDFIR?A", ["AEIOUEA"], ["consonants"])
    bag_game.refresh_from_db()
    assert bag_game.pending_rejections == []
    # The voice says why the rack went back (§3.3.1).
    assert "Rejet, pas assez de consonnes : sept lettres remises dans le sac." in announce.round_announcement(
        rnd
    )


def test_a_rejection_typed_with_a_dash_after_a_reliquat_puts_it_back_and_takes_seven_letters(bag_game):
    _play(_type(bag_game, 1, REFERENCE[0]).round)
    _play(_type(bag_game, 2, REFERENCE[1]).round)  # EH: the reliquat is BDIIQ
    bag_game.refresh_from_db()
    before = len(bag_game.bag)
    rnd = _type(bag_game, 3, "-AAABBCC").round
    bag_game.refresh_from_db()
    assert rnd.rack == "-AAABBCC" and sorted(parse_rack(rnd.rack).tiles) == sorted(rnd.tiles)
    assert len(bag_game.bag) == before + 5 - 7  # the five letters of the reliquat went back


def test_a_typed_rack_the_bag_cannot_give_is_refused_with_the_reason(bag_game):
    with pytest.raises(services.ServiceError) as refused:
        _type(bag_game, 1, "ZZEAUIT")
    assert "Z" in refused.value.message.text("fr") and not Round.objects.filter(game=bag_game).exists()
    with pytest.raises(services.ServiceError):
        _type(bag_game, 1, "")  # a bag game's rack is typed


def test_a_typed_round_cancelled_is_drawn_again_by_hand_as_seven_new_letters(bag_game):
    _play(_type(bag_game, 1, REFERENCE[0]).round)
    second = _type(bag_game, 2, REFERENCE[1]).round
    outcome = services.round_cancel(round_id=second.pk)
    assert outcome.round is None  # nothing drawn at random: the table's bag decides
    bag_game.refresh_from_db()
    assert len(bag_game.bag) == 102 - 7 + 1  # the reliquat D went back with the rest
    screen = screens.game_screen(bag_game)
    assert (screen.state, screen.next_number, screen.fresh, screen.typed_draw) == ("to_draw", 2, True, True)
    with pytest.raises(services.ServiceError):
        _type(bag_game, 2, "IBHIQE")  # six letters: the rack is seven new letters now
    again = _type(bag_game, 2, "DIBHIQE").round
    assert (again.rack, again.attempt, again.number) == ("-DIBHIQE", 2, 2)


def test_a_cancelled_random_round_keeps_the_rejections_of_its_redraw(game, monkeypatch):
    from tournaments.services import draws

    rnd = services.round_draw(game_id=game.pk, expected_number=1).round

    def redraw(rack_tiles, bag, number, rng, has_move=None, *, variant, search):
        bag.put_back(rack_tiles)
        new = tuple(sorted(bag.tiles())[:7])
        bag.take(new)
        search(new)
        return Draw(
            (),
            new,
            rejected=True,
            rejections=[(1, 1, 1, 5, 5, 9, 9)],
            rejection_reasons=[Rejection.CONSONANTS],
        )

    monkeypatch.setattr(draws.engine_draw, "cancel_round", redraw)
    new = services.round_cancel(round_id=rnd.pk).round
    assert (new.rejections, new.rejection_reasons) == (["AAAEEII"], ["consonants"])


# -- 2. a game ends ------------------------------------------------------------------------------


def test_a_prepared_game_ends_with_its_last_round_and_says_so(tournament):
    record = {
        "format": "duplicate-game/1", "lexicon": "fr-wfrench", "total": 30,
        "rounds": [{"rack": "VDFIR?A", "ref": "H4", "word": "FAVoRI", "score": 30}],
    }  # fmt: skip
    game = services.game_start(tournament=tournament, prepared=json.dumps(record))
    _play(services.round_draw(game_id=game.pk, expected_number=1).round)
    game.refresh_from_db()
    assert (game.status, game.end_reason) == (Game.Status.ENDED, "all_played")
    screen = screens.game_screen(game)
    assert screen.state == "ended" and screen.end_text == "Fin de partie : toutes les lettres ont été jouées."


def test_the_arbiter_ends_the_game_after_a_round_and_nothing_more_is_drawn(game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    with pytest.raises(services.ServiceError):
        services.game_end(game_id=game.pk)  # the round is not over
    _play(rnd)
    services.game_end(game_id=game.pk)
    game.refresh_from_db()
    assert (game.status, game.end_reason) == (Game.Status.ENDED, "arbiter")
    assert services.round_draw(game_id=game.pk, expected_number=2).round is None
    assert selectors.end_text(game) == "Partie terminée par l'arbitre."


def test_an_abandoned_game_leaves_the_rankings_and_the_phones(tournament, players):
    first = services.game_start(tournament=tournament)
    _play(services.round_draw(game_id=first.pk, expected_number=1).round)
    mistake = services.game_start(tournament=tournament)
    rnd = services.round_draw(game_id=mistake.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    live_services.submission_record(
        player=players[0], round_id=rnd.pk, text=_top(Round.objects.get(pk=rnd.pk))
    )
    with pytest.raises(services.ServiceError):
        services.game_delete(game_id=mistake.pk)  # a slip was handed in: abandon, do not delete
    services.game_abandon(game_id=mistake.pk)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CANCELLED
    assert len(standings.tournament_ranking(tournament).games) == 1
    assert room.current_round(tournament.pk).game_id == first.pk
    assert screens.game_screen(Game.objects.get(pk=mistake.pk)).state == "abandoned"


def test_a_game_without_slips_can_be_deleted(tournament):
    game = services.game_start(tournament=tournament)
    services.round_draw(game_id=game.pk, expected_number=1)
    services.game_delete(game_id=game.pk)
    assert not Game.objects.filter(pk=game.pk).exists()
    assert services.game_start(tournament=tournament).number == 1


def test_a_round_left_running_past_its_deadline_is_closed_by_the_tournament_pages(
    game, players, arbiter_client
):
    rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=_top(rnd))
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(minutes=10))
    arbiter_client.get(f"/tournois/{game.tournament_id}/")
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    assert Submission.objects.get(round=rnd).paid == rnd.top_score
    assert services.rounds_close_overdue() == 0


# -- 3. mistakes at registration ----------------------------------------------------------------


def test_ranking_settings_change_the_rankings_and_grading_settings_lock_once_a_game_started(
    tournament, players
):
    services.tournament_update(tournament=tournament, grading="computed", grace_seconds=5)
    game = services.game_start(tournament=tournament)
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    _play(rnd, {players[0]: _top(rnd)})
    assert services.tournament_locked(tournament) == ("letters", "lexicon", "grading", "grace_seconds")
    with pytest.raises(services.ServiceError) as refused:
        services.tournament_update(tournament=tournament, grading="fisf")
    assert refused.value.message.code == "tournament_locked"
    before = standings.tournament_ranking(tournament).lines[0].total
    services.tournament_update(tournament=tournament, solo_min_players=1, solo_value=10)
    after = standings.tournament_ranking_shared(tournament).lines[0].total
    assert after == before + 10  # a solo counts now that one player is enough


def test_a_player_is_edited_and_the_sheets_follow(tournament, players, game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    _play(rnd, {players[1]: _top(rnd)})
    services.player_update(
        player=players[1], name="Bruno Martin", club="Vichy", licence="123", series="4B", category="Vermeil",
        table_number=9,
    )  # fmt: skip
    player = Player.objects.get(pk=players[1].pk)
    assert (player.name, player.category, player.table_number) == ("Bruno Martin", "V", 9)
    rows = sheets.game_ranking_sheet(game, standings.game_ranking(game)).rows
    assert ("Bruno Martin", 9, "Vermeil") in [(r.name, r.table, r.category) for r in rows]
    with pytest.raises(services.ServiceError):
        services.player_update(player=players[0], name="Alice", table_number=9)  # taken


def test_a_player_without_slips_is_removed_one_with_slips_stays(tournament, players, game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    _play(rnd, {players[0]: _top(rnd)})
    services.player_remove(player=players[2])
    assert not Player.objects.filter(pk=players[2].pk).exists()
    with pytest.raises(services.ServiceError) as refused:
        services.player_remove(player=players[0])
    assert refused.value.message.code == "player_has_slips"


def test_the_category_comes_from_the_category_table(tournament):
    assert services.player_register(tournament=tournament, name="Léa", category="diamant").category == "D"
    with pytest.raises(services.ServiceError):
        services.player_register(tournament=tournament, name="Max", category="Vétéran")
    data = "Nom;Catégorie\nÉlise;Vermeil\nMarc;Grand maître\n".encode()
    with pytest.raises(services.ServiceError) as refused:
        services.players_import_csv(tournament=tournament, data=data)
    assert [row.params["line"] for row in refused.value.rows] == [3]


def test_the_results_file_names_the_organising_club(tournament, game):
    services.tournament_update(tournament=tournament, club="Scrabble Club de Vichy")
    _play(services.round_draw(game_id=game.pk, expected_number=1).round)
    assert b'"club": "Scrabble Club de Vichy"' in exports.results_export(game)
    assert exports.results_file(game)[0].startswith("resultats-scrabble-club-de-vichy")


# -- 4. settling disputes during the round -------------------------------------------------------


def test_the_arbiter_sees_who_is_missing_and_each_slips_history_with_its_times(game, players):
    rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    live_services.submission_record(player=players[0], round_id=rnd.pk, text="H8 ZZZ 10")
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=_top(rnd))
    assert screens.game_screen(game).missing == [2, 3]
    history = live_selectors.slip_history(rnd, 1)
    assert [slip for _at, slip in history.sent] == ["H8 ZZZ 10", _top(rnd)]
    assert history.sent[0][0] <= history.sent[1][0]


def test_a_slip_accepted_in_the_grace_window_is_marked_with_its_arrival(game, players):
    rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    late = rnd.deadline + timedelta(seconds=1)
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=_top(rnd), now=late)
    live_services.submission_record(player=players[1], round_id=rnd.pk, text=_top(rnd), now=rnd.deadline)
    services.round_close(round_id=rnd.pk, now=late + timedelta(seconds=2))
    rows = {row.player.pk: row.in_grace for row in room.round_slips(Round.objects.get(pk=rnd.pk))}
    assert rows == {players[0].pk: True, players[1].pk: False, players[2].pk: False}


def test_while_a_round_runs_the_game_screen_links_the_tables_not_heard_from(game, players, arbiter_client):
    rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=_top(rnd))
    page = arbiter_client.get(f"/parties/{game.pk}/etat/", HTTP_HX_REQUEST="true").content.decode()
    missing = re.search(r'<p class="missing-tables">(.*?)</p>', page).group(1)
    link = r'<a href="([^"]+)" hx-get="([^"]+)" hx-target="#slip-history">table (\d+)</a>'
    links = re.findall(link, missing)
    assert [(href, table) for href, _get, table in links] == [
        (f"/coups/{rnd.pk}/historique/{table}/", str(table)) for table in (2, 3)
    ]
    assert all(href == get for href, get, _table in links) and missing.count(", ") == 1


def test_the_game_screen_lists_each_tables_slip_with_its_correction_form_and_history(
    game, players, arbiter, arbiter_client
):
    """The slips' rows (written in Python, ``templatetags/rows.py``), in French and in English."""
    rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    late = rnd.deadline + timedelta(seconds=1)
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=_top(rnd), now=late)
    services.round_close(round_id=rnd.pk, now=late + timedelta(seconds=2))
    live_services.submission_enter(round_id=rnd.pk, table_number=2, text="H8 ZZZ 10", user=arbiter)
    url = f"/parties/{game.pk}/bulletins/"  # the slips panel, apart from the live region
    for lang, words in (
        (
            "fr",
            ("dans le délai de grâce", "aucun bulletin", "Bulletin de la table 3", "Corriger", "historique"),
        ),
        ("en", ("in the grace window", "no slip", "Slip of table 3", "Correct", "history")),
    ):
        arbiter_client.cookies["django_language"] = lang
        page = arbiter_client.get(url, HTTP_HX_REQUEST="true").content.decode()
        body = page[page.index('<table class="list slips-table">') :]
        body = body[: body.index("</table>")]
        rows = body.split("<tr")[2:]
        assert len(rows) == 3
        first, second, third = rows
        assert words[0] in first and _top(rnd) in first and 'class="zero"' not in first
        assert 'class="zero"' in second and "H8 ZZZ 10" in second and "✎" in second
        assert 'class="missing"' in third and words[1] in third and f'aria-label="{words[2]}"' in third
        for table, row in enumerate(rows, start=1):
            assert f'name="table_number" value="{table}"' in row and f">{words[3]}</button>" in row
            assert f'href="/coups/{rnd.pk}/historique/{table}/"' in row and f">{words[4]}</a>" in row
            assert 'name="csrfmiddlewaretoken" value="' in row


def test_undo_walks_back_through_every_correction_in_order(game, players, arbiter):
    rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    live_services.submission_record(player=players[0], round_id=rnd.pk, text="H8 ZZZ 10")
    services.round_close(round_id=rnd.pk)
    live_services.submission_correct(round_id=rnd.pk, player=players[0], text=_top(rnd), user=arbiter)
    live_services.submission_enter(round_id=rnd.pk, table_number=2, text=_top(rnd), user=arbiter)
    live_services.submission_correction_undo(round_id=rnd.pk, user=arbiter)  # table 2's paper slip goes
    assert not Submission.objects.filter(round=rnd, player=players[1]).exists()
    live_services.submission_correction_undo(round_id=rnd.pk, user=arbiter)  # table 1 back to ZZZ
    slip = Submission.objects.get(round=rnd, player=players[0])
    assert (slip.slip_text(), slip.paid, slip.sanction) == ("H8 ZZZ 10", 0, "zero")
    with pytest.raises(services.ServiceError):
        live_services.submission_correction_undo(round_id=rnd.pk, user=arbiter)  # nothing left to undo
    log = list(live_selectors.round_changes(rnd))
    assert len(log) == 4 and [c.undoes_id is not None for c in log] == [True, True, False, False]
    assert log[0].after == {"slip": "H8 ZZZ 10", "paid": 0, "sanction": "zero", "reason": "word"}


# -- 5. solos only where they count --------------------------------------------------------------


def test_solos_are_shown_only_where_they_count(tournament, players, game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    _play(rnd, {players[0]: _top(rnd)})
    ranking = standings.game_rows(standings.game_ranking(game))
    assert ranking.solos == [] and {row.solos for row in ranking.rows} == {0}  # 3 players < 16
    services.tournament_update(tournament=tournament, solo_min_players=3)
    ranking = standings.game_rows(standings.game_ranking(game))
    assert ranking.solos == [(1, "Alice")] and ranking.rows[0].solos == 1


# -- 6. the projector ----------------------------------------------------------------------------


def test_the_projector_and_the_phones_show_the_top_only_once_the_arbiter_placed_it(game, players):
    rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    assert screens.projection(game).top is None  # never during the round
    services.round_close(round_id=rnd.pk)
    assert screens.projection(Game.objects.get(pk=game.pk)).top is None  # the arbiter has not chosen
    assert phone.room_screen(game.tournament_id).top is None
    index = len(Round.objects.get(pk=rnd.pk).tops) - 1  # the last of the tied tops, if several
    services.round_place_top(round_id=rnd.pk, index=index)
    placed = Round.objects.get(pk=rnd.pk).placed
    view = screens.projection(Game.objects.get(pk=game.pk))
    assert (view.top["ref"], view.top["word"], view.top["score"]) == (
        placed["ref"],
        placed["word"],
        placed["score"],
    )
    assert view.top_words[0].upper() == placed["word"].upper()
    assert phone.room_screen(game.tournament_id).top["word"] == placed["word"]


def test_a_cancelled_round_shows_no_top(game):
    rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    services.round_close(round_id=rnd.pk)
    services.round_cancel(round_id=rnd.pk)
    cancelled = Round.objects.get(pk=rnd.pk)
    assert cancelled.status == Round.Status.CANCELLED
    assert screens.projection(Game.objects.get(pk=game.pk), cancelled).top is None


def test_a_bag_stays_whole_through_typed_rejections_and_cancels(bag_game):
    _type(bag_game, 1, "AEIOUEA")
    rnd = _type(bag_game, 1, REFERENCE[0]).round
    services.round_cancel(round_id=rnd.pk)
    again = _type(bag_game, 1, "-" + REFERENCE[0]).round
    bag_game.refresh_from_db()
    assert sorted(bag_game.bag + again.tiles) == sorted(Bag.full().tiles())
