"""The phone's script sends a slip again when the answer is lost or the server answers 503, the same
request (same request_id), and the slip is stored once."""

from __future__ import annotations

import datetime
from urllib.parse import parse_qs

from django.contrib.auth.models import User
from playwright.sync_api import Page, Route, expect

from lexicons.loaded import lexicon_default_row
from tests.e2e.browser import orm as _orm
from tournaments import services
from tournaments.models import Player, Round, Submission

BUSY = "Le serveur est occupé un instant : bulletin pas encore reçu, nouvel essai automatique…"


def _running_round() -> tuple[Player, Round]:
    """Alice's tournament, its first round running."""
    with _orm():
        arbiter = User.objects.create_user("arbitre", password="mot-de-passe-du-club")
        tournament = services.tournament_create(
            created_by=arbiter,
            lexicon=lexicon_default_row(),
            name="Coupe du club",
            date=datetime.date(2026, 11, 20),
        )
        player = services.player_register(tournament=tournament, name="Alice")
        game = services.game_start(tournament=tournament, seed=42)
        rnd = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=1).round.pk)
    return player, rnd


def test_a_slip_whose_answer_is_lost_and_then_refused_for_a_while_is_sent_again_and_stored_once(
    live_server, phone
):
    player, rnd = _running_round()
    top = rnd.tops[0]

    sent: list[str] = []

    def flaky(route: Route) -> None:
        sent.append(route.request.post_data)
        if len(sent) == 1:
            route.fetch()  # the server stores the slip...
            route.abort("connectionreset")  # ...and its answer never reaches the phone
        elif len(sent) == 2:
            # the server's own 503 (its mark: server/answers.py), saying why
            route.fulfill(
                status=503,
                headers={"Retry-After": "1", "X-Arbiter": "1"},
                body=f'<p class="error">{BUSY}</p>',
            )
        else:
            route.continue_()

    page = phone().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("**/bulletin/", flaky)
    page.goto(f"{live_server.url}/j/{player.token}/")
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    page.locator("#slip-text").fill(f"{top['ref']} {top['word']}")
    page.locator(".slip-score").fill(str(top["score"]))
    page.get_by_role("button", name="Envoyer").tap()

    expect(page.locator("#player-receipt .retrying")).to_have_text(BUSY)
    expect(page.locator("#player-receipt .sent")).to_contain_text(
        f"{top['ref']} {top['word']} {top['score']} — reçu à"
    )
    expect(page.locator("#player-receipt .retrying")).to_have_count(0)
    assert len(sent) == 3 and not errors, (sent, errors)
    assert len({parse_qs(body)["request_id"][0] for body in sent}) == 1
    with _orm():
        sub = Submission.objects.get(round=rnd, player=player)
        assert (sub.word, sub.claimed, sub.revision) == (top["word"], top["score"], 1)


NO_ANSWER = "Pas de réponse du serveur : bulletin pas encore reçu, nouvel essai automatique…"
PROXY_502 = "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"
PORTAL = (
    "<!doctype html><html><head><title>Wi-Fi du club</title></head><body>"
    '<div id="player-receipt"><p class="sent">Bienvenue sur le Wi-Fi du club : '
    "acceptez les conditions</p></div>"
    "</body></html>"
)


def _sent_until_received(live_server, phone, first_answer) -> Page:
    """Alice sends the top; the first sending is answered ``first_answer`` by something between the
    phone and the server (it never reaches the server); the phone says it tries again, sends the same
    request, and the server's answer says "received": the slip is stored once."""
    player, rnd = _running_round()
    top = rnd.tops[0]
    sent: list[str] = []

    def between(route: Route) -> None:
        sent.append(route.request.post_data)
        if len(sent) == 1:
            first_answer(route)
        else:
            route.continue_()

    page = phone().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("**/bulletin/", between)
    page.goto(f"{live_server.url}/j/{player.token}/")
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    page.locator("#slip-text").fill(f"{top['ref']} {top['word']}")
    page.locator(".slip-score").fill(str(top["score"]))
    page.get_by_role("button", name="Envoyer").tap()

    expect(page.locator("#player-receipt .retrying")).to_have_text(NO_ANSWER)
    expect(page.locator("#player-receipt .sent")).to_have_count(0)  # nothing received yet
    expect(page.locator("#player-receipt .sent")).to_contain_text(
        f"{top['ref']} {top['word']} {top['score']} — reçu à"
    )
    expect(page.locator("#player-receipt .retrying")).to_have_count(0)
    assert len(sent) == 2 and not errors, (sent, errors)
    assert len({parse_qs(body)["request_id"][0] for body in sent}) == 1
    with _orm():
        sub = Submission.objects.get(round=rnd, player=player)
        assert (sub.word, sub.claimed, sub.revision) == (top["word"], top["score"], 1)
    return page


def test_a_slip_answered_502_by_a_proxy_is_sent_again_and_stored_once(live_server, phone):
    """nginx's 502 (its connection to gunicorn lost) is not the server's answer."""

    def bad_gateway(route: Route) -> None:
        route.fulfill(status=502, headers={"Content-Type": "text/html", "Server": "nginx"}, body=PROXY_502)

    page = _sent_until_received(live_server, phone, bad_gateway)
    assert "Bad Gateway" not in page.locator("body").inner_text()


def test_a_captive_portals_page_answering_200_is_not_taken_for_received(live_server, phone):
    """A page answered 200 by something other than the server (the club's captive portal, even one
    with a receipt's look) is neither shown nor taken for the slip received."""

    def portal(route: Route) -> None:
        route.fulfill(status=200, headers={"Content-Type": "text/html"}, body=PORTAL)

    page = _sent_until_received(live_server, phone, portal)
    assert "Wi-Fi du club" not in page.locator("body").inner_text()


EXPIRED = "Cette page a expiré ou les cookies sont bloqués : rechargez la page, puis recommencez."


def test_a_phone_that_lost_its_cookie_is_told_to_reload_and_its_slip_goes_through_after(live_server, phone):
    """A refusal that sending again would not change (the CSRF cookie cleared by the browser) is said
    where the receipt goes, in French, once; after a reload the same slip is stored."""
    player, rnd = _running_round()
    top = rnd.tops[0]

    page = phone().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/j/{player.token}/")
    expect(page.locator("body")).to_have_attribute("data-phase", "running")
    page.context.clear_cookies()

    def send() -> None:
        page.locator("#slip-text").fill(f"{top['ref']} {top['word']}")
        page.locator(".slip-score").fill(str(top["score"]))
        page.get_by_role("button", name="Envoyer").tap()

    send()
    expect(page.locator("#player-receipt .retrying")).to_contain_text(EXPIRED)
    page.wait_for_timeout(1500)  # no automatic resend: nothing would change
    with _orm():
        assert not Submission.objects.filter(round=rnd).exists()

    page.reload()
    send()
    expect(page.locator("#player-receipt .sent")).to_contain_text(
        f"{top['ref']} {top['word']} {top['score']} — reçu à"
    )
    assert not errors, errors
    with _orm():
        assert Submission.objects.get(round=rnd, player=player).word == top["word"]
