"""The review of a finished game: each round as the players met it, the best placements with the
player's own move marked, a player's line and its chart, and the arbiter's room."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from engine.board import Board
from engine.movegen import Position, all_plays
from lexicons.loaded import engine_lexicon
from live import services as live_services
from review import reads
from server.writes import ServiceError
from tournaments import services, standings
from tournaments.models import Round


def _slip(play) -> str:
    return f"{play.ref} {play.word} {play.score}"


def _position(game, rnd: Round) -> Position:
    game.refresh_from_db()
    return Position(
        Board(game.board), tuple(rnd.tiles), engine_lexicon(game.tournament.lexicon), rnd.number == 1
    )


@pytest.fixture
def finished(game, players):
    """Three rounds: Alice plays every top, Bruno a lesser move each round, Chloé nothing in round 2
    and a word the list lacks in round 3; then the arbiter ends the game."""
    alice, bruno, chloe = players
    lesser = []
    for number in (1, 2, 3):
        rnd = services.round_draw(game_id=game.pk, expected_number=number).round
        position = _position(game, rnd)
        top = rnd.tops[0]
        other = max(
            (p for p in all_plays(position) if p.score < top["score"] and (number > 1 or p.ref.horizontal)),
            key=lambda p: p.score,
        )
        lesser.append(other)
        services.round_start(round_id=rnd.pk)
        live_services.submission_record(
            player=alice, round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score']}"
        )
        live_services.submission_record(player=bruno, round_id=rnd.pk, text=_slip(other))
        if number == 1:
            live_services.submission_record(player=chloe, round_id=rnd.pk, text=_slip(other))
        if number == 3:
            live_services.submission_record(player=chloe, round_id=rnd.pk, text="H8 ZZZZ 12")
        services.round_close(round_id=rnd.pk)
        services.round_place_top(round_id=rnd.pk)
    services.game_end(game_id=game.pk)
    game.refresh_from_db()
    return game, players, lesser


def test_the_review_opens_only_once_the_game_is_over(game, players):
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    services.round_start(round_id=rnd.pk)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    with pytest.raises(ServiceError) as refused:
        reads.game_round(game, 1, player=players[0], lang="fr")
    assert refused.value.message.text("fr") == "La revue de la partie s'ouvre quand la partie est terminée."


def test_each_round_shows_the_top_and_the_best_placements_with_the_players_own_move(finished):
    game, (alice, bruno, chloe), lesser = finished
    rounds = reads.review_rounds(game)
    assert [r.number for r in rounds] == [1, 2, 3]
    for number, rnd in enumerate(rounds, 1):
        top = rnd.placed
        mine = reads.game_round(game, number, player=alice, lang="fr")
        assert mine.top["score"] == top["score"] and mine.rack == rnd.rack
        assert mine.best[0].score == top["score"]
        assert [p.score for p in mine.best] == sorted((p.score for p in mine.best), reverse=True)
        assert len(mine.best) >= 10 or number == 3  # ties at the tenth score are all listed
        placed = [p for p in mine.best if p.placed]
        assert len(placed) == 1 and placed[0].mine and placed[0].ref == top["ref"]
        assert mine.found_top and mine.percent == 100 and mine.slip.paid == top["score"]
        theirs = reads.game_round(game, number, player=bruno, lang="en")
        assert theirs.slip.paid == lesser[number - 1].score and not theirs.found_top
        marked = [p for p in theirs.best if p.mine]
        if lesser[number - 1].score >= theirs.best[-1].score:
            assert [(p.ref, p.score) for p in marked] == [
                (str(lesser[number - 1].ref), lesser[number - 1].score)
            ]
            assert theirs.listed
        assert theirs.percent == Decimal(100 * lesser[number - 1].score / top["score"]).quantize(
            Decimal("0.01")
        )
    missing = reads.game_round(game, 2, player=chloe, lang="fr")
    assert (missing.slip.paid, missing.slip.said) == (0, "Pas de bulletin.")
    unknown = reads.game_round(game, 3, player=chloe, lang="fr")
    assert unknown.slip.sent == "H8 ZZZZ 12" and unknown.slip.paid == 0 and not unknown.listed


def test_the_board_of_a_round_is_the_tops_before_it_with_this_top_marked(finished):
    game, (alice, *_), _ = finished
    rounds = reads.review_rounds(game)
    third = reads.game_round(game, 3, player=alice, lang="fr")
    letters = {cell.sq for cell in third.board if cell.letter}
    before = {sq for rnd in rounds[:2] for sq, _ in rnd.placed["tiles"]}
    now = {sq for sq, _ in rounds[2].placed["tiles"]}
    assert letters == before | now
    assert {cell.sq for cell in third.board if cell.last} == now


def test_a_players_line_sums_to_their_total_in_the_ranking(finished):
    game, players, _ = finished
    rounds = reads.review_rounds(game)
    ranking = standings.game_ranking(game)
    by_player = {line.entrant.key: line for line in ranking.lines}
    for player in players:
        line = reads.player_line(rounds, player)
        assert [p.top for p in line] == [r.top_score for r in rounds]
        assert line[-1].paid_total == by_player[player.pk].paid
        assert line[-1].top_total == ranking.top


def test_the_room_counts_who_found_the_top_the_moves_most_played_and_the_solos(finished):
    game, _, lesser = finished
    first = reads.room_round(game, 1)
    assert (first.slips, first.players, first.found_top) == (3, 3, 1)
    assert first.most_played[0].count == 2 and first.most_played[0].paid == lesser[0].score
    assert first.solos == ["Alice"] and not first.solos_counted
    second = reads.room_round(game, 2)
    assert second.slips == 2 and second.found_top == 1
    with pytest.raises(ServiceError):
        reads.room_round(game, 4)


# -- the pages --------------------------------------------------------------------------------------


def test_a_player_reviews_the_game_from_their_link_and_only_their_tournaments_games(
    client, finished, arbiter
):
    game, (_, bruno, _), _ = finished
    overview = client.get(reverse("review:player_game", args=[bruno.token, game.pk]))
    html = overview.content.decode()
    assert overview.status_code == 200 and "<svg" in html and html.count("<polyline") == 2
    line = reads.player_line(reads.review_rounds(game), bruno)
    assert f'data-total="{line[-1].paid_total}"' in html and f'data-top="{line[-1].top_total}"' in html
    page = client.get(reverse("review:player_round", args=[bruno.token, game.pk, 2])).content.decode()
    assert "Coup 2 sur 3" in page and "votre coup" in page and "top placé" in page
    assert reverse("review:player_round", args=[bruno.token, game.pk, 3]) in page  # next
    assert client.get(reverse("review:player_round", args=[bruno.token, game.pk, 4])).status_code == 404
    other = services.tournament_create(
        created_by=arbiter, lexicon=game.tournament.lexicon, name="Autre", date=game.tournament.date
    )
    elsewhere = services.game_start(tournament=other, seed=7)
    assert client.get(reverse("review:player_game", args=[bruno.token, elsewhere.pk])).status_code == 404
    assert client.get(reverse("review:player_game", args=["no-such-token", game.pk])).status_code == 404


def test_the_phone_offers_the_review_once_the_game_is_over(client, finished):
    game, (alice, *_), _ = finished
    page = client.get(reverse("live:player_page", args=[alice.token])).content.decode()
    assert reverse("review:player_game", args=[alice.token, game.pk]) in page


def test_the_arbiters_review_adds_the_room_and_any_players_slips(arbiter_client, finished):
    game, (_, bruno, _), lesser = finished
    url = reverse("review:game_review_round", args=[game.pk, 1])
    assert Client().get(url).status_code == 302  # a login first
    page = arbiter_client.get(url, {"table": bruno.table_number}).content.decode()
    assert "La salle" in page and "1 joueur sur 3 a trouvé le top" in page and "Bulletin de Bruno" in page
    assert _slip(lesser[0]) in page
    assert arbiter_client.get(url, {"table": "²"}).status_code == 200
    assert arbiter_client.get(reverse("review:game_review", args=[game.pk])).status_code == 200
    detail = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert reverse("review:game_review", args=[game.pk]) in detail
