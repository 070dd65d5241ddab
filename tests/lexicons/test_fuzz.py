"""Word lists: whatever bytes the arbiter's form is sent as a word list (text in any encoding, gzip
whole, cut, damaged, stacked or bombed), the answer is a tournament on a stored list or the form
again with a sentence saying why: never an error page, never a file left behind."""

from __future__ import annotations

import gzip
import re
import unicodedata
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.lexicon import LexiconError
from engine.lexicon.normalize import read_words
from lexicons.files import lexicon_file
from lexicons.loaded import lexicon_default_row
from lexicons.models import LexiconList
from lexicons.services import lexicon_name
from tournaments.models import Tournament

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
REFUSALS = ("Liste de mots refusée", "aucun mot utilisable", "Le fichier soumis est vide.")


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def _post(client, name: str, data: bytes):
    form = {
        "name": "Open", "date": "2027-04-03", "place": "Salle", "lexicon": lexicon_default_row().pk,
        "round_seconds": 120, "grading": "computed", "warning_threshold": 3, "warning_penalty": 5,
        "solo_value": 10, "solo_min_players": 16, "grace_seconds": 2, "percent_base": "total",
        "tie_break": "last", "aggregate": "average", "sheet_language": "fr",
        "lexicon_file": SimpleUploadedFile(name, data),
    }  # fmt: skip
    return client.post(reverse("tournaments:tournament_create"), form)


def _assert_stored_or_refused(client, media, name: str, data: bytes) -> None:
    """A tournament on a row whose file holds the normalized words, or the form with a refusal and
    nothing new kept."""
    lexicon_default_row()  # made on the form's first view: not the upload's
    rows, tournaments = LexiconList.objects.count(), Tournament.objects.count()
    files = set((media / "lexicons").glob("*")) if (media / "lexicons").exists() else set()
    response = _post(client, name, data)
    if response.status_code == 302:
        tournament = Tournament.objects.latest("pk")
        stored = lexicon_file(tournament.lexicon.path).read_bytes()
        assert stored.endswith(b"\n") and stored.decode("ascii").split("\n")[:-1] == sorted(
            set(stored.decode("ascii").split("\n")[:-1])
        )
        assert tournament.lexicon.word_count == stored.count(b"\n")
        return
    page = response.content.decode()
    assert response.status_code == 200 and any(refusal in page for refusal in REFUSALS), page[:300]
    assert (LexiconList.objects.count(), Tournament.objects.count()) == (rows, tournaments)
    left = set((media / "lexicons").glob("*")) if (media / "lexicons").exists() else set()
    assert left == files


_letters = st.text(st.sampled_from("abcdeéèêàçœïôùAÉZ'- \t"), max_size=20)
_lines = st.lists(_letters, max_size=30)
_encodings = st.sampled_from(["utf-8", "utf-8-sig", "latin-1", "cp1252", "utf-16"])


@FUZZ
@given(data=st.binary(max_size=3000))
def test_any_bytes_are_a_stored_list_or_a_sentence(arbiter_client, media, data):
    _assert_stored_or_refused(arbiter_client, media, "club.txt", data)


@FUZZ
@given(lines=_lines, encoding=_encodings, newline=st.sampled_from(["\n", "\r\n", "\r"]))
def test_any_text_in_any_encoding_is_a_stored_list_or_a_sentence(
    arbiter_client, media, lines, encoding, newline
):
    data = newline.join(lines).encode(encoding, errors="replace")
    _assert_stored_or_refused(arbiter_client, media, "club.txt", data)


def _damaged(draw, whole: bytes) -> bytes:
    how = draw(st.sampled_from(["whole", "cut", "flip", "tail", "stacked", "bomb"]))
    if how == "cut":
        return whole[: draw(st.integers(0, len(whole)))]
    if how == "flip":
        at = draw(st.integers(0, len(whole) - 1))
        return whole[:at] + bytes([whole[at] ^ draw(st.integers(1, 255))]) + whole[at + 1 :]
    if how == "tail":
        return whole + draw(st.binary(min_size=1, max_size=20))
    if how == "stacked":
        return whole + gzip.compress(draw(st.binary(max_size=200)))
    if how == "bomb":
        packer = zlib.compressobj(9, zlib.DEFLATED, 31)
        zeros = b"\0" * (1024 * 1024)
        return whole + b"".join([packer.compress(zeros) for _ in range(17)] + [packer.flush()])
    return whole


@st.composite
def _gzips(draw) -> bytes:
    text = "\n".join(draw(_lines)).encode(draw(_encodings), errors="replace")
    return _damaged(draw, gzip.compress(text, mtime=0))


@FUZZ
@given(data=_gzips())
def test_any_gzip_whole_cut_damaged_stacked_or_bombed_is_a_stored_list_or_a_sentence(
    arbiter_client, media, data
):
    _assert_stored_or_refused(arbiter_client, media, "club.txt.gz", data)


@settings(max_examples=300)
@given(name=st.text(max_size=300))
def test_any_name_is_kept_without_control_characters_and_within_its_column(name):
    kept = lexicon_name(name)
    assert 1 <= len(kept) <= 80 and kept == kept.strip()
    assert not any(unicodedata.category(c) in ("Cc", "Cs") for c in kept)
    kept.encode("utf-8")  # what PostgreSQL is sent


@pytest.mark.parametrize("name", ["a" * 250 + ".txt", "liste\x00.txt", "é\x1f\x7f.txt", "../../etc/passwd"])
def test_a_file_name_of_any_shape_is_stored_clean(arbiter_client, media, name):
    assert _post(arbiter_client, name, b"MOT\nTOME\n").status_code == 302
    stored = Tournament.objects.get().lexicon
    assert stored.name == lexicon_name(stored.name) and len(stored.name) <= 80


# -- the engine's reading alone, many more cases ---------------------------------------------------


def _read_or_refuse(data: bytes) -> None:
    try:
        words = read_words(data)
    except LexiconError as error:
        assert error.message.text("fr") and error.message.text("en")
        return
    assert words == sorted(set(words)) and all(re.fullmatch(r"[A-Z]{2,15}", word) for word in words)


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=5000) | _gzips())
def test_reading_any_bytes_gives_words_or_a_refusal_in_both_languages(data):
    _read_or_refuse(data)
