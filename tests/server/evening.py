"""Scripts the resume tests run in processes of their own (each its own ``ARBITER_VAR_DIR``):

``python -m tests.server.evening play RECORD ROUNDS``: an evening played on a fresh laptop (a club,
its arbiter, a tournament of two players, ROUNDS rounds placed from the prepared record, then one more
round running with a slip in it); ``python -m tests.server.evening count``: what the database holds;
``python -m tests.server.evening go_on``: the running round closed, placed, and the next one drawn
and searched (the word list must be there to find its top); ``python -m tests.server.evening join``:
where each player's join code, typed on ``/moi/``, leads."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def play(record: str, rounds: str) -> dict:
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from clubs.models import Club, Member, Role
    from tests.simultaneous.laptop import laptop_game
    from tournaments import services
    from tournaments.models import Player, Round

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Montluçon")
    arbiter = User.objects.create_superuser("arbitre", password="x-secret-123")
    Member.objects.create(club=club, user=arbiter, role=Role.ARBITER)
    game = laptop_game(club, arbiter, Path(record).read_bytes(), rounds=int(rounds))
    rnd = services.round_draw(game_id=game.pk, expected_number=int(rounds) + 1).round
    if rnd.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=rnd.pk)
    rnd = services.round_start(round_id=rnd.pk)
    top = rnd.tops[0]
    player = Player.objects.filter(tournament=game.tournament).order_by("pk").first()
    services.submission_record(
        player=player, round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score']}"
    )
    return count()


def count() -> dict:
    from django.contrib.auth.models import User

    from tournaments.models import Game, Player, Round, Submission, Tournament

    return {
        "tournaments": Tournament.objects.count(),
        "players": sorted(Player.objects.values_list("name", flat=True)),
        "join_codes": sorted(Player.objects.values_list("name", "join_code", "token")),
        "games": Game.objects.count(),
        "rounds": sorted(Round.objects.values_list("number", "status")),
        "submissions": Submission.objects.count(),
        "users": sorted(User.objects.values_list("username", flat=True)),
        "password_kept": User.objects.get(username="arbitre").check_password("x-secret-123"),
    }


def go_on() -> dict:
    from tournaments import services
    from tournaments.models import Round

    rnd = Round.objects.get(status=Round.Status.RUNNING)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    following = services.round_draw(game_id=rnd.game_id, expected_number=rnd.number + 1).round
    if following.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=following.pk)
    following = Round.objects.get(pk=following.pk)
    return {"placed": rnd.number, "next": following.number, "top": following.tops[0]["word"]}


def join() -> dict:
    from django.test import Client

    from tournaments.models import Player

    typed = {p.name: p.join_code_shown.lower() for p in Player.objects.all()}
    return {name: Client().post("/moi/", {"code": code})["Location"] for name, code in typed.items()}


if __name__ == "__main__":
    import django

    django.setup()
    action, *arguments = sys.argv[1:]
    print(json.dumps({"play": play, "count": count, "go_on": go_on, "join": join}[action](*arguments)))
