"""A round's slips after the next rack is drawn.  The arbiter types round N's paper slips and
settles its disputes while round N+1 runs, and any round's after the game: the slips panel of the
game screen shows the round the arbiter picks, graded on that round's board, rack and top (§3.4),
with the same corrections, undo and log; the rankings, the phones and the sheets follow."""

from __future__ import annotations

import csv
import io
import re
from urllib.parse import unquote

from django.urls import reverse

from live import services as live_services
from tournaments import services, standings
from tournaments.models import Round, Submission

HTMX = {"HTTP_HX_REQUEST": "true"}


def _played(game, number: int, slips=()) -> Round:
    rnd = services.round_draw(game_id=game.pk, expected_number=number).round
    services.round_start(round_id=rnd.pk)
    for player, text in slips:
        live_services.submission_record(player=player, round_id=rnd.pk, text=text)
    services.round_close(round_id=rnd.pk)
    return Round.objects.get(pk=rnd.pk)


def _placed(game, number: int, slips=()) -> Round:
    rnd = _played(game, number, slips)
    services.round_place_top(round_id=rnd.pk)
    return Round.objects.get(pk=rnd.pk)


def _top_slip(rnd: Round) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']} {top['score']}"


def _enter(client, rnd: Round, table: int, text: str, **data):
    url = reverse("live:slip_enter", args=[rnd.pk])
    return client.post(url, {"table_number": table, "text": text, **data}, **HTMX)


def _undo(client, rnd: Round):
    return client.post(reverse("live:correction_undo", args=[rnd.pk]), **HTMX)


def _totals(game) -> dict[str, int]:
    return {row.name: row.total for row in standings.game_rows(standings.game_ranking(game)).rows}


def _paid(rnd: Round, player) -> tuple[int, str] | None:
    sub = Submission.objects.filter(round=rnd, player=player).first()
    return (sub.paid, sub.sanction) if sub else None


def _phone_status(client, player, signature: str):
    url = reverse("live:player_status", kwargs={"token": player.token})
    return client.get(url, {"s": signature}, **HTMX)


def _signature(client, player) -> str:
    page = client.get(reverse("live:player_page", kwargs={"token": player.token})).content.decode()
    return re.search(r"\?s=([0-9a-z.]+)", page).group(1)


def _phone_total(html: str) -> int:
    return int(re.search(r"Total <b>(-?\d+)</b>", html).group(1))


def test_while_the_next_round_runs_the_arbiter_types_a_paper_slip_corrects_and_undoes_the_last_round(
    arbiter_client, game, players
):
    alice, bruno, chloe = players
    first = _placed(game, 1, [(alice, "H8 ZZZ 10")])
    second = services.round_start(round_id=services.round_draw(game_id=game.pk, expected_number=2).round.pk)
    running_version = second.version

    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert "Bulletins reçus" in page  # round 2 runs on the screen...
    assert "Bulletins corrigés du coup 1" in page and "H8 ZZZ 10" in page  # ...above round 1's slips
    assert f'hx-get="/parties/{game.pk}/bulletins/?coup=1"' in page

    # Bruno's paper slip of round 1: graded on round 1's board (empty) and rack, though its top and
    # round 2's rack are on the screen now.
    paper = _enter(arbiter_client, first, bruno.table_number, _top_slip(first), paper="1")
    assert paper["HX-Trigger"] == "slips-changed"  # the live region's ranking is drawn again
    html = paper.content.decode()
    assert "Bulletins corrigés du coup 1" in html and f"Table {bruno.table_number} : lu" in html
    assert 'id="paper-table" min="1" required inputmode="numeric" autofocus' in html
    assert _paid(first, bruno) == (first.top_score, "none")
    # Alice's dispute settled: her slip corrected in place.
    _enter(arbiter_client, first, alice.table_number, _top_slip(first))
    assert _paid(first, alice) == (first.top_score, "none")
    assert _totals(game) == {"Alice": first.top_score, "Bruno": first.top_score, "Chloé": 0}

    # Undo: Alice's correction first, back to her slip as she sent it.
    undone = _undo(arbiter_client, first).content.decode()
    assert _paid(first, alice) == (0, "zero") and _paid(first, bruno) == (first.top_score, "none")
    assert _totals(game) == {"Alice": 0, "Bruno": first.top_score, "Chloé": 0}
    log = undone[undone.index("Journal des corrections") :]
    assert log.count('<tr class="undo-row">') == 1 and log.count("<td>arbitre") == 3
    assert "H8 ZZZ 10 (0, zéro)" in log

    # Round 2 ran on, untouched: its phones were not redrawn, its slips still come in.
    second.refresh_from_db()
    assert second.status == Round.Status.RUNNING and second.version == running_version
    live_services.submission_record(player=chloe, round_id=second.pk, text=_top_slip(second))
    assert _paid(second, chloe) is not None


def test_a_correction_of_round_n_reaches_the_phones_once_round_n_plus_one_is_over(
    client, game, players, arbiter
):
    alice, _bruno, _chloe = players
    first = _placed(game, 1, [(alice, "H8 ZZZ 10")])
    second = _played(game, 2)  # closed: the phones show each player's total
    signature = _signature(client, alice)
    shown = _phone_status(client, alice, "x")
    assert _phone_total(shown.content.decode()) == 0
    assert _phone_status(client, alice, signature).status_code == 204

    live_services.submission_enter(
        round_id=first.pk, table_number=alice.table_number, text=_top_slip(first), user=arbiter
    )
    redrawn = _phone_status(client, alice, signature)
    assert redrawn.status_code == 200 and _phone_total(redrawn.content.decode()) == first.top_score
    assert Round.objects.get(pk=second.pk).version > second.version  # what the phones compare moved

    # While round 3 runs, a correction of round 2 leaves the phones alone (nothing shows a total
    # while a round runs); round 3's close brings it.
    third = services.round_start(
        round_id=services.round_draw(game_id=_place(second), expected_number=3).round.pk
    )
    signature = _signature(client, alice)
    live_services.submission_enter(
        round_id=second.pk, table_number=alice.table_number, text=_top_slip(second), user=arbiter
    )
    assert _phone_status(client, alice, signature).status_code == 204
    services.round_close(round_id=third.pk)
    closed = _phone_status(client, alice, signature).content.decode()
    assert _phone_total(closed) == first.top_score + second.top_score


def _place(rnd: Round) -> int:
    services.round_place_top(round_id=rnd.pk)
    return rnd.game_id


def test_after_the_game_any_round_is_opened_corrected_and_undone_and_the_results_follow(
    arbiter_client, game, players
):
    alice, bruno, _chloe = players
    first = _placed(game, 1, [(alice, "H8 ZZZ 10")])
    second = _placed(game, 2, [(bruno, "H8 ZZZ 10")])
    services.game_end(game_id=game.pk)
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert "Partie terminée" in page and "Bulletins corrigés du coup 2" in page  # the last by default
    for number in (1, 2):
        assert f'href="/parties/{game.pk}/?coup={number}"' in page
    picked = arbiter_client.get(reverse("live:game_detail", args=[game.pk]), {"coup": 1}).content.decode()
    assert "Bulletins corrigés du coup 1" in picked and re.search(
        r'\?coup=1"[^>]*aria-current="true"', picked
    )

    url = reverse("live:game_slips", args=[game.pk])
    panel = arbiter_client.get(url, {"coup": 1}, **HTMX).content.decode()
    assert "Bulletins corrigés du coup 1" in panel and "H8 ZZZ 10" in panel
    assert "ce n’est pas le dernier coup clos" in panel  # an earlier round: said so
    signature = _signature(arbiter_client, alice)
    results = reverse("results:game_results", args=[game.pk])
    sheet_key = re.search(r"\?v=([^\"]+)\"", arbiter_client.get(results).content.decode()).group(1)
    assert arbiter_client.get(results, {"v": unquote(sheet_key)}, **HTMX).status_code == 204
    projector = reverse("live:projector_poll", args=[game.pk])
    shown = arbiter_client.get(reverse("live:projector", args=[game.pk])).content.decode()
    projector_key = unquote(re.search(r"/etat/\?v=([^\"]+)\"", shown).group(1))
    assert arbiter_client.get(projector, {"v": projector_key}, **HTMX).status_code == 204

    corrected = _enter(arbiter_client, first, alice.table_number, _top_slip(first)).content.decode()
    assert "Bulletins corrigés du coup 1" in corrected and "Journal des corrections" in corrected
    assert _paid(first, alice) == (first.top_score, "none") and _paid(second, bruno) == (0, "zero")
    # The projector's ranking is drawn again.
    assert arbiter_client.get(projector, {"v": projector_key}, **HTMX).status_code == 200
    phone = _phone_status(arbiter_client, alice, signature)
    assert phone.status_code == 200 and _phone_total(phone.content.decode()) == first.top_score
    # The results page (and the sheets and files built from it) is drawn again, Alice's line with it.
    sheet = arbiter_client.get(results, {"v": unquote(sheet_key)}, **HTMX).content.decode()
    line = next(row for row in sheet.split("<tr>") if "<td>Alice</td>" in row)
    assert f"<strong>{first.top_score}</strong>" in line
    exported = arbiter_client.get(reverse("results:game_export", args=[game.pk, "csv"])).content
    header, *lines = csv.reader(io.StringIO(exported.decode("utf-8-sig")), delimiter=";")
    totals = {line[header.index("Nom")]: int(line[header.index("Total")]) for line in lines}
    assert totals == {"Alice": first.top_score, "Bruno": 0, "Chloé": 0}

    _undo(arbiter_client, first)
    assert _paid(first, alice) == (0, "zero") and _totals(game)["Alice"] == 0
    # The last round too, after the game.
    _enter(arbiter_client, second, bruno.table_number, _top_slip(second))
    assert _totals(game)["Bruno"] == second.top_score


def test_a_round_asked_for_that_the_game_has_not_graded_shows_the_last_graded_one(
    arbiter_client, game, players
):
    url = reverse("live:game_slips", args=[game.pk])
    assert arbiter_client.get(url, **HTMX).content.decode().strip() == ""  # nothing graded yet
    _placed(game, 1)
    for asked in ("7", "abc", "0", "99999999999999999999", "²", ""):
        panel = arbiter_client.get(url, {"coup": asked}, **HTMX)
        assert panel.status_code == 200 and "Bulletins corrigés du coup 1" in panel.content.decode()
    assert arbiter_client.get(url, {"coup": "1"})["Location"] == f"/parties/{game.pk}/?coup=1"
