"""In a real browser: after a three-round game, Bruno reviews it from his phone (his line, the
chart, each round with the top and the ten best, his own move marked), then trains on the same game
from his review (through his own join link, a club's games being no one else's): the top in round 1,
his lesser move of the evening in round 2, nothing in round 3; the end shows his total and
percentage, and each round's review.

The game is played through the services (the arbiter's screen has its own browser tests); what is
checked here is what a player sees, and its figures against the rankings' and the engine's."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

from playwright.sync_api import Page, expect

from engine.board import Board
from engine.movegen import Position, all_plays
from engine.ranking import percent, rounded
from lexicons.loaded import engine_lexicon, lexicon_default_row
from live import services as live_services
from review import reads
from tests.e2e.browser import orm as _orm
from tournaments import services, standings
from tournaments.models import Round
from training.games import club_game

expect.set_options(timeout=10_000)


def _slip(play) -> str:
    return f"{play.ref} {play.word} {play.score}"


def _typed(play) -> str:
    """As a phone's keyboard types it: lower case, a joker as its letter followed by "?"."""
    return "".join(f"{c}?" if c.islower() else c.lower() for c in _slip(play))


def _finished_game():
    """Alice and Bruno; Alice plays each top, Bruno a lesser move (the best of another word in round
    1, where a word is paid the best it can make, §3.4)."""
    from django.contrib.auth.models import User

    arbiter = User.objects.create_user("arbitre", password="x-secret-123")
    tournament = services.tournament_create(
        created_by=arbiter, lexicon=lexicon_default_row(), name="Soirée du jeudi",
        date=datetime.date(2026, 11, 19), place="Club",
    )  # fmt: skip
    alice, bruno = (services.player_register(tournament=tournament, name=n) for n in ("Alice", "Bruno"))
    game = services.game_start(tournament=tournament, seed=2026)
    lesser = []
    for number in (1, 2, 3):
        rnd = services.round_draw(game_id=game.pk, expected_number=number).round
        game.refresh_from_db()
        lexicon = engine_lexicon(tournament.lexicon)
        position = Position(Board(game.board), tuple(rnd.tiles), lexicon, number == 1)
        top = rnd.tops[0]
        words = {}
        for play in all_plays(position):
            placed = play.score < top["score"] and (number > 1 or play.ref.horizontal)
            if placed and play.score > words.get(play.word.upper(), (0, None))[0]:
                words[play.word.upper()] = (play.score, play)
        other = max(
            (p for s, p in words.values() if p.word.upper() != top["word"].upper()), key=lambda p: p.score
        )
        lesser.append(other)
        services.round_start(round_id=rnd.pk)
        topped = f"{top['ref']} {top['word']} {top['score']}"
        live_services.submission_record(player=alice, round_id=rnd.pk, text=topped)
        live_services.submission_record(player=bruno, round_id=rnd.pk, text=_slip(other))
        services.round_close(round_id=rnd.pk)
        services.round_place_top(round_id=rnd.pk)
    services.game_end(game_id=game.pk)
    game.refresh_from_db()
    return game, bruno, lesser


def _watched(page: Page, problems: list[str]) -> Page:
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
    page.on(
        "console",
        lambda m: problems.append(f"{page.url}: {m.text}") if "Content Security Policy" in m.text else None,
    )
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    return page


def _figure(page: Page, attribute: str) -> str:
    return page.locator(f"[data-{attribute}]").first.get_attribute(f"data-{attribute}")


def test_a_player_reviews_a_finished_game_then_trains_on_it(live_server, phone, artifacts):
    with _orm():
        game, bruno, lesser = _finished_game()
        rounds = reads.review_rounds(game)
        tops = [r.placed for r in rounds]
        line = standings.game_ranking(game)
        mine = next(ln for ln in line.lines if ln.entrant.key == bruno.pk)
    problems: list[str] = []
    page = _watched(phone().new_page(), problems)

    # The review, from the join link once the game is over.
    page.goto(f"{live_server.url}/j/{bruno.token}/")
    page.get_by_role("link", name="Revoir la partie coup par coup").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Revue de la partie 1")
    assert _figure(page, "total") == str(mine.paid) == str(sum(p.score for p in lesser))
    assert _figure(page, "top") == str(sum(t["score"] for t in tops))
    expected = rounded(percent(mine.paid, sum(t["score"] for t in tops)))
    assert Decimal(_figure(page, "percent")) == expected
    expect(page.locator("svg.chart polyline")).to_have_count(2)
    page.screenshot(path=str(artifacts / "review-overview-phone.png"), full_page=True)
    page.get_by_role("link", name="Revoir le coup 1").click()
    for number in (1, 2, 3):
        expect(page.get_by_role("heading", level=1)).to_have_text(f"Coup {number} sur 3")
        top = tops[number - 1]
        expect(page.locator(".top-move")).to_have_text(f"{top['ref']} {top['word']}")
        expect(page.locator(".slip-sent")).to_have_text(_slip(lesser[number - 1]))
        expect(page.locator(".slip-paid")).to_have_text(str(lesser[number - 1].score))
        first = page.locator("table.best tbody tr").first
        expect(first.locator("td").nth(2)).to_have_text(str(top["score"]))
        expect(page.locator("tr.placed .top-tag")).to_have_count(1)
        if page.locator("tr.mine-row").count():
            expect(page.locator("tr.mine-row td").nth(2)).to_have_text(str(lesser[number - 1].score))
        if number == 2:
            page.screenshot(path=str(artifacts / "review-round-phone.png"), full_page=True)
        if number < 3:
            page.get_by_role("link", name=re.compile("Coup suivant")).click()

    # Training on the same game, from his review (his join link: the club's games are not anyone's):
    # the top, then Bruno's move of the evening, then nothing.
    page.goto(f"{live_server.url}/j/{bruno.token}/revue/{game.pk}/")
    page.get_by_role("link", name="S'entraîner sur cette partie").click()
    expect(page.locator(".who")).to_contain_text("Soirée du jeudi")
    page.get_by_label("1 minute").check()
    page.screenshot(path=str(artifacts / "training-start-phone.png"), full_page=True)
    page.get_by_role("button", name="Commencer").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Coup 1 sur 3")
    expect(page.locator(".clock")).to_be_visible()
    with _orm():
        trained = club_game(game.pk)
    assert [p.score for p in trained.plays] == [t["score"] for t in tops]
    page.screenshot(path=str(artifacts / "training-round-phone.png"), full_page=True)
    slips = [_typed(trained.plays[0]), _typed(lesser[1])]
    for number, typed in enumerate(slips, 1):
        page.get_by_label("Votre bulletin").fill(typed)
        page.get_by_role("button", name="Valider").click()
        top = tops[number - 1]
        expect(page.locator(".top-move")).to_have_text(f"{top['ref']} {top['word']}")
        expect(page.locator("table.best tr.mine-row")).to_have_count(1)
        if number == 1:
            expect(page.locator(".found")).to_have_text("top trouvé")
        page.get_by_role("button", name="Coup suivant").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Coup 3 sur 3")
    page.get_by_role("button", name="Passer ce coup").click()
    expect(page.locator(".slip-paid")).to_have_text("0")
    page.get_by_role("button", name="Voir le bilan").click()
    total = tops[0]["score"] + lesser[1].score
    assert _figure(page, "total") == str(total)
    assert _figure(page, "top") == str(sum(t["score"] for t in tops))
    assert Decimal(_figure(page, "percent")) == rounded(percent(total, sum(t["score"] for t in tops)))
    page.screenshot(path=str(artifacts / "training-end-phone.png"), full_page=True)
    page.get_by_role("link", name="2", exact=True).click()
    expect(page.locator(".slip-paid")).to_have_text(str(lesser[1].score))
    assert problems == []
    with _orm():
        assert Round.objects.filter(game=game).count() == 3  # training wrote nothing
