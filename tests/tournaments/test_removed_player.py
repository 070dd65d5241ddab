"""A removed player: whatever the removed player's phone asks (a slip, the poll, the join link, the
review), in whatever process and at whatever moment around the removal, it is told clearly that the
arbiter removed them, never a 500; nothing is stored for a player who is gone, and an arbiter's
paper slip, correction or edit for them is refused with a sentence.  The scale deployment's test,
with several web processes, is tests/server/test_removed_at_scale.py."""

from __future__ import annotations

import html
import re
import threading
import time

import pytest
from django.db import connection, connections, transaction
from django.urls import reverse

from live import room
from live import services as live_services
from server.writes import ServiceError
from tournaments import services
from tournaments.models import Player, Round, Submission

HTMX = {"HTTP_HX_REQUEST": "true"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}
REMOVED_FR = "Vous avez été retiré du tournoi par l'arbitre"
REMOVED_EN = "The arbiter removed you from the tournament"


def _url(name: str, player, **kwargs) -> str:
    return reverse(f"live:{name}", kwargs={"token": player.token, **kwargs})


def _running(game) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    return services.round_start(round_id=rnd.pk)


def _closed(game) -> Round:
    rnd = _running(game)
    Round.objects.filter(pk=rnd.pk).update(deadline=rnd.deadline.replace(year=2000))
    return services.round_close(round_id=rnd.pk)


def _top(rnd: Round) -> str:
    return f"{rnd.tops[0]['ref']} {rnd.tops[0]['word']}"


def _send(client, player, rnd, **headers):
    data = {"round": rnd.pk, "slip": _top(rnd), "request_id": "r-1"}
    return client.post(_url("player_submit", player), data, **headers)


def _removed_elsewhere(player: Player) -> None:
    """The player's row deleted by another process (another web process, the arbiter's): this
    process hears nothing of it, its memo still holds the player."""
    table = connection.ops.quote_name(Player._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE id = %s", [player.pk])


def _said_removed(response, sentence: str = REMOVED_FR) -> bool:
    return response.status_code == 410 and sentence in html.unescape(response.content.decode())


# -- a slip of a player who is gone ---------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_slip_of_a_player_deleted_between_the_memo_read_and_the_insert_is_refused_clearly(
    client, players, game, settings
):
    """Another process removed the player after this process's memo read them: the slip is not an
    integrity error (a 500), it is refused with the reason, and no row points to the player."""
    settings.POLL_MEMO_SECONDS = settings.ROOM_MEMO_SECONDS = 60
    rnd = _running(game)
    victim = players[1]
    assert client.get(_url("player_status", victim), {"s": "old"}, **HTMX).status_code == 200
    assert room.player_by_token_recent(victim.token) is not None  # remembered by this process
    _removed_elsewhere(victim)
    assert room.player_by_token_recent(victim.token) is not None  # still: the case in point
    answer = _send(client, victim, rnd, **HTMX)
    assert _said_removed(answer)
    assert answer["HX-Redirect"] == _url("player_page", victim)  # the phone's page then says it
    assert not Submission.objects.filter(player_id=victim.pk).exists()
    english = _send(client, victim, rnd, **HTMX, **ENGLISH)
    assert _said_removed(english, REMOVED_EN)
    assert "Vous avez" not in english.content.decode()
    # The other players' slips go on being stored.
    assert "reçu à" in _send(client, players[0], rnd, **HTMX).content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_slip_service_refuses_a_player_object_read_before_the_removal(players, game):
    rnd = _running(game)
    stale = Player.objects.select_related("tournament").get(pk=players[2].pk)
    services.player_remove(player=players[2])
    with pytest.raises(ServiceError) as refused:
        live_services.submission_record(player=stale, round_id=rnd.pk, text=_top(rnd), request_id="r-9")
    assert refused.value.message.code == "slip_player_removed"
    assert not Submission.objects.filter(player_id=stale.pk).exists()


# -- the arbiter's side: a paper slip, a correction, an edit of a player just removed --------------


@pytest.mark.django_db(transaction=True)
def test_a_paper_slip_or_a_correction_for_a_player_just_removed_is_refused_clearly(players, game, arbiter):
    rnd = _closed(game)
    stale = Player.objects.get(pk=players[1].pk)  # the arbiter's screen showed them
    services.player_remove(player=players[1])
    with pytest.raises(ServiceError) as refused:
        live_services.submission_correct(round_id=rnd.pk, player=stale, text=_top(rnd), user=arbiter)
    assert refused.value.message.code == "player_gone"
    assert "Bruno n'est plus inscrit au tournoi" in refused.value.message.text("fr")
    with pytest.raises(ServiceError) as by_table:
        live_services.submission_enter(
            round_id=rnd.pk, table_number=stale.table_number, text="-", user=arbiter
        )
    assert by_table.value.message.code == "slip_no_such_table"
    assert not Submission.objects.filter(player_id=stale.pk).exists()
    with pytest.raises(ServiceError) as edit:
        services.player_update(player=stale, table_number=stale.table_number, name="Bruno B.")
    assert edit.value.message.code == "player_gone"
    services.player_remove(player=stale)  # the arbiter's other tab: removed already, nothing to do


# -- the removed player's phone, whatever it asks ---------------------------------------------------


def test_every_request_of_a_removed_players_phone_is_told_clearly_and_not_counted_as_a_guess(
    client, players, game, settings
):
    settings.TOKEN_GUESSES_PER_MINUTE = 3
    rnd = _running(game)
    victim = players[0]
    assert client.get(_url("player_page", victim)).status_code == 200  # the session knows the link
    services.player_remove(player=victim)
    page = client.get(_url("player_page", victim))
    assert _said_removed(page) and "ce lien ne sert plus" in page.content.decode()
    for _ in range(5):  # a phone polling every 2 s: never "too many unknown links"
        poll = client.get(_url("player_status", victim), {"s": "old"}, **HTMX)
        assert _said_removed(poll) and poll["HX-Redirect"] == _url("player_page", victim)
    assert _said_removed(_send(client, victim, rnd, **HTMX))
    assert _said_removed(_send(client, victim, rnd))  # the page without its script
    assert _said_removed(client.get(reverse("live:player_me")))
    review = reverse("review:player_game", kwargs={"token": victim.token, "game": game.pk})
    assert _said_removed(client.get(review))
    assert _said_removed(client.get(_url("player_page", victim), **ENGLISH), REMOVED_EN)
    # A link that never named a player is still unknown (404, and counted).
    unknown = reverse("live:player_page", kwargs={"token": "Zz" * 16})
    assert client.get(unknown).status_code == 404
    assert not Submission.objects.filter(player_id=victim.pk).exists()


def test_a_removal_is_seen_at_once_by_a_process_that_remembers_the_room(client, players, game, settings):
    """The room's players are remembered for a minute here; the removal (made in this process, or
    telling the shared cache from another) is seen by the very next request."""
    settings.POLL_MEMO_SECONDS = settings.ROOM_MEMO_SECONDS = 60
    rnd = _running(game)
    page = client.get(_url("player_page", players[1])).content.decode()
    key = re.search(r"\?s=([0-9a-z.]+)", page).group(1)
    assert client.get(_url("player_status", players[1]), {"s": key}, **HTMX).status_code == 204
    services.player_remove(player=players[1])
    assert _said_removed(client.get(_url("player_status", players[1]), {"s": key}, **HTMX))
    assert _said_removed(_send(client, players[1], rnd, **HTMX))
    # The others' screens redraw without them (the round's version moved), and still work.
    poll = client.get(_url("player_status", players[0]), {"s": key}, **HTMX)
    assert poll.status_code == 200 and "Bruno" not in poll.content.decode()


# -- PostgreSQL: a removal while a slip of the player is being stored -------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_removal_waits_for_a_slip_being_stored_and_then_refuses_clearly(players, game):
    """The slip's transaction holds the player's row: the removal waits for it, then sees the slip
    and refuses (the player has handed in a slip), instead of deleting the player under it (the
    slip's commit would then fail with an integrity error: a 500)."""
    if connection.vendor != "postgresql":
        pytest.skip("runs on PostgreSQL (./scripts/test runs this file on SQLite and on PostgreSQL)")
    rnd = _running(game)
    victim = players[1]
    stored, errors = threading.Event(), []

    def slip() -> None:
        try:
            with transaction.atomic():  # the slip's transaction, left open a moment
                live_services.submission_record(
                    player=victim, round_id=rnd.pk, text=_top(rnd), request_id="r-1"
                )
                stored.set()
                time.sleep(0.5)
        except Exception as error:  # what the phone would have got as a 500
            errors.append(error)
        finally:
            connections.close_all()

    sender = threading.Thread(target=slip)
    sender.start()
    assert stored.wait(10)
    started = time.monotonic()
    with pytest.raises(ServiceError) as refused:
        services.player_remove(player=victim)
    sender.join(10)
    assert refused.value.message.code == "player_has_slips"
    assert time.monotonic() - started >= 0.3  # it waited for the slip's commit
    assert errors == []
    assert Submission.objects.filter(player=victim).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_players_first_slip_sent_twice_at_once_through_two_processes_is_stored_once(players, game):
    """Two sendings of a player's first slip handled at once (two web processes): neither sees the
    other's row before inserting its own, and the second insert meets the unique (round, player) row
    of the first: rather than an integrity error (a 500), the second replaces the first, as any
    later sending does (§3.3.3: the last one counts)."""
    if connection.vendor != "postgresql":
        pytest.skip("two processes' transactions: PostgreSQL (SQLite's writes are one queue)")
    rnd = _running(game)
    player = players[0]
    stored, errors = threading.Event(), []

    def first() -> None:
        try:
            with transaction.atomic():  # the first sending's transaction, not committed yet
                live_services.submission_record(
                    player=player, round_id=rnd.pk, text=_top(rnd), request_id="r-1"
                )
                stored.set()
                time.sleep(0.5)
        except Exception as error:
            errors.append(error)
        finally:
            connections.close_all()

    sender = threading.Thread(target=first)
    sender.start()
    assert stored.wait(10)
    second = live_services.submission_record(
        player=player, round_id=rnd.pk, text="H8 ZZZ 10", request_id="r-2"
    )
    sender.join(10)
    assert errors == []
    rows = Submission.objects.filter(player=player, round=rnd)
    assert rows.count() == 1
    assert rows.get().pk == second.pk and rows.get().request_id == "r-2"
