"""Grading a slip: what a player is paid for what they handed in (rules §3.3.3, §3.4).

``grade`` takes the round's position and the slip as typed (``notation.SlipText``)
and returns a ``Grade``: the points paid, the sanction (none, a warning, the
−5 penalty or a zero), the zero's reason, the move as understood and a
sentence for the player.  Two settings (§3.4): **FISF** (word, reference and
claimed score; warnings and the −5) and **computed** (word and reference; the
score is computed; no warnings, never −5).

How this module settles what the rules leave open for typed slips:

* **Reversed reference, reversed direction.**  On a paper slip the direction
  is said twice: by the reference (``H4`` or ``4H``) and by the way the word
  is written on the slip's grid; either alone may be wrong (a warning), both
  wrong is a wrong place.  A typed slip says it once, by the reference, so the
  two faults are one: the right first cell in the wrong orientation (``4H``
  for a word that only fits horizontally from H4).  It is paid the true score
  with a ``REFERENCE`` warning in FISF, without one in computed grading.  If
  the word fits both ways, it is taken as written.  Any other cell is a wrong
  place, including the transposed cell (``D8`` or ``8D`` for H4): that names
  another square of the board, not the same square read the other way.
* **Blanks.**  Only the case of newly placed letters counts (letters on the
  board may be typed in either case).  At the slip's place, the reading kept
  is the legal choice of blank squares closest to the marking (fewest letters
  whose case must change); unmarked letters stay real tiles when the rack has
  them, and a letter the rack lacks is read as a blank when one is left.  If
  several readings are equally close (two new R, one R and a blank in the
  rack, no R marked), the best-scoring one is paid.  Any difference from the
  marking (a missing mark, a mark on the wrong letter, a lower-case letter
  with no blank in the rack) is a ``BLANK`` warning in FISF.
* **Round 1.**  The reference is ignored and the word goes horizontally
  through H8 where it scores best, with the blanks read as above (a blank
  marked on a letter the rack holds is a legal choice and is kept); the
  claimed score is compared with that score.
* **Wrong or missing reference** (FISF, from round 2): the claimed score must
  equal the score of some legal placement of the word (any blank choice);
  then claimed − 5 is paid (0 for a claim of exactly 5) with a ``PENALTY``,
  and a claim of 4 or less is a zero (reason ``PLACE``).  Otherwise nothing
  acceptable was handed in: zero.  In computed grading a wrong or missing
  reference is a zero.
* **Zero reasons.**  ``MISSING`` (no slip) is this module's addition to the
  rules' list.  The place-dependent reasons (cross word, rack, place) are
  those of the slip's reference as written: the reversed reading is a
  tolerance for legal moves, not a second place to look for a reason.  With
  no reference, a word that fits somewhere is a ``PLACE`` zero (nothing
  acceptable), and a word that fits nowhere gets the earliest reason among
  the places it could physically take.  A claim above the top
  (``ABOVE_TOP``) is checked last: it turns into a zero a slip that would
  otherwise be paid, and leaves a slip that is already zero with its reason.
  In computed grading a typed score is ignored, above the top or not.
* **One warning per slip**, the first that applies of: reference, blank,
  score.  A −5 or a zero carries none.
* **Too many tiles** (seven among eight, ``Position.played_max``): a slip laying 8 tiles of its
  8 is no move; at its reference it is a ``PLACE`` zero saying so, after the cross-word and
  rack reasons, even where the word fits elsewhere with fewer tiles (the place is the one meant).
* **Unreadable text** (``grade_text``): a zero with reason ``WORD`` when the
  word cannot be read, ``PLACE`` for anything else (reference, layout, empty
  slip); ``detail`` carries the parser's sentence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from engine.alphabet import BLANK, LetterSet, is_blank
from engine.board import CENTER, SIZE
from engine.messages import Message, register
from engine.movegen import Position, find_tops
from engine.notation import NotationError, Ref, SlipText, TypedWord, parse_slip
from engine.play import Play
from engine.scoring import Illegal, Problem, Reason, evaluate, word_placements

#: The −5 for a wrong or missing reference (§3.4).
PENALTY = 5
#: A claimed score of this much or less leaves nothing after the penalty: zero (§3.4).
PENALTY_FLOOR = 4


class Mode(Enum):
    """The slip-grading setting printed on the result sheets (§3.4)."""

    FISF = "fisf"
    COMPUTED = "computed"


class Sanction(Enum):
    NONE = "none"
    WARNING = "warning"
    PENALTY = "penalty"
    ZERO = "zero"


class ZeroReason(Enum):
    """Why a slip scores zero, in the order of §3.4 (``MISSING`` and ``ABOVE_TOP`` aside)."""

    MISSING = "missing"
    LATE = "late"
    WORD = "word"
    CROSSWORD = "crossword"
    RACK = "rack"
    PLACE = "place"
    ABOVE_TOP = "above_top"


class WarningKind(Enum):
    """Why a slip got its warning; at most one per slip, in this order of precedence."""

    REFERENCE = "reference"
    BLANK = "blank"
    SCORE = "score"


@dataclass(frozen=True, slots=True)
class Grade:
    paid: int
    sanction: Sanction
    reason: ZeroReason | None
    message: Message
    #: The move as understood (the one paid or penalised), when there is one.
    play: Play | None = None
    warning_kind: WarningKind | None = None
    #: The sentence behind a zero for a bad place or an unreadable slip, from the scorer or the parser.
    detail: Message | None = None


#: §3.4: warnings free before the end-of-game penalty, and in blitz (rounds of a minute or less).
WARNING_THRESHOLD = 3
BLITZ_WARNING_THRESHOLD = 5
BLITZ_SECONDS = 60


def warning_threshold(round_seconds: int) -> int:
    """The warnings free before the end-of-game penalty (§3.4): three, five in blitz."""
    return BLITZ_WARNING_THRESHOLD if round_seconds <= BLITZ_SECONDS else WARNING_THRESHOLD


def end_penalty(warnings: int, threshold: int = WARNING_THRESHOLD, value: int = 5) -> int:
    """Points taken off at the end of the game for the warnings beyond the threshold (§3.4)."""
    return value * max(0, warnings - threshold)


# -- the public API -----------------------------------------------------------


def grade(
    position: Position, slip: SlipText | None, mode: Mode, *, top: int | None = None, late: bool = False
) -> Grade:
    """What the slip is paid in this position; ``top`` defaults to the position's top score."""
    if slip is None:
        return _zero(ZeroReason.MISSING, "grade_zero_missing")
    if late:
        return _zero(ZeroReason.LATE, "grade_zero_late")
    letters = slip.word.letters
    if letters not in position.lexicon:
        return _zero(ZeroReason.WORD, "grade_zero_word", word=position.lexicon.letters.word(letters))
    rack = tuple(position.rack)
    first = position.is_first_move

    def placements(refs=None) -> list[Play]:
        return word_placements(
            position.board, position.lexicon, letters, rack, first_move=first, refs=refs, **_limits(position)
        )

    if first:
        result = _grade_first(position, slip, mode, placements())
    else:
        result = _grade_placed(position, slip, mode, placements)
    return _check_top(position, slip, mode, top, result)


def grade_text(
    position: Position, text: str, mode: Mode, *, top: int | None = None, late: bool = False
) -> Grade:
    """``grade`` on a typed slip; a slip that cannot be read is a zero, never an exception."""
    if late:
        return _zero(ZeroReason.LATE, "grade_zero_late")
    try:
        slip = parse_slip(text, position.lexicon.letters)
    except NotationError as error:
        return _unreadable(text, error)
    return grade(position, slip, mode, top=top)


# -- paying a place -----------------------------------------------------------


def _grade_first(position: Position, slip: SlipText, mode: Mode, placements: list[Play]) -> Grade:
    """Round 1: no reference needed, the word is paid where it scores best (§3.4)."""
    if not placements:
        return _nowhere(position, slip.word.letters)
    play, blank_fault = _reading(placements, slip.word)
    return _paid(play, slip, mode, reversed_ref=False, blank_fault=blank_fault)


def _grade_placed(position: Position, slip: SlipText, mode: Mode, placements_at) -> Grade:
    """``placements_at(refs)``: the word's placements at those references, or everywhere (None).
    A slip read at its own reference (most are) is graded without searching the whole board."""
    if slip.ref is not None:
        for ref, reversed_ref in ((slip.ref, False), (slip.ref.reversed(), True)):
            at_ref = placements_at((ref,))
            if at_ref:
                play, blank_fault = _reading(at_ref, slip.word)
                return _paid(play, slip, mode, reversed_ref=reversed_ref, blank_fault=blank_fault)
    placements = placements_at(None)
    if mode is Mode.FISF and slip.score is not None:
        matching = [p for p in placements if p.score == slip.score]
        if matching:
            return _penalty(slip, _reading(matching, slip.word)[0])
    return _unplaced(position, slip, mode, placements)


def _reading(plays: Sequence[Play], typed: TypedWord) -> tuple[Play, bool]:
    """The placement closest to the blank marking, best score among equals; and whether it differs."""

    def fit(play: Play) -> tuple[int, int]:
        return _marking_distance(play, typed), -play.score

    best = min(plays, key=fit)
    return best, _marking_distance(best, typed) > 0


def _marking_distance(play: Play, typed: TypedWord) -> int:
    """How many newly placed letters are cased differently from what the blanks need."""
    blanks = {i for i, tile in _new_indexes(play) if is_blank(tile)}
    marked = {i for i, _ in _new_indexes(play) if typed.lower[i]}
    return len(blanks ^ marked)


def _new_indexes(play: Play) -> list[tuple[int, int]]:
    """``(index in the word, tile)`` for each newly placed tile."""
    step = 1 if play.ref.horizontal else SIZE
    return [((sq - play.ref.square) // step, tile) for sq, tile in play.tiles]


def _paid(play: Play, slip: SlipText, mode: Mode, *, reversed_ref: bool, blank_fault: bool) -> Grade:
    paid = {"paid": play.score, "move": f"{play.ref} {play.word}"}
    if mode is Mode.COMPUTED:
        # No warnings at all in computed grading (§3.4): the tolerated readings are simply paid.
        return Grade(play.score, Sanction.NONE, None, _msg("grade_paid", **paid), play)
    if reversed_ref:
        message = _msg("grade_warning_reference", given=str(slip.ref), ref=str(play.ref), **paid)
        return _warned(play, WarningKind.REFERENCE, message)
    if blank_fault:
        marked = any(slip.word.lower[i] for i, _ in _new_indexes(play))
        code = "grade_warning_blank_wrong" if marked else "grade_warning_blank_missing"
        return _warned(play, WarningKind.BLANK, _msg(code, **paid))
    if slip.score is None:
        return _warned(play, WarningKind.SCORE, _msg("grade_warning_no_score", **paid))
    if slip.score != play.score:
        return _warned(play, WarningKind.SCORE, _msg("grade_warning_score", claimed=slip.score, **paid))
    return Grade(play.score, Sanction.NONE, None, _msg("grade_paid", **paid), play)


def _warned(play: Play, kind: WarningKind, message: Message) -> Grade:
    return Grade(play.score, Sanction.WARNING, None, message, play, kind)


def _penalty(slip: SlipText, play: Play) -> Grade:
    """Right word and score, wrong or missing reference: claimed − 5, zero at 4 or less (§3.4)."""
    claimed = slip.score
    if claimed <= PENALTY_FLOOR:
        message = _msg("grade_zero_small_claim", claimed=claimed, limit=PENALTY_FLOOR)
        return Grade(0, Sanction.ZERO, ZeroReason.PLACE, message, play)
    params = {"paid": claimed - PENALTY, "penalty": PENALTY, "ref": str(play.ref)}
    if slip.ref is None:
        message = _msg("grade_penalty_no_ref", **params)
    else:
        message = _msg("grade_penalty_wrong_ref", given=str(slip.ref), **params)
    return Grade(claimed - PENALTY, Sanction.PENALTY, None, message, play)


def _check_top(position: Position, slip: SlipText, mode: Mode, top: int | None, result: Grade) -> Grade:
    """A claim above the top is a zero (§3.4); only a slip otherwise paid needs the top."""
    if mode is not Mode.FISF or slip.score is None or result.sanction is Sanction.ZERO:
        return result
    if top is None:
        top = find_tops(position).score
    if slip.score <= top:
        return result
    message = _msg("grade_zero_above_top", claimed=slip.score, top=top)
    return Grade(0, Sanction.ZERO, ZeroReason.ABOVE_TOP, message, result.play)


# -- zeros ----------------------------------------------------------------------

#: The place-dependent zero reasons, in the order §3.4 reports them.
_FAULT_ORDER = (ZeroReason.CROSSWORD, ZeroReason.RACK, ZeroReason.PLACE)
_GEOMETRY = frozenset(Reason) - {
    Reason.WORD_NOT_IN_LEXICON,
    Reason.CROSSWORD_NOT_IN_LEXICON,
    Reason.NOT_IN_RACK,
    Reason.TOO_MANY_TILES,
}


def _limits(position: Position) -> dict[str, int]:
    """The scorer's keywords for the position's variant (``Variant.limits``)."""
    return {"played_max": position.played_max, "bingo_size": position.bingo_size}


_NO_SQUARES = frozenset({Reason.OFF_BOARD, Reason.CONTRADICTS_BOARD})


@dataclass(frozen=True, slots=True)
class _Fault:
    """Why the word cannot be played at one reference, as a zero grade would say it."""

    reason: ZeroReason
    message: Message
    detail: Message | None = None

    @property
    def rank(self) -> int:
        return _FAULT_ORDER.index(self.reason)

    def grade(self) -> Grade:
        return Grade(0, Sanction.ZERO, self.reason, self.message, detail=self.detail)


def _unplaced(position: Position, slip: SlipText, mode: Mode, placements: list[Play]) -> Grade:
    """No acceptable reading of the slip: say the first reason that applies (§3.4)."""
    letters = slip.word.letters
    if slip.ref is not None:
        fault = _fault_at(position, letters, slip.ref)
        plain = fault.reason is not ZeroReason.PLACE or fault.message.code == "grade_zero_too_many"
        if plain or not placements or mode is Mode.COMPUTED:
            return fault.grade()
        return _no_solution(slip, fault.detail)
    if placements:
        if mode is Mode.COMPUTED:
            return _zero(ZeroReason.PLACE, "grade_zero_no_ref")
        return _no_solution(slip, None)
    return _nowhere(position, letters)


def _no_solution(slip: SlipText, detail: Message | None) -> Grade:
    """FISF: neither the reference nor the claimed score points to a place of the word (§3.4)."""
    word = slip.word.letter_set.word(slip.word.letters)
    message = _msg("grade_zero_no_solution", slip=_slip_text(slip), word=word)
    return Grade(0, Sanction.ZERO, ZeroReason.PLACE, message, detail=detail)


def _fault_at(position: Position, letters: Sequence[int], ref: Ref) -> _Fault:
    """The first §3.4 reason why the word cannot be played at ``ref``."""
    result = evaluate(position.board, position.lexicon, ref, letters, **_limits(position))
    problems = result.problems if isinstance(result, Illegal) else ()
    cross = [p for p in problems if p.reason is Reason.CROSSWORD_NOT_IN_LEXICON]
    if cross:
        return _Fault(ZeroReason.CROSSWORD, _msg("grade_zero_crossword", **cross[0].message.params))
    if not any(p.reason in _NO_SQUARES for p in problems):
        missing = _missing_letters(
            _new_letters(position, letters, ref), position.rack, position.lexicon.letters
        )
        if missing:
            return _Fault(ZeroReason.RACK, _msg("grade_zero_rack", letters=missing))
    too_many = [p for p in problems if p.reason is Reason.TOO_MANY_TILES]
    if too_many and not any(p.reason in _GEOMETRY for p in problems):
        params = too_many[0].message.params
        return _Fault(ZeroReason.PLACE, _msg("grade_zero_too_many", **params), too_many[0].message)
    geometry = [p for p in problems if p.reason in _GEOMETRY]
    return _place_fault(position.lexicon.letters.word(letters), ref, geometry[0] if geometry else None)


def _place_fault(word: str, ref: Ref, problem: Problem | None) -> _Fault:
    detail = problem.message if problem is not None else None
    return _Fault(ZeroReason.PLACE, _msg("grade_zero_place", word=word, ref=str(ref)), detail)


def _nowhere(position: Position, letters: Sequence[int]) -> Grade:
    """The word fits nowhere: the earliest reason among the places it could physically take."""
    faults = []
    for ref in _refs(position.is_first_move, len(letters)):
        result = evaluate(position.board, position.lexicon, ref, letters, **_limits(position))
        if isinstance(result, Illegal) and result.reasons & _GEOMETRY:
            continue
        faults.append(_fault_at(position, letters, ref))
    if faults:
        return min(faults, key=lambda f: f.rank).grade()
    return _zero(ZeroReason.PLACE, "grade_zero_nowhere", word=position.lexicon.letters.word(letters))


def _refs(first_move: bool, length: int) -> Iterable[Ref]:
    """Every reference; in round 1 only the horizontal ones through H8 (§3.3.4)."""
    if first_move:
        row, col = divmod(CENTER, SIZE)
        return [Ref(row, start, True) for start in range(max(0, col - length + 1), col + 1)]
    return [
        Ref(row, col, horizontal)
        for horizontal in (True, False)
        for row in range(SIZE)
        for col in range(SIZE)
    ]


def _new_letters(position: Position, letters: Sequence[int], ref: Ref) -> list[int]:
    step = 1 if ref.horizontal else SIZE
    cells = position.board.cells
    return [c for i, c in enumerate(letters) if not cells[ref.square + i * step]]


def _missing_letters(new_letters: Iterable[int], rack: Sequence[int], letters: LetterSet) -> str:
    """The letters the rack lacks when blanks cannot stand in for them all ("" if none)."""
    need = Counter(new_letters) - Counter(t for t in rack if t != BLANK)
    if need.total() <= list(rack).count(BLANK):
        return ""
    return ", ".join(letters.name(c) for c in sorted(need.elements()))


def _unreadable(text: object, error: NotationError) -> Grade:
    """A slip the parser refuses: a zero whose detail is the parser's own sentence."""
    word_fault = error.message.code.startswith("word_")
    reason = ZeroReason.WORD if word_fault else ZeroReason.PLACE
    code = "grade_zero_unreadable_word" if word_fault else "grade_zero_unreadable"
    shown = text if isinstance(text, str) else ""
    return Grade(0, Sanction.ZERO, reason, _msg(code, text=shown.strip()), detail=error.message)


def _zero(reason: ZeroReason, code: str, **params) -> Grade:
    return Grade(0, Sanction.ZERO, reason, _msg(code, **params))


def _msg(code: str, **params) -> Message:
    return Message(code, params)


def _slip_text(slip: SlipText) -> str:
    parts = [str(slip.ref) if slip.ref is not None else "-", str(slip.word)]
    if slip.score is not None:
        parts.append(str(slip.score))
    return " ".join(parts)


register(
    {
        "grade_paid": {
            "fr": "{paid} — {move} : bulletin correct.",
            "en": "{paid} — {move}: slip correct.",
        },
        "grade_warning_score": {
            "fr": "{paid} — avertissement : score annoncé {claimed} ({move} vaut {paid}).",
            "en": "{paid} — warning: claimed score {claimed} ({move} is worth {paid}).",
        },
        "grade_warning_no_score": {
            "fr": "{paid} — avertissement : score non indiqué ({move} vaut {paid}).",
            "en": "{paid} — warning: no score given ({move} is worth {paid}).",
        },
        "grade_warning_reference": {
            "fr": "{paid} — avertissement : référence inversée ({given} au lieu de {ref}).",
            "en": "{paid} — warning: reversed reference ({given} instead of {ref}).",
        },
        "grade_warning_blank_missing": {
            "fr": "{paid} — avertissement : joker non indiqué ; le coup se lit {move}.",
            "en": "{paid} — warning: blank not marked; the move reads {move}.",
        },
        "grade_warning_blank_wrong": {
            "fr": "{paid} — avertissement : joker mal indiqué ; le coup se lit {move}.",
            "en": "{paid} — warning: blank marked wrong; the move reads {move}.",
        },
        "grade_penalty_wrong_ref": {
            "fr": "{paid} — pénalité de {penalty} points : référence erronée ({given} au lieu de {ref}).",
            "en": "{paid} — {penalty}-point penalty: wrong reference ({given} instead of {ref}).",
        },
        "grade_penalty_no_ref": {
            "fr": "{paid} — pénalité de {penalty} points : référence manquante (le coup se place en {ref}).",
            "en": "{paid} — {penalty}-point penalty: no reference (the move goes at {ref}).",
        },
        "grade_zero_small_claim": {
            "fr": "0 — référence erronée ou manquante pour un coup annoncé à {claimed} points "
            "({limit} ou moins) : rien n'est payé.",
            "en": "0 — wrong or missing reference on a move claimed at {claimed} points "
            "({limit} or less): nothing is paid.",
        },
        "grade_zero_above_top": {
            "fr": "0 — score annoncé {claimed}, supérieur au top ({top}).",
            "en": "0 — claimed score {claimed}, above the top ({top}).",
        },
        "grade_zero_missing": {
            "fr": "0 — aucun bulletin remis.",
            "en": "0 — no slip handed in.",
        },
        "grade_zero_late": {
            "fr": "0 — bulletin remis après la fin du temps.",
            "en": "0 — slip handed in after time.",
        },
        "grade_zero_word": {
            "fr": "0 — le mot {word} n'est pas dans le dictionnaire.",
            "en": "0 — the word {word} is not in the dictionary.",
        },
        "grade_zero_crossword": {
            "fr": "0 — le mot croisé {word} ({ref}) n'est pas dans le dictionnaire.",
            "en": "0 — the cross word {word} ({ref}) is not in the dictionary.",
        },
        "grade_zero_rack": {
            "fr": "0 — lettres absentes du tirage : {letters}.",
            "en": "0 — letters not in the rack: {letters}.",
        },
        "grade_zero_place": {
            "fr": "0 — {word} ne peut pas se placer en {ref}.",
            "en": "0 — {word} cannot be placed at {ref}.",
        },
        "grade_zero_too_many": {
            "fr": "0 — un coup pose au plus {most} lettres du tirage (ici {count}).",
            "en": "0 — a move places at most {most} tiles from the rack (here {count}).",
        },
        "grade_zero_nowhere": {
            "fr": "0 — {word} ne peut se placer nulle part sur la grille.",
            "en": "0 — {word} cannot be placed anywhere on the board.",
        },
        "grade_zero_no_ref": {
            "fr": "0 — référence manquante.",
            "en": "0 — no reference given.",
        },
        "grade_zero_no_solution": {
            "fr": "0 — aucune solution acceptable : ni la référence ni le score de « {slip} » "
            "ne désignent une place de {word}.",
            "en": "0 — no acceptable solution: neither the reference nor the score of '{slip}' "
            "points to a place of {word}.",
        },
        "grade_zero_unreadable": {
            "fr": "0 — bulletin illisible : « {text} ».",
            "en": "0 — unreadable slip: '{text}'.",
        },
        "grade_zero_unreadable_word": {
            "fr": "0 — mot illisible dans le bulletin « {text} ».",
            "en": "0 — unreadable word in the slip '{text}'.",
        },
    }
)


__all__ = [
    "PENALTY",
    "PENALTY_FLOOR",
    "Grade",
    "Mode",
    "Sanction",
    "WarningKind",
    "ZeroReason",
    "end_penalty",
    "grade",
    "grade_text",
]
