"""The lexicon (rules §6): normalization, decoding of list files, the DAWG, the disk cache."""

from __future__ import annotations

import gzip
import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.lexicon import DEFAULT_NAME, Dawg, Lexicon, cache_dir
from engine.lexicon.dawg import MAGIC
from engine.lexicon.normalize import checksum, decode_list, normalize_word, normalize_words
from tests.helpers import tiny


def codes(word: str) -> list[int]:
    return [ord(ch) - 64 for ch in word]


# -- normalization (§6) --------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("œuvre", "OEUVRE"),
        ("Œuvre", "OEUVRE"),
        ("Ægide", "AEGIDE"),
        ("tænia", "TAENIA"),
        ("élève", "ELEVE"),
        ("maïs", "MAIS"),
        ("ça", "CA"),
        ("  zoo \r", "ZOO"),
        ("AB", "AB"),
        ("A" * 15, "A" * 15),
        ("l'été", None),
        ("a", None),
        ("A" * 16, None),
        ("pomme de terre", None),
        ("porte-clé", None),
        ("x2", None),
        ("", None),
    ],
)
def test_word_is_normalized_or_dropped(raw, kept):
    assert normalize_word(raw) == kept


def test_list_is_normalized_deduplicated_and_sorted():
    lines = ["zoo", "élève", "ELEVE", "Élève", "a", "l'été", "abc", "", "œuvre", "OEUVRE"]
    assert normalize_words(lines) == ["ABC", "ELEVE", "OEUVRE", "ZOO"]


def test_checksum_is_sha256_of_the_list_one_word_per_line():
    assert checksum(["ABC", "ZOO"]) == hashlib.sha256(b"ABC\nZOO\n").hexdigest()
    assert tiny("zoo", "abc", "ZOO").sha256 == checksum(["ABC", "ZOO"])


# -- decoding the files clubs bring ---------------------------------------------------

LIST = "élève\nÆgide\nmaïs\nçà\nzoo\nl'été\nDÉJÀ\n"
EXPECTED = ["AEGIDE", "CA", "DEJA", "ELEVE", "MAIS", "ZOO"]

ENCODINGS = {
    "utf-8": LIST.encode("utf-8"),
    "utf-8 with BOM": b"\xef\xbb\xbf" + LIST.encode("utf-8"),
    "latin-1": LIST.encode("latin-1"),
    "cp1252 with œ": (LIST + "œuvre\n").encode("cp1252"),
    "utf-8, CRLF": LIST.replace("\n", "\r\n").encode("utf-8"),
    "gzip utf-8": gzip.compress(LIST.encode("utf-8")),
    "gzip latin-1": gzip.compress(LIST.encode("latin-1")),
    "gzip utf-8 with BOM": gzip.compress(b"\xef\xbb\xbf" + LIST.encode("utf-8")),
}


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_every_encoding_of_a_list_gives_the_same_words(encoding):
    extra = ["OEUVRE"] if "œ" in encoding else []
    words = normalize_words(decode_list(ENCODINGS[encoding]).splitlines())
    assert words == sorted(EXPECTED + extra)


@pytest.mark.parametrize("encoding", [e for e in ENCODINGS if "œ" not in e])
def test_every_encoding_of_a_list_gives_the_same_sha256(encoding):
    lexicon = Lexicon.from_bytes(ENCODINGS[encoding], "club", use_cache=False)
    assert lexicon.sha256 == checksum(EXPECTED)
    assert lexicon.word_count == len(EXPECTED)
    assert "DEJA" in lexicon


# -- the DAWG ------------------------------------------------------------------------

small_words = st.sets(st.text("ABCD", min_size=1, max_size=7), max_size=40)
probes = st.lists(st.text("ABCD", max_size=8), max_size=40)


def suffix_lengths(dawg: Dawg, node: int) -> set[int]:
    """Every k such that a word ends k letters below ``node``, by plain enumeration."""
    found = {0} if dawg.lengths[node] & 1 else set()
    for child in dawg.children[node].values():
        found |= {k + 1 for k in suffix_lengths(dawg, child)}
    return found


@given(small_words, probes)
def test_dawg_holds_exactly_its_words(words, others):
    dawg = Dawg.build(sorted(words))
    for word in words:
        assert dawg.contains(codes(word)), word
    for word in others:
        assert dawg.contains(codes(word)) == (word in words), word


@given(small_words)
def test_dawg_length_bits_say_which_word_lengths_lie_below_each_node(words):
    dawg = Dawg.build(sorted(words))
    for node in range(dawg.node_count):
        assert dawg.lengths[node] == sum(1 << k for k in suffix_lengths(dawg, node)), node
    assert suffix_lengths(dawg, dawg.root) == {len(w) for w in words}


@given(small_words)
def test_dawg_is_minimal_no_two_nodes_alike(words):
    # Children are shared bottom-up, so two nodes with the same ending flag and the
    # same edges would be two copies of one state.
    dawg = Dawg.build(sorted(words))
    nodes = range(dawg.node_count)
    signatures = {(dawg.lengths[n] & 1, tuple(sorted(dawg.children[n].items()))) for n in nodes}
    assert len(signatures) == dawg.node_count


def test_empty_dawg_holds_nothing():
    dawg = Dawg.build([])
    assert not dawg.contains([])
    assert not dawg.contains(codes("A"))


def test_walk_stops_at_a_missing_letter():
    dawg = Dawg.build(["MOT", "MOTS"])
    assert dawg.walk(codes("MO")) is not None
    assert dawg.walk(codes("MA")) is None
    node = dawg.walk(codes("MOT"))
    assert dawg.lengths[node] == 0b11


@given(small_words)
def test_dawg_bytes_read_back_to_the_same_graph(words):
    dawg = Dawg.build(sorted(words))
    again = Dawg.from_bytes(dawg.to_bytes())
    assert again.children == dawg.children
    assert again.lengths == dawg.lengths
    assert again.root == dawg.root


@given(st.one_of(st.binary(), st.binary().map(MAGIC.__add__)))
def test_dawg_bytes_that_are_not_a_graph_raise_value_error(data):
    try:
        dawg = Dawg.from_bytes(data)
    except ValueError:
        return
    # Random bytes that happen to form a well-formed graph must give a usable one.
    assert len(dawg.lengths) == dawg.node_count >= 1
    dawg.contains(codes("ABC"))


def test_every_truncation_of_dawg_bytes_is_refused():
    data = Dawg.build(["CHAT", "CHATS", "MOT", "MOTS"]).to_bytes()
    for cut in range(len(data)):
        with pytest.raises(ValueError):
            Dawg.from_bytes(data[:cut])


# -- lexicons ------------------------------------------------------------------------

ranked_words = st.sets(st.text("ABCD", min_size=2, max_size=6), max_size=40)


@given(ranked_words, st.lists(st.text("ABCD", max_size=8), max_size=40))
def test_lexicon_accepts_exactly_the_words_of_its_list(words, others):
    lexicon = Lexicon.from_words(words, name="random")
    assert lexicon.word_count == len(words)
    for word in words:
        assert word in lexicon
        assert codes(word) in lexicon
    for word in others:
        assert (word in lexicon) == (word in words)


def test_lexicon_membership_needs_upper_case_ascii():
    lexicon = tiny("mot", "élève")
    assert "MOT" in lexicon
    assert "ELEVE" in lexicon
    assert "mot" not in lexicon
    assert "ÉLÈVE" not in lexicon
    assert "MOT1" not in lexicon
    assert "" not in lexicon


def test_two_lexicons_in_one_process_do_not_interfere():
    cats = tiny("CHAT", "CHATS")
    words = tiny("MOT", "MOTS")
    assert "CHAT" in cats and "CHAT" not in words
    assert "MOT" in words and "MOT" not in cats
    assert cats.sha256 != words.sha256
    assert (cats.name, cats.word_count) == ("tiny", 2)


def test_two_lists_loaded_from_bytes_keep_their_names_and_words(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_CACHE_DIR", str(tmp_path))
    first = Lexicon.from_bytes(b"chat\nchats\n", "first")
    second = Lexicon.from_bytes(b"mot\nmots\n", "second")
    again = Lexicon.from_bytes(b"chat\nchats\n", "renamed")
    assert (first.name, second.name, again.name) == ("first", "second", "renamed")
    assert "CHAT" in first and "CHAT" not in second and "CHAT" in again
    assert "MOT" in second and "MOT" not in first
    assert again.sha256 == first.sha256 != second.sha256


def test_lexicon_from_file_is_named_after_the_file(tmp_path):
    path = tmp_path / "club-list.txt.gz"
    path.write_bytes(gzip.compress(b"mot\n"))
    lexicon = Lexicon.from_file(path, use_cache=False)
    assert lexicon.name == "club-list"
    assert lexicon.identity == f"club-list:{checksum(['MOT'])}"


# -- the disk cache ----------------------------------------------------------------------

LIST_BYTES = "mot\nmots\nchat\nchats\nélève\n".encode()


def cache_file():
    return cache_dir() / f"{hashlib.sha256(LIST_BYTES).hexdigest()}.dawg"


def assert_right_lexicon(lexicon: Lexicon) -> None:
    assert lexicon.name == "club"
    assert lexicon.word_count == 5
    assert lexicon.sha256 == checksum(["CHAT", "CHATS", "ELEVE", "MOT", "MOTS"])
    for word in ("MOT", "MOTS", "CHAT", "CHATS", "ELEVE"):
        assert word in lexicon
    for word in ("MO", "CHA", "ELEVES", "TOM"):
        assert word not in lexicon


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of the test's own, holding the cache of LIST_BYTES."""
    monkeypatch.setenv("ARBITER_CACHE_DIR", str(tmp_path))
    Lexicon.from_bytes(LIST_BYTES, "club")
    return cache_file()


def test_cache_file_is_written_in_the_cache_dir(cache, tmp_path):
    assert cache.is_file()
    assert tmp_path in cache.parents


def test_lexicon_read_from_cache_behaves_as_the_built_one(cache, monkeypatch):
    built = Lexicon.from_bytes(LIST_BYTES, "club", use_cache=False)

    def no_rebuild(cls, words, name="custom"):
        raise AssertionError("rebuilt although the cache is sound")

    monkeypatch.setattr(Lexicon, "from_words", classmethod(no_rebuild))
    cached = Lexicon.from_bytes(LIST_BYTES, "club")
    assert_right_lexicon(cached)
    assert cached.dawg.children == built.dawg.children
    assert cached.dawg.lengths == built.dawg.lengths


def damaged_versions(data: bytes):
    """Every truncation, a flipped byte at every position, and some plain garbage."""
    for cut in range(len(data)):
        yield f"cut at {cut}", data[:cut]
    for pos in range(len(data)):
        flipped = bytearray(data)
        flipped[pos] ^= 0x5A
        yield f"byte {pos} flipped", bytes(flipped)
    yield "garbage", b"\x00\xff" * 100
    yield "old format", b"LEXCACHE1\n" + data[data.index(b"\n", 10) + 1 :]


def test_damaged_cache_file_is_ignored_and_rebuilt(cache):
    sound = cache.read_bytes()
    for label, damaged in damaged_versions(sound):
        cache.write_bytes(damaged)
        assert_right_lexicon(Lexicon.from_bytes(LIST_BYTES, "club"))
        assert cache.read_bytes() == sound, label


def test_unwritable_cache_dir_still_gives_the_lexicon(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_bytes(b"")
    monkeypatch.setenv("ARBITER_CACHE_DIR", str(blocker))
    assert_right_lexicon(Lexicon.from_bytes(LIST_BYTES, "club"))
    assert list(tmp_path.iterdir()) == [blocker]


# -- the shipped list ---------------------------------------------------------------------


def test_default_lexicon_is_the_shipped_french_list(french):
    assert french.name == DEFAULT_NAME == "fr-wfrench"
    assert french.sha256 == "aef5dec11010168ed0ce7273f7f9db3b71bf23e066b9758bc1ee13f214d479c5"
    assert french.word_count == 317790
    assert french.identity == f"fr-wfrench:{french.sha256}"


def test_default_lexicon_knows_french_words(french):
    for word in ("CALFEUTRE", "DEFOULER", "ELEVE", "OEUVRE", "MOT"):
        assert word in french, word
    for word in ("CALFEUTREZZ", "A", "QWXZ"):
        assert word not in french, word
