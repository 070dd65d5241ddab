"""A tournament in another letter set (``../shared/rules/letters.md``): its word list read in that set,
a rack typed with a two-letter tile in brackets, a phone's slip ``H8 CHAO`` read as the tiles CH A O
and graded, and the tile shown as one square on the board and the phone."""

from __future__ import annotations

import datetime
import gzip
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from clubs.models import Club
from engine.lettersets import SPANISH
from lexicons.files import lexicon_file
from lexicons.loaded import engine_lexicon, lexicon_default_row
from lexicons.services import lexicon_upload
from live import announce, broadcast, phone
from live import services as live_services
from live.phone import slip_text, typed_slip
from live.templatetags.rows import jokers_marked
from results import exports, transfer
from server.writes import ServiceError
from tournaments import services
from tournaments.boards import board_cells
from tournaments.models import Player, Round, Submission, Tournament
from tournaments.templatetags.racks import tiles_plain

#: A few Spanish words (two with the CH tile, one with LL, one with Ñ) and one the set cannot spell.
WORDS = "chao\ncoche\nllama\nperro\naño\nmola\npelo\nlema\nkiwi\n"


@pytest.fixture
def spanish_list(db):
    return lexicon_upload(name="es-prueba", data=WORDS.encode(), letters="es")


@pytest.fixture
def torneo(arbiter, spanish_list):
    return services.tournament_create(
        created_by=arbiter, lexicon=spanish_list, letters="es", name="Torneo", date=datetime.date(2027, 3, 1)
    )


def test_a_list_is_read_in_its_set_stored_with_its_two_letter_tiles_in_brackets_and_read_back_alike(
    spanish_list,
):
    assert (spanish_list.letters, spanish_list.word_count, spanish_list.unspellable) == ("es", 8, 1)
    stored = lexicon_file(spanish_list.path).read_text(encoding="utf-8").split()
    assert "[CH]AO" in stored and "[LL]AMA" in stored and "AÑO" in stored and "KIWI" not in stored
    lexicon = engine_lexicon(spanish_list)
    assert lexicon.letters is SPANISH
    assert "COCHE" in lexicon and "CHAO" in lexicon and "KIWI" not in lexicon
    # The same words sent again: the same list; sent for the French set: another list.
    assert lexicon_upload(name="again", data=WORDS.encode(), letters="es").pk == spanish_list.pk
    french = lexicon_upload(name="fr", data=b"chao\nmola\n", letters="fr")
    assert french.letters == "fr" and french.pk != spanish_list.pk


def test_a_tournament_plays_only_a_list_of_its_own_set(arbiter, spanish_list):
    with pytest.raises(ServiceError) as refused:
        services.tournament_create(
            created_by=arbiter,
            lexicon=lexicon_default_row(),
            letters="es",
            name="T",
            date=datetime.date.today(),
        )
    assert refused.value.message.code == "lexicon_other_letters"
    with pytest.raises(ServiceError):
        services.tournament_create(
            created_by=arbiter, lexicon=spanish_list, name="T", date=datetime.date.today()
        )  # French by default


def test_a_rack_typed_with_a_bracketed_tile_a_slip_typed_plainly_graded_and_shown_as_one_tile(torneo):
    player = services.player_register(tournament=torneo, name="Ana")
    game = services.game_start(tournament=torneo, typed=True)
    rnd = services.round_draw(game_id=game.pk, expected_number=1, typed="[CH]AOLMPE").round
    assert rnd is not None and rnd.rack == "[CH]AOLMPE" and len(rnd.tiles) == 7
    rnd = services.round_start(round_id=rnd.pk)
    assert rnd.top_score == (5 + 1 + 1) * 2  # CH A O across the star (double word)

    text = slip_text("h8 chao", fisf=False, letters=torneo.letter_set)
    assert text == "H8 CHAO"
    player.refresh_from_db()
    live_services.submission_record(player=player, round_id=rnd.pk, text=text)
    services.round_close(round_id=rnd.pk, now=rnd.deadline + datetime.timedelta(seconds=60))
    sub = Submission.objects.get(round=rnd, player=player)
    assert (sub.word, sub.paid) == ("[CH]AO", 14)
    assert typed_slip(sub.slip_text()) == sub.slip_text()

    services.round_place_top(round_id=rnd.pk)
    game.refresh_from_db()
    cells = board_cells(game.board, letters=torneo.letter_set)
    placed = [c for c in cells if c.letter]
    assert [(c.letter, c.value) for c in placed][:1] in ([("CH", 5)], [("A", 1)], [("O", 1)])
    assert {c.letter for c in placed} == {"CH", "A", "O"}
    assert "CH" in broadcast.board_text(game.board, torneo.letter_set)

    page = Client().get(reverse("live:player_page", args=[player.token])).content.decode()
    assert " w2" in page and ">CH<" in page


def test_a_joker_standing_for_a_two_letter_tile_is_marked_on_the_tile():
    assert slip_text("h8 coch?e", fisf=False, letters=SPANISH) == "H8 COchE"
    assert slip_text("h8 co[ch]?e", fisf=False, letters=SPANISH) == "H8 CO[ch]E"
    assert typed_slip("H8 CO[ch]E") == "H8 CO[CH]?E"
    assert slip_text("h4 jointa?", "34", fisf=True) == "H4 JOINTa 34"
    assert tiles_plain("[CH]A[LL]EmOS") == "CHALLEmOS" and tiles_plain("JOINTa") == "JOINTa"


def test_the_form_offers_the_set_and_refuses_a_club_list_of_another_set(arbiter_client, spanish_list):
    french = lexicon_upload(name="ODS", data=b"chao\nmola\n", letters="fr")
    form = {
        "name": "Open", "date": "2027-04-03", "place": "Salle", "letters": "es", "lexicon": french.pk,
        "round_seconds": 120, "grading": "computed", "warning_threshold": 3, "warning_penalty": 5,
        "solo_value": 10, "solo_min_players": 16, "grace_seconds": 2, "percent_base": "total",
        "tie_break": "last", "aggregate": "average", "sheet_language": "fr",
    }  # fmt: skip
    page = arbiter_client.post(reverse("tournaments:tournament_create"), form)
    assert page.status_code == 200 and "autre jeu de lettres" in page.content.decode()
    form["lexicon"] = spanish_list.pk
    made = arbiter_client.post(reverse("tournaments:tournament_create"), form)
    assert made.status_code == 302
    assert "Español · es-prueba" in arbiter_client.get(made["Location"]).content.decode()
    assert Round.objects.count() == 0
    assert arbiter_client.get(reverse("tournaments:tournament_create")).content.decode().count("Español") >= 1


def test_a_spanish_tournaments_file_and_record_carry_its_set(torneo, arbiter):
    player = services.player_register(tournament=torneo, name="Ana")
    game = services.game_start(tournament=torneo, typed=True)
    rnd = services.round_draw(game_id=game.pk, expected_number=1, typed="[CH]AOLMPE").round
    rnd = services.round_start(round_id=rnd.pk)
    live_services.submission_record(player=player, round_id=rnd.pk, text="H8 CHAO")
    services.round_close(round_id=rnd.pk, now=rnd.deadline + datetime.timedelta(seconds=60))
    services.round_place_top(round_id=rnd.pk)

    record = exports.game_record(game)
    assert record["format"] == "duplicate-game/2" and record["letters"] == "es"
    assert record["rounds"][0]["rack"] == "[CH]AOLMPE"

    club_b = Club.objects.create(name="Club B")
    copy = transfer.tournament_import(data=transfer.tournament_export(torneo), club=club_b, user=arbiter)
    assert (copy.letters, copy.lexicon.letters) == ("es", "es")
    moved = Round.objects.get(game__tournament=copy, number=1)
    assert moved.rack == "[CH]AOLMPE" and Submission.objects.get(round=moved).word == "[CH]AO"


@pytest.mark.slow
def test_choosing_a_set_with_the_shipped_list_left_as_offered_plays_that_sets_shipped_list(arbiter_client):
    form = {
        "name": "Abierto", "date": "2027-04-03", "place": "Sala", "letters": "es",
        "lexicon": lexicon_default_row().pk, "round_seconds": 120, "grading": "computed",
        "warning_threshold": 3, "warning_penalty": 5, "solo_value": 10, "solo_min_players": 16,
        "grace_seconds": 2, "percent_base": "total", "tie_break": "last", "aggregate": "average",
        "sheet_language": "fr",
    }  # fmt: skip
    assert arbiter_client.post(reverse("tournaments:tournament_create"), form).status_code == 302
    made = Tournament.objects.get(name="Abierto")
    assert (made.letters, made.lexicon.letters, made.lexicon.name) == ("es", "es", "es-hunspell")
    assert made.sheet_language == "es"  # left as offered: the set's language
    assert "COCHE" in engine_lexicon(made.lexicon)


def test_a_blank_standing_for_ch_is_one_blank_on_the_receipt_and_the_rack_is_spoken_in_its_set(torneo):
    player = services.player_register(tournament=torneo, name="Ana")
    game = services.game_start(tournament=torneo, typed=True)
    rnd = services.round_draw(game_id=game.pk, expected_number=1, typed="[CH]AOLMPE").round
    rnd = services.round_start(round_id=rnd.pk)
    screen = phone.player_screen(player)
    assert "che." in screen.spoken and screen.multi_tiles == ["CH", "LL", "RR"]
    live_services.submission_record(player=player, round_id=rnd.pk, text="H8 chAO")
    screen = phone.player_screen(Player.objects.get(pk=player.pk))
    assert screen.slip_letters == [("ch", True), ("A", False), ("O", False)]
    assert screen.slip_jokers == ["CH"]
    assert str(jokers_marked("H8 [ch]AO")).count("<mark") == 1


def test_the_lines_a_set_cannot_spell_are_said_when_the_list_is_sent(arbiter_client):
    form = {
        "name": "Abierto", "date": "2027-04-03", "place": "Sala", "letters": "es", "round_seconds": 120,
        "grading": "computed", "warning_threshold": 3, "warning_penalty": 5, "solo_value": 10,
        "solo_min_players": 16, "grace_seconds": 2, "percent_base": "total", "tie_break": "last",
        "aggregate": "average", "sheet_language": "fr",
        "lexicon_file": SimpleUploadedFile("es.txt", WORDS.encode()),
    }  # fmt: skip
    page = arbiter_client.post(reverse("tournaments:tournament_create"), form, follow=True).content.decode()
    assert "1 ligne de la liste ne s&#x27;écrit pas avec ce jeu de lettres" in page
    form["lexicon_file"] = SimpleUploadedFile("kiwi.txt", b"kiwi\nwok\n")
    refused = arbiter_client.post(reverse("tournaments:tournament_create"), form).content.decode()
    assert "aucun mot utilisable" in refused


@pytest.mark.parametrize(
    "letters, lexicon_letters",
    [("xx", "xx"), (["es"], "es"), ("es", "ca"), (None, "es"), ("es", None)],
)
def test_a_files_letter_set_that_is_unknown_or_does_not_match_is_refused_with_a_sentence(
    torneo, arbiter, letters, lexicon_letters
):
    document = json.loads(gzip.decompress(transfer.tournament_export(torneo)))
    for part, value in (("tournament", letters), ("lexicon", lexicon_letters)):
        if value is None:
            document[part].pop("letters")
        else:
            document[part]["letters"] = value
    data = gzip.compress(json.dumps(document).encode())
    with pytest.raises(ServiceError):
        transfer.tournament_import(data=data, club=Club.objects.create(name="Club C"), user=arbiter)


def test_a_rack_with_a_tile_the_set_lacks_and_a_record_of_an_unknown_set_are_refused_with_a_sentence(torneo):
    game = services.game_start(tournament=torneo, typed=True)
    with pytest.raises(ServiceError) as lacking:
        services.round_draw(game_id=game.pk, expected_number=1, typed="KAOLMPE")
    assert "K" in lacking.value.text()
    record = {"format": "duplicate-game/2", "letters": "xx", "lexicon": "es-prueba", "rounds": []}
    with pytest.raises(ServiceError) as unknown:
        services.game_start(tournament=torneo, prepared=json.dumps(record).encode())
    assert "xx" in unknown.value.text()


def test_the_projectors_voice_calls_a_spanish_or_catalan_bag_in_its_language(torneo, arbiter_client):
    from engine.lettersets import CATALAN

    assert announce.announcement(2, "[CH]A+?[LL]Ñ", letters=SPANISH) == [
        "Jugada número 2.", "Quedan dos fichas: a, che.", "Nuevas fichas:", "Comodín.", "elle.", "eñe.",
    ]  # fmt: skip
    said = announce.announcement(1, "-[L·L]A", ["AEIOUAE"], reasons=["vowels"], letters=CATALAN)
    assert said[0] == "Jugada número 1." and said[-2:] == ["ela geminada.", "a."]
    assert any(s.startswith("Rebuig, ") and s.endswith("set fitxes tornen a la bossa.") for s in said)
    assert "voyelles" not in " ".join(said)
    assert torneo.sheet_language == "es"  # the set's language, none chosen
    game = services.game_start(tournament=torneo, typed=True)
    answer = arbiter_client.get(reverse("live:projector", args=[game.pk]))
    page = answer.content.decode()
    assert 'data-speech="es-ES"' in page and 'data-thirty="Treinta segundos."' in page
    assert answer["Content-Language"] == "es" and '<html lang="es">' in page  # the room's language
    arbiter_client.cookies["django_language"] = "fr"  # unless the arbiter chose one
    assert arbiter_client.get(reverse("live:projector", args=[game.pk]))["Content-Language"] == "fr"


@pytest.mark.slow
def test_a_simultaneous_events_form_names_the_set_of_each_list(arbiter_client):
    spanish = lexicon_default_row("es")
    page = arbiter_client.get(reverse("simultaneous:event_create")).content.decode()
    assert f'value="{spanish.pk}" data-letters="es"' in page and f"{spanish} · Español" in page


def test_a_french_and_a_spanish_room_play_at_once_each_in_its_set_and_language(torneo, tournament, client):
    """One server, two rooms: their rounds interleave, each graded by its own set and list, each
    phone told in its browser's language, each room's push written in its own phones' languages."""
    ana = services.player_register(tournament=torneo, name="Ana")
    alice = services.player_register(tournament=tournament, name="Alice")
    juego = services.game_start(tournament=torneo, typed=True)
    partie = services.game_start(tournament=tournament)
    ronda = services.round_start(
        round_id=services.round_draw(game_id=juego.pk, expected_number=1, typed="[CH]AOLMPE").round.pk
    )
    coup = services.round_start(round_id=services.round_draw(game_id=partie.pk, expected_number=1).round.pk)
    assert (
        client.get(reverse("live:player_page", args=[ana.token]), HTTP_ACCEPT_LANGUAGE="es").status_code
        == 200
    )
    assert (
        client.get(reverse("live:player_page", args=[alice.token]), HTTP_ACCEPT_LANGUAGE="fr").status_code
        == 200
    )
    live_services.submission_record(player=ana, round_id=ronda.pk, text="H8 CHAO")
    live_services.submission_record(
        player=alice, round_id=coup.pk, text=f"{coup.tops[0]['ref']} {coup.tops[0]['word']}"
    )
    services.round_close(round_id=ronda.pk, now=ronda.deadline + datetime.timedelta(seconds=60))
    services.round_close(round_id=coup.pk, now=coup.deadline + datetime.timedelta(seconds=60))
    assert (
        Submission.objects.get(round=ronda).paid == 14
        and Submission.objects.get(round=coup).paid == coup.top_score
    )
    rooms = {
        t.pk: {name.rsplit("-", 1)[1] for name, _m in broadcast.messages(t.pk, "k") if name.startswith("t")}
        for t in (torneo, tournament)
    }
    assert rooms == {torneo.pk: {"es"}, tournament.pk: {"fr"}}
    page = client.get(
        reverse("live:player_page", args=[ana.token]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert '<html lang="es">' in page and "CH" in page


def test_the_typed_racks_hint_shows_a_tile_of_the_set_typed_without_brackets(torneo, arbiter_client):
    game = services.game_start(tournament=torneo, typed=True)
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk])).content.decode()
    assert "[CH], [LL], [RR]" in page and "CH tapé sans crochets, c'est C et H" in page
    catalan = arbiter_client.get(reverse("live:game_detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ca")
    assert "CH escrit sense claudàtors és C i H" in catalan.content.decode()


def test_a_joker_mark_follows_a_tile_written_in_another_spelling():
    from engine.lettersets import CATALAN

    assert slip_text("4g ral.l?is", fisf=False, letters=CATALAN) == "4G RAl.lIS"
    assert slip_text("4G RAL·L?IS", fisf=False, letters=CATALAN) == "4G RAl·lIS"
    assert slip_text("h7 al.le", fisf=False, letters=CATALAN) == "H7 AL.LE"


@pytest.mark.parametrize(
    ("code", "name"), [("it", "Italiano"), ("pt", "Português"), ("nl", "Nederlands"), ("de", "Deutsch")]
)
def test_a_set_without_a_shipped_list_is_refused_without_a_club_list_and_plays_one_sent(
    arbiter_client, code, name
):
    form = {
        "name": "Open", "date": "2027-04-03", "place": "Salle", "letters": code, "lexicon": "",
        "round_seconds": 120, "grading": "computed", "warning_threshold": 3, "warning_penalty": 5,
        "solo_value": 10, "solo_min_players": 16, "grace_seconds": 2, "percent_base": "total",
        "tie_break": "last", "aggregate": "average", "sheet_language": "fr",
    }  # fmt: skip
    page = arbiter_client.post(reverse("tournaments:tournament_create"), form)
    assert page.status_code == 200 and Tournament.objects.count() == 0
    assert f"livrée pour ce jeu de lettres ({code})" in page.content.decode()
    words = {"it": "città\nperché\nzero\n", "pt": "ação\naçúcar\nmesa\n", "nl": "één\nijsvrij\nzee\n"}
    sent = lexicon_upload(
        name=f"{code}-club", data=words.get(code, "Ärger\nMüller\nöl\n").encode(), letters=code
    )
    assert (sent.letters, sent.word_count) == (code, 3)
    form["lexicon"] = sent.pk
    made = arbiter_client.post(reverse("tournaments:tournament_create"), form)
    assert made.status_code == 302
    assert f"{name} · {code}-club" in arbiter_client.get(made["Location"]).content.decode()
    tournament = Tournament.objects.get(name="Open")
    assert (tournament.letters, tournament.lexicon.letters) == (code, code)
    assert tournament.letter_set.code == code
