"""The word lists: the shipped list's row, a club's list uploaded and loaded once per process."""

from __future__ import annotations

import pytest

from engine.lexicon import DEFAULT_NAME
from lexicons import loaded, services
from lexicons.models import LexiconList
from server.writes import ServiceError


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def test_the_shipped_list_has_one_row_made_on_first_use(db):
    first = loaded.lexicon_default_row()
    assert loaded.lexicon_default_row() == first
    assert (first.name, LexiconList.objects.count()) == (DEFAULT_NAME, 1)
    assert first.word_count > 300_000


def test_an_uploaded_list_is_kept_on_disk_and_loaded_once(db, media):
    row = services.lexicon_upload(name="Liste du club", data="chat\nchien\nNOËL\n".encode("latin-1"))
    assert (row.name, row.word_count) == ("Liste du club", 3)
    assert (media / "lexicons").is_dir() and row.path == f"lexicons/{row.sha256}.txt"  # under MEDIA_ROOT
    assert loaded.engine_lexicon(row) is loaded.engine_lexicon(row)
    assert "NOEL" in loaded.engine_lexicon(row)
    again = services.lexicon_upload(name="Même liste", data="chat\nchien\nNOËL\n".encode("latin-1"))
    assert again == row  # the same words: the same list, whatever its name


def test_a_list_without_a_usable_word_is_refused(db, media):
    with pytest.raises(ServiceError) as refused:
        services.lexicon_upload(name="vide", data=b"a\n1234\n")
    assert refused.value.message.code == "lexicon_empty"
    assert not LexiconList.objects.exists()
