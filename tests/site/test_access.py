"""Who reaches what: a join link reaches its own player's slips only; guessing links is braked per
client address (429 with Retry-After) while the players in the room keep playing; every arbiter page
needs the login; every form needs its CSRF token; the production settings pass Django's deployment
check."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils import timezone

from clubs.urls import urlpatterns as clubs_urlpatterns
from live import services as live_services
from live.urls import urlpatterns as live_urlpatterns
from results.urls import urlpatterns as results_urlpatterns
from review.urls import urlpatterns as review_urlpatterns
from simultaneous.urls import urlpatterns as simultaneous_urlpatterns
from tests.live_services import REDIS_DATABASES
from tournaments import services
from tournaments.models import Player, Round, Submission
from tournaments.urls import urlpatterns as tournament_urlpatterns

ROOT = Path(__file__).resolve().parents[2]
HTMX = {"HX-Request": "true"}


def _page(token: str) -> str:
    return reverse("live:player_page", args=[token])


def _running(game) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    return services.round_start(round_id=rnd.pk)


# -- a join link reaches its own player only -------------------------------------------------------


def test_each_token_shows_its_own_slip_and_never_anothers(client, players, game):
    rnd = _running(game)
    # Words no screen shows unless it is the player's own slip.
    words = {"Alice": "QWXA", "Bruno": "KPZU", "Chloé": "VBHJ"}
    for player in players:
        live_services.submission_record(player=player, round_id=rnd.pk, text=f"H8 {words[player.name]}")
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))
    services.round_close_if_due(round_id=rnd.pk)
    for player in players:
        others = [p for p in players if p.pk != player.pk]
        for url in (_page(player.token), reverse("live:player_status", args=[player.token])):
            html = Client().get(url).content.decode()
            assert player.token in html
            for other in others:
                assert other.token not in html
                assert words[other.name] not in html
            assert words[player.name] in html


def test_a_slip_sent_by_one_token_never_touches_another_players_slip(client, players, game):
    alice, bruno, _ = players
    rnd = _running(game)
    live_services.submission_record(player=bruno, round_id=rnd.pk, text="H8 ABC", request_id="b")
    client.get(_page(bruno.token))  # the phone opened Bruno's link once: the URL still decides
    data = {"round": rnd.pk, "slip": "H8 AB", "request_id": "b", "player": bruno.pk, "token": bruno.token}
    client.post(reverse("live:player_submit", args=[alice.token]), data, headers=HTMX)
    slips = dict(Submission.objects.values_list("player__name", "word"))
    assert slips == {"Alice": "AB", "Bruno": "ABC"}


# -- guessing join links ---------------------------------------------------------------------------


@pytest.fixture
def guess_limit(settings):
    settings.TOKEN_GUESSES_PER_MINUTE = 30
    settings.CLIENT_IP_HEADER = ""
    return 30


def _guess(client, n: int, address: str = "127.0.0.1", tail: str = "") -> list[int]:
    """``n`` random links (as a guesser makes them) from ``address``: their status codes."""
    urls = [f"/j/{secrets.token_urlsafe(24)}/{tail}" for _ in range(n)]
    return [client.get(url, REMOTE_ADDR=address).status_code for url in urls]


def test_thirty_unknown_links_are_404_and_the_thirty_first_is_429(client, players, guess_limit):
    assert _guess(client, 30) == [404] * 30
    response = client.get("/j/still-guessing/")
    assert response.status_code == 429
    assert response["Retry-After"] == "60"
    html = response.content.decode()
    assert "Trop de liens inconnus" in html and "Réessayez dans 60 secondes" in html
    english = client.get("/j/again/", headers={"Accept-Language": "en"})
    assert english.status_code == 429 and "Try again in 60 seconds" in english.content.decode()


def test_the_poll_and_the_slip_of_unknown_links_count_too(client, db, guess_limit):
    assert set(_guess(client, 15, tail="etat/")) == {404}
    posts = [client.post(f"/j/{secrets.token_urlsafe(24)}/bulletin/", {"slip": "H8 AB"}) for _ in range(15)]
    assert {p.status_code for p in posts} == {404}
    assert client.post("/j/x/bulletin/", {"slip": "H8 AB"}).status_code == 429


def test_a_phone_over_the_limit_keeps_its_own_players_page_poll_and_slip(client, players, game, guess_limit):
    alice = players[0]
    rnd = _running(game)
    assert client.get(_page(alice.token)).status_code == 200
    _guess(client, 31)
    assert client.get(_page(alice.token)).status_code == 200
    assert client.get(reverse("live:player_status", args=[alice.token])).status_code == 200
    data = {"round": rnd.pk, "slip": "H8 AB", "request_id": "r"}
    assert client.post(reverse("live:player_submit", args=[alice.token]), data).status_code == 200
    assert Submission.objects.filter(player=alice).exists()


def test_a_link_that_names_a_player_is_served_to_an_address_over_the_limit(client, players, guess_limit):
    # A whole hall behind one address: a phone left on a wrong link does not hold up the others.
    assert _guess(client, 31)[-1] == 429
    phone = Client()  # another phone at the same address, which never opened its link before
    assert phone.get(_page(players[1].token)).status_code == 200
    assert phone.get(reverse("live:player_status", args=[players[1].token])).status_code == 200
    assert phone.get("/j/nobody/").status_code == 429


def test_the_count_is_per_address(client, players, guess_limit):
    _guess(client, 31, address="10.0.0.7")
    assert client.get("/j/nobody/", REMOTE_ADDR="10.0.0.7").status_code == 429
    other_phone = Client(REMOTE_ADDR="10.0.0.8")
    assert other_phone.get(_page(players[1].token)).status_code == 200
    assert other_phone.get("/j/nobody/").status_code == 404


def test_the_limit_is_a_setting(client, db, settings):
    settings.TOKEN_GUESSES_PER_MINUTE = 3
    assert _guess(client, 4) == [404, 404, 404, 429]


def test_the_count_starts_again_after_a_minute(client, db, guess_limit, settings, monkeypatch):
    # The in-memory cache reads the process's clock, which the test moves on.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    _guess(client, 31)
    assert client.get("/j/nobody/").status_code == 429
    later = time.time() + 61
    monkeypatch.setattr(time, "time", lambda: later)
    assert client.get("/j/nobody/").status_code == 404


def test_moi_with_a_forgotten_player_is_not_counted_as_a_guess(client, players, settings):
    settings.TOKEN_GUESSES_PER_MINUTE = 1
    client.get(_page(players[0].token))
    Player.objects.filter(pk=players[0].pk).delete()
    for _ in range(3):
        # The player's row gone: the phone is told it was removed, never counted a guess.
        assert client.get(reverse("live:player_me")).status_code == 410
    assert client.get("/j/nobody/").status_code == 404


def test_behind_a_proxy_the_address_is_read_from_its_header_not_from_the_clients(client, db, settings):
    settings.TOKEN_GUESSES_PER_MINUTE = 2
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXIES = frozenset({"127.0.0.1"})  # the test client's address: the proxy
    # The client wrote its own X-Forwarded-For entry; the proxy appended the address it saw.
    forged = [
        client.get("/j/nobody/", headers={"X-Forwarded-For": f"1.2.3.{n}, 203.0.113.9"}).status_code
        for n in range(3)
    ]
    assert forged == [404, 404, 429]
    assert client.get("/j/nobody/", headers={"X-Forwarded-For": "198.51.100.4"}).status_code == 404


def test_without_a_proxy_setting_a_forwarded_header_changes_nothing(client, db, settings):
    settings.TOKEN_GUESSES_PER_MINUTE = 2
    settings.CLIENT_IP_HEADER = ""
    codes = [client.get("/j/nobody/", headers={"X-Real-IP": f"1.2.3.{n}"}).status_code for n in range(3)]
    assert codes == [404, 404, 429]


@pytest.fixture
def redis_cache_url(redis_server) -> str:
    """A database of the session's own Redis server (tests/conftest.py)."""
    return f"{redis_server}/{REDIS_DATABASES['cache']}"


def test_with_redis_the_count_is_kept_where_every_process_reads_it(client, db, settings, redis_cache_url):
    prefix = f"test-{secrets.token_hex(4)}"
    settings.CACHES = {
        "default": {
            "BACKEND": "server.cache.RedisCache",
            "LOCATION": redis_cache_url,
            "KEY_PREFIX": prefix,
        }
    }
    settings.TOKEN_GUESSES_PER_MINUTE = 3
    assert _guess(client, 4) == [404, 404, 404, 429]
    # Another process opens Redis on its own and finds the counter, with the minute running out.
    server = redis.Redis.from_url(redis_cache_url)
    (key,) = server.keys(f"{prefix}:*token-guesses:*")
    assert int(server.get(key)) == 4 and 0 < server.ttl(key) <= 60
    server.delete(key)


def test_a_cache_that_does_not_answer_lifts_the_brake_and_players_keep_playing(client, players, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "server.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    settings.TOKEN_GUESSES_PER_MINUTE = 1
    assert _guess(client, 3) == [404, 404, 404]
    assert client.get(_page(players[0].token)).status_code == 200


def test_redis_url_puts_the_cache_in_redis(tmp_path, redis_cache_url):
    show = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
    done = _manage(tmp_path, "shell", "-v", "0", "-c", show, REDIS_URL=redis_cache_url)
    assert done.stdout.strip() == "server.cache.RedisCache", done.stderr
    done = _manage(tmp_path, "shell", "-v", "0", "-c", show)
    assert done.stdout.strip() == "django.core.cache.backends.locmem.LocMemCache", done.stderr


# -- arbiter pages need the login ------------------------------------------------------------------

#: The phones' routes: a join link's (its token is the key) and ``/moi/``.
_PLAYER_NAMES = {p.name for p in live_urlpatterns if "token" in p.pattern.converters} | {"player_me"}
#: For everyone by design: a simultaneous event's results, and its upload address (the club token is the key).
_PUBLIC = {"event_public", "event_upload"}


def _arbiter_urls(ids: dict[str, int]) -> list[str]:
    """Every named route of the rooms' urls.py but the player's, with ids of real rows."""
    urls = []
    rooms = [
        ("tournaments", tournament_urlpatterns),
        ("live", live_urlpatterns),
        ("results", results_urlpatterns),
        ("review", review_urlpatterns),
        ("clubs", clubs_urlpatterns),
        ("simultaneous", simultaneous_urlpatterns),
    ]
    for namespace, patterns in rooms:
        for pattern in patterns:
            assert isinstance(pattern, URLPattern)
            public = pattern.name in _PLAYER_NAMES or pattern.name in _PUBLIC
            if public or "token" in pattern.pattern.converters:
                continue
            kwargs = {}
            for name in pattern.pattern.converters:
                kwargs[name] = "csv" if name == "what" else ids.get(pattern.name.split("_")[0], 1)
            urls.append(reverse(f"{namespace}:{pattern.name}", kwargs=kwargs))
    return urls


@pytest.fixture
def arbiter_urls(game, players):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    ids = {"tournament": game.tournament_id, "player": game.tournament_id, "players": game.tournament_id}
    ids |= {"game": game.pk, "round": rnd.pk, "slip": rnd.pk, "correction": rnd.pk, "projector": game.pk}
    urls = _arbiter_urls(ids)
    assert len(urls) >= 25
    return urls


def test_every_arbiter_page_sends_an_anonymous_get_or_post_to_the_login(client, arbiter_urls):
    login = reverse("login")
    for url in arbiter_urls:
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code in (302, 403, 405), (method, url, response.status_code)
            if response.status_code == 302:
                assert response["Location"].startswith(f"{login}?next="), url
    assert Round.objects.get().status == Round.Status.DRAWN  # the anonymous POSTs changed nothing


def test_a_players_session_opens_no_arbiter_page(client, players, arbiter_urls):
    client.get(_page(players[0].token))
    for url in arbiter_urls:
        assert client.get(url).status_code in (302, 403, 405), url


# -- CSRF -------------------------------------------------------------------------------------------------


def _csrf_from(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_a_slip_without_the_csrf_token_is_refused_and_with_it_is_stored(players, game):
    alice = players[0]
    rnd = _running(game)
    phone = Client(enforce_csrf_checks=True)
    html = phone.get(_page(alice.token)).content.decode()
    url = reverse("live:player_submit", args=[alice.token])
    data = {"round": rnd.pk, "slip": "H8 AB", "request_id": "r"}
    assert phone.post(url, data).status_code == 403
    assert phone.post(url, data, headers=HTMX).status_code == 403
    assert not Submission.objects.exists()
    # htmx sends the page's token in a header; a plain form in the hidden field.
    assert phone.post(url, data, headers={**HTMX, "X-CSRFToken": _csrf_from(html)}).status_code == 200
    assert Submission.objects.get(player=alice).word == "AB"
    form = {**data, "slip": "H8 ABC", "csrfmiddlewaretoken": _csrf_from(html)}
    assert phone.post(url, form).status_code == 200
    assert Submission.objects.get(player=alice).word == "ABC"


def test_a_refused_token_is_said_in_the_interfaces_language_never_djangos_technical_page(players, game):
    """A phone whose CSRF cookie is gone (cleared, blocked, a server reinstalled) is told to reload."""
    alice = players[0]
    rnd = _running(game)
    phone = Client(enforce_csrf_checks=True)
    url = reverse("live:player_submit", args=[alice.token])
    data = {"round": rnd.pk, "slip": "H8 AB", "request_id": "r"}
    fragment = phone.post(url, data, headers=HTMX)
    assert fragment.status_code == 403
    text = fragment.content.decode()
    assert text.startswith('<p class="error" role="alert">') and "rechargez la page" in text
    assert "Rien n&#x27;a été enregistré" in text and "CSRF" not in text
    referer = f"http://testserver{_page(alice.token)}"
    page = phone.post(url, data, headers={"Accept-Language": "en", "Referer": referer})
    assert page.status_code == 403
    body = page.content.decode()
    assert '<html lang="en">' in body and "reload the page" in body
    assert f'<a href="{_page(alice.token)}">' in body  # back to the page, not to the form's address
    elsewhere = phone.post(url, data, headers={"Referer": "http://elsewhere.example/x/"})
    assert '<a href="/">' in elsewhere.content.decode()
    assert not Submission.objects.exists()


def test_the_language_switch_and_the_login_need_the_csrf_token(db):
    browser = Client(enforce_csrf_checks=True)
    assert browser.post(reverse("set_language"), {"language": "en"}).status_code == 403
    assert browser.post(reverse("login"), {"username": "a", "password": "b"}).status_code == 403


def test_every_arbiter_post_without_the_csrf_token_is_refused(arbiter, arbiter_urls):
    laptop = Client(enforce_csrf_checks=True)
    laptop.force_login(arbiter)
    for url in arbiter_urls:
        assert laptop.post(url).status_code == 403, url
    assert laptop.post(reverse("logout")).status_code == 403


def test_an_arbiter_form_with_the_csrf_token_works(arbiter, tournament):
    laptop = Client(enforce_csrf_checks=True)
    laptop.force_login(arbiter)
    html = laptop.get(reverse("tournaments:tournament_detail", args=[tournament.pk])).content.decode()
    url = reverse("tournaments:player_add", args=[tournament.pk])
    assert laptop.post(url, {"name": "Sans jeton"}).status_code == 403
    response = laptop.post(url, {"name": "Avec jeton", "csrfmiddlewaretoken": _csrf_from(html)})
    assert response.status_code == 302
    assert list(tournament.players.values_list("name", flat=True)) == ["Avec jeton"]


# -- production settings ------------------------------------------------------------------------------

_SERVER_ENV = ("DATABASE_URL", "REDIS_URL", "DJANGO_", "ARBITER_")


def _manage(tmp_path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """``manage.py`` in a fresh process with only the given server settings in its environment."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(_SERVER_ENV)}
    clean |= {"ARBITER_VAR_DIR": str(tmp_path / "var"), **env}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


def _production(**extra: str) -> dict[str, str]:
    return {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_SECURE": "1",
        "DJANGO_ALLOWED_HOSTS": "arbitre.example.org",
        **extra,
    }


def test_the_production_settings_pass_the_deployment_check_without_a_warning(tmp_path):
    done = _manage(tmp_path, "check", "--deploy", "--fail-level", "WARNING", **_production())
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout and "WARNING" not in done.stderr


def test_the_laptop_default_warns_only_of_plain_http(tmp_path):
    """On the club's network the laptop serves plain HTTP: no HTTPS redirect, HSTS or secure cookies.
    Nothing else: DEBUG is off (no W018) and the key made for the installation is strong (no W009)."""
    done = _manage(tmp_path, "check", "--deploy")
    assert done.returncode == 0, done.stderr
    found = set(re.findall(r"\(security\.(W\d+)\)", done.stdout + done.stderr))
    assert found == {"W004", "W008", "W012", "W016"}
    assert (tmp_path / "var" / "secret_key").read_text().strip()


def test_a_secure_server_without_a_secret_key_refuses_to_start(tmp_path):
    env = _production()
    del env["DJANGO_SECRET_KEY"]
    done = _manage(tmp_path, "check", **env)
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY" in done.stderr
    assert not (tmp_path / "var" / "secret_key").exists()
