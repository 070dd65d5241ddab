"""Training alone: the games one trains on, each round graded by the FISF rules against the
position's top, the clock and its grace, topping scored in seconds with its penalty, the state in
the player's signed cookie, and no write to the database (a live room never waits for it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from engine import record as engine_record
from engine.movegen import all_plays
from lexicons.loaded import lexicon_default_row
from review.rounds import BEST_COUNT
from server.writes import ServiceError
from tournaments import services as room
from training import services, state
from training.games import club_game, file_game, keep_file, random_game

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference-games" / "game-001.json"


def _slip(play) -> str:
    return f"{play.ref} {play.word} {play.score}"


def _lesser(position, rank: int):
    """In round 1 a word is paid the best it can make (§3.4): the best placement of the word ranked
    ``rank`` by its best score (0 being the top's word)."""
    best = {}
    for play in all_plays(position):
        if play.ref.horizontal and play.score > best.get(play.word.upper(), (0,))[0]:
            best[play.word.upper()] = (play.score, play)
    return sorted(best.values(), key=lambda item: -item[0])[rank][1]


@pytest.fixture
def seeded(db):
    return services.training_start(
        source={"kind": "random", "seed": 4242}, seconds=120, topping=False, now=1000.0
    )


def test_a_random_game_is_the_same_game_for_the_same_seed_and_follows_the_rules(seeded):
    game = services.game_of(seeded)
    again = random_game(4242)
    assert [str(r.rack) for r in game.record.rounds] == [str(r.rack) for r in again.record.rounds]
    assert game.seed == 4242 and game.rounds >= 15
    # each round's move is the top of its position: nothing scores more (the exhaustive generator)
    for number in (1, 2, 5):
        best = max(p.score for p in all_plays(game.position(number)))
        assert game.plays[number - 1].score == best == services.top_score(game, number)


def test_the_top_sent_in_time_is_paid_the_top_and_the_next_round_starts(seeded):
    game = services.game_of(seeded)
    top = game.plays[0]
    services.training_slip(seeded, game, _slip(top), now=1030.0)
    assert seeded.done and seeded.results[0].paid == top.score and seeded.results[0].seconds == 30.0
    with pytest.raises(ServiceError):
        services.training_slip(seeded, game, _slip(top), now=1031.0)  # one slip a round
    services.training_next(seeded, game, now=1040.0)
    assert (seeded.number, seeded.done, seeded.started) == (2, False, 1040.0)


def test_a_lesser_move_is_paid_its_score_and_a_wrong_claim_is_a_warning(seeded):
    game = services.game_of(seeded)
    lesser = _lesser(game.position(1), 3)
    services.training_slip(seeded, game, f"{lesser.ref} {lesser.word} {lesser.score + 1}", now=1010.0)
    result = seeded.results[0]
    assert (result.paid, result.sanction) == (lesser.score, "warning")
    said = services.result_message(game, seeded, 1).text("fr")
    assert "avertissement" in said.lower()


def test_the_clock_ends_the_round_after_its_grace(seeded):
    game = services.game_of(seeded)
    top = _slip(game.plays[0])
    inside = services.training_start(source=seeded.source, seconds=120, topping=False, now=1000.0)
    services.training_slip(inside, game, top, now=1000.0 + 120 + services.GRACE_SECONDS - 0.5)
    assert inside.results[0].paid == game.plays[0].score  # inside the grace: counted
    services.training_slip(seeded, game, top, now=1000.0 + 120 + services.GRACE_SECONDS + 0.5)
    assert seeded.results[0].paid == 0 and seeded.results[0].late
    assert (
        services.result_message(game, seeded, 1).text("en")
        == "Time is up: the slip arrived after the round ended."
    )


def test_untimed_has_no_clock(db):
    untimed = services.training_start(
        source={"kind": "random", "seed": 4242}, seconds=0, topping=False, now=0.0
    )
    game = services.game_of(untimed)
    assert services.remaining(untimed, 10**6) is None and not services.time_up(untimed, 10**6)
    services.training_slip(untimed, game, _slip(game.plays[0]), now=10**6)
    assert untimed.results[0].paid == game.plays[0].score


def test_topping_ends_when_the_top_is_found_and_scores_the_seconds(db):
    topping = services.training_start(
        source={"kind": "random", "seed": 4242}, seconds=60, topping=True, now=0.0
    )
    game = services.game_of(topping)
    lesser = _lesser(game.position(1), 5)
    services.training_slip(topping, game, _slip(lesser), now=12.0)
    assert not topping.done and topping.tries == 1 and topping.last_paid == lesser.score
    services.training_slip(topping, game, _slip(game.plays[0]), now=25.5)
    assert topping.done and topping.results[0].seconds == 25.5 and not topping.results[0].missed
    services.training_next(topping, game, now=30.0)
    services.training_slip(topping, game, "H8 ZZZ 3", now=30.0 + 60 + services.GRACE_SECONDS + 1)
    missed = topping.results[1]
    assert missed.missed and missed.seconds == 60 + services.TOPPING_PENALTY and missed.paid == 0
    summary = services.summary(game, topping)
    assert summary.seconds == 25.5 + 60 + services.TOPPING_PENALTY and summary.topped == 1
    assert "pénalité" in services.result_message(game, topping, 2).text("fr")


def test_giving_up_untimed_topping_counts_the_time_spent_and_the_penalty(db):
    topping = services.training_start(
        source={"kind": "random", "seed": 4242}, seconds=0, topping=True, now=0.0
    )
    game = services.game_of(topping)
    services.training_give_up(topping, game, now=41.0)
    assert topping.results[0].seconds == 41.0 + services.TOPPING_PENALTY and topping.results[0].missed


def test_a_club_game_is_trained_on_once_it_is_over(game, players):
    rnd = room.round_draw(game_id=game.pk, expected_number=1).round
    room.round_start(round_id=rnd.pk)
    room.round_close(round_id=rnd.pk)
    room.round_place_top(round_id=rnd.pk)
    with pytest.raises(ServiceError) as refused:
        club_game(game.pk)
    assert refused.value.message.code == "training_game_not_over"
    room.game_end(game_id=game.pk)
    trained = club_game(game.pk)
    rnd.refresh_from_db()
    assert trained.rounds == 1 and str(trained.rack(1)) == rnd.rack
    assert trained.plays[0].score == rnd.placed["score"]


def test_a_prepared_file_is_replayed_and_a_bad_one_refused_with_its_reason(db):
    trained = file_game(REFERENCE.read_bytes())
    assert trained.rounds == len(engine_record.parse(REFERENCE.read_bytes()).rounds)
    best = services.best_of(trained, 3)
    assert len(best) >= BEST_COUNT and best[0].score == trained.plays[2].score
    with pytest.raises(ServiceError) as refused:
        file_game(b'{"format": "duplicate-game/1", "rounds": [')
    assert refused.value.message.text("fr").startswith("Partie préparée refusée :")


def test_the_state_is_signed_and_a_forged_or_foreign_cookie_is_no_state(seeded):
    value = state.dumps(seeded)
    assert state.loads(value) == seeded
    assert state.loads(value[:-2] + "xx") is None
    assert state.loads("not a cookie") is None
    from django.core import signing

    other = signing.dumps({"source": {}, "seconds": 0}, salt="another.salt", compress=True)
    assert state.loads(other) is None


# -- the pages --------------------------------------------------------------------------------------


def test_a_whole_round_on_the_pages_writes_nothing_to_the_database(client, db):
    url = reverse("training:home")
    lexicon_default_row()  # the shipped list's row, made once by the first start of the server
    with CaptureQueriesContext(connection) as queries:
        start = client.post(url, {"source": "random", "seed": "4242", "seconds": "60"})
        assert start.status_code == 302 and state.COOKIE in start.cookies
        page = client.get(reverse("training:round")).content.decode()
        game = random_game(4242)
        assert "Coup 1 sur" in page and 'class="clock"' in page
        typed = "".join(f"{c.upper()}?" if c.islower() else c.lower() for c in _slip(game.plays[0]))
        sent = client.post(reverse("training:slip"), {"slip": typed})  # any case; a joker as "A?"
        assert sent.status_code == 302
        after = client.get(reverse("training:round")).content.decode()
        assert "meilleurs placements" in after and "top placé" in after and "votre coup" in after
        client.post(reverse("training:next"))
        assert "Coup 2 sur" in client.get(reverse("training:round")).content.decode()
        end = client.get(reverse("training:end")).content.decode()
        assert f'data-total="{game.plays[0].score}"' in end and 'data-percent="100.00"' in end
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].split()[0].upper() in ("INSERT", "UPDATE", "DELETE")
    ]
    assert writes == []


def test_bad_input_is_a_sentence_not_an_error(client, db):
    url = reverse("training:home")
    bad = client.post(url, {"source": "file", "seconds": "60", "record": _upload(b"\x1f\x8b junk")})
    assert bad.status_code == 200 and "Partie préparée refusée" in bad.content.decode()
    assert (
        client.post(url, {"source": "club", "game": "99999999999999999999", "seconds": "60"}).status_code
        == 200
    )
    assert client.post(url, {"source": "random", "seed": "-5", "seconds": "7"}).status_code == 200
    nothing = client.get(reverse("training:round"))
    assert nothing.status_code == 200 and "Aucun entraînement en cours" in nothing.content.decode()
    client.cookies[state.COOKIE] = "forged"
    assert client.post(reverse("training:slip"), {"slip": "H8 A 1"}).status_code == 200


def _upload(data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("partie.json", data, content_type="application/json")


def test_training_can_be_closed_to_the_clubs_accounts(db, settings, arbiter):
    settings.TRAINING_OPEN = False
    anonymous = Client()
    assert anonymous.get(reverse("training:home")).status_code == 302
    member = Client()
    member.force_login(arbiter)
    assert member.get(reverse("training:home")).status_code == 200


def test_a_whole_file_game_of_the_longest_slips_fits_in_the_cookie(db):
    import random

    record = engine_record.to_dict(engine_record.parse(REFERENCE.read_bytes()))
    kept = services.training_start(
        source={"kind": "file", "record": keep_file(record)}, seconds=0, topping=False, now=0.0
    )
    game = services.game_of(kept)
    noise = random.Random(7)
    for number in range(1, game.rounds + 1):
        junk = "".join(noise.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?") for _ in range(80))
        services.training_slip(kept, game, junk, now=float(number))
        if number < game.rounds:
            services.training_next(kept, game, now=float(number))
    assert len(kept.results) == game.rounds
    assert len(state.dumps(kept)) <= state.MAX_BYTES
    assert state.loads(state.dumps(kept)) == kept


def test_a_file_game_forgotten_by_the_server_is_said_not_an_error(client, db):
    client.post(
        reverse("training:home"),
        {"source": "file", "seconds": "60", "record": _upload(REFERENCE.read_bytes())},
    )
    from training import worker

    worker.store().clear()
    page = client.get(reverse("training:round"))
    assert page.status_code == 200 and "plus disponible" in page.content.decode()


@pytest.mark.slow
def test_a_random_game_in_spanish_plays_its_set_and_shows_two_letter_tiles(client, db):
    """Training with the Spanish shipped list: the game drawn by the Spanish bag, its record in the
    set, each round's move the top, the rack's two-letter tiles one tile each on the page."""
    from engine.alphabet import char

    row = lexicon_default_row("es")
    game = random_game(777, row)
    assert game.lexicon.letters.code == "es" and engine_record.to_dict(game.record)["letters"] == "es"
    for number in (1, 2):
        assert game.plays[number - 1].score == max(p.score for p in all_plays(game.position(number)))
    start = client.post(
        reverse("training:home"), {"source": "random", "seed": "777", "seconds": "60", "lexicon": row.pk}
    )
    assert start.status_code == 302
    page = client.get(reverse("training:round")).content.decode()
    letters = game.lexicon.letters
    for tile in game.rack(1).tiles:
        name = char(tile, letters)
        if name != "?":
            assert f">{name}<sub>{letters.values[tile]}</sub>" in page
            assert (f'class="tile w2">{name}' in page) == (len(name) > 1)
