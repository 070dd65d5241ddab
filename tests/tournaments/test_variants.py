"""The original games (docs/rules/variants.md) as the application plays them: the variant chosen when a
game starts (a prepared game's record's wins), its racks drawn, typed and replayed, its tops searched,
graded and placed, its end, its penalty threshold, its screens, sheets, record and tournament file."""

from __future__ import annotations

import datetime
import json
from collections import Counter
from datetime import timedelta

import pytest
from django.urls import reverse

from clubs.models import Club
from engine import record as engine_record
from engine.alphabet import BLANK, is_blank
from engine.board import Board
from engine.notation import parse_rack, parse_ref, parse_word
from engine.scoring import evaluate
from engine.variants import Variant
from lexicons.loaded import engine_lexicon
from live import services as live_services
from results import exports, sheets, transfer
from results.reports.layout import header_fields
from results.reports.text import labels
from tournaments import services, standings
from tournaments.models import Game, Round, Submission
from tournaments.plays import board_tiles, reliquat_after
from training import games as training_games


def _draw(game: Game, number: int, typed: str | None = None) -> Round | None:
    rnd = services.round_draw(game_id=game.pk, expected_number=number, typed=typed).round
    if rnd is not None and rnd.top_state != Round.TopState.READY:
        rnd = services.round_compute_top(round_id=rnd.pk)
    return rnd


def _close(rnd: Round, slips=()) -> Round:
    """Start the round's clock, hand in ``slips`` (player, text), close it."""
    rnd = services.round_start(round_id=rnd.pk)
    for player, text in slips:
        live_services.submission_record(player=player, round_id=rnd.pk, text=text)
    return services.round_close(round_id=rnd.pk, now=rnd.deadline + timedelta(seconds=60))


def _top_slip(rnd: Round) -> str:
    top = rnd.tops[0]
    return f"{top['ref']} {top['word']} {top['score']}"


def _play_out(game: Game, player=None, first: int = 1, last: int = 60) -> list[Round]:
    """Every round from ``first`` till the game ends (at most ``last``), the proposed top placed and
    ``player`` handing in the top; the rounds placed, in order."""
    placed = []
    for number in range(first, last + 1):
        rnd = _draw(game, number)
        if rnd is None:
            break
        rnd = _close(rnd, [(player, _top_slip(rnd))] if player else ())
        placed.append(services.round_place_top(round_id=rnd.pk))
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
    game.refresh_from_db()
    return placed


def _board_of(rounds: list[Round]) -> list[int]:
    board = Board()
    for rnd in rounds:
        board.place(tuple(tuple(t) for t in board_tiles(rnd.placed)))
    return board.cells


def _tiles_counted(game: Game) -> Counter:
    """The game's tiles: the bag, the rack (its reliquat once its top is placed), the board (a blank
    played counted as a blank)."""
    last = game.rounds.exclude(status=Round.Status.CANCELLED).order_by("-number", "-attempt").first()
    board = [BLANK if is_blank(t) else t for t in game.board if t]
    rack = []
    if last is not None:
        rack = reliquat_after(last.tiles, last.placed, game.tournament.letter_set)
    return Counter([*game.bag, *rack, *board])


@pytest.fixture
def joker_game(tournament) -> Game:
    return services.game_start(tournament=tournament, seed=7, variant="joker")


# -- the joker game ---------------------------------------------------------------------------------


def test_a_joker_game_puts_a_blank_in_every_rack_and_swaps_a_played_one_for_its_letter(joker_game, players):
    game, alice = joker_game, players[0]
    assert game.variant == "joker" and game.engine_variant is Variant.JOKER
    full = Counter(game.bag)
    placed, swaps = [], []
    for number in range(1, 61):
        kept = Counter(placed[-1].placed["reliquat"]) if placed else Counter()
        available = bool(Counter(game.bag)[BLANK] or kept[BLANK])
        rnd = _draw(game, number)
        if rnd is None:
            break
        assert rnd.tiles.count(BLANK) == (1 if available else 0), rnd.rack
        bag = Counter(Game.objects.get(pk=game.pk).bag)
        rnd = services.round_place_top(round_id=_close(rnd, [(alice, _top_slip(rnd))]).pk)
        game.refresh_from_db()
        letters = []
        for (sq, tile), (_sq, played) in zip(rnd.placed["board"], rnd.placed["tiles"], strict=True):
            if tile != played:  # a blank swapped: the real letter on the board, the blank back
                assert is_blank(played) and game.board[sq] == tile == played & 0x1F
                assert BLANK in rnd.placed["reliquat"]
                letters.append(tile)
                swaps.append(number)
        assert Counter(game.bag) == bag - Counter(letters)  # the letters swapped left the bag
        placed.append(rnd)
        assert _tiles_counted(game) == full, number  # nothing lost, nothing made
        if game.status != Game.Status.PLAYING:
            break
    assert swaps, "the seed's game swaps a blank at least once"
    assert game.status == Game.Status.ENDED
    assert game.board == _board_of(placed)
    # The rack after a swap keeps the blank (unless every tile went back).
    after = placed[swaps[0]] if swaps[0] < len(placed) else None
    if after is not None and not after.rack.startswith("-"):
        assert BLANK in parse_rack(after.rack).reliquat
    ranking = standings.game_ranking(game)
    alice_line = next(line for line in ranking.lines if line.entrant.name == "Alice")
    assert alice_line.paid == sum(r.top_score for r in placed) == ranking.top
    assert alice_line.rank == 1


def test_a_swap_takes_the_letter_from_the_bag(tournament):
    """A typed joker game: the top lays the blank as a letter still in the bag; that letter leaves
    the bag for the board and the blank comes back to the next rack."""
    game = services.game_start(tournament=tournament, typed=True, variant="joker")
    with pytest.raises(services.ServiceError) as refused:
        _draw(game, 1, "AEIRSTL")  # no blank while the bag has one
    assert "joker" in refused.value.text().lower()
    rnd = _draw(game, 1, "?AEIRST")
    top = rnd.tops[0]
    laid = [(sq, t) for sq, t in top["tiles"] if is_blank(t)]
    assert laid, top  # a seven-tile bingo uses the blank
    bag_before = Counter(Game.objects.get(pk=game.pk).bag)
    rnd = services.round_place_top(round_id=_close(rnd).pk)
    game.refresh_from_db()
    ((sq, tile),) = laid
    letter = tile & 0x1F
    assert game.board[sq] == letter and not is_blank(game.board[sq])
    assert Counter(game.bag) == bag_before - Counter([letter])
    assert rnd.placed["reliquat"] == [BLANK]
    second = _draw(game, 2, "AEBCDL")
    assert second.rack.startswith("?+") and second.tiles.count(BLANK) == 1


# -- the explosive game -----------------------------------------------------------------------------


def test_an_explosive_games_random_draws_swap_a_new_blank_and_keep_every_tile(tournament, players):
    game = services.game_start(tournament=tournament, seed=11, variant="explosive")
    full = Counter(game.bag)
    exploded = 0
    for rnd in _play_out(game, players[0], last=12):
        assert rnd.tiles.count(BLANK) <= 1
        if rnd.exploded:
            exploded += 1
            rack = parse_rack(rnd.rack)
            assert BLANK not in rack.new and parse_rack(rnd.exploded).tiles[0] in rack.new
    assert exploded, "the seed's first rounds explode a blank at least once"
    assert _tiles_counted(game) == full


def test_an_explosive_rack_typed_from_a_bag_names_the_letter_to_swap(tournament, arbiter_client):
    game = services.game_start(tournament=tournament, typed=True, variant="explosive")
    bag = Counter(game.bag)
    rnd = _draw(game, 1, "?AEIRST")
    assert rnd.exploded and rnd.typed
    assert BLANK not in rnd.tiles and rnd.exploded in rnd.rack
    game.refresh_from_db()
    letter = parse_rack(rnd.exploded).tiles[0]
    assert Counter(game.bag) == bag - Counter(rnd.tiles)  # the blank back, the letter taken
    assert Counter(game.bag)[BLANK] == 2
    # The top is searched on the rack as it now is; the screen tells the arbiter what to swap.
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert f"Prenez un {rnd.exploded} dans le sac et remettez-y le joker" in page
    assert "Partie explosive" in page
    assert letter in rnd.tiles


# -- seven among eight ------------------------------------------------------------------------------


def test_seven_among_eight_draws_eight_tiles_and_shows_them_on_the_phone(tournament, players, client):
    game = services.game_start(tournament=tournament, seed=5, variant="7of8")
    rnd = _draw(game, 1)
    assert len(rnd.tiles) == 8
    assert len(parse_rack(rnd.rack, most=8).tiles) == 8
    services.round_start(round_id=rnd.pk)
    page = client.get(reverse("live:player_page", kwargs={"token": players[0].token})).content.decode()
    assert page.count('<li class="tile') == 8
    assert 'class="rack eight"' in page
    assert "7 sur 8" in page
    assert len(rnd.tops[0]["tiles"]) <= 7


def test_seven_among_eight_zeroes_a_slip_of_eight_tiles_and_pays_the_bonus_for_seven(tournament, players):
    game = services.game_start(tournament=tournament, typed=True, variant="7of8")
    rnd = _draw(game, 1, "AEEINRST")
    assert len(rnd.tiles) == 8
    top = rnd.tops[0]
    assert len(top["tiles"]) == 7
    lexicon = engine_lexicon(tournament.lexicon)
    typed = parse_word(top["word"])
    without = evaluate(
        Board(), lexicon, parse_ref(top["ref"]), list(typed.letters), rnd.tiles, played_max=7, bingo_size=8
    )
    assert rnd.top_score == without.score + 50
    alice, bruno = players[0], players[1]
    rnd = _close(rnd, [(alice, "H8 ARSENITE 54"), (bruno, _top_slip(rnd))])
    graded = {s.player.name: s for s in Submission.objects.filter(round=rnd).select_related("player")}
    assert graded["Alice"].paid == 0 and graded["Alice"].sanction == "zero"
    assert "au plus 7 lettres" in graded["Alice"].message and "(ici 8)" in graded["Alice"].message
    assert graded["Bruno"].paid == rnd.top_score
    rnd = services.round_place_top(round_id=rnd.pk)
    assert len(rnd.placed["reliquat"]) == 1
    second = _draw(game, 2, "ABCDEFG")  # seven new tiles beside the one kept
    assert len(second.tiles) == 8


def test_the_typed_racks_hint_says_eight_tiles_in_seven_among_eight(tournament, arbiter_client):
    game = services.game_start(tournament=tournament, typed=True, variant="7of8")
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert "Les huit lettres tirées" in page and 'placeholder="AEIBLRNS"' in page
    assert "7 sur 8" in page


# -- the penalty threshold --------------------------------------------------------------------------


def _warned(game: Game, player, rounds: int) -> None:
    """``rounds`` closed rounds of ``game`` in which ``player`` is paid 10 with a warning."""
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(
            game=game, number=number, status=Round.Status.CLOSED, rack="AEIBLRN", top_score=20
        )
        Submission.objects.create(
            round=rnd, player=player, word="X", received_at=datetime.datetime.now(datetime.UTC),
            paid=10, sanction="warning",
        )  # fmt: skip


def test_an_original_game_tolerates_five_warnings_and_a_classic_one_three(tournament, players):
    alice = players[0]
    classic = services.game_start(tournament=tournament, seed=1)
    joker = services.game_start(tournament=tournament, seed=2, variant="joker")
    _warned(classic, alice, 6)
    _warned(joker, alice, 6)
    assert standings.warning_threshold(tournament, classic) == 3
    assert standings.warning_threshold(tournament, joker) == 5
    lines = {g.variant: standings.game_ranking(g).lines[0] for g in (classic, joker)}
    assert (lines["classic"].warnings, lines["classic"].penalty) == (6, 15)
    assert (lines["joker"].warnings, lines["joker"].penalty) == (6, 5)
    whole = standings.tournament_ranking(tournament)
    line = whole.line_of(alice.pk)
    assert (line.warnings, line.penalty, line.total) == (12, 20, 120 - 20)
    assert [g.rules.warning_threshold for g in whole.games] == [3, 5]
    # A tournament set higher than five keeps its setting; the results file says the game's.
    assert exports._settings(joker)["warning_threshold"] == 5
    tournament.warning_threshold = 6
    tournament.save()
    assert standings.warning_threshold(tournament, joker) == 6
    # A classic game keeps a tournament's lower setting; an original game the rules' five.
    tournament.warning_threshold = 1
    tournament.save()
    assert (
        standings.warning_threshold(tournament, classic),
        standings.warning_threshold(tournament, joker),
    ) == (1, 5)


# -- the game start, the screens -------------------------------------------------------------------


def test_the_game_start_form_offers_the_variants_and_a_records_variant_wins(
    tournament, arbiter_client, joker_game, players
):
    page = arbiter_client.get(reverse("tournaments:tournament_detail", args=[tournament.pk])).content.decode()
    for code in ("classic", "joker", "explosive", "7of8"):
        assert f'value="{code}"' in page
    assert "huit lettres par tirage" in page
    assert 'variant-tag">Partie joker' in page  # the list of games names the original game
    rounds = _play_out(joker_game, players[0], last=3)
    record = exports.game_record(joker_game)
    assert record["format"] == "duplicate-game/2" and record["variant"] == "joker"
    upload = {"source": "random", "variant": "7of8", "prepared": _file(record)}
    response = arbiter_client.post(reverse("tournaments:game_start", args=[tournament.pk]), upload)
    assert response.status_code == 302
    prepared = Game.objects.order_by("-pk").first()
    assert (prepared.source, prepared.variant) == (Game.Source.PREPARED, "joker")
    replayed = _play_out(prepared)
    assert [r.rack for r in replayed] == [r.rack for r in rounds]
    assert prepared.board == _board_of(rounds)


def _file(record: dict):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("partie.json", json.dumps(record).encode(), content_type="application/json")


def test_the_game_screen_the_projector_and_the_phone_say_an_original_game(
    joker_game, players, arbiter_client, client
):
    rnd = _draw(joker_game, 1)
    screen = arbiter_client.get(reverse("live:game_detail", args=[joker_game.pk])).content.decode()
    assert "Variante" in screen and "Partie joker" in screen
    projector = arbiter_client.get(reverse("live:projector", args=[joker_game.pk])).content.decode()
    assert "Partie joker" in projector
    services.round_start(round_id=rnd.pk)
    phone = client.get(reverse("live:player_page", kwargs={"token": players[0].token})).content.decode()
    assert '<p class="variant">Partie joker</p>' in phone
    english = client.get(
        reverse("live:player_page", kwargs={"token": players[1].token}), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert '<p class="variant">Joker game</p>' in english


def test_a_classic_game_says_no_variant(game, players, arbiter_client, client):
    rnd = _draw(game, 1)
    services.round_start(round_id=rnd.pk)
    assert "Variante" not in arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    phone = client.get(reverse("live:player_page", kwargs={"token": players[0].token})).content.decode()
    assert 'class="variant"' not in phone


# -- records, files, sheets, training ----------------------------------------------------------------


def test_a_joker_games_record_file_sheet_and_training_replay_it_right(joker_game, players, arbiter):
    rounds = _play_out(joker_game, players[0], last=40)
    game = joker_game
    swapped = [r for r in rounds if r.placed["board"] != r.placed["tiles"]]
    assert swapped
    lexicon = engine_lexicon(game.tournament.lexicon)
    record = engine_record.parse(exports.game_record(game))
    assert record.variant is Variant.JOKER
    replay = engine_record.check(record, lexicon)
    assert replay.board_after(len(rounds)).cells == game.board

    # The printed sheets name the variant in their header, in every sheet language.
    header = sheets._game_header(game)
    assert header.variant == "Partie joker"
    assert (labels("fr")["variant"], "Partie joker") in header_fields(header)
    assert all(labels(lang)["variant"] for lang in ("fr", "en", "es", "ca"))
    _name, _mime, pdf = sheets.render.game_sheet(sheets.game_sheet(game))
    assert pdf.startswith(b"%PDF")

    # Training replays the record: each round's board holds the real letters of the blanks swapped.
    trained = training_games.club_game(game.pk)
    for number, rnd in enumerate(rounds, 1):
        assert trained.board_before(number).cells == _board_of(rounds[: number - 1])
        position = trained.position(number)
        assert position.played_max == 7 and sorted(position.rack) == sorted(rnd.tiles)
    # The review's boards too.
    from review.reads import boards_before

    assert boards_before(rounds)[-1] == _board_of(rounds[:-1])

    # The tournament's file carries the variant and what each top did; it goes on over there.
    club_b = Club.objects.create(name="Club B")
    document = transfer.tournament_document(game.tournament)
    assert document["games"][0]["variant"] == "joker"
    copy = transfer.tournament_import(
        data=transfer.tournament_export(game.tournament), club=club_b, user=arbiter
    )
    moved = copy.games.get()
    assert moved.variant == "joker" and moved.board == game.board
    assert [r.placed for r in moved.rounds.order_by("number")] == [r.placed for r in rounds]


def test_a_seven_among_eight_tournament_file_carries_its_eight_tile_racks(tournament, arbiter, players):
    game = services.game_start(tournament=tournament, seed=3, variant="7of8")
    _play_out(game, players[0], last=2)
    _draw(game, 3)
    club_b = Club.objects.create(name="Club B")
    copy = transfer.tournament_import(data=transfer.tournament_export(tournament), club=club_b, user=arbiter)
    moved = copy.games.get()
    assert moved.variant == "7of8"
    assert [len(r.tiles) for r in moved.rounds.order_by("number")] == [8, 8, 8]
    nxt = services.round_draw(game_id=moved.pk, expected_number=4)
    assert nxt.round.number == 3 and len(nxt.round.tiles) == 8  # round 3 is still to play there


def test_a_classic_games_file_is_as_before_and_an_older_file_imports_as_classic(game, arbiter):
    _play_out(game, last=1)
    document = transfer.tournament_document(game.tournament)
    assert "variant" not in document["games"][0]
    assert all("exploded" not in r for r in document["games"][0]["rounds"])
    club_b = Club.objects.create(name="Club B")
    copy = transfer.tournament_import(data=json.dumps(document).encode(), club=club_b, user=arbiter)
    assert copy.games.get().variant == "classic"


def test_a_prepared_events_centres_play_its_records_variant(joker_game, players, arbiter):
    from clubs.access import first_club
    from simultaneous import services as events

    _play_out(joker_game, players[0], last=2)
    record = json.dumps(exports.game_record(joker_game)).encode()
    club, lexicon = first_club(), joker_game.tournament.lexicon
    event = events.event_create(
        organiser=club, created_by=arbiter, record_file=record, name="Simultané joker",
        date=datetime.date(2026, 12, 12), kind="prepared", lexicon=lexicon, round_seconds=180,
    )  # fmt: skip
    events.centre_register(event=event, club=club)
    centre = events.event_join(event=event, club=club, created_by=arbiter)
    assert centre.game.variant == "joker"


def test_a_simultaneous_centre_following_a_lead_plays_the_leads_variant(tournament, arbiter):
    """A live event's lead starts a classic game (events carry no variant); a centre follows its
    lead's game in whatever variant that game is played."""
    lead = services.game_start(tournament=tournament, seed=4, variant="joker")
    other = services.tournament_create(
        created_by=arbiter, lexicon=tournament.lexicon, name="Centre B", date=tournament.date
    )
    follower = services.game_follow(tournament=other, lead_id=lead.pk)
    assert follower.variant == "joker"
    assert follower.prepared["variant"] == "joker" and follower.prepared["format"] == "duplicate-game/2"
