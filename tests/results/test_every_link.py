"""Every link the arbiter's pages offer, in every state a game can be in, answers its file or a page
that says why not: never a server error.  The walk (``tests.results.walk``) starts at the
tournament's page and follows each same-site ``href`` (and the polls' ``hx-get``) of every page it
reaches that belongs to the tournament (its games, rounds, printouts, projector, reviews, the phones'
pages); it submits every printout form with each of its buttons and opens the PDF made (the other
forms are the arbiter's writes, which would change the state walked), and reads what each PDF
says.  A link added later is walked too."""

from __future__ import annotations

import html
from collections.abc import Callable

import pytest
from django.test import Client

from live import services as live_services
from results.models import Printout
from tests.fixtures import worker_game
from tests.results.walk import Walk, pdf_text
from tournaments import services
from tournaments.models import Game, Player, Round

#: The players registered before each state is built (tables 1 to 3).
NAMES = ("Alice", "Bruno", "Chloé")


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
    live_services.submission_record(player=players[0], round_id=rnd.pk, text=_slip(rnd))
    live_services.submission_record(player=players[1], round_id=rnd.pk, text="A1 ZZZ 12")
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


def a_player_removed_mid_round(tournament, players):
    """Chloé, who handed in no slip, removed while round 2 runs."""
    game = _random(tournament)
    _placed(game, players)
    _running(game, players, 2)
    services.player_remove(player=players[2])


def the_round_time_changed_mid_game(tournament, players):
    """Round 1 played at 3 minutes, rounds 2 and 3 at 2 after the setting changed."""
    game = _random(tournament)
    _placed(game, players)
    services.tournament_update(tournament=tournament, round_seconds=120)
    _placed(game, players, 2)
    _placed(game, players, 3)


def several_games_with_solos(tournament, players):
    """Two games ended, a solo in each (Alice alone on the top: 3 players are enough here)."""
    services.tournament_update(tournament=tournament, solo_min_players=2)
    for seed in (5, 6):
        game = _random(tournament) if seed == 5 else services.game_start(tournament=tournament, seed=seed)
        _placed(game, players)
        services.game_end(game_id=game.pk)


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
    a_player_removed_mid_round,
    the_round_time_changed_mid_game,
    several_games_one_abandoned,
    several_games_with_solos,
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


def _walked(arbiter, tournament, state) -> Walk:
    walk = Walk(_arbiters_browser(arbiter, tournament, state), tournament)
    walk.tournament(tournament)
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
    _printed_as_the_tournament_stands(tournament, printouts)


#: The sheets that list every player registered: the rankings (and the bundles that hold one).
LISTS_EVERYONE = {
    Printout.Kind.RANKING,
    Printout.Kind.BUNDLE,
    Printout.Kind.TOURNAMENT,
    Printout.Kind.EVENING,
}


def _printed_as_the_tournament_stands(tournament, printouts) -> None:
    """Every sheet names the tournament and its game; a ranking lists every player still registered,
    and no sheet names a player removed."""
    registered = set(Player.objects.filter(tournament=tournament).values_list("name", flat=True))
    removed = {*NAMES, "Damien"} - registered
    for printout in printouts:
        text = pdf_text(bytes(printout.pdf))
        where = (printout.kind, printout.game and printout.game.number)
        assert tournament.name in text, where
        if printout.game is not None:
            assert f"Partie {printout.game.number}" in text, where
        if printout.kind in LISTS_EVERYONE:
            assert all(name in text for name in registered), where
        assert not [name for name in removed if name in text], where


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
