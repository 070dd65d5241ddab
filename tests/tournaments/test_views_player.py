"""The player's phone: join link, rack and board, slips with a receipt and nothing about validity
before the deadline (§3.4), the 2-second poll, results after the round, and no way into anyone
else's slip or into the arbiter's pages."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from live import phone, room
from live import services as live_services
from tournaments import boards, services
from tournaments.models import Grading, Player, Round, Submission

HTMX = {"HTTP_HX_REQUEST": "true"}


def _page(player) -> str:
    return reverse("live:player_page", kwargs={"token": player.token})


def _submit_url(player) -> str:
    return reverse("live:player_submit", kwargs={"token": player.token})


def _status_url(player) -> str:
    return reverse("live:player_status", kwargs={"token": player.token})


def _running(game) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    return services.round_start(round_id=rnd.pk)


def _post(client, player, rnd, slip, claimed="", request_id="r-1", **headers):
    data = {"round": rnd.pk, "slip": slip, "claimed": claimed, "request_id": request_id}
    return client.post(_submit_url(player), data, **headers)


def _top(rnd: Round) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']}"


def _visible_text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def _mentions_number(text: str, number: int) -> bool:
    """The number alone, not inside a time (14:02:37) or another number."""
    return re.search(rf"(?<![\d:]){number}(?![\d:])", text) is not None


def _receipt(html: str) -> str:
    """The receipt's element, its opening tag whole (its attributes' keys are no text the player sees)."""
    start = html.rindex("<", 0, html.index('id="player-receipt"'))
    return html[start : html.index("</div>", start)]


def _past_deadline(rnd: Round) -> None:
    """Move the deadline back beyond the grace window, as if the clock had run out."""
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))


# -- joining ------------------------------------------------------------------------------------


def test_an_unknown_token_is_a_404_that_asks_for_the_card(client, db):
    response = client.get(reverse("live:player_page", kwargs={"token": "not-a-player"}))
    assert response.status_code == 404
    assert "carte" in response.content.decode()


def test_opening_the_join_link_lets_moi_find_the_page_again(client, players):
    assert client.get(reverse("live:player_me")).status_code == 200
    client.get(_page(players[0]))
    response = client.get(reverse("live:player_me"))
    assert response.status_code == 302 and response["Location"] == _page(players[0])


def test_moi_without_a_join_link_asks_for_the_card(client, db):
    response = client.get(reverse("live:player_me"))
    assert "carte" in response.content.decode()


def test_the_player_session_opens_no_arbiter_page(client, players):
    client.get(_page(players[0]))
    response = client.get(reverse("tournaments:home"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# -- the page during a round --------------------------------------------------------------------


def test_the_page_shows_the_rack_the_board_and_the_clock(client, players, game):
    rnd = _running(game)
    html = client.get(_page(players[0])).content.decode()
    rack = re.findall(r'<li class="tile">([A-Z])<sub ', html)
    assert "".join(sorted(rack)) == "".join(sorted(ch for ch in rnd.rack if ch.isalpha()))
    assert html.count("data-sq=") == 225
    assert 'class="c star"' in html
    assert 'role="timer">3:00<' in html or 'role="timer">2:59<' in html
    assert "Alice" in html


def test_nothing_about_the_top_is_shown_while_the_round_runs(client, players, game):
    rnd = _running(game)
    html = client.get(_page(players[0])).content.decode()
    assert rnd.tops[0]["word"] not in html
    assert not _mentions_number(_visible_text(html.split('id="player-board"')[0]), rnd.top_score)


def test_the_claimed_score_field_is_shown_in_fisf_grading_only(client, players, tournament):
    assert 'name="claimed"' in client.get(_page(players[0])).content.decode()
    tournament.grading = Grading.COMPUTED
    tournament.save(update_fields=["grading"])
    assert 'name="claimed"' not in client.get(_page(players[0])).content.decode()


def test_the_page_before_any_rack_waits(client, players):
    html = client.get(_page(players[0])).content.decode()
    assert "En attente du premier tirage" in html


# -- slips ---------------------------------------------------------------------------------------


def test_a_slip_is_stored_and_the_receipt_says_nothing_of_its_value(client, players, game):
    rnd = _running(game)
    response = _post(client, players[0], rnd, _top(rnd), claimed=str(rnd.top_score - 1), **HTMX)
    assert response.status_code == 200
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert (sub.ref, sub.word, sub.claimed) == (rnd.tops[0]["ref"], rnd.tops[0]["word"], rnd.top_score - 1)
    html = response.content.decode()
    assert "reçu à" in html and "modifiable jusqu'à la fin" in html
    assert not _mentions_number(_visible_text(_receipt(html)), rnd.top_score)
    for word in ("valide", "invalide", "dictionnaire", "correct", "avertissement"):
        assert word not in html.lower()


def test_the_slip_appears_on_the_players_board_in_their_colour(client, players, game):
    rnd = _running(game)
    page = client.get(_page(players[0])).content.decode()
    html = _post(client, players[0], rnd, _top(rnd), **HTMX).content.decode()
    # The answer is the receipt alone: the slip held is in it for the phone to draw.
    assert 'id="player-board"' not in html and 'hx-swap-oob="true"' not in html
    top = rnd.tops[0]
    assert f'data-slip-ref="{top["ref"]}" data-slip-word="{top["word"]}"' in html
    # The board the server draws shows it too: the page, and the status of a phone that asks for it.
    assert client.get(_page(players[0])).content.decode().count(" mine") == len(top["tiles"])
    status = client.get(_status_url(players[0]), {"s": "other", "b": _shown(page)["b"]}, **HTMX)
    assert status.content.decode().count(" mine") == len(top["tiles"])


def test_a_computed_grading_slip_has_no_score_field_and_is_stored(client, players, game, tournament):
    tournament.grading = Grading.COMPUTED
    tournament.save(update_fields=["grading"])
    rnd = _running(game)
    _post(client, players[0], rnd, _top(rnd), claimed="99", **HTMX)
    assert Submission.objects.get(round=rnd, player=players[0]).claimed is None


def test_a_new_slip_replaces_the_last_and_a_retried_request_is_stored_once(client, players, game):
    rnd = _running(game)
    _post(client, players[0], rnd, "H8 AB", request_id="first", **HTMX)
    _post(client, players[0], rnd, "H8 AB", request_id="first", **HTMX)
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert sub.revision == 1
    _post(client, players[0], rnd, _top(rnd), request_id="second", **HTMX)
    sub.refresh_from_db()
    assert sub.revision == 2 and sub.word == rnd.tops[0]["word"]
    assert Submission.objects.filter(round=rnd).count() == 1


def test_a_changed_slip_under_the_same_request_id_is_not_taken_for_a_retry(client, players, game):
    rnd = _running(game)
    _post(client, players[0], rnd, "H8 AB", request_id="same", **HTMX)
    _post(client, players[0], rnd, "H8 ABC", request_id="same", **HTMX)
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert (sub.revision, sub.word) == (2, "ABC")


def test_a_late_slip_is_refused_with_the_sentence_and_nothing_stored(client, players, game):
    rnd = _running(game)
    _past_deadline(rnd)
    response = _post(client, players[0], rnd, _top(rnd), **HTMX)
    assert response.status_code == 200
    assert "Trop tard" in response.content.decode()
    assert not Submission.objects.filter(round=rnd).exists()


def test_a_malformed_slip_gets_the_sentence_and_loses_nothing(client, players, game):
    rnd = _running(game)
    _post(client, players[0], rnd, _top(rnd), request_id="good", **HTMX)
    response = _post(client, players[0], rnd, "Z99 QUOI?", request_id="bad", **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Bulletin illisible" in html
    assert rnd.tops[0]["word"] in html  # the previous slip's receipt stays
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert (sub.revision, sub.word) == (1, rnd.tops[0]["word"])
    # Without htmx the whole page comes back with the typed text still in the field.
    page = _post(client, players[0], rnd, "Z99 QUOI?", request_id="bad").content.decode()
    assert 'value="Z99 QUOI?"' in page and "Bulletin illisible" in page


def test_a_slip_naming_no_round_of_the_tournament_is_refused_not_an_error(client, players, game):
    rnd = _running(game)
    for round_value in ("", "abc", "²", "9" * 30, str(rnd.pk + 1000)):
        data = {"round": round_value, "slip": _top(rnd), "request_id": "x"}
        response = client.post(_submit_url(players[0]), data, **HTMX)
        assert response.status_code == 200
        assert "Aucun coup n&#x27;est en cours" in response.content.decode()
    assert not Submission.objects.exists()


# -- one player, one slip ------------------------------------------------------------------------


def test_a_players_session_gives_no_way_to_anothers_slip(client, players, game):
    alice, bruno, _ = players
    rnd = _running(game)
    client.get(_page(alice))
    # Bruno's slip can only be reached by Bruno's secret: his id or table in the URL is no page.
    for guess in (str(bruno.pk), str(bruno.table_number), bruno.token[:-1]):
        url = reverse("live:player_submit", kwargs={"token": guess})
        response = client.post(url, {"round": rnd.pk, "slip": "H8 AB", "request_id": "z"}, **HTMX)
        assert response.status_code == 404
    # Naming Bruno in the form of Alice's page changes nothing: the URL's token decides.
    data = {"round": rnd.pk, "slip": "H8 AB", "request_id": "y", "player": bruno.pk, "token": bruno.token}
    client.post(_submit_url(alice), data, **HTMX)
    assert list(Submission.objects.values_list("player__name", flat=True)) == ["Alice"]


def test_player_pages_never_show_another_players_token_or_slip(client, players, game):
    alice, bruno, chloe = players
    rnd = _running(game)
    live_services.submission_record(player=bruno, round_id=rnd.pk, text="H4 ZYTHUMS 12", request_id="b")
    pages = [
        client.get(_page(alice)).content.decode(),
        client.get(_status_url(alice)).content.decode(),
        _post(client, alice, rnd, "H8 AB", **HTMX).content.decode(),
    ]
    _past_deadline(rnd)
    pages.append(client.get(_status_url(alice)).content.decode())
    pages.append(client.get(_page(alice)).content.decode())
    assert all(alice.token in html for html in pages[:2] + pages[3:])
    for html in pages:
        assert bruno.token not in html and chloe.token not in html
        assert "ZYTHUMS" not in html


# -- the poll -------------------------------------------------------------------------------------


def _signature(html: str) -> str:
    return re.search(r"\?s=([0-9a-z.]+)", html).group(1)


def test_the_poll_answers_204_when_nothing_changed_cheaply(
    client, players, game, django_assert_max_num_queries
):
    _running(game)
    signature = _signature(client.get(_page(players[0])).content.decode())
    with django_assert_max_num_queries(2):
        response = client.get(_status_url(players[0]), {"s": signature}, **HTMX)
    assert response.status_code == 204
    assert 0 < float(response["X-Remaining"]) <= 180


def test_a_room_polling_within_the_memo_window_reads_nothing_from_the_database(
    client, players, game, settings, django_assert_num_queries
):
    """300 phones poll 150 times a second: the process remembers the token's player and the round
    state for ``POLL_MEMO_SECONDS``, so "nothing changed" costs no query."""
    settings.POLL_MEMO_SECONDS = settings.ROOM_MEMO_SECONDS = 60
    _running(game)
    signatures = [_signature(client.get(_page(p)).content.decode()) for p in players]
    for player, signature in zip(players, signatures, strict=True):
        client.get(_status_url(player), {"s": signature}, **HTMX)  # each token read once
    with django_assert_num_queries(0):
        answers = [
            client.get(_status_url(p), {"s": s}, **HTMX) for p, s in zip(players, signatures, strict=True)
        ]
    assert [a.status_code for a in answers] == [204] * len(players)
    assert all(0 < float(a["X-Remaining"]) <= 180 for a in answers)


def test_the_memo_forgets_at_once_what_this_process_writes_and_the_rest_after_its_window(
    client, players, game, settings
):
    settings.POLL_MEMO_SECONDS = settings.ROOM_MEMO_SECONDS = 60
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    signature = _signature(client.get(_page(players[0])).content.decode())
    assert client.get(_status_url(players[0]), {"s": signature}, **HTMX).status_code == 204
    services.round_start(round_id=rnd.pk)  # a save in this process: seen by the next poll
    started = client.get(_status_url(players[0]), {"s": signature}, **HTMX)
    assert started.status_code == 200 and 'data-phase="running"' in started.content.decode()
    signature = _signature(started.content.decode())
    # Written behind this process's back (another web process, a worker): unseen within the window...
    Round.objects.filter(pk=rnd.pk).update(version=rnd.version + 5)
    assert client.get(_status_url(players[0]), {"s": signature}, **HTMX).status_code == 204
    settings.POLL_MEMO_SECONDS = 0  # ...and seen once it has passed
    assert client.get(_status_url(players[0]), {"s": signature}, **HTMX).status_code == 200


def test_when_a_round_ends_each_phone_costs_no_query(
    client, players, game, settings, django_assert_num_queries, arbiter
):
    """After a round every phone asks for its new screen at once: the room's players, the round, its
    slips and the ranking are read once for all of them."""
    settings.POLL_MEMO_SECONDS = settings.ROOM_MEMO_SECONDS = 60
    rnd = _running(game)
    for player in players:
        _post(client, player, rnd, _top(rnd))
    services.round_close(round_id=rnd.pk)
    first = client.get(_status_url(players[0]), {"s": "old"}, **HTMX)  # reads the room for everyone
    assert 'data-phase="closed"' in first.content.decode()
    for player in players[1:]:
        with django_assert_num_queries(0):
            html = client.get(_status_url(player), {"s": "old"}, **HTMX).content.decode()
        assert 'data-phase="closed"' in html and player.name in html
        assert f"{rnd.tops[0]['ref']} {rnd.tops[0]['word']}" in html  # the player's own slip, graded
    # A slip corrected after the close moves the round's version: the room's slips are read again.
    live_services.submission_correct(round_id=rnd.pk, player=players[1], text="- ZZZ", user=arbiter)
    html = client.get(_status_url(players[1]), {"s": "old"}, **HTMX).content.decode()
    assert "ZZZ" in html


def test_a_player_registered_after_the_room_was_read_is_found(client, players, tournament, game, settings):
    settings.POLL_MEMO_SECONDS = settings.ROOM_MEMO_SECONDS = 60
    _running(game)
    assert client.get(_status_url(players[0]), {"s": "old"}, **HTMX).status_code == 200
    # Registered by another process (bulk_create sends no signal): this process's memo still holds
    # the room as it was, and the phone is found all the same.
    (late,) = Player.objects.bulk_create([Player(tournament=tournament, name="Dora", table_number=9)])
    assert room.player_by_token_recent(late.token) == late
    assert "Dora" in client.get(_status_url(late), {"s": "old"}, **HTMX).content.decode()


def test_the_rooms_players_are_kept_longer_than_the_round_state_and_an_edit_is_seen_at_once(
    client, players, game, settings, django_assert_num_queries
):
    """The round state is read again after its half second; the room's players (read in one query
    for the room) are kept for ``ROOM_MEMO_SECONDS``, unless a player is saved in this process."""
    settings.POLL_MEMO_SECONDS, settings.ROOM_MEMO_SECONDS = 0, 60
    _running(game)
    for player in players:  # the tokens and the room read once
        assert room.player_by_token_recent(player.token) == player
    with django_assert_num_queries(0):
        for player in players:
            assert room.player_by_token_recent(player.token).name == player.name
    services.player_update(player=players[1], table_number=players[1].table_number, name="Bruno B.")
    assert room.player_by_token_recent(players[1].token).name == "Bruno B."
    assert "Bruno B." in client.get(_status_url(players[1]), {"s": "old"}, **HTMX).content.decode()


def test_a_process_reads_the_rooms_tokens_at_its_first_phone_and_keeps_the_room_over_a_rounds_save(
    players, game, settings, django_assert_num_queries
):
    """Each web process meets each phone of a hall for the first time in the last seconds of a round:
    the first token it looks up brings the whole room's (one query), and the room's players stay
    kept when the round is saved (its close, in the arbiter's process): only the room's mark (a
    player saved) has them read again."""
    from server import memo

    settings.POLL_MEMO_SECONDS, settings.ROOM_MEMO_SECONDS = 60, 60
    rnd = _running(game)
    memo.forget_everything()
    with django_assert_num_queries(1):
        assert room.player_ids(players[0].token) == (players[0].pk, players[0].tournament_id)
    with django_assert_num_queries(0):
        assert [room.player_ids(p.token) for p in players[1:]] == [
            (p.pk, p.tournament_id) for p in players[1:]
        ]
    room.player_by_token_recent(players[0].token, mark_recent=True)  # the room's players read
    rnd.version += 1
    rnd.save(update_fields=["version"])  # forgets the round state, not the room's players
    with django_assert_num_queries(0):
        assert all(room.player_by_token_recent(p.token, mark_recent=True) == p for p in players)


def test_a_token_is_remembered_only_once_it_names_a_player(client, players, tournament):
    token = "Zz" * 16
    unknown = client.get(reverse("live:player_status", kwargs={"token": token}), **HTMX)
    assert unknown.status_code == 404
    late = services.player_register(tournament=tournament, name="Dora", table_number=9)
    late.token = token
    late.save(update_fields=["token"])
    assert room.player_ids(token) == (late.pk, tournament.pk)


def test_the_poll_brings_the_new_state_when_the_round_changes(client, players, game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    html = client.get(_page(players[0])).content.decode()
    assert 'data-phase="drawn"' in html
    services.round_start(round_id=rnd.pk)
    response = client.get(_status_url(players[0]), {"s": _signature(html)}, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'data-phase="running"' in body and "data-remaining=" in body
    assert re.search(r'id="player-board" class="board" data-key="[0-9a-f]+" hx-swap-oob="true"', body)


def _shown(html: str) -> dict:
    """What player.js sends with its status request: the keys of the board and receipt it shows."""
    board = re.search(r'id="player-board" class="board" data-key="([0-9a-f]+)"', html).group(1)
    receipt = re.search(r'id="player-receipt"[^>]*data-key="([0-9a-f]+)"', html).group(1)
    return {"b": board, "r": receipt}


def test_the_status_leaves_out_the_board_and_receipt_the_phone_shows_until_they_change(client, players, game):
    rnd = _running(game)
    page = client.get(_page(players[0])).content.decode()
    shown = _shown(page)
    top = rnd.tops[0]
    form = {"slip": f"{top['ref']} {top['word']}", "round": rnd.pk}
    slip = client.post(_submit_url(players[0]), form, **HTMX).content.decode()
    assert "data-fresh" in slip and 'id="player-board"' not in slip  # the receipt alone
    # The board with the slip comes with the next poll; the receipt it sends is the one the answer gave.
    drawn = client.get(_status_url(players[0]), {"s": "other", "r": shown["r"], "b": shown["b"]}, **HTMX)
    shown = _shown(drawn.content.decode())
    assert shown["r"] == re.search(r'id="player-receipt"[^>]*data-key="([0-9a-f]+)"', slip).group(1)
    unchanged = client.get(_status_url(players[0]), {"s": "other", **shown}, **HTMX).content.decode()
    assert 'id="player-status"' in unchanged
    assert 'id="player-board"' not in unchanged and 'id="player-receipt"' not in unchanged
    stale = client.get(_status_url(players[0]), {"s": "other", "b": "0" * 12, "r": shown["r"]}, **HTMX)
    stale = stale.content.decode()
    assert 'id="player-board"' in stale and 'id="player-receipt"' not in stale

    _past_deadline(rnd)  # closed: the receipt says "received" without "until the end"; same board
    closed = client.get(_status_url(players[0]), {"s": _signature(page), **shown}, **HTMX).content.decode()
    assert 'data-phase="closed"' in closed
    assert 'id="player-board"' not in closed and 'id="player-receipt"' in closed
    shown["r"] = re.search(r'id="player-receipt"[^>]*data-key="([0-9a-f]+)"', closed).group(1)
    services.round_place_top(round_id=rnd.pk)  # the top on the board: the board is sent again
    placed = client.get(_status_url(players[0]), {"s": _signature(closed), **shown}, **HTMX).content.decode()
    assert 'id="player-board"' in placed and 'id="player-receipt"' not in placed
    assert 'class="c' in placed and " last" in placed


def test_the_poll_closes_the_round_after_the_deadline(client, players, game):
    rnd = _running(game)
    signature = _signature(client.get(_page(players[0])).content.decode())
    _past_deadline(rnd)
    response = client.get(_status_url(players[0]), {"s": signature}, **HTMX)
    assert response.status_code == 200
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    assert 'data-phase="closed"' in response.content.decode()


# -- after the round --------------------------------------------------------------------------------


def test_after_the_round_the_page_shows_the_top_the_players_line_total_and_rank(client, players, game):
    alice, bruno, chloe = players
    rnd = _running(game)
    top = rnd.tops[0]
    _post(client, alice, rnd, _top(rnd), claimed=str(top["score"] - 2), request_id="a", **HTMX)
    live_services.submission_record(player=bruno, round_id=rnd.pk, text=f"{_top(rnd)} {top['score']}")
    _past_deadline(rnd)
    services.round_close_if_due(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    html = client.get(_page(alice)).content.decode()
    sub = Submission.objects.get(round=rnd, player=alice)
    assert sub.paid == top["score"] and "avertissement" in sub.message
    assert f"{top['ref']} {top['word']}</b> — <b>{top['score']}</b>" in html
    assert sub.message.replace("'", "&#x27;") in html
    assert f"Total <b>{top['score']}</b>" in html
    assert "négatif <b>0</b>" in html
    assert "rang <b>1</b>/3" in html  # Alice and Bruno share the first place
    chloe_page = client.get(_page(chloe)).content.decode()
    assert "0 — aucun bulletin remis." in chloe_page
    assert f"négatif <b>-{top['score']}</b>" in chloe_page and "rang <b>3</b>/3" in chloe_page


def test_equal_totals_share_a_rank_and_the_negatif_counts_from_the_tops(players, game):
    alice, bruno, _ = players
    rnd = _running(game)
    live_services.submission_record(player=alice, round_id=rnd.pk, text=_top(rnd))
    live_services.submission_record(player=bruno, round_id=rnd.pk, text=_top(rnd))
    services.round_close(round_id=rnd.pk)
    standings = {p.name: phone.player_standing(p) for p in players}
    assert standings["Alice"].rank == standings["Bruno"].rank == 1
    assert standings["Chloé"].rank == 3
    assert standings["Chloé"].negatif == -rnd.top_score


@pytest.mark.parametrize("base, solo_counted", [("total", True), ("paid", False)])
def test_the_phones_negatif_is_the_rankings_on_the_tournaments_base(
    players, game, tournament, base, solo_counted
):
    """Alice alone finds the top: a solo (§3.5, three players suffice here).  The négatif follows
    the percentage base, as on the ranking pages and sheets."""
    tournament.solo_min_players, tournament.percent_base = 3, base
    tournament.save(update_fields=["solo_min_players", "percent_base"])
    alice = players[0]
    rnd = _running(game)
    live_services.submission_record(player=alice, round_id=rnd.pk, text=_top(rnd))
    services.round_close(round_id=rnd.pk)
    standing = phone.player_standing(alice)
    assert standing.total == rnd.top_score + tournament.solo_value
    assert standing.negatif == (tournament.solo_value if solo_counted else 0)


def test_the_words_a_top_forms_are_read_from_the_board():
    cells = [0] * 225
    cells[7 * 15 + 7] = 1  # A on H8
    across = [(7 * 15 + 8, 20)]  # T on H9: "AT"
    assert boards.words_formed(cells, across, True) == ["AT"]
    down = [(6 * 15 + 8, 12), (7 * 15 + 8, 1 | 32)]  # L on G9, blank a on H9: "La" down, "Aa" across
    assert boards.words_formed(cells, down, False) == ["La", "Aa"]


@pytest.mark.parametrize(
    ("ref", "word", "squares"),
    [("H4", "CALFEUTRE", [7 * 15 + 3 + i for i in range(9)]), ("4H", "ab", [7 * 15 + 3, 8 * 15 + 3])],
)
def test_a_slip_is_placed_on_the_board_from_its_reference(ref, word, squares):
    preview = boards.slip_preview([0] * 225, ref, word)
    assert sorted(preview.squares) == squares
    assert all(lower == word[0].islower() for _, lower in preview.squares.values())


def test_a_slip_is_graded_on_receipt_yet_the_phone_learns_nothing_before_the_close(client, game, players):
    """The grade is stored as the slip arrives (closing has nothing left to do) and stays hidden (§3.4)."""
    rnd = _running(game)
    top = rnd.tops[0]
    _post(client, players[0], rnd, _top(rnd), claimed=str(top["score"]))
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert (sub.paid, sub.sanction) == (top["score"], "none") and sub.graded_at is not None
    page = _visible_text(client.get(_page(players[0])).content.decode())
    assert sub.message not in page
    graded_at = sub.graded_at
    services.round_close(round_id=rnd.pk)
    sub.refresh_from_db()
    assert sub.graded_at == graded_at  # not graded again
    assert sub.message in _visible_text(client.get(_page(players[0])).content.decode())


def test_after_the_top_is_placed_every_phone_gets_the_same_board_and_a_slip_preview_stays_its_own(
    client, game, players
):
    rnd = _running(game)
    _post(client, players[0], rnd, _top(rnd), claimed=str(rnd.tops[0]["score"]))
    running = client.get(_status_url(players[0]), **HTMX).content.decode()
    other = client.get(_status_url(players[1]), **HTMX).content.decode()
    assert _board(running) != _board(other)  # the first phone shows its own slip on its board
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    boards = {_board(client.get(_status_url(p), **HTMX).content.decode()) for p in players}
    assert len(boards) == 1 and " last" in boards.pop()


def _board(html: str) -> str:
    start = html.index('id="player-board"')
    return html[start : html.index("</div>", start)]
