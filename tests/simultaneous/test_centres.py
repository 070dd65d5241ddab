"""The organiser registers the event's centres, each playing live on the server or offline on its
laptop, and sees and withdraws each centre and each file it sent; only a registered club joins or
sends.  The overall ranking is on the rounds the centres up to date have closed (the rules' §4 and
§5: one ranking needs the same tops for everyone): a short file or a centre behind does not cut it
for everyone, a centre that joined and never played holds nothing back, and the page says who is
behind and who has not started."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from clubs.models import Club, Member, Role
from lexicons.loaded import lexicon_default_row
from live import services as live_services
from results import exports
from server.writes import ServiceError
from simultaneous import services as events
from simultaneous.models import Centre, Event, Registration, Upload
from simultaneous.reads import overall_rounds
from tests.simultaneous.laptop import laptop_game
from tournaments import services
from tournaments.models import Game, Round, Tournament

pytestmark = pytest.mark.clubs

GAMES = Path(__file__).resolve().parents[1] / "data" / "reference-games"
LIVE, OFFLINE = Registration.Mode.LIVE, Registration.Mode.OFFLINE


def _club(name: str, role: str = Role.ARBITER) -> tuple[Club, User]:
    club = Club.objects.create(name=name)
    user = User.objects.create_user(f"arbitre-{name.lower()}", password="x-secret-123")
    Member.objects.create(club=club, user=user, role=role)
    return club, user


def _event(organiser: Club, arbiter: User, kind: str = Event.Kind.PREPARED) -> Event:
    return events.event_create(
        organiser=organiser, created_by=arbiter, name="Coupe de novembre", date=datetime.date(2026, 11, 28),
        kind=kind, lexicon=lexicon_default_row(), round_seconds=180,
        record_file=(GAMES / "game-001.json").read_bytes() if kind == Event.Kind.PREPARED else None,
    )  # fmt: skip


def _play(centre: Centre, rounds: int, names: tuple[str, ...]) -> None:
    """``names`` registered in the centre's room; ``rounds`` rounds played, the first name playing
    each top."""
    players = [services.player_register(tournament=centre.tournament, name=n) for n in names]
    for number in range(1, rounds + 1):
        rnd = services.round_draw(game_id=centre.game_id, expected_number=number).round
        if rnd.top_state != Round.TopState.READY:
            services.round_compute_top(round_id=rnd.pk)
        rnd = services.round_start(round_id=rnd.pk)
        top = rnd.tops[0]
        live_services.submission_record(
            player=players[0], round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score']}"
        )
        services.round_close(round_id=rnd.pk)
        services.round_place_top(round_id=rnd.pk)


def _send(client, event: Event, club: Club, arbiter: User, rounds: int):
    """``club`` played ``rounds`` rounds on its laptop (Émile, Fanny) and sends its results file."""
    data = exports.results_export(laptop_game(club, arbiter, (GAMES / "game-001.json").read_bytes(), rounds))
    return client.post(
        f"/simultane/{event.public_key}/envoi/", data, content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {club.upload_token}",
    )  # fmt: skip


def _overall(client, event: Event) -> tuple[str, str]:
    """The public page: its overall section, and the whole page."""
    html = client.get(f"/simultane/{event.public_key}/").content.decode()
    start = html.index("Classement général sur")
    return html[start : html.index("</section>", start)], html


def test_the_organiser_registers_and_withdraws_centres_and_files_and_the_public_page_follows(client, db):
    vichy, arbiter_v = _club("Vichy")
    moulins, arbiter_m = _club("Moulins")
    montlucon, arbiter_l = _club("Montluçon")
    riom, arbiter_r = _club("Riom")
    event = _event(vichy, arbiter_v)
    client.force_login(arbiter_v)
    for club, mode in ((vichy, LIVE), (moulins, LIVE), (montlucon, OFFLINE)):
        answer = client.post(f"/simultanes/{event.pk}/centres/", {"club": club.pk, "mode": mode})
        assert answer.status_code == 302, answer
    assert set(event.registrations.values_list("club__name", "mode")) == {
        ("Vichy", LIVE), ("Moulins", LIVE), ("Montluçon", OFFLINE)
    }  # fmt: skip
    page = client.get(f"/simultanes/{event.pk}/").content.decode()
    assert page.count("pas encore rejoint") == 2 and "aucun fichier reçu" in page

    # A club not registered sees no such event and cannot join it; a registered one joins.
    client.force_login(arbiter_r)
    assert "Coupe de novembre" not in client.get("/simultanes/").content.decode()
    assert client.post(f"/simultanes/{event.pk}/rejoindre/").status_code == 404
    with pytest.raises(ServiceError) as refused:
        events.event_join(event=event, club=riom, created_by=arbiter_r)
    assert refused.value.message.code == "event_not_registered"
    for arbiter in (arbiter_m, arbiter_v):
        client.force_login(arbiter)
        assert "Jouer comme centre" in client.get("/simultanes/").content.decode()
        assert client.post(f"/simultanes/{event.pk}/rejoindre/").status_code == 302
        assert "Jouer comme centre" not in client.get("/simultanes/").content.decode()
    # An offline centre joins no room: it sends its file.
    client.force_login(arbiter_l)
    assert client.post(f"/simultanes/{event.pk}/rejoindre/").status_code == 403
    centres = {c.club_id: c for c in Centre.objects.select_related("tournament")}
    _play(centres[vichy.pk], 2, ("Alice",))
    _play(centres[moulins.pk], 2, ("Chloé",))
    assert _send(client, event, montlucon, arbiter_l, rounds=2).status_code == 200

    overall, _html = _overall(client, event)
    assert "Classement général sur 2 coups" in overall
    for name in ("Alice", "Chloé", "Émile", "Fanny"):
        assert name in overall
    client.force_login(arbiter_v)
    page = client.get(f"/simultanes/{event.pk}/").content.decode()
    assert "2 joueurs, 2 coups" in page and page.count("dans le général") == 3

    # The organiser withdraws Montluçon's file, then the centre Moulins.
    upload = Upload.objects.get()
    assert client.post(f"/simultanes/{event.pk}/envois/{upload.pk}/retirer/").status_code == 302
    overall, html = _overall(client, event)
    assert "Émile" not in html and "Alice" in overall and "Chloé" in overall
    moulins_reg = Registration.objects.get(club=moulins)
    assert client.post(f"/simultanes/{event.pk}/centres/{moulins_reg.pk}/retirer/").status_code == 302
    overall, html = _overall(client, event)
    assert "Chloé" not in html and "Moulins" not in html and "Alice" in overall
    page = client.get(f"/simultanes/{event.pk}/").content.decode()
    assert "centre retiré le" in page and "retiré le" in page.split("Montluçon", 1)[1]
    # Its room and game stay Moulins'; its arbiter no longer joins, but the room is theirs.
    assert Tournament.objects.get(pk=centres[moulins.pk].tournament_id).owner == moulins
    client.force_login(arbiter_m)
    assert client.get(f"/tournois/{centres[moulins.pk].tournament_id}/").status_code == 200
    assert client.post(f"/simultanes/{event.pk}/rejoindre/").status_code == 403
    # Montluçon sends again: its new file counts.  Moulins registered again counts again.
    assert _send(client, event, montlucon, arbiter_l, rounds=2).status_code == 200
    events.centre_register(event=event, club=moulins, mode=LIVE)
    overall, _html = _overall(client, event)
    assert "Émile" in overall and "Chloé" in overall


def test_only_the_organisers_arbiters_register_and_withdraw_centres(client, db):
    vichy, arbiter_v = _club("Vichy")
    moulins, arbiter_m = _club("Moulins")
    _riom, arbiter_r = _club("Riom")
    deputy = User.objects.create_user("adjoint-vichy", password="x-secret-123")
    Member.objects.create(club=vichy, user=deputy, role=Role.DEPUTY)
    event = _event(vichy, arbiter_v, Event.Kind.LIVE)
    registration = events.centre_register(event=event, club=moulins)
    events.event_join(event=event, club=moulins, created_by=arbiter_m)
    lead = Registration.objects.get(event=event, club=vichy)
    upload = Upload.objects.create(event=event, club=moulins, data="{}")
    before = list(Registration.objects.values_list("pk", "mode", "withdrawn_at"))
    posts = (
        (f"/simultanes/{event.pk}/centres/", {"club": _riom.pk, "mode": LIVE}),
        (f"/simultanes/{event.pk}/centres/{registration.pk}/retirer/", {}),
        (f"/simultanes/{event.pk}/envois/{upload.pk}/retirer/", {}),
    )
    for user, status in ((arbiter_m, 403), (deputy, 403), (arbiter_r, 404)):
        client.force_login(user)
        for url, data in posts:
            assert client.post(url, data).status_code == status, (user, url)
    client.logout()
    assert client.post(posts[0][0], posts[0][1]).status_code == 302  # to the login page
    assert list(Registration.objects.values_list("pk", "mode", "withdrawn_at")) == before
    assert Upload.objects.get().withdrawn_at is None
    # The centres' page shows Moulins' arbiter no button of the organiser's.
    client.force_login(arbiter_m)
    page = client.get(f"/simultanes/{event.pk}/").content.decode()
    assert "Retirer" not in page and "Inscrire le centre" not in page
    # The lead centre draws everyone's racks: it stays.
    client.force_login(arbiter_v)
    page = client.get(f"/simultanes/{event.pk}/").content.decode()
    assert "Retirer le centre Moulins" in page and "Retirer le centre Vichy" not in page
    client.post(f"/simultanes/{event.pk}/centres/{lead.pk}/retirer/")
    assert Registration.objects.get(pk=lead.pk).withdrawn_at is None
    with pytest.raises(ServiceError):
        events.centre_register(event=event, club=vichy, mode=OFFLINE)
    # Another event's centre or file is not this event's.
    other = _event(vichy, arbiter_v)
    assert client.post(f"/simultanes/{other.pk}/centres/{registration.pk}/retirer/").status_code == 302
    assert Registration.objects.get(pk=registration.pk).withdrawn_at is None
    # A made-up club or mode is refused with its reason.
    answer = client.post(f"/simultanes/{event.pk}/centres/", {"club": "99999999", "mode": "x"}, follow=True)
    assert answer.status_code == 200 and Registration.objects.count() == 2


def test_a_short_file_does_not_cut_the_overall_and_a_centre_not_started_holds_nothing_back(client, db):
    vichy, arbiter_v = _club("Vichy")
    moulins, arbiter_m = _club("Moulins")
    riom, arbiter_r = _club("Riom")
    montlucon, arbiter_l = _club("Montluçon")
    event = _event(vichy, arbiter_v)
    centres = {}
    for club, arbiter in ((vichy, arbiter_v), (moulins, arbiter_m), (riom, arbiter_r)):
        events.centre_register(event=event, club=club, mode=LIVE)
        centres[club.name] = events.event_join(event=event, club=club, created_by=arbiter)
    events.centre_register(event=event, club=montlucon, mode=OFFLINE)
    _play(centres["Vichy"], 3, ("Alice", "Bruno"))
    _play(centres["Moulins"], 3, ("Chloé", "Denis"))
    services.player_register(tournament=centres["Riom"].tournament, name="Gilles")  # joined, never played
    assert _send(client, event, montlucon, arbiter_l, rounds=1).status_code == 200

    overall, html = _overall(client, event)
    assert "Classement général sur 3 coups" in overall
    for name in ("Alice", "Bruno", "Chloé", "Denis"):
        assert name in overall
    assert "Émile" not in overall and "Gilles" not in overall
    assert "Montluçon (1 coup)" in overall and "Pas commencé : Riom." in overall
    # Montluçon's players are in its own table, on its one round; Riom has no table.
    assert "<h2>Montluçon — 1 coup · en retard</h2>" in html and "Émile" in html
    assert "<h2>Riom" not in html
    # Its results catch up: it joins the overall on the three rounds.
    assert _send(client, event, montlucon, arbiter_l, rounds=3).status_code == 200
    overall, _html = _overall(client, event)
    assert "Classement général sur 3 coups" in overall and "Émile" in overall and "en retard" not in overall
    # Vichy ends its game early: the organiser's page says so.
    services.game_end(game_id=centres["Vichy"].game_id)
    client.force_login(arbiter_v)
    assert "partie terminée" in client.get(f"/simultanes/{event.pk}/").content.decode()
    assert Game.objects.get(pk=centres["Vichy"].game_id).status == Game.Status.ENDED


@pytest.mark.parametrize(
    ("played", "overall"),
    [
        ([], 0),
        ([0, 0], 0),
        ([5], 5),
        ([5, 1], 5),  # a short centre cuts nothing
        ([5, 0, 0], 5),  # nor do centres that have not started
        ([5, 4, 4], 4),  # one centre ahead holds nobody out
        ([5, 5, 1], 5),
        ([20, 4, 4, 3], 4),
    ],
)
def test_the_overall_is_on_the_rounds_at_least_half_the_centres_in_play_have_closed(played, overall):
    assert overall_rounds(played) == overall
