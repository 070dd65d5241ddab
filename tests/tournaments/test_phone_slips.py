"""The phone without traps: a keyboard typing lower case never plays jokers; a joker is marked
deliberately (``?`` after its letter, or a tap that writes it); the receipt shows the slip as
understood with its joker; the rack shows a joker as a joker; how to write a slip is on the page;
the language switch sits at the foot of the page.  The arbiter's paper slips read the same
(test_paper_slips.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from live import phone
from tests.fixtures import worker_game
from tournaments import services
from tournaments.models import Grading, Round, Submission

HTMX = {"HTTP_HX_REQUEST": "true"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _page(player) -> str:
    return reverse("live:player_page", kwargs={"token": player.token})


def _status(player) -> str:
    return reverse("live:player_status", kwargs={"token": player.token})


def _running(game) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    return services.round_start(round_id=rnd.pk)


def _post(client, player, rnd, slip, claimed="", request_id="r-1"):
    data = {"round": rnd.pk, "slip": slip, "claimed": claimed, "request_id": request_id}
    return client.post(reverse("live:player_submit", kwargs={"token": player.token}), data, **HTMX)


@pytest.mark.parametrize(
    ("typed", "claimed", "fisf", "slip"),
    [
        ("h4 jointa", "34", True, "H4 JOINTA 34"),
        ("h4 jointa?", "34", True, "H4 JOINTa 34"),
        ("H4 JOINTA?", " 34 ", True, "H4 JOINTa 34"),
        ("8h defoul?er", "", True, "8H DEFOUlER"),
        ("  4H a?b?  ", "", True, "4H ab"),
        ("H4 CALFEUTRE", "40", False, "H4 CALFEUTRE"),
        ("h8 été?", "", True, "H8 ÉTé"),
        ("- jointa?", "", True, "- JOINTa"),
        ("? jointa", "", True, "? JOINTA"),
        ("jointa? 34", "", True, "JOINTa 34"),
        ("h4 joint??", "", True, "H4 JOINt?"),
        # A score with no slip is an empty slip, not a word "34".
        ("", "34", True, ""),
        ("   ", "34", True, ""),
    ],
)
def test_the_phones_slip_is_read_in_upper_case_with_a_question_mark_after_each_joker(
    typed, claimed, fisf, slip
):
    assert phone.slip_text(typed, claimed, fisf=fisf) == slip


def test_a_score_sent_without_its_slip_is_told_the_slip_is_empty(client, players, game):
    rnd = _running(game)
    html = _post(client, players[0], rnd, "", claimed="34").content.decode()
    assert "Le bulletin est vide." in html and "pas une lettre" not in html
    assert not Submission.objects.filter(round=rnd, player=players[0]).exists()


def test_a_slip_typed_in_lower_case_plays_no_joker(client, players, game):
    rnd = _running(game)
    _post(client, players[0], rnd, "h8 abc", claimed="12")
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert (sub.ref, sub.word, sub.claimed) == ("H8", "ABC", 12)


def test_a_question_mark_after_a_letter_marks_it_played_with_the_joker(client, players, game):
    rnd = _running(game)
    html = _post(client, players[0], rnd, "h8 ab?c", claimed="12").content.decode()
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert sub.word == "AbC" and sub.slip_text() == "H8 AbC 12"
    # The receipt: the slip as understood, its joker visible (the record's lower case, marked).
    receipt = html[html.index('id="player-receipt"') :]
    slip = '<b aria-hidden="true">H8 A<span class="joker">b</span>C 12</b>'
    assert f'{slip} — <span class="when">reçu à' in receipt
    assert "joker : B" in receipt
    # Read back for a screen reader first, as the server understood it.
    assert '<span class="sr">H8 horizontal, ABC, joker sur le B, 12 points annoncés</span>' in receipt
    # The answer carries no board: the slip held, for the phone to draw; the next poll's board shows
    # the joker as a joker, in the player's colour.
    assert 'id="player-board"' not in html and 'data-slip-ref="H8" data-slip-word="AbC"' in html
    board = client.get(_status(players[0]), **HTMX).content.decode()
    assert re.search(r'class="c[a-z ]* t b mine" data-sq="\d+">B<', board)


def test_the_receipt_names_every_joker_in_the_pages_language(client, players, game):
    rnd = _running(game)
    _post(client, players[0], rnd, "h8 a?b?c")
    english = client.get(_page(players[0]), **ENGLISH).content.decode()
    assert "blanks: A, B" in english
    assert "H8 across, ABC, blank as A, blank as B</span>" in english
    french = client.get(_page(players[0])).content.decode()
    assert "jokers : A, B" in french


def test_the_rack_shows_a_blank_as_a_joker_tile(client, players, tournament):
    game = worker_game(tournament)  # round 1: VDFIR?A
    services.round_draw(game_id=game.pk, expected_number=1)
    html = client.get(_page(players[0])).content.decode()
    joker = re.search(r'<li class="tile joker">(.*?)</li>', html).group(1)
    assert joker == '<span aria-hidden="true">?</span><span class="sr">joker</span>'
    assert len(re.findall(r'<li class="tile">[A-Z]<sub ', html)) == 6
    # Each tile's value said for a screen reader, in the phone's language (templatetags/racks.py).
    said = r'<li class="tile">([A-Z])<sub aria-hidden="true">(\d+)</sub><span class="sr">, ([^<]*)<'
    tiles = re.findall(said, html)
    assert tiles == [("V", "4", "4 points"), ("D", "2", "2 points"), ("F", "4", "4 points"),
                     ("I", "1", "1 point"), ("R", "1", "1 point"), ("A", "1", "1 point")]  # fmt: skip
    english = client.get(_page(players[0]), **ENGLISH).content.decode()
    assert '<span aria-hidden="true">?</span><span class="sr">blank</span>' in english
    assert re.findall(said, english)[0] == ("V", "4", "4 points")


def test_the_page_says_how_to_write_a_slip_with_a_joker_and_the_score(client, players, game, tournament):
    _running(game)
    html = client.get(_page(players[0])).content.decode()
    how = re.search(r'<p id="slip-how" class="slip-how">(.*?)</p>', html).group(1)
    assert "<kbd>H4 JOINTA?</kbd> <kbd>34</kbd>" in how and "joker" in how and "score" in how
    assert 'aria-describedby="slip-how"' in html
    tournament.grading = Grading.COMPUTED
    tournament.save(update_fields=["grading"])
    how = re.search(
        r'<p id="slip-how" class="slip-how">(.*?)</p>', client.get(_page(players[0])).content.decode()
    )
    assert "<kbd>34</kbd>" not in how.group(1) and "<kbd>H4 JOINTA?</kbd>" in how.group(1)


def test_the_script_gets_its_sentence_for_a_used_tile_from_the_server(client, players):
    assert 'data-text-tile-used="dans le bulletin"' in client.get(_page(players[0])).content.decode()
    assert 'data-text-tile-used="in the slip"' in client.get(_page(players[0]), **ENGLISH).content.decode()


def test_the_language_switch_sits_after_the_screen_and_the_keep_awake_fallback_is_loaded(client, players):
    html = client.get(_page(players[0])).content.decode()
    assert html.index("</main>") < html.index('class="lang-switch"')
    assert "tournaments/vendor/NoSleep.min.js" in html
    assert html.index("NoSleep.min.js") < html.index("live/player.js")


def test_the_arbiters_paper_slip_reads_lower_case_as_letters_like_the_phone(arbiter_client, players, game):
    rnd = _running(game)
    services.round_close(round_id=rnd.pk)
    url = reverse("live:slip_enter", args=[rnd.pk])
    arbiter_client.post(
        url, {"table_number": players[1].table_number, "text": "H8 ABc 12", "paper": "1"}, **HTMX
    )
    assert Submission.objects.get(player=players[1]).word == "ABC"  # see test_paper_slips.py
