"""The device cookie (server/logins.py): strangers behind the hall's one public address lock the
arbiter's account from that address, never the browser that already logged in to it; that browser is
limited on its own, per account and device; a cookie that does not verify is a stranger's."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import User
from django.core import signing
from django.test import Client
from django.urls import reverse

from server.logins import DEVICE_COOKIE, DEVICE_SALT

HALL = "203.0.113.7"  # the hall's public address: 1,500 phones and the arbiter's laptop behind one NAT


def _login(client: Client, username: str, password: str, address: str = HALL, **extra):
    form = {"username": username, "password": password}
    return client.post(reverse("login"), form, REMOTE_ADDR=address, **extra)


def _with_cookie(value: str) -> Client:
    """A browser carrying only this device cookie (its session gone: logged out, or expired)."""
    browser = Client()
    browser.cookies[DEVICE_COOKIE] = value
    return browser


def _device_cookie(username: str, password: str, address: str = HALL, **extra) -> str:
    browser = Client()
    assert _login(browser, username, password, address, **extra).status_code == 302
    return browser.cookies[DEVICE_COOKIE].value


@pytest.fixture(autouse=True)
def quick_hashes(settings):
    """Dozens of logins a test: a fast hasher (how passwords are hashed is not what is tried here)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def laptop(arbiter) -> Client:
    """The arbiter's browser, which logged in once, at the hall's address, before the evening."""
    return _with_cookie(_device_cookie("arbitre", "secret-123"))


def _lock_from_the_hall(username: str = "arbitre") -> Client:
    """Five wrong passwords for ``username`` from a phone in the hall: that account is locked there."""
    stranger = Client()
    assert [_login(stranger, username, "wrong").status_code for _ in range(5)] == [200] * 4 + [429]
    return stranger


def test_a_login_gives_the_browser_a_signed_device_cookie_kept_a_year(arbiter):
    browser = Client()
    assert _login(browser, "arbitre", "secret-123").status_code == 302
    cookie = browser.cookies[DEVICE_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and not cookie["secure"]
    assert int(cookie["max-age"]) == 365 * 24 * 3600
    [(account, nonce)] = signing.loads(cookie.value, salt=DEVICE_SALT)
    assert account == "arbitre" and len(nonce) >= 20
    assert _device_cookie("arbitre", "secret-123") != cookie.value  # a fresh nonce at each login
    assert _login(Client(), "arbitre", "wrong").cookies.get(DEVICE_COOKIE) is None


def test_over_https_the_device_cookie_is_secure(arbiter):
    browser = Client()
    assert _login(browser, "arbitre", "secret-123", secure=True).status_code == 302
    assert browser.cookies[DEVICE_COOKIE]["secure"]


def test_strangers_in_the_hall_lock_the_account_but_not_the_arbiters_laptop(laptop):
    stranger = _lock_from_the_hall()
    assert _login(stranger, "arbitre", "secret-123").status_code == 429  # even the right password
    assert _login(Client(), "arbitre", "secret-123").status_code == 429  # any browser without the cookie
    assert _login(laptop, "arbitre", "secret-123").status_code == 302


def test_the_device_cookie_names_an_account_and_cannot_be_forged(laptop, arbiter):
    User.objects.create_user("autre", password="secret-456")
    others = _device_cookie("autre", "secret-456")
    genuine = laptop.cookies[DEVICE_COOKIE].value
    [[_account, nonce]] = signing.loads(genuine, salt=DEVICE_SALT)
    forged = signing.dumps([["arbitre", nonce]], salt=DEVICE_SALT, key="not-the-servers-key")
    tampered = genuine[:-1] + ("A" if genuine[-1] != "A" else "B")
    _lock_from_the_hall()
    for value in (others, forged, tampered, "arbitre", ""):
        assert _login(_with_cookie(value), "arbitre", "secret-123").status_code == 429, value
    assert _login(laptop, "arbitre", "secret-123").status_code == 302


def test_a_device_cookie_older_than_a_year_is_a_strangers(arbiter, monkeypatch):
    with monkeypatch.context() as past:
        now = time.time()
        past.setattr(time, "time", lambda: now - 366 * 24 * 3600)
        old = _device_cookie("arbitre", "secret-123")
    _lock_from_the_hall()
    assert _login(_with_cookie(old), "arbitre", "secret-123").status_code == 429


def test_the_known_device_is_limited_on_its_own_and_leaves_the_halls_count(laptop, arbiter):
    codes = [_login(laptop, "arbitre", "wrong").status_code for _ in range(5)]
    assert codes == [200] * 4 + [429]
    locked = _login(laptop, "arbitre", "secret-123")
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert "depuis cet appareil" in locked.content.decode()
    # The device's wrong passwords counted for it only: the hall's address and the pair are untouched.
    assert _login(Client(), "arbitre", "secret-123").status_code == 302
    # Another browser of the arbiter's (it logged in at home) logs in from the hall too; the locked
    # device stays locked whoever else logs in.
    other_laptop = _with_cookie(_device_cookie("arbitre", "secret-123", address="198.51.100.4"))
    assert _login(other_laptop, "arbitre", "secret-123").status_code == 302
    assert _login(laptop, "arbitre", "secret-123").status_code == 429


def test_the_address_lock_never_locks_the_known_device(laptop, settings):
    assert settings.LOGIN_FAILURES_PER_ADDRESS == 10
    guesser = Client()
    codes = [_login(guesser, f"nobody{attempt // 4}", "wrong").status_code for attempt in range(10)]
    assert codes == [200] * 9 + [429]  # the tenth: the hall's address is locked
    assert _login(Client(), "arbitre", "secret-123").status_code == 429
    assert _login(laptop, "arbitre", "secret-123").status_code == 302


def test_the_arbiters_login_does_not_reset_the_strangers_count(laptop):
    stranger = Client()
    assert [_login(stranger, "arbitre", "wrong").status_code for _ in range(4)] == [200] * 4
    assert _login(laptop, "arbitre", "secret-123").status_code == 302
    assert _login(stranger, "arbitre", "wrong").status_code == 429  # still the fifth for the hall


def test_one_browser_stays_known_for_each_account_it_logged_in_to(arbiter):
    User.objects.create_user("adjoint", password="secret-789")
    browser = Client()
    assert _login(browser, "arbitre", "secret-123").status_code == 302
    assert _login(browser, "adjoint", "secret-789").status_code == 302
    laptop = _with_cookie(browser.cookies[DEVICE_COOKIE].value)
    _lock_from_the_hall("arbitre")
    _lock_from_the_hall("adjoint")
    assert _login(laptop, "arbitre", "secret-123").status_code == 302
    assert _login(laptop, "adjoint", "secret-789").status_code == 302


def test_the_lock_page_says_what_to_do_in_both_languages(laptop):
    stranger = _lock_from_the_hall()
    french = _login(stranger, "arbitre", "secret-123").content.decode()
    assert "connectez-vous depuis l&#x27;ordinateur" in french and "réessayez dans 5 min" in french
    english = _login(stranger, "arbitre", "x", headers={"Accept-Language": "en"}).content.decode()
    assert "log in from the computer" in english and "try again in 5 min" in english
    for _attempt in range(5):
        device = _login(laptop, "arbitre", "wrong", headers={"Accept-Language": "en"})
    assert device.status_code == 429
    assert "from this device: try again in 5 min" in device.content.decode()


def test_behind_the_trusted_proxy_the_hall_is_one_address_and_the_laptop_still_logs_in(arbiter, settings):
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXIES = frozenset({"10.0.0.1"})
    through_proxy = {"address": "10.0.0.1", "headers": {"X-Forwarded-For": HALL}}
    laptop = _with_cookie(_device_cookie("arbitre", "secret-123", **through_proxy))
    phones = [Client() for _ in range(5)]  # five phones of the hall, one wrong password each
    codes = [_login(phone, "arbitre", "wrong", **through_proxy).status_code for phone in phones]
    assert codes == [200] * 4 + [429]
    assert _login(Client(), "arbitre", "secret-123", **through_proxy).status_code == 429
    assert _login(laptop, "arbitre", "secret-123", **through_proxy).status_code == 302
    # Another address behind the proxy is another pair: not locked.
    elsewhere = {"address": "10.0.0.1", "headers": {"X-Forwarded-For": "198.51.100.4"}}
    assert _login(Client(), "arbitre", "secret-123", **elsewhere).status_code == 302
