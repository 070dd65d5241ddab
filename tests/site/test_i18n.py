"""French first, English available: pages in French by default and in English after the switch or
from the browser's language, the engine's sentences in the language shown, and a complete English
catalogue whose compiled file matches its source."""

from __future__ import annotations

import ast
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from engine.messages import Message
from live import services as live_services
from tournaments import services
from tournaments.models import Round, Submission

HTMX = {"HTTP_HX_REQUEST": "true"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}
PO_FILE = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"
#: Every room's templates.
TEMPLATES = sorted(Path(settings.BASE_DIR).glob("*/templates"))


@pytest.fixture(autouse=True)
def _french_afterwards():
    """A request in English leaves English active in this thread: later tests expect the default."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def _page(player) -> str:
    return reverse("live:player_page", kwargs={"token": player.token})


def _switch(client, language: str, next_url: str):
    return client.post(reverse("set_language"), {"language": language, "next": next_url})


def _closed_round_with_a_slip(game, player) -> Round:
    """Round 1 closed and graded, with ``player``'s slip worth a warning (claimed score too low)."""
    rnd = services.round_draw(game_id=game.pk, expected_number=1).round
    rnd = services.round_start(round_id=rnd.pk)
    top = rnd.tops[0]
    live_services.submission_record(
        player=player, round_id=rnd.pk, text=f"{top['ref']} {top['word']} {top['score'] - 1}"
    )
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=10))
    return services.round_close_if_due(round_id=rnd.pk)


# -- the arbiter's pages -------------------------------------------------------------------------


def test_the_tournament_list_is_in_french_by_default(arbiter_client, tournament):
    page = arbiter_client.get(reverse("tournaments:home")).content.decode()
    assert '<html lang="fr">' in page
    for text in ("Tournois", "Nouveau tournoi", "Dictionnaire", "Se déconnecter"):
        assert text in page
    assert "Tournaments" not in page


def test_the_tournament_list_is_in_english_for_an_english_browser(arbiter_client, tournament):
    page = arbiter_client.get(reverse("tournaments:home"), **ENGLISH).content.decode()
    assert '<html lang="en">' in page
    for text in ("Tournaments", "New tournament", "Dictionary", "Sign out", "Duplicate arbiter"):
        assert text in page
    assert "Nouveau tournoi" not in page and "Se déconnecter" not in page


def test_the_switch_turns_the_arbiters_pages_to_english_and_back(arbiter_client, tournament):
    home = reverse("tournaments:home")
    response = _switch(arbiter_client, "en", home)
    assert response.status_code == 302 and response["Location"] == home
    page = arbiter_client.get(home).content.decode()
    assert "Tournaments" in page and "Tournois" not in page
    _switch(arbiter_client, "fr", home)
    assert "Tournois" in arbiter_client.get(home).content.decode()


def test_every_arbiter_page_offers_the_switch_back_to_itself(arbiter_client, tournament):
    url = reverse("tournaments:tournament_detail", args=[tournament.pk])
    page = arbiter_client.get(url).content.decode()
    switch = page[page.index('class="lang-switch"') :]
    assert f'action="{reverse("set_language")}"' in page
    assert f'name="next" value="{url}"' in switch
    assert 'value="fr"' in switch and 'value="en"' in switch
    assert 'value="fr" lang="fr" title="Français" aria-pressed="true"' in switch


def test_a_form_refused_on_a_post_only_address_switches_back_to_the_tournament_page(
    arbiter_client, tournament
):
    url = reverse("tournaments:player_add", args=[tournament.pk])
    page = arbiter_client.post(url, {"name": ""}).content.decode()
    detail = reverse("tournaments:tournament_detail", args=[tournament.pk])
    assert f'name="next" value="{detail}"' in page


def test_the_login_page_is_in_english_for_an_english_browser(client, db):
    page = client.get(reverse("login"), **ENGLISH).content.decode()
    assert "Arbiter sign-in" in page and "Password" in page and "Sign in" in page


def test_the_game_screen_names_the_round_and_its_action_in_english(arbiter_client, game, players):
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk]), **ENGLISH).content.decode()
    assert "Draw round 1" in page and "Ranking" in page and "Tirer le coup" not in page


def test_a_service_refusal_is_shown_in_the_language_of_the_page(arbiter_client, game, players):
    rnd = _closed_round_with_a_slip(game, players[0])
    url = reverse("live:slip_enter", args=[rnd.pk])
    data = {"table_number": 99, "text": "H8 MOT 10"}
    french = arbiter_client.post(url, data, **HTMX).content.decode()
    english = arbiter_client.post(url, data, **HTMX, **ENGLISH).content.decode()
    assert "Aucun joueur à la table 99." in french
    assert "No player at table 99." in english and "Aucun joueur à la table" not in english


def test_the_graded_slips_give_the_reason_in_the_language_of_the_page(arbiter_client, game, players):
    rnd = _closed_round_with_a_slip(game, players[0])
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert sub.sanction == "warning" and sub.message != sub.message_en
    url = reverse("live:game_detail", args=[game.pk])
    french = arbiter_client.get(url).content.decode()
    english = arbiter_client.get(url, **ENGLISH).content.decode()
    assert "Bulletins corrigés" in french and _escaped(sub.message) in french
    assert "Graded slips" in english and _escaped(sub.message_en) in english
    assert "warning" in english and "avertissement" not in english


def _escaped(text: str) -> str:
    return text.replace("'", "&#x27;").replace('"', "&quot;")


# -- the player's phone --------------------------------------------------------------------------


def test_the_players_page_is_in_french_by_default(client, players, game):
    page = client.get(_page(players[0])).content.decode()
    assert '<html lang="fr">' in page
    for text in ("En attente du premier tirage.", "Envoyer", "Touchez une lettre pour en faire un joker"):
        assert text in page


def test_the_players_page_is_in_english_after_the_switch(client, players, game):
    url = _page(players[0])
    client.get(url)
    response = _switch(client, "en", url)
    assert response.status_code == 302 and response["Location"] == url
    page = client.get(url).content.decode()
    assert '<html lang="en">' in page
    for text in ("Waiting for the first rack.", "Send", "Tap a letter to make it a blank"):
        assert text in page
    assert "Envoyer" not in page


def test_the_players_switch_always_comes_back_to_the_players_page(client, players, game):
    """Even when the page answers a slip sent without htmx (a POST-only address)."""
    url = _page(players[0])
    assert f'name="next" value="{url}"' in client.get(url).content.decode()
    submit = reverse("live:player_submit", kwargs={"token": players[0].token})
    page = client.post(submit, {"slip": "H8 MOT", "request_id": "r-1"}).content.decode()
    assert f'name="next" value="{url}"' in page


def test_after_the_round_the_player_reads_their_line_in_their_language(client, players, game):
    rnd = _closed_round_with_a_slip(game, players[0])
    sub = Submission.objects.get(round=rnd, player=players[0])
    french = client.get(_page(players[0])).content.decode()
    english = client.get(_page(players[0]), **ENGLISH).content.decode()
    assert _escaped(sub.message) in french and "négatif" in french
    assert _escaped(sub.message_en) in english and "below top" in english
    assert _escaped(sub.message) not in english


def test_a_refused_slip_is_explained_in_the_players_language(client, players, game):
    submit = reverse("live:player_submit", kwargs={"token": players[0].token})
    data = {"slip": "H8 MOT", "request_id": "r-1"}
    french = client.post(submit, data, **HTMX).content.decode()
    english = client.post(submit, data, **HTMX, **ENGLISH).content.decode()
    assert "Aucun coup n&#x27;est en cours" in french
    assert "No round is running: slip not received." in english


def test_the_card_request_page_is_in_english_for_an_english_browser(client, db):
    page = client.get(reverse("live:player_me"), **ENGLISH).content.decode()
    assert "Scan your card" in page and "lang-switch" in page


# -- the catalogue -------------------------------------------------------------------------------


def _po_entries(path: Path) -> list[dict]:
    """The catalogue's entries: msgid, msgid_plural, msgstr / msgstr[n], and the flags line."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry: dict = {"flags": ""}
        key = None
        for line in block.strip().splitlines():
            if line.startswith("#,"):
                entry["flags"] += line[2:]
            elif line.startswith("#~"):
                entry["obsolete"] = True
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                entry[key] += ast.literal_eval(line)
            else:
                key, _, literal = line.partition(" ")
                entry[key] = ast.literal_eval(literal)
        if "msgid" in entry:
            entries.append(entry)
    return entries


def _messages() -> list[dict]:
    return [e for e in _po_entries(PO_FILE) if e["msgid"] and not e.get("obsolete")]


def test_every_message_of_the_english_catalogue_is_translated_and_none_is_fuzzy():
    messages = _messages()
    assert len(messages) > 150
    for entry in messages:
        assert "fuzzy" not in entry["flags"], entry["msgid"]
        translations = [v for k, v in entry.items() if k.startswith("msgstr")]
        assert translations and all(t.strip() for t in translations), entry["msgid"]
    header = next(e for e in _po_entries(PO_FILE) if e["msgid"] == "")
    assert "fuzzy" not in header["flags"] and "Language: en" in header["msgstr"]


def test_the_compiled_catalogue_gives_every_translation_of_the_source():
    """The .mo in the repository says what the .po says (club laptops cannot compile it)."""
    with translation.override("en"):
        for entry in _messages():
            if "msgid_plural" in entry:
                singular = translation.ngettext(entry["msgid"], entry["msgid_plural"], 1)
                plural = translation.ngettext(entry["msgid"], entry["msgid_plural"], 2)
                assert (singular, plural) == (entry["msgstr[0]"], entry["msgstr[1]"])
            else:
                assert translation.gettext(entry["msgid"]) == entry["msgstr"], entry["msgid"]


def test_every_translate_tag_of_the_templates_is_in_the_catalogue():
    """A string added to a template without running makemessages would stay French in English."""
    known = {e["msgid"] for e in _messages()}
    tag = re.compile(r"""{%\s*translate\s+(?:"([^"]*)"|'([^']*)')""")
    for template in (found for folder in TEMPLATES for found in folder.rglob("*.html")):
        for found in tag.finditer(template.read_text(encoding="utf-8")):
            text = found.group(1) if found.group(1) is not None else found.group(2)
            assert text in known, f"{template.name}: {text!r}"


def test_the_phone_scripts_own_sentences_come_from_the_catalogue_in_the_pages_language(client, players):
    """What the phone's script says when no answer came back is in the page, in its language."""
    script = (Path(settings.BASE_DIR) / "live" / "static" / "live" / "player.js").read_text()
    assert "serveur" not in script and "server does not" not in script
    french = client.get(_page(players[0])).content.decode()
    english = client.get(_page(players[0]), **ENGLISH).content.decode()
    for name, code in (("no-answer", "phone_no_answer"), ("given-up", "phone_given_up")):
        assert f'data-text-{name}="{_escaped(Message(code).text("fr"))}"' in french
        assert f'data-text-{name}="{_escaped(Message(code).text("en"))}"' in english
