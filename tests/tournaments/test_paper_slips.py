"""The arbiter's paper slips and corrections are read like the phone's slips.  Letters are letters
whatever their case (caps lock off is no joker), a joker is the letter followed by ``?``, and the
arbiter sees at once how the slip was read, its jokers marked."""

from __future__ import annotations

from django.urls import reverse

from tournaments import services
from tournaments.models import Round, Submission

HTMX = {"HTTP_HX_REQUEST": "true"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _closed(game) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    services.round_close(round_id=rnd.pk)
    return Round.objects.get(pk=rnd.pk)


def _enter(client, rnd, table, text, **extra):
    url = reverse("live:slip_enter", args=[rnd.pk])
    return client.post(url, {"table_number": table, "text": text, "paper": "1"}, **HTMX, **extra)


def test_a_top_typed_with_caps_lock_off_pays_the_top_without_a_joker_warning(arbiter_client, game, players):
    rnd = _closed(game)
    top = rnd.tops[0]
    record = f"{top['ref']} {top['word']} {top['score']}"
    typed = "".join(f"{c}?" if c.islower() else c.lower() for c in record)
    assert typed.startswith(top["ref"].lower())  # "h4 cablot 26", a joker's letter followed by "?"
    _enter(arbiter_client, rnd, players[1].table_number, typed)
    sub = Submission.objects.get(round=rnd, player=players[1])
    assert sub.word == top["word"] and sub.paid == top["score"] and sub.sanction == "none"


def test_a_joker_is_the_letter_followed_by_a_question_mark_and_the_slip_is_shown_as_read(
    arbiter_client, game, players
):
    rnd = _closed(game)
    page = _enter(arbiter_client, rnd, players[1].table_number, "h8 ab?c 12").content.decode()
    sub = Submission.objects.get(round=rnd, player=players[1])
    assert sub.word == "AbC"
    # Beside the field, at once: how the slip was read, the joker marked, and what it paid.
    line = page[page.index('class="slip-read"') :]
    line = line[: line.index("</p>")]
    assert f"Table {players[1].table_number} : lu H8 A<mark" in line and ">b</mark>C 12" in line
    assert f"payé {sub.paid}" in line
    english = _enter(arbiter_client, rnd, players[1].table_number, "h8 ab?c 12", **ENGLISH).content.decode()
    assert f"Table {players[1].table_number}: read as H8 A<mark" in english


def test_a_slip_with_a_joker_is_offered_for_correction_as_typed_and_reads_back_the_same(
    arbiter_client, game, players
):
    rnd = _closed(game)
    _enter(arbiter_client, rnd, players[0].table_number, "H8 AB?C 12")
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert 'value="H8 AB?C 12"' in page  # the correction field, as the arbiter would type it
    # Sent back as it stands (say, only the score changed), the joker stays a joker.
    _enter(arbiter_client, rnd, players[0].table_number, "H8 AB?C 14")
    assert Submission.objects.get(round=rnd, player=players[0]).word == "AbC"
