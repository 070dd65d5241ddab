"""Scripts the resume tests run in processes of their own (each its own ``ARBITER_VAR_DIR``):

``python -m tests.server.evening play RECORD ROUNDS``: an evening played on a fresh laptop (a club,
its arbiter, a tournament of two players, ROUNDS rounds placed from the prepared record, then one more
round running with a slip in it); ``python -m tests.server.evening count``: what the database holds;
``python -m tests.server.evening go_on``: the running round closed, placed, and the next one drawn
and searched (the word list must be there to find its top); ``python -m tests.server.evening
printed``: every sheet the arbiter's pages print, as text; ``python -m tests.server.evening join``:
where each player's join code, typed on ``/moi/``, leads; ``python -m tests.server.evening refusals
COPY...``: each copy resumed in turn, what it was answered and the state of ``var/`` after.

The hall whose laptop dies (``tests/e2e/test_laptop_dies.py``): ``hall RECORD`` (on a served laptop or
a fresh ``var/``) a tournament of three players on the shipped list replaying RECORD, its round 1 drawn
and started on a long clock; ``slips``: the running round's slips; ``time_up``: the running round's
clock run out (its start and deadline moved back past the grace window; the next poll closes it);
``papers``: the evening's results and sheets as printed (ranking, game sheet, score cards);
``uninterrupted RECORD SLIPS``: the same evening never interrupted (SLIPS as JSON, name -> slip as
typed), round 1 closed and placed, round 2 drawn, and its papers."""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path


def play(record: str, rounds: str) -> dict:
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from clubs.models import Club, Member, Role
    from live import services as live_services
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
    # Its deadline an hour away: the round still runs when the copy is resumed, however slow the
    # machine (``time_up`` ends it when a test asks).
    Round.objects.filter(pk=rnd.pk).update(deadline=rnd.deadline + datetime.timedelta(hours=1))
    top = rnd.tops[0]
    player = Player.objects.filter(tournament=game.tournament).order_by("pk").first()
    live_services.submission_record(
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


def printed() -> dict:
    """Every printout the tournament's pages offer, asked for by the arbiter's browser, and what each
    PDF says, laid out as printed (the moment it was printed left out); the pages that answered a
    server error."""
    import re

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from results.models import Printout
    from tests.results.walk import Walk, pdf_text
    from tournaments.models import Tournament

    settings.PRINTOUTS_IN_THREAD = False
    tournament = Tournament.objects.get()
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.get(username="arbitre"))
    Printout.objects.filter(tournament=tournament).delete()
    walk = Walk(client, tournament)
    walk.tournament(tournament)
    sheets = {}
    for printout in Printout.objects.filter(tournament=tournament).select_related("game").order_by("pk"):
        done = printout.status == Printout.Status.DONE
        text = pdf_text(bytes(printout.pdf), layout=True) if done else printout.error
        name = f"{printout.kind} {printout.game.number if printout.game else ''}".strip()
        sheets[name] = re.sub(r"Imprimé le : \S+ à \S+", "Imprimé le : …", text)
    return {"errors": walk.errors(), "sheets": sheets}


def join() -> dict:
    from django.test import Client

    from tournaments.models import Player

    typed = {p.name: p.join_code_shown.lower() for p in Player.objects.all()}
    return {name: Client().post("/moi/", {"code": code})["Location"] for name, code in typed.items()}


#: The hall's players, by table; the arbiter's password on every laptop of the evening.
HALL = ("Alice", "Bruno", "Chloé")
HALL_PASSWORD = "x-secret-123"
#: The longest round the form offers: the laptop dies and the second one starts within it.
HALL_ROUND_SECONDS = 180


def hall(record: str) -> dict:
    import datetime

    from django.contrib.auth.models import User
    from django.core.management import call_command

    from lexicons.loaded import lexicon_default_row
    from tournaments import services
    from tournaments.models import Round

    call_command("migrate", verbosity=0)
    arbiter = User.objects.filter(username="arbitre").first()
    if arbiter is None:
        arbiter = User.objects.create_superuser("arbitre", password=HALL_PASSWORD)
    arbiter.set_password(HALL_PASSWORD)  # a served laptop made it with a password of its own
    arbiter.save()
    tournament = services.tournament_create(
        created_by=arbiter, lexicon=lexicon_default_row(), name="Soirée du club",
        date=datetime.date(2026, 11, 26), round_seconds=HALL_ROUND_SECONDS,
    )  # fmt: skip
    players = [services.player_register(tournament=tournament, name=name) for name in HALL]
    game = services.game_start(tournament=tournament, prepared=Path(record).read_bytes())
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    if rnd.top_state != Round.TopState.READY:
        services.round_compute_top(round_id=rnd.pk)
    rnd = services.round_start(round_id=rnd.pk)
    return {
        "game": game.pk,
        "rack": rnd.rack,
        "players": {p.name: {"token": p.token, "code": p.join_code_shown, "table": p.table_number}
                    for p in players},
    }  # fmt: skip


def slips() -> dict:
    from tournaments.models import Round, Submission

    rnd = Round.objects.order_by("-pk").first()
    held = Submission.objects.filter(round=rnd).select_related("player")
    return {"round": [rnd.number, rnd.status], "slips": {s.player.name: s.slip_text() for s in held}}


def time_up() -> dict:
    import datetime

    from django.utils import timezone

    from tournaments.models import Round

    rnd = Round.objects.select_related("game__tournament").get(status=Round.Status.RUNNING)
    past = timezone.now() - datetime.timedelta(seconds=rnd.game.tournament.grace_seconds + 1)
    # The clock moved back whole: the round was played at its time per round, as the sheets print.
    played = datetime.timedelta(seconds=rnd.game.tournament.round_seconds)
    Round.objects.filter(pk=rnd.pk).update(deadline=past, started_at=past - played)
    return {"round": rnd.number}


def _plain(value):
    """A sheet's dataclasses as JSON, the moment it was printed left out."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if k != "generated_at"}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value if value is None or isinstance(value, bool | int | float | str) else str(value)


def papers() -> dict:
    import dataclasses

    from results.sheets import evening_papers
    from tournaments.models import Round, Tournament

    ranking, games = evening_papers(Tournament.objects.get())
    return {
        "rounds": [list(r) for r in Round.objects.order_by("pk").values_list("number", "status", "rack")],
        "ranking": _plain(dataclasses.asdict(ranking)),
        "games": _plain([dataclasses.asdict(game) for game in games]),
    }


def uninterrupted(record: str, typed: str) -> dict:
    from live import services as live_services
    from tournaments import services
    from tournaments.models import Player, Round

    hall(record)
    rnd = Round.objects.get(status=Round.Status.RUNNING)
    for name, text in json.loads(typed).items():
        live_services.submission_record(player=Player.objects.get(name=name), round_id=rnd.pk, text=text)
    services.round_close(round_id=rnd.pk)
    services.round_place_top(round_id=rnd.pk)
    services.round_draw(game_id=rnd.game_id, expected_number=2)
    return papers()


def claims() -> dict:
    """The slips phones tried to send while the server did not answer: the arbiter's to decide."""
    from tournaments.models import Submission, TriedSlip

    tried = TriedSlip.objects.select_related("player").order_by("pk")
    return {
        "claims": [[t.player.name, t.text, t.status] for t in tried],
        "slips": sorted(s.player.name for s in Submission.objects.select_related("player")),
    }


def var_digest(var: Path) -> str:
    """Every file under ``var`` (name and bytes), as one digest: what a refused resume leaves alone."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(p for p in Path(var).rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(var)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def refusals(*copies: str) -> list[dict]:
    """Each copy resumed in turn (``manage.py resume``'s service): its refusal in French and English
    (None when it was resumed), and the digest of ``var/`` just after."""
    from django.conf import settings

    from server.restore import resume_evening
    from server.writes import ServiceError

    said = []
    for copy in copies:
        try:
            resume_evening(Path(copy))
            refusal = None
        except ServiceError as error:
            refusal = {"fr": error.message.text("fr"), "en": error.message.text("en")}
        said.append({"copy": copy, "refusal": refusal, "var": var_digest(settings.VAR_DIR)})
    return said


if __name__ == "__main__":
    import django

    django.setup()
    action, *arguments = sys.argv[1:]
    actions = {"play": play, "count": count, "go_on": go_on, "join": join, "hall": hall, "slips": slips,
               "time_up": time_up, "papers": papers, "uninterrupted": uninterrupted,
               "claims": claims, "refusals": refusals, "printed": printed}  # fmt: skip
    print(json.dumps(actions[action](*arguments)))
