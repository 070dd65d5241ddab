"""A slip a phone tried to send while the server did not answer.  The server's clock decides
(§3.3.3): in time, it is a slip like any other; late, it is a claim shown to the arbiter, who
accepts it as a late paper slip (graded, logged) or refuses it (logged).  Never a 500."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Member, Role
from live import phone
from live.services.tried import tried_accept, tried_record
from live.tried import PER_ROUND, clock_text
from tournaments import services, standings
from tournaments.models import Round, Submission, SubmissionChange, TriedSlip

HTMX = {"HTTP_HX_REQUEST": "true"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _running(game) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    return services.round_start(round_id=rnd.pk)


def _closed(game) -> Round:
    """Round 1 run and closed on time, its deadline 30 s ago: any slip now is late."""
    rnd = _running(game)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    return services.round_close_if_due(round_id=rnd.pk)


def _top_slip(rnd) -> tuple[str, str]:
    top = rnd.tops[0]
    return phone.typed_slip(f"{top['ref']} {top['word']}"), str(top["score"])


def _ms(moment) -> str:
    return str(int(moment.timestamp() * 1000))


def _send(player, rnd, slip="H8 MOT", claimed="", request_id="essai-1", tried_at=None, **extra):
    """The phone's script, its server back: ``POST /j/<token>/essai/``."""
    tried_at = _ms(timezone.now() - timedelta(seconds=40)) if tried_at is None else tried_at
    data = {"round": rnd.pk, "slip": slip, "claimed": claimed, "request_id": request_id, "tried_at": tried_at}
    url = reverse("live:player_tried", kwargs={"token": player.token})
    return Client().post(url, data, **HTMX, **extra)


def _total(game, player) -> int:
    rows = standings.game_rows(standings.game_ranking(game)).rows
    return next(row.total for row in rows if row.table == player.table_number)


def _panel(client, game, **extra) -> str:
    url = reverse("live:game_slips", args=[game.pk]) + "?coup=1"
    return client.get(url, **HTMX, **extra).content.decode()


def _decide(client, rnd, claim, action, **extra):
    url = reverse(f"live:tried_{action}", args=[rnd.pk, claim.pk])
    return client.post(url, **HTMX, **extra)


# -- the phone ---------------------------------------------------------------------------------------


def test_a_slip_that_reaches_the_server_in_time_is_stored_as_a_slip(game, players):
    rnd = _running(game)
    slip, claimed = _top_slip(rnd)
    answer = _send(players[0], rnd, slip, claimed)
    assert answer.status_code == 200 and answer["X-Arbiter"] == "1"
    body = answer.content.decode()
    assert body.startswith('<p class="tried"') and "Bulletin reçu à temps" in body
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert sub.request_id.startswith("essai-1:") and sub.revision == 1
    # The same sending again (its answer lost): stored once.
    assert _send(players[0], rnd, slip, claimed).status_code == 200
    assert Submission.objects.get(pk=sub.pk).revision == 1
    assert not TriedSlip.objects.exists()


def test_a_late_slip_is_kept_for_the_arbiter_and_counts_nothing_by_itself(arbiter_client, game, players):
    rnd = _closed(game)
    slip, claimed = _top_slip(rnd)
    tried_at = rnd.deadline - timedelta(seconds=8)
    answer = _send(players[0], rnd, slip, claimed, tried_at=_ms(tried_at))
    assert answer.status_code == 202 and answer["X-Arbiter"] == "1"
    time = clock_text(tried_at)
    assert answer.content.decode() == (
        f'<p class="tried" role="status">Bulletin tenté à {time} pendant la coupure : transmis à '
        "l&#x27;arbitre, qui décidera.</p>"
    )
    claim = TriedSlip.objects.get()
    assert (claim.round_id, claim.player_id, claim.status) == (rnd.pk, players[0].pk, "pending")
    assert not Submission.objects.filter(player=players[0]).exists()
    assert _total(game, players[0]) == 0
    # The arbiter's game screen says it, and the round's slips offer to accept or refuse it.
    screen = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    table = players[0].table_number
    assert f"Table {table} (Alice) a tenté d&#x27;envoyer son bulletin du coup 1 à {time}" in screen
    assert "(serveur injoignable)" in screen
    panel = _panel(arbiter_client, game)
    assert "Bulletins tentés pendant une coupure" in panel and f"tenté à {time} (téléphone)" in panel
    assert reverse("live:tried_accept", args=[rnd.pk, claim.pk]) in panel
    assert reverse("live:tried_refuse", args=[rnd.pk, claim.pk]) in panel


def test_a_slip_sent_late_to_a_round_still_running_past_its_cutoff_is_a_claim(game, players):
    rnd = _running(game)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=20))
    assert _send(players[1], rnd, "H8 MOT").status_code == 202
    assert TriedSlip.objects.filter(player=players[1]).count() == 1
    assert not Submission.objects.filter(player=players[1]).exists()


def test_the_game_screens_poll_redraws_when_a_claim_arrives(arbiter_client, game, players):
    rnd = _closed(game)
    screen = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).context["screen"]
    poll = reverse("live:game_poll", args=[game.pk])
    assert arbiter_client.get(poll, {"v": screen.key}).status_code == 204
    _send(players[2], rnd, "H8 MOT")
    redrawn = arbiter_client.get(poll, {"v": screen.key})
    assert redrawn.status_code == 200 and "a tenté d&#x27;envoyer" in redrawn.content.decode()
    # And the round's version moved: the panel showing it is drawn again (arbiter.js compares).
    assert Round.objects.get(pk=rnd.pk).version > rnd.version


def test_a_repeated_sending_is_one_claim_and_a_newer_one_replaces_it(game, players):
    rnd = _closed(game)
    for _ in range(3):
        assert _send(players[0], rnd, "H8 MOT", request_id="r-1").status_code == 202
    claim = TriedSlip.objects.get()
    assert (claim.text, len(claim.history)) == ("H8 MOT", 1)
    assert _send(players[0], rnd, "H8 MOTS", request_id="r-2").status_code == 202
    claim = TriedSlip.objects.get()
    assert (claim.text, len(claim.history), claim.status) == ("H8 MOTS", 2, "pending")
    # The first sending repeated late (its answer lost) takes nothing back.
    assert _send(players[0], rnd, "H8 MOT", request_id="r-1").status_code == 202
    assert (TriedSlip.objects.get().text, len(TriedSlip.objects.get().history)) == ("H8 MOTS", 2)
    for number in range(3, PER_ROUND + 1):
        assert _send(players[0], rnd, f"H8 MOT {number}", request_id=f"r-{number}").status_code == 202
    refused = _send(players[0], rnd, "H8 MOTTE", request_id="r-99")
    assert refused.status_code == 429
    assert f"Déjà {PER_ROUND} bulletins tentés pour ce coup" in refused.content.decode()
    assert len(TriedSlip.objects.get().history) == PER_ROUND


def _at_once(count: int, action) -> list[Exception]:
    """``action(i)`` in ``count`` threads released together (each with its own connection)."""
    barrier, errors = threading.Barrier(count), []

    def run(index):
        try:
            barrier.wait()
            action(index)
        except Exception as error:  # reported below: the test shows what went wrong
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


@pytest.mark.django_db(transaction=True)
def test_sendings_arriving_at_once_make_one_claim_and_one_accept_one_slip(tournament, arbiter):
    game = services.game_start(tournament=tournament, seed=42)
    alice = services.player_register(tournament=tournament, name="Alice")
    rnd = _closed(game)
    now = timezone.now()

    def send(index):
        request_id = "same" if index < 4 else f"other-{index}"
        tried_record(
            player=alice, round_id=rnd.pk, text="H8 MOT", tried_at=now, request_id=request_id, now=now
        )

    assert _at_once(6, send) == []
    claim = TriedSlip.objects.get()  # one claim: the repeats found it, the others replaced it
    assert claim.status == "pending" and len(claim.history) == 3
    decided = _at_once(3, lambda _i: tried_accept(claim_id=claim.pk, round_id=rnd.pk, user=arbiter))
    assert len(decided) == 2 and all(e.message.code == "tried_already_accepted" for e in decided)
    assert SubmissionChange.objects.count() == 1 and Submission.objects.count() == 1


# -- the arbiter -------------------------------------------------------------------------------------


def test_an_accepted_claim_is_the_arbiters_paper_slip_graded_and_logged(
    arbiter_client, arbiter, game, players
):
    rnd = _closed(game)
    slip, claimed = _top_slip(rnd)
    _send(players[0], rnd, slip, claimed, tried_at=_ms(rnd.deadline - timedelta(seconds=8)))
    claim = TriedSlip.objects.get()
    version = Round.objects.get(pk=rnd.pk).version
    answer = _decide(arbiter_client, rnd, claim, "accept")
    assert answer.status_code == 200 and answer["HX-Trigger"] == "slips-changed"
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert (sub.paid, sub.entered_by_id) == (rnd.tops[0]["score"], arbiter.pk)
    assert _total(game, players[0]) == rnd.tops[0]["score"]
    claim.refresh_from_db()
    assert (claim.status, claim.decided_by_id) == ("accepted", arbiter.pk) and claim.decided_at
    change = SubmissionChange.objects.get(round=rnd)
    assert (change.player_id, change.changed_by_id, change.before) == (players[0].pk, arbiter.pk, None)
    assert Round.objects.get(pk=rnd.pk).version > version  # phones, rankings and screens follow
    body = answer.content.decode()
    assert f"Table {players[0].table_number} : lu" in body and "accepté" in body  # the journal's line
    assert "Bulletins tentés pendant une coupure" not in body  # nothing pending any more
    # Decided once: a second press says so and changes nothing.
    again = _decide(arbiter_client, rnd, claim, "accept").content.decode()
    assert "Ce bulletin tenté est déjà accepté." in again
    assert SubmissionChange.objects.count() == 1


def test_a_refused_claim_counts_nothing_and_is_logged(arbiter_client, arbiter, game, players):
    rnd = _closed(game)
    slip, claimed = _top_slip(rnd)
    _send(players[1], rnd, slip, claimed)
    claim = TriedSlip.objects.get()
    answer = _decide(arbiter_client, rnd, claim, "refuse")
    assert answer.status_code == 200
    claim.refresh_from_db()
    assert (claim.status, claim.decided_by_id) == ("refused", arbiter.pk)
    assert not Submission.objects.filter(player=players[1]).exists()
    assert _total(game, players[1]) == 0
    body = _panel(arbiter_client, game)
    journal = body[body.index("tried-row") :]
    assert f"tenté à {clock_text(claim.tried_at)} (serveur injoignable) : {claim.text}" in journal
    assert "refusé" in journal and "arbitre" in journal
    screen = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert "a tenté d&#x27;envoyer" not in screen
    assert "déjà refusé" in _decide(arbiter_client, rnd, claim, "accept").content.decode()
    assert not Submission.objects.filter(player=players[1]).exists()


@pytest.mark.clubs
def test_a_deputy_settles_a_claim_and_another_clubs_arbiter_cannot_see_or_touch_it(client, game, players):
    rnd = _closed(game)
    _send(players[0], rnd, "H8 MOT")
    claim = TriedSlip.objects.get()
    stranger = User.objects.create_user("arbitre-b", password="x-secret-123")
    Member.objects.create(club=Club.objects.create(name="Club B"), user=stranger, role=Role.ARBITER)
    client.force_login(stranger)
    assert client.get(reverse("live:game_detail", args=[game.pk])).status_code == 404
    assert client.get(reverse("live:game_slips", args=[game.pk]), **HTMX).status_code == 404
    for action in ("accept", "refuse"):
        assert _decide(client, rnd, claim, action).status_code == 404
    assert TriedSlip.objects.get().status == "pending"
    deputy = User.objects.create_user("adjoint", password="x-secret-123")
    Member.objects.create(club=game.tournament.owner, user=deputy, role=Role.DEPUTY)
    client.force_login(deputy)
    assert _decide(client, rnd, claim, "refuse").status_code == 200
    assert TriedSlip.objects.get().status == "refused"


def test_a_claim_is_settled_through_its_own_round_only(arbiter_client, game, players):
    rnd = _closed(game)
    _send(players[0], rnd, "H8 MOT")
    claim = TriedSlip.objects.get()
    services.round_place_top(round_id=rnd.pk)
    second = services.round_draw(game_id=game.pk, expected_number=2).round
    services.round_start(round_id=second.pk)
    services.round_close(round_id=second.pk)
    body = _decide(arbiter_client, second, claim, "accept").content.decode()
    assert "Ce bulletin tenté n&#x27;existe plus" in body
    assert TriedSlip.objects.get().status == "pending"
    assert not Submission.objects.filter(player=players[0]).exists()


# -- what a phone may send ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        ({"tried_at": "future"}, "en avance sur l&#x27;horloge du serveur"),
        ({"tried_at": "old"}, "date de plus d&#x27;une heure"),
        ({"tried_at": "20:14:05"}, "L&#x27;heure du premier essai est illisible"),
        ({"tried_at": "9" * 16}, "L&#x27;heure du premier essai est illisible"),
        ({"tried_at": "9" * 30}, "Envoi trop long"),
        ({"tried_at": ""}, "Envoi incomplet"),
        ({"round": ""}, "Envoi incomplet"),
        ({"round": "12a"}, "Envoi incomplet"),
        ({"round": "9" * 40}, "Envoi incomplet"),
        ({"slip": ""}, "Envoi incomplet"),
        ({"request_id": ""}, "Envoi incomplet"),
        ({"slip": "H8 MOT" * 2000}, "Envoi trop long"),
        ({"claimed": "1" * 5000}, "Envoi trop long"),
        ({"slip": "H8 MO\x00T"}, "Bulletin illisible"),
        ({"slip": "Z99 <script>"}, "Bulletin illisible"),
        ({"claimed": "vingt"}, "Bulletin illisible"),
    ],
)
def test_a_bad_sending_is_refused_with_a_sentence(game, players, change, sentence):
    rnd = _closed(game)
    now = timezone.now()
    moments = {"future": _ms(now + timedelta(minutes=2)), "old": _ms(now - timedelta(hours=2))}
    fields = {
        "slip": "H8 MOT",
        "claimed": "",
        "request_id": "r-1",
        "tried_at": _ms(now - timedelta(seconds=40)),
    }
    fields.update({key: moments.get(value, value) for key, value in change.items()})
    data = {"round": change.get("round", rnd.pk), **fields}
    url = reverse("live:player_tried", kwargs={"token": players[0].token})
    answer = Client().post(url, data, **HTMX)
    assert answer.status_code == 400, answer.content
    body = answer.content.decode()
    assert body.startswith('<p class="error" role="alert">') and sentence in body
    assert not TriedSlip.objects.exists() and not Submission.objects.exists()


def test_bytes_that_are_not_utf8_are_refused_with_a_sentence(game, players):
    rnd = _closed(game)
    url = reverse("live:player_tried", kwargs={"token": players[0].token})
    stamp = _ms(timezone.now())
    body = f"round={rnd.pk}&slip=H8%20MO%ED%A0%80T&claimed=&request_id=r-1&tried_at={stamp}"
    answer = Client().post(url, body, content_type="application/x-www-form-urlencoded", **HTMX)
    assert answer.status_code == 400 and "Bulletin illisible" in answer.content.decode()
    assert not TriedSlip.objects.exists()


def test_a_claim_for_a_round_never_played_or_of_another_tournament_is_refused(arbiter, game, players):
    drawn = services.round_draw(game_id=game.pk, expected_number=1).round
    answer = _send(players[0], drawn, "H8 MOT")
    assert answer.status_code == 400 and "Le coup 1 n&#x27;a pas été joué" in answer.content.decode()
    other = services.tournament_create(
        created_by=arbiter, lexicon=game.tournament.lexicon, name="Autre", date=game.tournament.date
    )
    stranger = services.player_register(tournament=other, name="Zoé")
    answer = _send(stranger, drawn, "H8 MOT")
    assert answer.status_code == 400 and "pas un coup de votre tournoi" in answer.content.decode()
    assert not TriedSlip.objects.exists()


def test_an_unknown_link_is_answered_404_and_a_removed_players_410(game, players):
    rnd = _closed(game)
    url = reverse("live:player_tried", kwargs={"token": "nobody-has-this-token"})
    assert Client().post(url, {"round": rnd.pk}).status_code == 404
    services.player_remove(player=players[2])
    answer = _send(players[2], rnd, "H8 MOT")
    assert answer.status_code == 410 and answer["X-Arbiter"] == "1"
    assert not TriedSlip.objects.exists()


# -- English -----------------------------------------------------------------------------------------


def test_the_phone_and_the_arbiter_read_it_in_english(arbiter_client, game, players):
    rnd = _closed(game)
    tried_at = rnd.deadline - timedelta(seconds=3)
    answer = _send(players[0], rnd, "H8 MOT", tried_at=_ms(tried_at), **ENGLISH)
    time = clock_text(tried_at)
    assert answer.status_code == 202
    assert (
        f"Slip tried at {time} while the server was unreachable: passed to the arbiter"
        in answer.content.decode()
    )
    ahead = _send(players[0], rnd, "H8 MOT", tried_at=_ms(timezone.now() + timedelta(minutes=5)), **ENGLISH)
    assert "is ahead of the server&#x27;s clock" in ahead.content.decode()
    screen = arbiter_client.get(reverse("live:game_detail", args=[game.pk]), **ENGLISH).content.decode()
    assert f"tried to send round 1&#x27;s slip at {time} (server unreachable)" in screen
    panel = _panel(arbiter_client, game, **ENGLISH)
    assert "Slips tried while the server was unreachable" in panel
    assert ">Accept</button>" in panel and ">Refuse</button>" in panel
