"""A word list's row never names this laptop's absolute path (``lexicons.files``): the shipped list
by its file's name, an uploaded list relative to MEDIA_ROOT.  Rows written with absolute paths (an
older version, or a copy from another laptop) are turned so by the migration, which goes back too;
the list is read from where this installation keeps it."""

from __future__ import annotations

import hashlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from engine.lexicon import DEFAULT_PATH
from lexicons import services
from lexicons.files import SHIPPED_DEFAULT, lexicon_file, path_stored
from lexicons.loaded import engine_lexicon, lexicon_default_row

BEFORE = [("lexicons", "0002_lexiconlist_clubs")]
AFTER = [("lexicons", "0003_relative_paths")]


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return tmp_path / "media"


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)


@pytest.mark.django_db(transaction=True)
def test_the_migration_makes_absolute_paths_relative_and_back(media):
    sha = {
        name: hashlib.sha256(name.encode()).hexdigest()
        for name in ("here", "other", "elsewhere", "shipped", "old")
    }
    paths = {
        "here": str(media / "lexicons" / f"{sha['here']}.txt"),
        "other": f"/media/usb/old-laptop/var/media/lexicons/{sha['other']}.txt",
        "elsewhere": "/srv/lists/ods8.txt",
        "shipped": str(DEFAULT_PATH),
        "old": f"/home/club/arbiter/engine/lexicon/data/{DEFAULT_PATH.name}",
    }
    executor = _migrate(BEFORE)
    try:
        LexiconList = executor.loader.project_state(BEFORE).apps.get_model("lexicons", "LexiconList")
        for name, path in paths.items():
            LexiconList.objects.create(name=name, sha256=sha[name], word_count=1, path=path)
        _migrate(AFTER)
        from lexicons.models import LexiconList as Now

        stored = dict(Now.objects.values_list("name", "path"))
        assert stored == {
            "here": f"lexicons/{sha['here']}.txt",
            "other": f"lexicons/{sha['other']}.txt",
            "elsewhere": "/srv/lists/ods8.txt",
            "shipped": SHIPPED_DEFAULT,
            "old": SHIPPED_DEFAULT,
        }
        assert lexicon_file(stored["here"]) == media / "lexicons" / f"{sha['here']}.txt"
        assert lexicon_file(SHIPPED_DEFAULT) == DEFAULT_PATH
        _migrate(BEFORE)
        back = dict(LexiconList.objects.values_list("name", "path"))
        assert back == {**paths, "other": str(media / "lexicons" / f"{sha['other']}.txt"),
                        "old": str(DEFAULT_PATH)}  # fmt: skip
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())  # the schema the suite uses


def test_the_rows_name_no_absolute_path_and_the_lists_load(db, media, settings, tmp_path):
    shipped = lexicon_default_row()
    uploaded = services.lexicon_upload(name="club", data=b"chat\nchien\n")
    assert (shipped.path, uploaded.path) == (SHIPPED_DEFAULT, f"lexicons/{uploaded.sha256}.txt")
    # The installation's files moved to another folder: the rows still find them.
    moved = tmp_path / "moved-media"
    media.rename(moved)
    settings.MEDIA_ROOT = moved
    from lexicons import loaded

    loaded._recent.clear()
    assert "CHAT" in engine_lexicon(uploaded) and engine_lexicon(shipped).sha256 == shipped.sha256
    assert path_stored(str(moved / uploaded.path), uploaded.sha256) == uploaded.path
