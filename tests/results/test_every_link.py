"""Every link the arbiter's pages offer, in every state a game can be in, answers its file or a page
that says why not: never a server error.  The walk starts at the tournament's page and follows each
same-site ``href`` (and the polls' ``hx-get``) of every page it reaches that belongs to the
tournament (its games, rounds, printouts, projector, reviews, the phones' pages); it submits every
printout form with each of its buttons and opens the PDF made (the other forms are the arbiter's
writes, which would change the state walked).  A link added later is walked too."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client

from results.models import Printout
from tests.fixtures import worker_game
from tournaments import services
from tournaments.models import Game, Round, Tournament

#: The players registered before each state is built (tables 1 to 3).
NAMES = ("Alice", "Bruno", "Chloé")


class _Page(HTMLParser):
    """The links of a page (``href``, ``hx-get``) and its printout forms (hidden fields, buttons)."""

    def __init__(self):
        super().__init__()
        #: (address, whether htmx asks for it: a poll's partial)
        self.links: list[tuple[str, bool]] = []
        self.forms: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("href", "hx-get"):
            if attrs.get(name):
                self.links.append((attrs[name], name == "hx-get"))
        if tag == "form":
            self.forms.append({"action": attrs.get("action") or "", "fields": {}, "buttons": []})
        elif self.forms and tag == "input" and attrs.get("type") == "hidden" and attrs.get("name"):
            self.forms[-1]["fields"][attrs["name"]] = attrs.get("value") or ""
        elif self.forms and tag == "button" and attrs.get("name"):
            self.forms[-1]["buttons"].append((attrs["name"], attrs.get("value") or ""))


def _same_site(base: str, href: str) -> str | None:
    """The path (and query) ``href`` opens on this server, None for another site or no page."""
    if href.startswith(("#", "mailto:", "javascript:", "data:")):
        return None
    parts = urlsplit(urljoin(base, href))
    if parts.scheme not in ("", "http", "https") or parts.netloc not in ("", "testserver"):
        return None
    if parts.path.startswith(("/static/", "/media/", "/admin/")):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


class _Walk:
    """The arbiter's walk through one tournament: every answer kept by its address."""

    def __init__(self, client: Client, tournament: Tournament):
        self.client = client
        games = list(tournament.games.values_list("pk", flat=True))
        ids = "|".join(str(pk) for pk in games)
        #: The pages whose own links are followed: the tournament's, its games', rounds', printouts',
        #: projector's, reviews' and phones' (anything else is opened, not explored).
        self.ours = re.compile(
            rf"^/(tournois/{tournament.pk}/|parties/({ids})/|projecteur/({ids})/|coups/\d+/"
            r"|impressions/\d+/|j/)"
        )
        self.answers: dict[str, int] = {}

    def run(self, *start: str) -> None:
        todo = [(url, False) for url in start]
        while todo:
            url, htmx = todo.pop(0)
            if url in self.answers:
                continue
            response = self.client.get(url, headers={"HX-Request": "true"} if htmx else {})
            self.answers[url] = response.status_code
            if response.status_code in (301, 302):
                target = _same_site(url, response["Location"])
                todo.extend([(target, False)] if target else [])
            elif self._explored(url, response):
                page = _Page()
                page.feed(response.content.decode())
                todo.extend((link, htmx) for href, htmx in page.links if (link := _same_site(url, href)))
                todo.extend((link, False) for link in self._printouts(url, page.forms))

    def _explored(self, url: str, response) -> bool:
        """A page of the tournament's, whose links are followed in turn."""
        is_html = response.get("Content-Type", "").startswith("text/html")
        return response.status_code == 200 and is_html and bool(self.ours.match(url))

    def _printouts(self, url: str, forms: list[dict]) -> list[str]:
        """Each printout form sent with each of its buttons; the printout's page to walk next."""
        found = []
        for form in forms:
            action = _same_site(url, form["action"])
            if not action or not action.endswith("/impressions/"):
                continue
            for name, value in form["buttons"]:
                sent = f"POST {action} game={form['fields'].get('game', '')} {name}={value}"
                if sent in self.answers:
                    continue
                response = self.client.post(action, {**form["fields"], name: value})
                self.answers[sent] = response.status_code
                if response.status_code == 302:
                    found.append(_same_site(action, response["Location"]))
        return [link for link in found if link]

    def errors(self) -> dict[str, int]:
        return {url: status for url, status in self.answers.items() if status >= 500}


# -- the states of a game ---------------------------------------------------------------------------


def _draw(game: Game, number: int) -> Round:
    return services.round_draw(game_id=game.pk, expected_number=number).round


def _slip(rnd: Round) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']} {top['score']}"


def _placed(game: Game, players, number: int = 1) -> Round:
    rnd = _running(game, players, number)
    services.round_close(round_id=rnd.pk)
    return services.round_place_top(round_id=rnd.pk)


def _running(game: Game, players, number: int = 1) -> Round:
    rnd = services.round_start(round_id=_draw(game, number).pk)
    services.submission_record(player=players[0], round_id=rnd.pk, text=_slip(rnd))
    services.submission_record(player=players[1], round_id=rnd.pk, text="A1 ZZZ 12")
    return rnd


def _random(tournament) -> Game:
    return services.game_start(tournament=tournament, seed=5)


def no_game(tournament, players):
    """Players registered, no game started yet."""


def no_round(tournament, players):
    _random(tournament)


def a_round_drawn(tournament, players):
    _draw(_random(tournament), 1)


def a_round_running(tournament, players):
    _running(_random(tournament), players)


def a_round_closed_not_placed(tournament, players):
    services.round_close(round_id=_running(_random(tournament), players).pk)


def a_cancelled_round_only(tournament, players):
    """A rack typed from the bag, then cancelled: it waits for the next rack to be typed."""
    game = services.game_start(tournament=tournament, typed=True)
    rnd = services.round_draw(game_id=game.pk, expected_number=1, typed="VDFIR?A").round
    services.round_cancel(round_id=rnd.pk)


def a_round_cancelled_then_drawn_again(tournament, players):
    game = _random(tournament)
    _placed(game, players)
    rnd = services.round_cancel(round_id=_running(game, players, 2).pk).round
    services.round_start(round_id=rnd.pk)


def abandoned_mid_round(tournament, players):
    game = _random(tournament)
    _running(game, players)
    services.game_abandon(game_id=game.pk)


def abandoned_after_a_placed_round(tournament, players):
    game = _random(tournament)
    _placed(game, players)
    services.game_abandon(game_id=game.pk)


def ended(tournament, players):
    game = _random(tournament)
    _placed(game, players)
    _placed(game, players, 2)
    services.game_end(game_id=game.pk)


def a_player_removed(tournament, players):
    game = _random(tournament)
    _placed(game, players)
    late = services.player_register(tournament=tournament, name="Damien")
    services.player_remove(player=late)
    services.player_remove(player=players[2])  # registered from the start, never handed a slip


def several_games_one_abandoned(tournament, players):
    first = _random(tournament)
    _placed(first, players)
    services.game_end(game_id=first.pk)
    second = services.game_start(tournament=tournament, seed=6)
    _placed(second, players)
    services.game_abandon(game_id=second.pk)
    third = services.game_start(tournament=tournament, seed=7)
    _running(third, players)


def a_prepared_game_drawn(tournament, players):
    _draw(worker_game(tournament), 1)


STATES: list[Callable] = [
    no_game,
    no_round,
    a_round_drawn,
    a_round_running,
    a_round_closed_not_placed,
    a_cancelled_round_only,
    a_round_cancelled_then_drawn_again,
    abandoned_mid_round,
    abandoned_after_a_placed_round,
    ended,
    a_player_removed,
    several_games_one_abandoned,
    a_prepared_game_drawn,
]

#: The states in which a game has no placed round: its record and results file have nothing to carry.
NOTHING_PLACED = {no_round, a_round_drawn, a_round_running, a_round_closed_not_placed, a_cancelled_round_only}


def _arbiters_browser(arbiter, tournament, state, **headers) -> Client:
    """The tournament in ``state``, and the arbiter's browser: a server error is an answer to see."""
    state(tournament, [services.player_register(tournament=tournament, name=name) for name in NAMES])
    client = Client(raise_request_exception=False, headers=headers)
    client.force_login(arbiter)
    return client


def _walked(arbiter, tournament, state) -> _Walk:
    walk = _Walk(_arbiters_browser(arbiter, tournament, state), tournament)
    # The overall ranking too, which the tournament's page links once a game is started.
    walk.run(f"/tournois/{tournament.pk}/", f"/tournois/{tournament.pk}/classement/")
    return walk


@pytest.mark.parametrize("state", STATES, ids=[s.__name__ for s in STATES])
def test_every_link_of_the_tournament_answers_its_file_or_a_page_in_every_state(arbiter, tournament, state):
    walk = _walked(arbiter, tournament, state)

    assert walk.errors() == {}
    assert f"/tournois/{tournament.pk}/export/federation/" in walk.answers  # the results pages reached
    assert f"/tournois/{tournament.pk}/fichier/" in walk.answers
    for game in tournament.games.all():
        for what in ("csv", "federation", "partie", "resultats"):
            assert f"/parties/{game.pk}/export/{what}/" in walk.answers
        assert f"/projecteur/{game.pk}/" in walk.answers
    failed = Printout.objects.filter(tournament=tournament, status=Printout.Status.FAILED)
    assert list(failed.values_list("kind", "error")) == []
    printouts = Printout.objects.filter(tournament=tournament)
    assert printouts.count() == 2 + 4 * tournament.games.count()  # every button of every page
    for printout in printouts:
        assert walk.answers[f"/impressions/{printout.pk}/pdf/"] == 200


@pytest.mark.parametrize("state", sorted(NOTHING_PLACED, key=STATES.index), ids=lambda s: s.__name__)
def test_a_game_with_no_placed_round_says_it_has_nothing_to_export(arbiter, tournament, state):
    client = _arbiters_browser(arbiter, tournament, state)
    game = tournament.games.get()

    for what in ("partie", "resultats"):
        response = client.get(f"/parties/{game.pk}/export/{what}/", follow=True)
        assert response.redirect_chain == [(f"/parties/{game.pk}/resultats/", 302)]
        said = html.unescape(response.content.decode())
        assert "Aucun coup n'a encore été placé : la partie n'a rien à exporter." in said


def test_the_refusal_to_export_an_empty_game_speaks_english_to_an_english_page(arbiter, tournament):
    client = _arbiters_browser(arbiter, tournament, no_round, **{"Accept-Language": "en"})
    game = tournament.games.get()

    response = client.get(f"/parties/{game.pk}/export/partie/", follow=True)

    assert "No round has been placed yet: the game has nothing to export." in response.content.decode()
