"""Game records, the ``duplicate-game/1`` and ``/2`` JSON file of one game (rules §1.3, §3.1, §5).

Version 2 carries the game's letter set (``letters``) and writes a tile of
several characters in brackets (``CO[CH]E``); a French game is written ``/1``
(the version without a letter set), and both are read.  Version 2 may name an
original game's variant (``"variant": "joker"``, ``variants.Variant``; classic
when absent): a game of another variant is written ``/2`` even in French.  A
word may be written without brackets when the set's spelling rule reads it one
way (``COCHE``); a rack never (``CH`` in a rack is the C and H tiles).

One format serves a prepared game the arbiter replays, the export of a game
played, and the reference games of the tests.  Reading is two steps:

* ``parse`` checks the structure: JSON, keys, types, notation, the total;
* ``check`` replays the game on an empty board and a full bag: each rack must
  be drawable (its reliquat is what the previous top left, its new tiles are
  in the bag, it is full while the bag lasts and meets the minimum, §3.1),
  each top must be a legal move made from that rack and score what the
  record says.

Either raises ``RecordError`` naming the round (or none, for the file) and the
reason; nothing of the record is kept then.  ``load`` does both.

Decisions the format leaves open:

* Keys outside the format are an error, not carried along: a misspelt
  ``"tied"`` must not vanish silently, and a later format gets a new version.
* Optional keys (``title``, ``date``, ``seed``, ``tied``) are absent or of
  their type; ``null`` is not "absent".  Racks, references and words are read
  as the notation parsers read them (``h4`` is ``H4``); ``dumps`` writes them
  back in their canonical form.
* A record's lexicon name differing from the list it is checked with is not
  an error (a club may have renamed its list): ``check`` returns it as a
  warning.  A word missing from the list is an error as usual.
* When the bag is empty and nothing is drawn, the rack is the reliquat alone;
  the reference games write it without ``+`` (``CEJP``), and ``CEJP+`` is read
  the same.  Otherwise a rack with neither mark must follow a top that used
  every tile.
* The case of a letter already on the board must match it: records are
  machine-written, so a blank written upper case (or a letter lower case)
  there means the writer lost track of the board.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from engine import record_texts as record_texts  # the sentences of this module's messages
from engine.alphabet import BLANK_FLAG, FRENCH, LetterSet, is_blank, letter_of
from engine.board import SIZE, Board, square_name
from engine.draw import Bag, DrawError, check_typed_rack, remaining_after
from engine.lettersets import UnknownLetterSet, letter_set
from engine.lexicon import Lexicon
from engine.messages import Message, languages
from engine.notation import NotationError, RackText, Ref, parse_rack, parse_ref, parse_word, rack_text
from engine.play import Play
from engine.scoring import Illegal, evaluate
from engine.texts import codepoint, forbidden_char, quoted
from engine.variants import UnknownVariant, Variant, after_top

#: The format of a French game; ``FORMAT_2`` of a game of any other letter set.
FORMAT = "duplicate-game/1"
FORMAT_2 = "duplicate-game/2"
FORMATS = (FORMAT, FORMAT_2)

_GAME_KEYS = ("format", "lexicon", "rounds", "total")
_GAME_OPTIONAL = ("title", "date", "seed")
#: Keys of version 2 only, when the game is not the classic one.
_GAME_VARIANT = ("variant",)
_ROUND_KEYS = ("rack", "ref", "word", "score")
_ROUND_OPTIONAL = ("tied",)

#: Limits, checked before anything costs.  The file's size (a whole game with a long title is about 8 KB).
MAX_BYTES = 256 * 1024
#: Arrays and objects inside one another: the format needs 3 (the game, its rounds, a round).
MAX_DEPTH = 8
#: 102 tiles, at least two placed by the first top and one by every other: no game has more rounds.
MAX_ROUNDS = 101
#: A text of the file (title, date, lexicon, seed; racks and words are far shorter).
MAX_TEXT = 200
#: Every whole number fits every database's integer column and every reader's number.
MAX_INTEGER = 2**31 - 1
#: The refusal of a file past ``MAX_BYTES``, also said by a form that sees the size first.
TOO_BIG = Message("record_too_big", {"kib": MAX_BYTES // 1024})


class RecordError(ValueError):
    """A record that cannot be imported.

    ``round`` is the 1-based round at fault, or None for the file as a whole;
    ``reason`` says what is wrong; ``message`` is the sentence shown, the reason
    prefixed with the round ("Tour 7 : ...").
    """

    def __init__(self, reason: Message, round: int | None = None):
        self.reason = reason
        self.round = round
        self.message = reason if round is None else _in_round(round, reason)
        super().__init__(self.message.text("en"))


def _in_round(number: int, reason: Message) -> Message:
    # The reason is rendered now in every language so the message stays plain data.
    texts = {f"reason_{lang}": _lower_first(reason.text(lang)) for lang in languages()}
    return Message("record_in_round", {"round": number, **texts})


def _lower_first(text: str) -> str:
    """``Lettres absentes`` after a colon is ``lettres absentes``; ``H8 ...`` stays."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


# -- the record ---------------------------------------------------------------


@dataclass(frozen=True)
class RecordRound:
    rack: RackText
    ref: Ref
    #: The whole main word as read on the board, blanks (new or old) in lower case.
    word: str
    score: int
    #: How many distinct moves reach the top score, when the writer counted them.
    tied: int | None = None


@dataclass(frozen=True)
class GameRecord:
    lexicon: str
    rounds: tuple[RecordRound, ...]
    title: str | None = None
    date: str | None = None
    seed: int | str | None = None
    letters: LetterSet = FRENCH
    variant: Variant = Variant.CLASSIC

    @property
    def total(self) -> int:
        """The top of the game: always the sum of the rounds, so it cannot disagree with them."""
        return sum(r.score for r in self.rounds)


# -- parse: the structure ---------------------------------------------------------


def parse(data: str | bytes | dict) -> GameRecord:
    """A record from JSON text, its bytes (UTF-8) or the decoded object; structure only."""
    obj = _decode(data)
    if not isinstance(obj, dict):
        raise RecordError(Message("record_game_not_object"))
    letters = _letters(obj)
    version_2 = obj["format"] == FORMAT_2
    required = _GAME_KEYS + (("letters",) if version_2 else ())
    _check_keys(obj, required, _GAME_OPTIONAL + (_GAME_VARIANT if version_2 else ()), None)
    variant = _variant(obj)
    lexicon = _text(obj, "lexicon", None)
    rounds = _rounds(obj["rounds"], letters, variant)
    total = _integer(obj, "total", None, minimum=0)
    record = GameRecord(
        lexicon,
        rounds,
        title=_text(obj, "title", None) if "title" in obj else None,
        date=_text(obj, "date", None) if "date" in obj else None,
        seed=_seed(obj) if "seed" in obj else None,
        letters=letters,
        variant=variant,
    )
    if total != record.total:
        raise RecordError(Message("record_total", {"claimed": total, "actual": record.total}))
    return record


def _decode(data: str | bytes | dict) -> object:
    if isinstance(data, dict):
        return data
    if isinstance(data, bytes | bytearray | str) and len(data) > MAX_BYTES:
        raise RecordError(TOO_BIG)
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise RecordError(Message("record_encoding")) from None
    if not isinstance(data, str):
        raise RecordError(Message("record_game_not_object"))
    if _nesting_past(data, MAX_DEPTH):
        raise RecordError(
            _unreadable(f"plus de {MAX_DEPTH} niveaux d'imbrication", f"nested over {MAX_DEPTH} deep")
        )
    try:
        return json.loads(data, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as e:
        raise RecordError(Message("record_json", {"line": e.lineno, "column": e.colno})) from None
    except RecordError:
        raise
    except (ValueError, RecursionError):
        # An integer past Python's digit limit (4,300 digits).
        raise RecordError(_unreadable("un nombre démesuré", "a number far too long")) from None


def _unreadable(why_fr: str, why_en: str) -> Message:
    return Message("record_json_unreadable", {"why_fr": why_fr, "why_en": why_en})


#: A text, to its closing quote (or to the end of a file that never closes it), or a bracket.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')
_DEPTH = {"[": 1, "{": 1, "]": -1, "}": -1}


def _nesting_past(text: str, limit: int) -> bool:
    """Whether arrays and objects nest deeper than ``limit``, found before the parser recurses."""
    return any(depth > limit for depth in accumulate(_DEPTH.get(token, 0) for token in _TOKEN.findall(text)))


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise RecordError(Message("record_duplicate_key", {"key": quoted(key)}))
        obj[key] = value
    return obj


def _letters(obj: dict) -> LetterSet:
    """The record's letter set: French in ``/1``, named by ``letters`` in ``/2``."""
    if "format" not in obj:
        raise RecordError(Message("record_missing_key", {"key": "format"}))
    found = obj["format"]
    if found not in FORMATS:
        shown = quoted(found) if isinstance(found, str) else "?"
        raise RecordError(Message("record_format", {"found": shown, "expected": " / ".join(FORMATS)}))
    if found == FORMAT:
        if "letters" in obj:
            raise RecordError(Message("record_letters_v1"))
        if "variant" in obj:
            raise RecordError(Message("record_variant_v1"))
        return FRENCH
    if "letters" not in obj:
        raise RecordError(Message("record_letters"))
    try:
        return letter_set(obj["letters"])
    except UnknownLetterSet as e:
        raise RecordError(e.message) from None


def _variant(obj: dict) -> Variant:
    """The record's variant: classic unless ``/2`` names another."""
    if "variant" not in obj:
        return Variant.CLASSIC
    try:
        return Variant.parse(obj["variant"])
    except UnknownVariant as e:
        raise RecordError(e.message) from None


def _check_keys(obj: dict, required: tuple, optional: tuple, round: int | None) -> None:
    for key in required:
        if key not in obj:
            raise RecordError(Message("record_missing_key", {"key": key}), round)
    for key in obj:
        if key not in required and key not in optional:
            raise RecordError(Message("record_unknown_key", {"key": quoted(key)}), round)


def _text(obj: dict, key: str, round: int | None) -> str:
    value = obj[key]
    if not isinstance(value, str) or not value:
        raise RecordError(Message("record_not_text", {"key": key}), round)
    return _clean_text(value, key, round)


def _clean_text(value: str, key: str, round: int | None) -> str:
    """A text a page and either database can hold, or ``RecordError`` saying what is wrong."""
    if len(value) > MAX_TEXT:
        raise RecordError(Message("record_text_long", {"key": key, "limit": MAX_TEXT}), round)
    bad = forbidden_char(value)
    if bad is not None:
        raise RecordError(Message("record_text_char", {"key": key, "char": codepoint(bad)}), round)
    return value


def _integer(obj: dict, key: str, round: int | None, minimum: int) -> int:
    value = obj[key]
    # ``True`` is an int to Python but not a number in the file.
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= MAX_INTEGER:
        params = {"key": key, "minimum": minimum, "maximum": MAX_INTEGER}
        raise RecordError(Message("record_not_integer", params), round)
    return value


def _seed(obj: dict) -> int | str:
    value = obj["seed"]
    if isinstance(value, str):
        return _clean_text(value, "seed", None)
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= 2**63:
        raise RecordError(Message("record_seed"))
    return value


def _rounds(value: object, letters: LetterSet, variant: Variant) -> tuple[RecordRound, ...]:
    if not isinstance(value, list):
        raise RecordError(Message("record_not_list", {"key": "rounds"}))
    if not value:
        raise RecordError(Message("record_no_rounds"))
    if len(value) > MAX_ROUNDS:
        raise RecordError(Message("record_too_many_rounds", {"limit": MAX_ROUNDS, "count": len(value)}))
    return tuple(_round(item, number, letters, variant.rack_size) for number, item in enumerate(value, 1))


def _round(obj: object, number: int, letters: LetterSet, rack_size: int) -> RecordRound:
    if not isinstance(obj, dict):
        raise RecordError(Message("record_round_not_object"), number)
    _check_keys(obj, _ROUND_KEYS, _ROUND_OPTIONAL, number)
    texts = {key: _text(obj, key, number) for key in ("rack", "ref", "word")}
    try:
        rack = parse_rack(texts["rack"], letters, rack_size)
        ref = parse_ref(texts["ref"])
        word = str(parse_word(texts["word"], letters))
    except NotationError as e:
        raise RecordError(e.message, number) from None
    if not rack.tiles:
        raise RecordError(Message("record_rack_empty"), number)
    score = _integer(obj, "score", number, minimum=0)
    tied = _integer(obj, "tied", number, minimum=1) if "tied" in obj else None
    return RecordRound(rack, ref, word, score, tied)


# -- check: the replay ------------------------------------------------------------


@dataclass(frozen=True)
class ReplayedGame:
    """A record that replays: the top placed each round, and what is worth telling the arbiter."""

    record: GameRecord
    plays: tuple[Play, ...]
    warnings: tuple[Message, ...] = ()
    #: The tiles each round put on the board (``variants.after_top``): a joker game's blank swapped
    #: for its letter is that letter.  Empty: each play's own tiles.
    placed: tuple[tuple[tuple[int, int], ...], ...] = ()

    def board_after(self, rounds: int) -> Board:
        """A fresh board carrying the first ``rounds`` tops (0: the empty board)."""
        board = Board()
        for tiles in (self.placed or tuple(play.tiles for play in self.plays))[:rounds]:
            board.place(tiles)
        return board


def check(record: GameRecord, lexicon: Lexicon) -> ReplayedGame:
    """Replay ``record`` with ``lexicon``, whose words must be read for the record's letter set;
    raise ``RecordError`` at the first round that fails."""
    if lexicon.letters != record.letters:
        params = {"record": record.letters.code, "lexicon": lexicon.letters.code}
        raise RecordError(Message("record_letters_lexicon", params))
    replay = _Replay(lexicon, record.variant)
    plays = tuple(replay.round(number, r) for number, r in enumerate(record.rounds, 1))
    warnings = list(replay.warnings)
    if record.lexicon != lexicon.name:
        warnings.append(Message("record_lexicon_name", {"record": record.lexicon, "lexicon": lexicon.name}))
    return ReplayedGame(record, plays, tuple(warnings), tuple(replay.placed))


def load(data: str | bytes | dict, lexicon: Lexicon) -> GameRecord:
    """``parse`` then ``check``: a record that is sound, or ``RecordError``.

    The replay's plays and warnings are dropped; call ``check`` to keep them.
    """
    record = parse(data)
    check(record, lexicon)
    return record


#: Rack problems that break a drawing rule without making the game impossible: the tops can
#: still be replayed, so a record carrying them loads, with a warning for the arbiter.  The
#: format's errors are moves that cannot be placed, letters not in the rack, wrong scores.
DRAW_DEVIATIONS = frozenset(
    {
        "draw_rack_short",
        "draw_below_minimum",
        "draw_below_minimum_blank",
        "draw_joker_missing",
        "draw_joker_two",
    }
)


class _Replay:
    """The board, the bag and the reliquat, carried from round to round."""

    def __init__(self, lexicon: Lexicon, variant: Variant = Variant.CLASSIC):
        self.lexicon = lexicon
        self.letters = lexicon.letters
        self.variant = variant
        self.board = Board()
        self.bag = Bag.full(self.letters)
        self.leave: tuple[int, ...] = ()
        self.warnings: list[Message] = []
        self.placed: list[tuple[tuple[int, int], ...]] = []

    def round(self, number: int, r: RecordRound) -> Play:
        try:
            self._draw(number, r.rack)
            play = self._place(number, r)
        except (NotationError, DrawError) as e:
            raise RecordError(e.message, number) from None
        if self.variant.recycles_blank:
            placed = after_top(self.variant, r.rack.tiles, play, self.bag.tiles())
            self.bag = Bag(placed.bag, self.letters)
            tiles, self.leave = placed.tiles, placed.reliquat
        else:
            tiles, self.leave = play.tiles, remaining_after(r.rack.tiles, play.rack_used, self.letters)
        self.board.place(tiles)
        self.placed.append(tiles)
        return play

    def _draw(self, number: int, rack: RackText) -> None:
        reliquat, new = rack.reliquat, rack.new
        if rack.rejected:
            # §3.1.4: every tile of the rejected rack, reliquat included, went back.
            self.bag.put_back(self.leave)
        elif not reliquat and self.leave and sorted(new) == sorted(self.leave):
            # Nothing drawn (the bag is empty): the reliquat is the whole rack, written
            # without "+" as the reference games do; ``check_typed_rack`` sees the bag is empty.
            reliquat, new = new, ()
        else:
            self._check_reliquat(number, reliquat)
        for problem in check_typed_rack(reliquat, new, self.bag, number, variant=self.variant):
            if problem.code == "draw_joker_missing" and self.variant.explodes:
                continue  # the blank exploded: a rack shows the letter it became
            if problem.code in DRAW_DEVIATIONS:
                self.warnings.append(_in_round(number, problem))
            else:
                raise RecordError(problem, number)
        self.bag.take(new)

    def _check_reliquat(self, number: int, reliquat: tuple[int, ...]) -> None:
        """§3.1.2: the tiles the previous top did not use stay, and only they."""
        if sorted(reliquat) == sorted(self.leave):
            return
        given, expected = (
            rack_text(sorted(reliquat), self.letters),
            rack_text(sorted(self.leave), self.letters),
        )
        if number == 1:
            reason = Message("record_first_reliquat", {"given": given})
        elif not self.leave:
            reason = Message("record_reliquat_extra", {"given": given})
        elif not reliquat:
            reason = Message("record_reliquat_missing", {"expected": expected})
        else:
            reason = Message("record_reliquat_wrong", {"given": given, "expected": expected})
        raise RecordError(reason, number)

    def _place(self, number: int, r: RecordRound) -> Play:
        if number == 1 and not r.ref.horizontal:
            # §3.3.4: the first top is placed horizontally.
            raise RecordError(Message("record_first_vertical", {"ref": str(r.ref)}), number)
        typed = parse_word(r.word, self.letters)
        tiles = [c | BLANK_FLAG if low else c for c, low in zip(typed.letters, typed.lower, strict=True)]
        result = evaluate(self.board, self.lexicon, r.ref, tiles, r.rack.tiles, **self.variant.limits)
        if isinstance(result, Illegal):
            raise RecordError(result.problems[0].message, number)
        if result.word != str(typed):
            raise RecordError(self._case_mismatch(r.ref, result.word, str(typed)), number)
        if result.score != r.score:
            raise RecordError(Message("record_score", {"claimed": r.score, "actual": result.score}), number)
        return result

    def _case_mismatch(self, ref: Ref, on_board: str, written: str) -> Message:
        """The first letter already on the board whose case says the wrong thing about its blank."""
        i = next(i for i, (a, b) in enumerate(zip(on_board, written, strict=True)) if a != b)
        sq = ref.square + i * (1 if ref.horizontal else SIZE)
        tile = self.board.cells[sq]
        params = {"square": square_name(sq), "letter": self.letters.name(letter_of(tile))}
        code = "record_blank_on_board" if is_blank(tile) else "record_letter_on_board"
        return Message(code, params)


# -- writing ------------------------------------------------------------------------


def to_dict(record: GameRecord) -> dict:
    """The record as the JSON object of the format, optional keys only when set: ``/1`` for a
    French game, ``/2`` with its ``letters`` for any other."""
    if record.letters is FRENCH and record.variant is Variant.CLASSIC:
        data: dict = {"format": FORMAT, "lexicon": record.lexicon}
    else:
        data = {"format": FORMAT_2, "letters": record.letters.code, "lexicon": record.lexicon}
    if record.variant is not Variant.CLASSIC:
        data["variant"] = record.variant.value
    for key in _GAME_OPTIONAL:
        value = getattr(record, key)
        if value is not None:
            data[key] = value
    data["rounds"] = [_round_dict(r) for r in record.rounds]
    data["total"] = record.total
    return data


def _round_dict(r: RecordRound) -> dict:
    data = {"rack": str(r.rack), "ref": str(r.ref), "word": r.word, "score": r.score}
    if r.tied is not None:
        data["tied"] = r.tied
    return data


def dumps(record: GameRecord) -> str:
    """The record's file text, laid out like the reference games."""
    return json.dumps(to_dict(record), indent=1, ensure_ascii=False) + "\n"


def from_plays(
    lexicon: str,
    racks: Sequence[RackText],
    plays: Sequence[Play],
    *,
    tied: Sequence[int | None] | None = None,
    title: str | None = None,
    date: str | None = None,
    seed: int | str | None = None,
    letters: LetterSet | None = None,
    variant: Variant = Variant.CLASSIC,
) -> GameRecord:
    """The record of a game played: each round's rack and the top placed, with ``lexicon``'s name
    and the game's ``letters`` (by default the racks' set).

    ``tied`` gives, per round, how many moves reached the top (None where not
    counted).  Nothing is checked here; ``check`` replays the result.
    """
    tied = list(tied) if tied is not None else [None] * len(plays)
    if not len(racks) == len(plays) == len(tied):
        raise ValueError(f"{len(racks)} racks, {len(plays)} plays and {len(tied)} tie counts")
    rounds = tuple(
        RecordRound(rack, play.ref, play.word, play.score, n)
        for rack, play, n in zip(racks, plays, tied, strict=True)
    )
    if letters is None:
        letters = racks[0].letter_set if racks else FRENCH
    return GameRecord(lexicon, rounds, title=title, date=date, seed=seed, letters=letters, variant=variant)


__all__ = [
    "FORMAT",
    "FORMATS",
    "FORMAT_2",
    "GameRecord",
    "RecordError",
    "RecordRound",
    "ReplayedGame",
    "check",
    "dumps",
    "from_plays",
    "load",
    "parse",
    "to_dict",
]
