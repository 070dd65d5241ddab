"""Spanish and Catalan besides French and English: complete catalogues (the interface's gettext one
and the engine's and rooms' sentences by code), pages in the browser's language, a grade's reason and
a refusal said in it, and a room writing its states in the languages its phones read."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from engine.messages import Message
from server.language import catalogue_path, registered
from tournaments.models import Submission, Tournament

from .test_i18n import HTMX, _closed_round_with_a_slip, _escaped, _page, _po_entries

MORE = ("es", "ca")
SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es"}
CATALAN = {"HTTP_ACCEPT_LANGUAGE": "ca"}


@pytest.fixture(autouse=True)
def _french_afterwards():
    yield
    translation.activate(settings.LANGUAGE_CODE)


def _po(lang: str) -> Path:
    return Path(settings.BASE_DIR) / "locale" / lang / "LC_MESSAGES" / "django.po"


def _entries(lang: str) -> list[dict]:
    return [e for e in _po_entries(_po(lang)) if e["msgid"] and not e.get("obsolete")]


@pytest.mark.parametrize("lang", MORE)
def test_the_catalogue_holds_every_sentence_of_the_english_one_translated(lang):
    english = {(e["msgid"], e.get("msgid_plural")) for e in _entries("en")}
    entries = _entries(lang)
    assert {(e["msgid"], e.get("msgid_plural")) for e in entries} == english
    placeholder = re.compile(r"%\(\w+\)[sd]|\{\w*\}")
    for entry in entries:
        assert "fuzzy" not in entry["flags"], entry["msgid"]
        said = [v for k, v in entry.items() if k.startswith("msgstr")]
        assert said and all(text.strip() for text in said), entry["msgid"]
        assert sorted(placeholder.findall(said[0])) == sorted(placeholder.findall(entry["msgid"])), entry[
            "msgid"
        ]
    header = next(e for e in _po_entries(_po(lang)) if e["msgid"] == "")
    assert f"Language: {lang}" in header["msgstr"]


@pytest.mark.parametrize("lang", MORE)
def test_the_compiled_catalogue_says_what_its_source_says(lang):
    with translation.override(lang):
        for entry in _entries(lang):
            if "msgid_plural" in entry:
                got = translation.ngettext(entry["msgid"], entry["msgid_plural"], 1)
                assert got == entry["msgstr[0]"], entry["msgid"]
            else:
                assert translation.gettext(entry["msgid"]) == entry["msgstr"], entry["msgid"]


@pytest.mark.parametrize("lang", MORE)
def test_every_sentence_the_project_registers_is_translated_from_its_current_french(lang):
    """A French sentence changed or added since its translation fails here: ``scripts/catalogue.py``
    writes the file again with the sentence to translate."""
    codes = registered()
    found = json.loads(catalogue_path(lang).read_text(encoding="utf-8"))
    assert set(found) == set(codes)
    for code, texts in codes.items():
        entry = found[code]
        assert entry["fr"] == texts["fr"] and entry[lang].strip(), code
        wanted = re.sub(r"\{(\w+)_fr\}", rf"{{\1_{lang}}}", texts["fr"])
        assert sorted(re.findall(r"\{(\w*)\}", entry[lang])) == sorted(re.findall(r"\{(\w*)\}", wanted)), code


def test_a_sentence_with_a_reason_in_each_language_says_it_in_the_further_one():
    reason = Message("not_text")
    outer = Message(
        "record_in_round",
        {"round": 3, **{f"reason_{lang}": reason.text(lang) for lang in ("fr", "en", "es")}},
    )
    assert reason.text("es") in outer.text("es") and reason.text("fr") not in outer.text("es")
    # Given in French and English only, the parameter is said in French.
    assert "Mo" in Message("list_file_too_big", {"size_fr": "5 Mo", "size_en": "5 MB"}).text("ca")


def test_the_tournament_list_follows_a_spanish_or_catalan_browser(arbiter_client, tournament):
    spanish = arbiter_client.get(reverse("tournaments:home"), **SPANISH)
    catalan = arbiter_client.get(reverse("tournaments:home"), **CATALAN)
    assert spanish["Content-Language"] == "es" and '<html lang="es">' in spanish.content.decode()
    assert catalan["Content-Language"] == "ca" and '<html lang="ca">' in catalan.content.decode()


def test_the_phone_reads_its_round_and_its_grade_in_spanish(client, players, game):
    rnd = _closed_round_with_a_slip(game, players[0])
    sub = Submission.objects.get(round=rnd, player=players[0])
    assert sub.sanction == "warning" and sub.message_more["es"] != sub.message
    page = client.get(_page(players[0]), **SPANISH)
    text = page.content.decode()
    assert page["Content-Language"] == "es" and '<html lang="es">' in text
    assert _escaped(sub.message_more["es"]) in text and _escaped(sub.message) not in text
    assert Tournament.objects.get(pk=game.tournament_id).room_languages == ["es"]


def test_the_arbiter_reads_the_slips_reason_in_catalan(arbiter_client, game, players):
    rnd = _closed_round_with_a_slip(game, players[0])
    sub = Submission.objects.get(round=rnd, player=players[0])
    page = arbiter_client.get(reverse("live:game_detail", args=[game.pk]), **CATALAN).content.decode()
    assert _escaped(sub.said("ca")) in page and sub.said("ca") != sub.message


def test_a_refusal_is_said_in_catalan(arbiter_client, game, players):
    rnd = _closed_round_with_a_slip(game, players[0])
    url = reverse("live:slip_enter", args=[rnd.pk])
    said = arbiter_client.post(
        url, {"table_number": 99, "text": "H8 MOT 10"}, **HTMX, **CATALAN
    ).content.decode()
    assert "Aucun joueur à la table" not in said and "No player" not in said and "99" in said


def test_help_opens_the_english_guide_from_a_spanish_or_catalan_screen(arbiter_client, tournament):
    from guides import pages

    assert pages.page_for("tournaments:home", "es").startswith("/aide/en/")
    assert pages.page_for("tournaments:home", "ca").startswith("/aide/en/")
    assert pages.page_for("tournaments:home", "fr").startswith("/aide/fr/")
    page = arbiter_client.get(reverse("tournaments:home"), **CATALAN).content.decode()
    assert 'href="/aide/en/' in page and 'href="/aide/fr/' not in page
