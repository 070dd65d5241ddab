"""A club's uploaded word list goes with its evening: the copy as the laptop's saver writes it (the
database and ``media/``) resumed on another laptop, in another folder, with the first laptop's folder
gone, plays on with the club's list (its own words found, the next round's top searched with it); so
does that laptop's installation moved to a third folder (a list's row never names a laptop's
absolute path).  A copy taken without its ``media/`` is resumed saying which list is not there,
a game on it says so instead of failing, and the club's list sent again makes it whole."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from server import backup
from tests.server.club_list import CLUB_WORDS
from tests.server.test_resume import _run


def _script(var, action: str) -> dict:
    import json

    done = _run(var, "-m", "tests.server.club_list", action)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """The first laptop's evening on the club's list, copied to a key as its saver copies it (the
    database, then ``media/``); then the first laptop's folder is gone."""
    root = tmp_path_factory.mktemp("first-laptop")
    var = root / "arbiter" / "var"
    played = _script(var, "play")
    key = tmp_path_factory.mktemp("key")
    source = sqlite3.connect(var / "arbiter.sqlite3")
    backup.copy_database(source, key)
    source.close()
    assert backup.mirror_media(var / "media", key / "media") == 1
    shutil.rmtree(root)
    return key, played


def test_the_club_list_goes_with_the_evening_to_another_laptop_and_folder(evening, tmp_path):
    key, played = evening
    assert played["path"] == f"lexicons/{played['sha256']}.txt"  # never the laptop's own folder
    var = tmp_path / "other-laptop" / "var"
    done = _run(var, "manage.py", "serve", "--no-serve", "--resume", str(key))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Soirée reprise depuis" in done.stdout and "n'est pas sur ce portable" not in done.stdout
    went_on = _script(var, "go_on")
    assert went_on["file"] == str((var / "media" / played["path"]).resolve())
    assert went_on["sha256"] == played["sha256"] and went_on["club_words"] == list(CLUB_WORDS)
    assert went_on["next"] == 2 and went_on["top"] and went_on["state"] == "ready"
    # The installation moved to another folder (a new user account, another disk): the list follows.
    moved = tmp_path / "moved" / "var"
    moved.parent.mkdir()
    var.rename(moved)
    again = _script(moved, "go_on")
    assert again["file"] == str((moved / "media" / played["path"]).resolve())
    assert again["club_words"] == list(CLUB_WORDS) and again["next"] == 3 and again["state"] == "ready"


def test_a_copy_without_its_media_says_which_list_is_missing_until_it_is_sent_again(evening, tmp_path):
    key, played = evening
    bare = tmp_path / "bare-key"
    bare.mkdir()
    for copy in key.glob("arbiter-*.sqlite3"):
        shutil.copy(copy, bare / copy.name)
    var = tmp_path / "var"
    done = _run(var, "manage.py", "serve", "--no-serve", "--resume", str(bare))
    assert done.returncode == 0, done.stderr[-3000:]
    said = f"La liste de mots « ODS du club » ({played['sha256'][:12]}…) n'est pas sur ce portable"
    assert said in done.stdout, done.stdout
    refused = _script(var, "go_on")
    assert refused["refused"].startswith(said) and "envoyez-la de nouveau" in refused["refused"]
    sent = _script(var, "send_again")
    assert sent == {"sha256": played["sha256"], "path": played["path"]}
    went_on = _script(var, "go_on")
    assert went_on["club_words"] == list(CLUB_WORDS) and went_on["next"] == 2 and went_on["state"] == "ready"
