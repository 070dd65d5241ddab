"""The phones' slips on their lean path (``live/slipgate.py``): the site's WSGI application
(``arbiter.wsgi``) served by the laptop's real server (waitress, stamping arrivals) in this process,
over HTTP; the slips waiting stored together, one commit a batch; the answer the receipt alone,
written as the template writes it."""

from __future__ import annotations

import http.client
import re
import threading
import time
import urllib.parse
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from live import phone, receipt, room
from live.services.slip_batch import recent_batches
from server import arrival
from tournaments import services
from tournaments.models import Player, Round, Submission
from tournaments.selectors import round_key

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server():
    """The laptop's server (``arrival.create_server``: stamps, waiting list) with the site's
    application and 8 threads, in this process; its threads' connections closed after each request
    (the test database is dropped at the end)."""
    from arbiter.wsgi import application

    def app(environ, start_response):
        try:
            return [b"".join(application(environ, start_response))]
        finally:
            connections.close_all()

    srv = arrival.create_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield srv.effective_port
    srv.task_dispatcher.shutdown()
    srv.close()
    for channel in list(srv._map.values()):
        channel.close()
    thread.join(5)


def _running(game, deadline_in: float = 60) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() + timedelta(seconds=deadline_in))
    return Round.objects.get(pk=rnd.pk)


def _top(rnd: Round) -> str:
    return f"{rnd.tops[0]['ref']} {rnd.tops[0]['word']}"


def _send(port, token, form=None, *, body=None, headers=None, path=None):
    """POST as the phone's script does; (status, headers (any case), text)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"}
    sent.update(headers or {})
    data = body if body is not None else urllib.parse.urlencode(form or {}).encode()
    try:
        conn.request("POST", path or f"/j/{token}/bulletin/", body=data, headers=sent)
        answer = conn.getresponse()
        return answer.status, answer.headers, answer.read().decode("utf-8", "replace")
    finally:
        conn.close()


def _form(rnd, slip, request_id="r-1"):
    return {"round": rnd.pk, "slip": slip, "claimed": "", "request_id": request_id}


# -- stored, answered with the receipt alone -----------------------------------------------------


def test_a_slip_is_stored_and_answered_with_the_receipt_alone(server, players, game):
    rnd = _running(game)
    status, headers, text = _send(server, players[0].token, _form(rnd, _top(rnd)))
    assert status == 200 and headers["X-Arbiter"] == "1"
    assert text.startswith('<div id="player-receipt" class="receipt" role="status" aria-live="polite"')
    assert text.count("<div") == 1 and "player-board" not in text and "hx-swap-oob" not in text
    sub = Submission.objects.get(round=rnd, player=players[0])  # committed: read by another connection
    assert f'data-slip-ref="{sub.ref}" data-slip-word="{sub.word}"' in text
    assert "data-fresh" in text and "reçu à" in text
    assert headers["Content-Language"] == "fr" and headers["X-Content-Type-Options"] == "nosniff"


def test_each_answer_carries_the_sites_content_security_policy(server, players, game, client):
    """The lean answer's CSP is Django's own (written once by the gate, then reused: the same)."""
    rnd = _running(game)
    page = client.get(f"/j/{players[0].token}/")
    policy = page.headers["Content-Security-Policy"]
    answers = [_send(server, player.token, _form(rnd, _top(rnd))) for player in players[:2]]
    refused = _send(
        server, players[2].token, _form(rnd, _top(rnd)), headers={"Origin": "http://evil.example"}
    )
    for status, headers, _text in [*answers, refused]:
        assert status in (200, 403)
        # The page's policy, less its nonce (the answer has no inline script).
        assert headers["Content-Security-Policy"] == re.sub(r" 'nonce-[^']*'", "", policy)


def test_the_same_sending_twice_is_stored_once_and_a_later_slip_replaces_it(server, players, game):
    rnd = _running(game)
    for _ in range(2):
        assert "data-fresh" in _send(server, players[0].token, _form(rnd, "H8 AB", "same"))[2]
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert sub.revision == 1 and len(sub.history) == 1
    _send(server, players[0].token, _form(rnd, _top(rnd), "next"))
    sub.refresh_from_db()
    assert sub.revision == 2 and sub.slip_text().startswith(_top(rnd))


def test_a_late_slip_is_refused_and_the_refusal_kept_with_the_rounds_receipt(server, players, game):
    rnd = _running(game, deadline_in=-10)  # deadline and grace over, the round not closed yet
    status, _, text = _send(server, players[0].token, _form(rnd, _top(rnd)))
    assert status == 200 and "Trop tard" in text and 'role="alert"' in text
    assert "data-fresh" not in text and not Submission.objects.filter(round=rnd).exists()
    with translation.override("fr"):  # not whatever language an earlier test left active
        kept = phone.kept_refusal(rnd, players[0].pk, None)
    assert "Trop tard" in kept and 'data-key="' in text  # the refusal kept: the receipt's own key


def test_a_removed_player_is_told_so_with_a_410(server, players, game):
    rnd = _running(game)
    token = players[2].token
    services.player_remove(player=players[2])
    status, headers, _ = _send(server, token, _form(rnd, _top(rnd)))
    assert status == 410 and headers["X-Arbiter"] == "1" and "HX-Redirect" in headers


def test_an_unknown_link_is_a_404_counted_as_a_guess(server, settings, players, game):
    settings.TOKEN_GUESSES_PER_MINUTE = 2
    rnd = _running(game)
    answers = [_send(server, f"unknown{i}", _form(rnd, _top(rnd)))[0] for i in range(3)]
    assert answers == [404, 404, 429]
    assert _send(server, players[0].token, _form(rnd, _top(rnd)))[0] == 200  # a player is served


# -- the batches ---------------------------------------------------------------------------------


class _HeldWrites:
    """Another writer holding the database (SQLite: its write lock; PostgreSQL: the room's players'
    rows), so that the slips sent meanwhile pile up behind the first batch."""

    def __init__(self, tournament):
        self.tournament = tournament
        self.release, self.held = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold)

    def _hold(self):
        try:
            with transaction.atomic():
                list(Player.objects.select_for_update().filter(tournament=self.tournament))
                self.held.set()
                self.release.wait(20)
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        assert self.held.wait(10)
        return self

    def __exit__(self, *_exc):
        self.release.set()
        self.thread.join(30)


def _last_batch() -> int:
    batches = recent_batches()
    return batches[-1][0] if batches else 0


def _batches_since(last: int) -> list[tuple[int, int, bool]]:
    return [batch for batch in recent_batches() if batch[0] > last]


def _sending(port, player, form, into: dict) -> threading.Thread:
    """Sends in a thread; ``into[player.pk]``: the answer, and whether the slip's row was there, read
    on this thread's own connection, the moment the answer came."""

    def send():
        answer = _send(port, player.token, form)
        try:
            there = Submission.objects.filter(player=player, round_id=form["round"]).exists()
        finally:
            connection.close()
        into[player.pk] = (*answer, there)

    thread = threading.Thread(target=send)
    thread.start()
    return thread


def test_slips_sent_together_are_stored_in_batches_one_commit_each_every_answer_true(
    server, tournament, game
):
    many = [services.player_register(tournament=tournament, name=f"Joueur {i}") for i in range(12)]
    rnd = _running(game)
    last = _last_batch()
    answers: dict[int, tuple] = {}
    with _HeldWrites(tournament):
        forms = [(player, _form(rnd, _top(rnd), f"r{player.pk}")) for player in many]
        senders = [_sending(server, player, form, answers) for player, form in forms]
        time.sleep(1.0)  # every slip arrived and waits: the first batch's writer for the database
    for sender in senders:
        sender.join(30)
    assert len(answers) == len(many)
    assert all(status == 200 and "data-fresh" in text for status, _, text, _ in answers.values())
    assert Submission.objects.filter(round=rnd).count() == len(many)
    batches = _batches_since(last)
    assert sum(size for _, size, _ in batches) == len(many) and all(done for *_, done in batches)
    assert len(batches) < len(many) and max(size for _, size, _ in batches) >= 2
    # "Received" only once committed: each phone's answer came when its row was there for others.
    assert all(answers[player.pk][3] for player in many)


def test_a_late_slip_in_a_batch_spoils_no_other_and_each_is_judged_by_its_own_arrival(
    server, tournament, players, game
):
    rnd = _running(game, deadline_in=0.5)
    cutoff = rnd.deadline + timedelta(seconds=tournament.grace_seconds)
    last = _last_batch()
    answers: dict[int, tuple] = {}
    with _HeldWrites(tournament):
        first = _sending(server, players[0], _form(rnd, _top(rnd)), answers)  # the first batch, held
        time.sleep(0.3)
        in_time = _sending(server, players[1], _form(rnd, _top(rnd)), answers)
        time.sleep(max(0.0, (cutoff - timezone.now()).total_seconds()) + 0.3)
        late = _sending(server, players[2], _form(rnd, _top(rnd)), answers)  # stamped after the cutoff
        time.sleep(0.5)
    for sender in (first, in_time, late):
        sender.join(30)
    assert [size for _, size, _ in _batches_since(last)] == [1, 2]  # the in-time and the late together
    assert "data-fresh" in answers[players[0].pk][2] and "data-fresh" in answers[players[1].pk][2]
    assert "Trop tard" in answers[players[2].pk][2]
    stored = set(Submission.objects.filter(round=rnd).values_list("player_id", flat=True))
    assert stored == {players[0].pk, players[1].pk}


# -- fairness ------------------------------------------------------------------------------------


def test_a_slip_stamped_in_time_but_handled_after_the_close_is_stored_and_graded(players, game):
    from arbiter.wsgi import application

    rnd = _running(game, deadline_in=-10)
    stamp = (rnd.deadline - timedelta(seconds=1)).timestamp()
    assert services.round_close_if_due(round_id=rnd.pk).status == Round.Status.CLOSED
    version = Round.objects.get(pk=rnd.pk).version
    body = urllib.parse.urlencode(_form(rnd, _top(rnd))).encode()
    environ = _environ(players[0].token, body, {arrival.ENVIRON_KEY: stamp})
    status, text = _call(application, environ)
    assert status.startswith("200") and "data-fresh" in text
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert sub.received_at.timestamp() == pytest.approx(stamp) and sub.graded_at is not None
    assert Round.objects.get(pk=rnd.pk).version > version  # the phones and the rankings take it in


def _environ(token, body: bytes, extra=None) -> dict:
    import io

    environ = {
        "REQUEST_METHOD": "POST", "PATH_INFO": f"/j/{token}/bulletin/", "SCRIPT_NAME": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "HTTP_HOST": "127.0.0.1:8000",
        "REMOTE_ADDR": "127.0.0.1", "HTTP_HX_REQUEST": "true", "wsgi.url_scheme": "http",
        "CONTENT_TYPE": "application/x-www-form-urlencoded", "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body), "wsgi.errors": io.StringIO(), "SERVER_PROTOCOL": "HTTP/1.1",
    }  # fmt: skip
    environ.update(extra or {})
    return environ


def _call(application, environ) -> tuple[str, str]:
    said = {}

    def start_response(status, headers):
        said["status"], said["headers"] = status, dict(headers)

    try:
        text = b"".join(application(environ, start_response)).decode()
    finally:
        connections.close_all()
    assert said["headers"]["X-Arbiter"] == "1"
    return said["status"], text


# -- language, site, bad input -------------------------------------------------------------------


def test_the_receipt_is_in_english_when_the_phone_asks_for_it(server, players, game):
    rnd = _running(game)
    english = {"Accept-Language": "en"}
    _, headers, text = _send(server, players[0].token, _form(rnd, _top(rnd)), headers=english)
    assert "received at" in text and 'aria-label="Receipt"' in text and headers["Content-Language"] == "en"
    cookie = {"Cookie": "django_language=en", "Accept-Language": "fr"}  # the page's language switch
    _, _, text = _send(server, players[1].token, _form(rnd, "H8 AB"), headers=cookie)
    assert "received at" in text
    late = _running_again_late(rnd)
    _, _, text = _send(server, players[2].token, _form(late, "H8 AB"), headers={"Accept-Language": "en"})
    assert "Too late" in text


def _running_again_late(rnd: Round) -> Round:
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    return Round.objects.get(pk=rnd.pk)


def test_another_sites_page_cannot_send_a_slip(server, players, game):
    rnd = _running(game)
    status, headers, text = _send(
        server, players[0].token, _form(rnd, _top(rnd)), headers={"Origin": "http://evil.example"}
    )
    assert status == 403 and headers["X-Arbiter"] == "1" and "Rien n&#x27;a été enregistré" in text
    assert not Submission.objects.filter(round=rnd).exists()
    same = {"Origin": f"http://127.0.0.1:{server}"}
    assert "data-fresh" in _send(server, players[0].token, _form(rnd, _top(rnd)), headers=same)[2]


@pytest.mark.parametrize(
    "form",
    [
        {},
        {"slip": "H8 AB"},
        {"slip": "H8 AB", "round": "x" * 5000},
        {"slip": "H8\x00AB\x07", "round": "{round}", "request_id": "\x00\x1b[2J"},
        {"slip": "\ud800" * 3, "round": "{round}"},
        {"slip": "H8 AB", "round": "{round}", "claimed": "9" * 400, "request_id": "é" * 300},
        {"slip": "H8 " + "A" * 100_000, "round": "{round}"},
        {"slip": "H8 AB", "round": "99999999999999999999"},
    ],
)
def test_bad_input_is_refused_never_a_500(server, players, game, form):
    rnd = _running(game)
    form = {key: value.replace("{round}", str(rnd.pk)) for key, value in form.items()}
    body = urllib.parse.urlencode(form, errors="surrogatepass").encode("utf-8", "surrogatepass")
    status, headers, text = _send(server, players[0].token, body=body)
    assert status == 200 and headers["X-Arbiter"] == "1" and 'role="alert"' in text


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"slip=" + b"A" * 3_000_000, "application/x-www-form-urlencoded"),  # over Django's 2.5 MB
        (b"&".join(b"f%d=1" % i for i in range(1200)), "application/x-www-form-urlencoded"),
        (b"--x\r\nbroken", "multipart/form-data; boundary=x"),
        (b"\xff\xfe\x00garbage", "multipart/form-data"),
    ],
)
def test_a_body_that_cannot_be_read_is_a_400_never_a_500(server, players, game, body, content_type):
    _running(game)
    status, headers, _ = _send(server, players[0].token, body=body, headers={"Content-Type": content_type})
    assert status in (200, 400) and headers["X-Arbiter"] == "1"
    assert not Submission.objects.exists()


def test_a_form_sent_without_the_script_goes_to_djangos_page(server, players, game):
    rnd = _running(game)
    status, headers, _ = _send(server, players[0].token, _form(rnd, _top(rnd)), headers={"HX-Request": ""})
    # Django's own answer: its CSRF check applies to the page's form (no token sent here).
    assert status == 403 and headers["X-Arbiter"] == "1" and "Content-Security-Policy" in headers


# -- the receipt, written as the template writes it ----------------------------------------------


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_receipt_is_the_templates_markup(client, players, game, language):
    rnd = _running(game)
    cases = [(players[0], "H8 AB", None)]
    top = rnd.tops[0]
    cases.append((players[1], f"{top['ref']} {top['word'][:-1]}{top['word'][-1].lower()}", None))
    from live.services.slips import submission_record

    for player, slip, _ in cases:
        submission_record(player=player, round_id=rnd.pk, text=slip, request_id="x")
    submission_record(player=players[2], round_id=rnd.pk, text="H8 AbC 12", request_id="y")
    with translation.override(language):
        for player in players:
            _same_receipt(player, sent=True)
        Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=30))
        services.round_close_if_due(round_id=rnd.pk)
        late = services.ServiceError("slip_late", deadline="12:00:00")
        phone.refusal_keep(rnd.pk, players[0].pk, late.message, timezone.now() + timedelta(seconds=1))
        for player in players:
            _same_receipt(player)
        error = late.text()
        _same_receipt(players[0], error=error)
        _same_receipt(players[1], error="Autre <refus> & 'guillemets'")


def _same_receipt(player, **extra):
    screen = phone.player_screen(player)
    expected = render_to_string("live/partials/_player_receipt.html", {"screen": screen, **extra})
    ours = receipt.receipt_html(receipt.receipt_screen(player), **extra)
    assert ours == expected


# -- the poll that finds nothing new, on the lean path too ----------------------------------------


def _poll(port, token, **query):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        path = f"/j/{token}/etat/?{urllib.parse.urlencode(query)}"
        conn.request("GET", path, headers={"HX-Request": "true"})
        answer = conn.getresponse()
        return answer.status, answer.headers, answer.read().decode("utf-8", "replace")
    finally:
        conn.close()


def test_a_poll_that_finds_nothing_new_is_answered_204_before_django(server, players, game):
    """The laptop's phones poll every 2 s: the answer "nothing new" (the state key and the name the
    phone shows still the room's) is the gate's, with the seconds left and the application's mark,
    none of Django's middlewares' headers; anything else is Django's view's."""
    rnd = _running(game)
    key = round_key(rnd)
    shown = room.shown_key(players[0].name, players[0].table_number)
    status, headers, body = _poll(server, players[0].token, s=key, p=shown)
    assert status == 204 and body == "" and headers["X-Arbiter"] == "1"
    assert 0 < float(headers["X-Remaining"]) <= 60
    assert headers.get("Content-Language") is None  # no LocaleMiddleware: the lean path answered
    # A state the phone does not show yet, or another name: Django's view draws the status.
    status, headers, body = _poll(server, players[0].token, s="0.0.p", p=shown)
    assert status == 200 and 'id="player-status"' in body and headers["Content-Language"] == "fr"
    status, _headers, body = _poll(server, players[0].token, s=key, p="another")
    assert status == 200 and 'id="player-status"' in body
    # A link that names no player: Django's 404, counted as a guess.
    status, _headers, _body = _poll(server, "no-such-player-token", s=key)
    assert status == 404
    # The round due to close: Django's view closes it and draws the results.
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    time.sleep(0.6)  # the process's memory of the round (half a second)
    status, _headers, body = _poll(server, players[0].token, s=key, p=shown)
    assert status == 200 and 'data-phase="closed"' in body
