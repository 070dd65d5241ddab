"""What every page and every save share: ids beyond what a database holds are a 404, strings are
cleaned of NUL and lone surrogates and held to their column's length (SQLite and PostgreSQL), logins
are throttled per account and address, and per address, on every login page, every page carries a
Content-Security-Policy without inline scripts, and ``var/`` and the secret key are private."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.site.test_access import _arbiter_urls
from tournaments import services
from tournaments.models import Player, Round

ROOT = Path(__file__).resolve().parents[2]
HUGE = 2**64 + 12345  # beyond SQLite's and PostgreSQL's integers


@pytest.fixture
def arbiter_pages(game, players):
    services.round_draw(game_id=game.pk, expected_number=1)
    # reverse() builds no such URL: every id is a marker, then the huge number.
    marker = 987654321
    keys = ("tournament", "player", "players", "game", "round", "slip", "correction", "projector")
    urls = [url.replace(str(marker), str(HUGE)) for url in _arbiter_urls(dict.fromkeys(keys, marker))]
    return [url for url in urls if str(HUGE) in url]


def test_an_id_beyond_what_a_database_holds_is_a_404_on_every_arbiter_page(arbiter_client, arbiter_pages):
    for url in arbiter_pages:
        assert arbiter_client.get(url).status_code == 404, url
        assert arbiter_client.post(url).status_code in (404, 405), url


@pytest.mark.parametrize(
    ("route", "field"),
    [("tournaments:player_add", "table_number"), ("tournaments:tournament_create", "lexicon")],
)
def test_a_huge_number_in_a_form_is_a_refusal_not_a_database_error(arbiter_client, tournament, route, field):
    args = [tournament.pk] if route == "tournaments:player_add" else []
    data = {"name": "Alice", field: str(HUGE), "date": "2026-11-20"}
    response = arbiter_client.post(reverse(route, args=args), data)
    assert response.status_code == 200  # the form again, with the error
    assert not Player.objects.exists()


def test_a_huge_game_id_asked_for_a_printout_is_a_404(arbiter_client, game):
    url = reverse("results:printout_request", args=[game.tournament_id])
    assert arbiter_client.post(url, {"kind": "ranking", "game": str(HUGE)}).status_code == 404


def test_a_paper_slip_for_a_huge_table_is_refused(arbiter_client, game, players):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    url = reverse("live:slip_enter", args=[rnd.pk])
    response = arbiter_client.post(url, {"table_number": str(HUGE), "text": "H8 AB"})
    assert response.status_code == 302  # back to the game screen with the form's sentence


# -- strings --------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(st.characters(codec=None, exclude_categories=[]), min_size=1, max_size=150))
def test_any_name_is_stored_clean_or_refused_never_a_database_error(tournament, name):
    try:
        player = services.player_register(tournament=tournament, name=name)
    except services.ServiceError as refusal:
        assert refusal.message.code in ("player_no_name", "text_too_long")
        return
    stored = Player.objects.get(pk=player.pk).name
    assert stored.strip() and "\x00" not in stored
    stored.encode("utf-8")  # no lone surrogate left
    assert len(stored) <= 120
    Player.objects.filter(pk=player.pk).delete()


def test_nul_and_lone_surrogates_are_taken_out_before_saving(tournament):
    player = services.player_register(tournament=tournament, name="Al\x00ice\ud800", club="Vi\udfffchy")
    player.refresh_from_db()
    assert (player.name, player.club) == ("Alice", "Vichy")


def test_a_string_longer_than_its_column_is_refused_with_the_column_and_the_limit(tournament):
    with pytest.raises(services.ServiceError) as refused:
        services.player_register(tournament=tournament, name="x" * 121)
    assert refused.value.message.text("fr") == "Texte trop long pour « nom » : 120 caractères au plus."


def test_json_columns_are_cleaned_too(game):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    Round.objects.get(pk=rnd.pk).save()  # nothing to clean: stored as it was
    rnd.rejections = ["AB\x00C", {"k\ud800": "v\x00"}]
    rnd.save(update_fields=["rejections"])
    assert Round.objects.get(pk=rnd.pk).rejections == ["ABC", {"k": "v"}]


# -- logins ---------------------------------------------------------------------------------------


def _login(client: Client, username: str, password: str, address: str = "10.0.0.1", admin: bool = False):
    url = reverse("admin:login") if admin else reverse("login")
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_wrong_passwords_for_one_account_lock_that_account_from_that_address_only(arbiter):
    stranger = Client()
    for _attempt in range(4):
        assert _login(stranger, "arbitre", "wrong").status_code == 200
    assert _login(stranger, "arbitre", "wrong").status_code == 429  # the fifth: locked
    locked = _login(stranger, "arbitre", "secret-123")  # even the right password, from there
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert "Trop d&#x27;essais de mot de passe" in locked.content.decode()
    english = stranger.post(
        reverse("login"), {"username": "arbitre", "password": "x"}, REMOTE_ADDR="10.0.0.1",
        headers={"Accept-Language": "en"},
    )  # fmt: skip
    assert english.status_code == 429 and "Too many password attempts" in english.content.decode()
    # The arbiter's laptop, at another address, logs in; the stranger may still try other accounts.
    assert _login(Client(), "arbitre", "secret-123", address="10.0.0.2").status_code == 302
    assert _login(stranger, "autre", "wrong").status_code == 200


def test_wrong_passwords_from_many_addresses_never_lock_the_account(arbiter):
    for address in range(12):
        for _attempt in range(4):
            assert _login(Client(), "arbitre", "wrong", address=f"10.0.1.{address}").status_code == 200
    assert _login(Client(), "arbitre", "secret-123", address="10.0.2.1").status_code == 302


def test_one_address_trying_many_accounts_is_locked_for_all(arbiter, settings):
    assert settings.LOGIN_FAILURES_PER_ADDRESS == 10
    client = Client()
    for attempt in range(9):  # four per account: no account's own lock
        assert _login(client, f"nobody{attempt // 4}", "wrong").status_code == 200
    assert _login(client, "nobody9", "wrong").status_code == 429  # the tenth: the address is locked
    assert _login(client, "arbitre", "secret-123").status_code == 429
    assert _login(Client(), "arbitre", "secret-123", address="10.0.0.2").status_code == 302


def test_the_admin_login_is_throttled_the_same_way(db):
    User.objects.create_superuser("admin", password="un-secret-long")
    for _attempt in range(4):
        assert _login(Client(), "admin", "wrong", admin=True).status_code == 200
    assert _login(Client(), "admin", "wrong", admin=True).status_code == 429
    assert _login(Client(), "admin", "un-secret-long", admin=True).status_code == 429
    assert _login(Client(), "admin", "un-secret-long", address="10.9.9.9", admin=True).status_code == 302


def test_a_good_password_resets_the_count(arbiter):
    for _attempt in range(4):
        _login(Client(), "arbitre", "wrong")
    assert _login(Client(), "arbitre", "secret-123").status_code == 302
    for _attempt in range(4):
        assert _login(Client(), "arbitre", "wrong").status_code == 200


# -- the Content-Security-Policy ----------------------------------------------------------------------


def test_every_page_carries_a_policy_without_inline_scripts(arbiter_client, client, players, game):
    pages = [
        (arbiter_client, reverse("tournaments:home")),
        (arbiter_client, reverse("live:game_detail", args=[game.pk])),
        (arbiter_client, reverse("tournaments:tournament_cards", args=[game.tournament_id])),
        (client, reverse("live:player_page", args=[players[0].token])),
        (client, reverse("login")),
    ]
    for browser, url in pages:
        response = browser.get(url)
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, url
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy, url
        html = response.content.decode()
        assert " onclick=" not in html and " onload=" not in html, url
        for script in html.split("<script")[1:]:
            head = script.split(">", 1)[0]
            assert "src=" in head or 'type="application/json"' in head, (url, head)


# -- private files ------------------------------------------------------------------------------------


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_var_and_the_secret_key_are_readable_by_this_account_only(tmp_path):
    var = tmp_path / "var"
    var.mkdir(mode=0o755)  # as an earlier version left it
    env = {**os.environ, "ARBITER_VAR_DIR": str(var), "DJANGO_SETTINGS_MODULE": "arbiter.settings"}
    env.pop("DJANGO_SECRET_KEY", None)
    env.pop("DATABASE_URL", None)
    code = "import django; django.setup(); from django.db import connection; connection.ensure_connection()"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(var.stat().st_mode) == 0o700
    assert stat.S_IMODE((var / "secret_key").stat().st_mode) == 0o600
    assert stat.S_IMODE((var / "arbiter.sqlite3").stat().st_mode) == 0o600
