"""Stopping a training: "Arrêter l'entraînement" asks first, then shows the summary and the review
of the rounds played; the game can still be taken up again, and only a new training forgets it."""

from __future__ import annotations

from django.urls import reverse

from lexicons.loaded import lexicon_default_row
from training import state
from training.games import random_game

SEED = 4242


def _played_two_rounds(client):
    lexicon_default_row()
    client.post(reverse("training:home"), {"source": "random", "seed": str(SEED), "seconds": "60"})
    game = random_game(SEED)
    for play in game.plays[:2]:
        client.post(reverse("training:slip"), {"slip": f"{play.ref} {play.word} {play.score}"})
        client.post(reverse("training:next"))
    round_page = client.get(reverse("training:round")).content.decode()
    assert "Coup 3 sur" in round_page
    return game, round_page


def test_stopping_asks_first_then_shows_the_summary_and_the_review_of_the_rounds_played(client, db):
    game, round_page = _played_two_rounds(client)
    stop = reverse("training:quit")
    assert f'href="{stop}"' in round_page  # "Arrêter" opens the question, it forgets nothing yet

    asked = client.get(stop)
    assert asked.status_code == 200
    question = asked.content.decode()
    assert "Arrêter l'entraînement ?" in question and "Vous avez joué 2 coups" in question
    assert f'href="{reverse("training:end")}"' in question
    assert f'href="{reverse("training:round")}"' in question
    assert state.COOKIE not in asked.cookies  # the state is kept as it was

    end = client.get(reverse("training:end")).content.decode()
    total = game.plays[0].score + game.plays[1].score
    assert f'data-total="{total}"' in end and 'data-percent="100.00"' in end
    for number in (1, 2):  # each round played opens its review
        review = reverse("training:review", args=[number])
        assert f'href="{review}"' in end
        assert "meilleurs placements" in client.get(review).content.decode()
    assert f'href="{reverse("training:review", args=[3])}"' not in end
    assert "Reprendre la partie" in end
    assert "Coup 3 sur" in client.get(reverse("training:round")).content.decode()  # taken up again
    forget = client.post(stop)  # "Nouvel entraînement" on the summary: this one is forgotten
    assert forget["Location"] == reverse("training:home") and forget.cookies[state.COOKIE].value == ""


def test_stopping_without_a_training_goes_to_the_start(client, db):
    assert client.get(reverse("training:quit"))["Location"] == reverse("training:home")
