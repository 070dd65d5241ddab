"""The lists clubs upload are kept loaded on a least-recently-used basis, the shipped list always; a
list put aside is read back from its file and its graph from the disk cache when a game asks for it
again."""

from __future__ import annotations

import time

import pytest

from engine.lexicon import Dawg, cache_dir
from lexicons import loaded, services


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def fresh_memory(settings):
    """This test's own uploaded lists in memory (the French shipped one stays; another set's shipped
    list an earlier test loaded is set aside meanwhile), at most two of them."""
    settings.LEXICONS_IN_MEMORY = 2
    kept, pinned = dict(loaded._recent), dict(loaded._pinned)
    loaded._recent.clear()
    for key in [key for key in loaded._pinned if ":" in key]:  # ``LexiconList.key`` of another set
        del loaded._pinned[key]
    yield
    loaded._recent.clear()
    loaded._recent.update(kept)
    loaded._pinned.update(pinned)


def _upload(name: str, *words: str):
    return services.lexicon_upload(name=name, data="\n".join(words).encode())


def test_past_the_limit_the_least_recently_used_list_is_put_aside_and_the_shipped_list_stays(
    db, media, fresh_memory
):
    shipped = loaded.lexicon_default_row()
    loaded.engine_lexicon(shipped)
    first = _upload("un", "MOT", "TOME")
    _upload("deux", "CHAT", "CHIEN")
    loaded.engine_lexicon(first)  # the first used again: the second is now the oldest
    third = _upload("trois", "ZOO", "ZOOS")
    assert loaded.lexicons_loaded() == [shipped.sha256, first.sha256, third.sha256]


def test_a_list_put_aside_is_read_back_from_the_disk_cache_not_built_again(
    db, media, fresh_memory, monkeypatch
):
    first = _upload("un", "MOT", "TOME", "TOMES")
    before = loaded.engine_lexicon(first)
    _upload("deux", "CHAT", "CHIEN")
    _upload("trois", "ZOO", "ZOOS")
    assert first.sha256 not in loaded.lexicons_loaded()

    def no_build(*args, **kwargs):
        raise AssertionError("the graph was built again instead of read from the cache")

    monkeypatch.setattr(Dawg, "build", no_build)
    again = loaded.engine_lexicon(first)
    assert again is not before and first.sha256 in loaded.lexicons_loaded()
    assert (again.sha256, again.word_count, "TOMES" in again, "CHAT" in again) == (
        first.sha256,
        3,
        True,
        False,
    )
    assert loaded.engine_lexicon(first) is again  # kept again from now on


def test_a_list_put_aside_whose_cache_was_lost_is_built_again_from_its_file(db, media, fresh_memory):
    first = _upload("un", "MOT", "TOME")
    _upload("deux", "CHAT", "CHIEN")
    _upload("trois", "ZOO", "ZOOS")
    (cache_dir() / f"{first.sha256}.dawg").unlink()
    again = loaded.engine_lexicon(first)
    assert (again.sha256, "TOME" in again) == (first.sha256, True)


def test_reading_a_list_back_takes_a_fraction_of_a_second(db, media, fresh_memory, french):
    """The shipped list's words uploaded as a club's list (317,790 words, about ODS's size): put
    aside, then read back from the disk cache as a game would ask for it."""
    from engine.lexicon import DEFAULT_PATH

    row = services.lexicon_upload(name="club", data=DEFAULT_PATH.read_bytes())
    loaded._recent.clear()
    start = time.monotonic()
    again = loaded.engine_lexicon(row)
    seconds = time.monotonic() - start
    assert again.word_count == french.word_count and again.dawg.node_count == french.dawg.node_count
    assert seconds < 2.0, seconds
