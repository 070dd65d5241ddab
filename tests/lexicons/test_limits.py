"""Word lists: every level of an uploaded list is bounded (bytes sent, bytes unpacked, lines, line
length, graph), each limit refused just over it and accepted just under it, with a sentence that
says it; a refused list leaves nothing behind; the list is read and built outside the room's write
lock."""

from __future__ import annotations

import gzip
import hashlib
import threading
import time
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from engine.lexicon import LIMITS, Lexicon, LexiconError, ListLimits
from engine.lexicon.normalize import decode_list, list_lines, read_words
from lexicons import services
from lexicons.models import LexiconList
from server import writes
from server.writes import ServiceError
from tournaments.models import Tournament

MIB = 1024 * 1024


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def _code(data: bytes, limits: ListLimits = LIMITS) -> str | None:
    """The refusal's code reading ``data``, or None if it is read."""
    try:
        read_words(data, limits)
    except LexiconError as error:
        return error.message.code
    return None


def _bomb(unpacked: int) -> bytes:
    """A gzip of ``unpacked`` zero bytes (1,000 to 1 and more)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\0" * MIB
    pieces = [packer.compress(block) for _ in range(unpacked // MIB)]
    return b"".join([*pieces, packer.compress(b"\0" * (unpacked % MIB)), packer.flush()])


def _files_left(media) -> list[str]:
    folder = media / "lexicons"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


# -- bytes sent ------------------------------------------------------------------------------------


def test_a_file_just_over_the_size_limit_is_refused_saying_the_limit_and_one_at_it_is_read():
    line = b"(" * 255 + b"\n"  # 256 bytes a line, no word: only the size is at stake
    at_limit = line * (LIMITS.file_bytes // len(line))
    assert len(at_limit) == LIMITS.file_bytes
    assert _code(at_limit) is None
    with pytest.raises(LexiconError) as refused:
        read_words(at_limit + b"\n")
    assert refused.value.message.code == "list_file_too_big"
    assert "16 Mo" in refused.value.message.text("fr") and "16 MB" in refused.value.message.text("en")


def test_the_form_refuses_a_file_over_the_limit_by_its_size_before_reading_it(arbiter_client, media):
    upload = SimpleUploadedFile("gros.txt", b"MOT\n" * (LIMITS.file_bytes // 4) + b"X")
    response = arbiter_client.post(reverse("tournaments:tournament_create"), _tournament(upload))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Liste de mots refusée : Fichier trop gros : une liste de mots fait au plus 16 Mo" in page
    assert not Tournament.objects.exists() and _files_left(media) == []


# -- bytes unpacked --------------------------------------------------------------------------------


def test_a_gzip_unpacking_just_past_the_limit_is_refused_and_one_unpacking_to_it_is_read():
    assert len(decode_list(_bomb(LIMITS.text_bytes))) == LIMITS.text_bytes
    with pytest.raises(LexiconError) as refused:
        decode_list(_bomb(LIMITS.text_bytes + 1))
    assert refused.value.message.code == "list_unpacked_too_big"
    assert "16 MB" in refused.value.message.text("en")


def test_a_gzip_bomb_is_refused_in_a_fraction_of_a_second_without_unpacking_it():
    bomb = _bomb(256 * MIB)  # about 260 KB that unpack to 256 MB
    start = time.monotonic()
    assert _code(bomb) == "list_unpacked_too_big"
    assert time.monotonic() - start < 1.0


def test_a_bomb_hidden_in_the_second_member_of_a_gzip_is_refused_too():
    data = gzip.compress(b"MOT\nMOTS\n") + _bomb(LIMITS.text_bytes)
    assert _code(data) == "list_unpacked_too_big"


def test_several_gzip_members_are_read_one_after_the_other():
    data = gzip.compress(b"MOT\n") + gzip.compress("ÉTÉ\n".encode()) + b"\0" * 8
    assert read_words(data) == ["ETE", "MOT"]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="cut in the middle"),
        pytest.param(lambda data: data[:-4], id="its length missing"),
        pytest.param(lambda data: data[:12] + bytes(b ^ 0xFF for b in data[12:30]) + data[30:], id="flipped"),
        pytest.param(lambda data: data + b"garbage", id="followed by garbage"),
        pytest.param(lambda data: data[:2], id="the magic alone"),
    ],
)
def test_a_damaged_or_cut_gzip_is_refused_with_a_sentence(damage):
    data = damage(gzip.compress(b"MOT\nMOTS\nTOME\n" * 50))
    assert _code(data) == "list_gzip_damaged"


def test_a_zip_archive_is_refused_with_what_to_send_instead():
    assert _code(b"PK\x03\x04" + b"\0" * 100) == "list_zip"


# -- lines and their length ------------------------------------------------------------------------


def test_a_list_of_just_too_many_lines_is_refused_and_one_at_the_limit_is_read():
    small = ListLimits(lines=5)
    assert list_lines("A\nB\nC\nD\nE\n", small) == ["A", "B", "C", "D", "E", ""]
    assert list_lines("A\r\nB\rC\nD\nE", small)[-1] == "E"
    with pytest.raises(LexiconError) as refused:
        list_lines("A\nB\nC\nD\nE\nF", small)
    assert refused.value.message.code == "list_too_many_lines"


def test_the_line_limit_itself_is_a_million_and_says_so():
    at_limit = b"\n" * LIMITS.lines
    assert LIMITS.lines == 1_000_000 and _code(at_limit) is None
    with pytest.raises(LexiconError) as refused:
        read_words(at_limit + b"\n")
    assert "1\u202f000\u202f000 lignes" in refused.value.message.text("fr")
    assert "1,000,000 lines" in refused.value.message.text("en")


def test_a_line_just_too_long_is_refused_with_its_number_and_one_at_the_limit_is_read():
    at_limit = "MOT\n" + " " * (LIMITS.line_chars - 3) + "MOT\n"
    assert read_words(at_limit.encode()) == ["MOT"]
    with pytest.raises(LexiconError) as refused:
        read_words(("MOT\n" + " " * (LIMITS.line_chars - 2) + "MOT\n").encode())
    assert refused.value.message.text("en") == (
        "Line 2: more than 256 characters, the limit (a word has at most 15 letters)."
    )


# -- the graph -------------------------------------------------------------------------------------


def test_words_whose_graph_passes_the_node_limit_are_refused_and_at_the_limit_are_kept():
    words = ["ABCDEFGH", "IJKLMNOP", "QRSTUVWX"]  # nothing shared: 1 + 3 x 8 nodes before merging
    nodes = Lexicon.from_words(words, limits=ListLimits()).dawg.node_count
    assert Lexicon.from_words(words, limits=ListLimits(graph_nodes=nodes)).word_count == 3
    with pytest.raises(LexiconError) as refused:
        Lexicon.from_words(words, limits=ListLimits(graph_nodes=nodes - 1))
    assert refused.value.message.code == "list_graph_too_large"


def test_random_letters_are_refused_by_their_graph_long_before_memory_runs_out():
    import random

    rng = random.Random(12)
    words = sorted({"".join(rng.choices("ABCDEFGHIJKLMNOPQRSTUVWXYZ", k=15)) for _ in range(40_000)})
    start = time.monotonic()
    with pytest.raises(LexiconError):
        Lexicon.from_normalized(words, "bruit")
    assert time.monotonic() - start < 15


def test_the_shipped_list_passes_every_limit_with_room(french):
    assert french.dawg.node_count * 5 < LIMITS.graph_nodes
    assert french.word_count * 3 < LIMITS.lines


# -- encodings -------------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_list_saved_in_utf16_with_its_mark_is_read(encoding):
    data = "élève\r\nÉTÉ\r\n".encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    assert read_words(data) == ["ELEVE", "ETE"]


def test_invalid_utf8_after_a_byte_order_mark_is_read_not_an_error():
    assert read_words(b"\xef\xbb\xbfMOT\n\xff\xfeTOME\n") == ["MOT"]


# -- the service: what is kept, and when -----------------------------------------------------------


def test_a_refused_list_leaves_neither_row_nor_file(db, media):
    with pytest.raises(ServiceError) as refused:
        services.lexicon_upload(name="bombe.gz", data=_bomb(64 * MIB))
    assert refused.value.message.code == "lexicon_refused"
    assert refused.value.message.text("fr").startswith("Liste de mots refusée : Une fois décompressée")
    assert not LexiconList.objects.exists() and _files_left(media) == []


def test_an_accepted_list_is_kept_as_its_normalized_words_named_by_their_sha256(db, media):
    row = services.lexicon_upload(name="club.txt.gz", data=gzip.compress("été\nMOT\r\nmot\n".encode()))
    stored = media / "lexicons" / f"{row.sha256}.txt"
    assert row.path == f"lexicons/{row.sha256}.txt" and stored.read_bytes() == b"ETE\nMOT\n"
    assert hashlib.sha256(stored.read_bytes()).hexdigest() == row.sha256
    assert _files_left(media) == [stored.name]


def test_a_list_whose_row_cannot_be_made_leaves_no_file(db, media, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(LexiconList.objects, "get_or_create", broken)
    with pytest.raises(RuntimeError):
        services.lexicon_upload(name="club.txt", data=b"MOT\nTOME\n")
    assert _files_left(media) == []


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("liste\x00du club.txt", "liste du club.txt"),
        ("ods\ud800.txt", "ods .txt"),
        ("a" * 300, "a" * 80),
        ("\x00\x01", "liste"),
        ("  deux   espaces\t.txt ", "deux espaces .txt"),
    ],
)
def test_a_list_name_is_kept_clean_and_within_its_column(db, media, given, kept):
    row = services.lexicon_upload(name=given, data=b"MOT\nTOME\n")
    assert LexiconList.objects.get(pk=row.pk).name == kept


def test_the_list_is_read_and_built_outside_the_rooms_write_lock(db, media, monkeypatch):
    """Only the row's insert waits for the write lock: a slip being stored meanwhile is not held up
    by the reading and the building (on SQLite the lock is the process's write queue)."""
    free_while_building: list[bool] = []
    real_build = Lexicon.from_normalized.__func__

    def spying(cls, *args, **kwargs):
        free_while_building.append(_another_thread_can_take(writes._SQLITE_WRITER))
        return real_build(cls, *args, **kwargs)

    monkeypatch.setattr(Lexicon, "from_normalized", classmethod(spying))
    row = services.lexicon_upload(name="club", data=b"MOT\nTOME\n")
    assert free_while_building == [True] and row.word_count == 2


def _another_thread_can_take(lock) -> bool:
    taken: list[bool] = []

    def take():
        got = lock.acquire(timeout=1)
        taken.append(got)
        if got:
            lock.release()

    thread = threading.Thread(target=take)
    thread.start()
    thread.join(5)
    return taken == [True]


def _tournament(upload) -> dict:
    from lexicons.loaded import lexicon_default_row

    return {
        "name": "Open", "date": "2027-04-03", "place": "Salle", "lexicon": lexicon_default_row().pk,
        "round_seconds": 120, "grading": "computed", "warning_threshold": 3, "warning_penalty": 5,
        "solo_value": 10, "solo_min_players": 16, "grace_seconds": 2, "percent_base": "total",
        "tie_break": "last", "aggregate": "average", "sheet_language": "fr", "lexicon_file": upload,
    }  # fmt: skip
