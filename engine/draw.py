"""The bag, rack drawing and the end of the game (rules §3.1, §3.2).

Tiles are rack codes (``alphabet``) of a letter set (French unless ``letters`` says another)
and ``BLANK``.  Every random choice
goes through the ``random.Random`` the caller passes and the bag is kept
sorted, so one seed and one sequence of calls always give the same racks.

Tiles are conserved: when a draw succeeds its rack's tiles have left the bag;
when the game ends instead, the bag is left exactly as it was found and the
``Draw`` holds the tiles the caller held.

The game's ``Variant`` (classic unless said) sets the rack's size (8 in seven among eight) and,
in the joker and explosive games, puts one blank from the bag's own in every rack while one is
left, never two; the explosive game then swaps a new blank for a letter (``explode``), which
needs the top search (``search``, the same search that checks a move exists, §3.1.5).
"""

from __future__ import annotations

import bisect
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from engine import draw_texts as draw_texts  # the sentences of this module's messages
from engine.alphabet import BLANK, FRENCH, LETTER_MASK, RACK_SIZE, LetterSet, is_blank
from engine.messages import Message
from engine.notation import RackText
from engine.variants import Variant

#: §3.1.3: rounds 1–15 need 2 vowels and 2 consonants, later rounds 1 and 1.
LAST_TWO_PLUS_TWO_ROUND = 15

#: Racks drawn in one call before giving up.  The worst bag a French game can
#: reach still gives a rack meeting its minimum with probability above 1.3 % per
#: draw (2 vowels among 57 tiles), so 5,000 draws all miss with probability
#: below 1e-28: the bound makes termination certain without ever being felt.
MAX_DRAWS = 5_000

#: Different racks found without a move before no rack is taken to have one
#: (§3.2).  Each check runs the move generator, so this caps the cost; small
#: bags are settled exactly before the cap, by trying every rack they allow.
MAX_NO_MOVE_RACKS = 50

HasMove = Callable[[tuple[int, ...]], bool]
#: The top search for a rack on the round's board: its result has ``plays`` (``movegen.Tops``).
Search = Callable[[tuple[int, ...]], object]
CLASSIC = Variant.CLASSIC


class EndReason(Enum):
    """Why the game ends (§3.2)."""

    ALL_PLAYED = "all_played"
    TOO_FEW_TILES = "too_few_tiles"
    NO_VOWEL_OR_NO_CONSONANT = "no_vowel_or_no_consonant"
    NO_MOVE_POSSIBLE = "no_move_possible"
    CANCEL_IMPOSSIBLE = "cancel_impossible"
    #: Not a rulebook condition: a guard reached only if MAX_DRAWS racks in a row
    #: miss a minimum the tiles can meet.
    REJECTION_LIMIT = "rejection_limit"

    @property
    def message(self) -> Message:
        return Message(f"draw_end_{self.value}")


class Rejection(Enum):
    """Why a rack was put back whole (§3.1.4, §3.1.5): said on the arbiter's screen and by the voice."""

    VOWELS = "vowels"
    CONSONANTS = "consonants"
    VOWELS_AND_CONSONANTS = "vowels_and_consonants"
    NO_MOVE = "no_move"

    @property
    def message(self) -> Message:
        return Message(f"rejection_{self.value}")


def rejection_for(tiles: Iterable[int], minimum: int, letters: LetterSet = FRENCH) -> Rejection | None:
    """What a rack lacks for the minimum ``minimum`` of §3.1.3 (None: it meets it)."""
    v, c, f = _roles(tiles, letters)
    if _meets(v, c, f, minimum):
        return None
    if v + f >= minimum:
        return Rejection.CONSONANTS
    if c + f >= minimum:
        return Rejection.VOWELS
    return Rejection.VOWELS_AND_CONSONANTS


class DrawError(ValueError):
    """Tiles asked for that are not there; ``message`` names them."""

    def __init__(self, code: str, **params):
        self.message = Message(code, params)
        super().__init__(self.message.text("en"))


def _missing(wanted: Iterable[int], available: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted((Counter(wanted) - Counter(available)).elements()))


def _names(tiles: Iterable[int], letters: LetterSet = FRENCH) -> str:
    return ", ".join(letters.name(t) for t in tiles)


def _roles(tiles: Iterable[int], letters: LetterSet) -> tuple[int, int, int]:
    """How many vowels, consonants and tiles that may be either (§3.1.3) ``tiles`` hold."""
    tiles = tuple(tiles)
    vowels, consonants, flexible = letters.vowels, letters.consonants, letters.flexible
    v = sum(t in vowels for t in tiles)
    c = sum(t in consonants for t in tiles)
    f = sum(t in flexible for t in tiles)
    return v, c, f


def _announced(tiles: Iterable[int]) -> tuple[int, ...]:
    """A reliquat in the order it is announced: alphabetical, blanks last (§3.3.1)."""
    return tuple(sorted(tiles))


class Bag:
    """The tiles not yet drawn."""

    def __init__(self, tiles: Iterable[int] = (), letters: LetterSet = FRENCH):
        self._tiles = sorted(tiles)
        self.letters = letters
        if self._tiles and (self._tiles[0] < 1 or self._tiles[-1] > LETTER_MASK):
            raise ValueError(f"not a rack code: {self._tiles}")

    @classmethod
    def full(cls, letters: LetterSet = FRENCH) -> Bag:
        """Every tile of the set: the 102 of the French set (§1.1), 100 in the others."""
        return cls((code for code, count in enumerate(letters.counts) for _ in range(count)), letters)

    def __len__(self) -> int:
        return len(self._tiles)

    def __repr__(self) -> str:
        return f"Bag({''.join(self.letters.name(t) for t in self._tiles)!r})"

    def tiles(self) -> tuple[int, ...]:
        return tuple(self._tiles)

    def draw(self, n: int, rng: random.Random) -> tuple[int, ...]:
        """Up to ``n`` tiles at random, in the order drawn."""
        count = max(0, min(n, len(self._tiles)))
        return tuple(self._tiles.pop(rng.randrange(len(self._tiles))) for _ in range(count))

    def put_back(self, tiles: Iterable[int]) -> None:
        for t in tiles:
            bisect.insort(self._tiles, t)

    def take(self, tiles: Iterable[int]) -> None:
        """Remove these very tiles (a typed rack, a prepared game's rack)."""
        tiles = tuple(tiles)
        missing = _missing(tiles, self._tiles)
        if missing:
            raise DrawError("draw_not_in_bag", tiles=_names(missing, self.letters))
        for t in tiles:
            self._tiles.remove(t)

    def take_all(self, tile: int) -> tuple[int, ...]:
        """Remove every tile of this kind (the blanks a joker game's rack may not take)."""
        found = tuple(t for t in self._tiles if t == tile)
        self._tiles = [t for t in self._tiles if t != tile]
        return found

    def copy(self) -> Bag:
        return Bag(self._tiles, self.letters)


def _meets(v: int, c: int, f: int, m: int) -> bool:
    return v + f >= m and c + f >= m and v + c + f >= 2 * m


def meets_minimum(tiles: Iterable[int], m: int, letters: LetterSet = FRENCH) -> bool:
    """§3.1.3: at least ``m`` vowels and ``m`` consonants, each Y or blank filling either role."""
    return _meets(*_roles(tiles, letters), m)


def drawable(unplayed_tiles: Iterable[int], variant: Variant = CLASSIC) -> tuple[int, ...]:
    """The unplayed tiles that can still come onto a rack: all of them, except that in the joker and
    explosive games a rack holds one blank, so every blank beyond the first stays in the bag."""
    tiles = tuple(unplayed_tiles)
    if not variant.one_blank or tiles.count(BLANK) < 2:
        return tiles
    return (*(t for t in tiles if t != BLANK), BLANK)


def required_minimum(
    round_number: int, unplayed_tiles: Iterable[int], letters: LetterSet = FRENCH, variant: Variant = CLASSIC
) -> int:
    """§3.1.3: 2+2 up to round 15 while the unplayed tiles can give it, else 1+1.

    Any rack of 7 (or 8) can hold the 4 tiles that give 2+2, so the unplayed tiles
    can give it exactly when they meet the 2+2 formula themselves.
    """
    if round_number > LAST_TWO_PLUS_TWO_ROUND:
        return 1
    return 2 if meets_minimum(drawable(unplayed_tiles, variant), 2, letters) else 1


def game_over(
    unplayed_tiles: Iterable[int], letters: LetterSet = FRENCH, variant: Variant = CLASSIC
) -> EndReason | None:
    """The tile conditions of §3.2 on the unplayed tiles (bag + reliquat) that can come onto a rack."""
    tiles = drawable(unplayed_tiles, variant)
    if not tiles:
        return EndReason.ALL_PLAYED
    if len(tiles) == 1:
        return EndReason.TOO_FEW_TILES
    # All vowels or all consonants once Y and blanks are set aside, unless one of
    # them is among these 2 or more tiles: for 2 tiles or more that is exactly
    # failing the 1+1 formula.
    if not meets_minimum(tiles, 1, letters):
        return EndReason.NO_VOWEL_OR_NO_CONSONANT
    return None


@dataclass(frozen=True)
class Draw:
    """A round's rack, or why the game ends instead (``end``)."""

    #: Kept from the previous round, in announcement order; on ``end``, the tiles the caller held.
    reliquat: tuple[int, ...]
    #: Drawn this round, in the order drawn.
    new: tuple[int, ...] = ()
    #: Drawn after every tile of an earlier rack went back: no reliquat, ``-`` on the record.
    rejected: bool = False
    #: Racks rejected for missing the minimum (§3.1.4), in order, each as drawn, and what each lacked.
    rejections: list[tuple[int, ...]] = field(default_factory=list)
    rejection_reasons: list[Rejection] = field(default_factory=list)
    #: Racks put back because no move existed with them (§3.1.5).
    no_move_redraws: int = 0
    end: EndReason | None = None
    letters: LetterSet = FRENCH
    #: Explosive game: the letter the new blank was swapped for (the blank went back to the bag).
    exploded: int | None = None

    @property
    def tiles(self) -> tuple[int, ...]:
        return self.reliquat + self.new

    @property
    def rack_text(self) -> str:
        """The record's notation: ``AEI+BLRN``, ``-BBNOORS``, ``VDFIR?A``."""
        return str(RackText(self.reliquat, self.new, self.rejected, self.letters))


def _group_ways(counts: Counter, group: Iterable[int], size: int) -> list[int]:
    """``ways[k]``: how many different k-tile multisets the group's tiles can form."""
    ways = [1] + [0] * size
    for kind in group:
        n = counts[kind]
        ways = [sum(ways[k - j] for j in range(min(n, k) + 1)) for k in range(size + 1)]
    return ways


def _count_racks(unplayed: tuple[int, ...], minimum: int, letters: LetterSet, variant: Variant) -> int:
    """How many different racks (as multisets) the unplayed tiles allow at this minimum; in the
    joker and explosive games each holds the one blank while one is left."""
    tiles = drawable(unplayed, variant)
    size = min(variant.rack_size, len(tiles))
    counts = Counter(tiles)
    fixed = 0
    if variant.one_blank and counts[BLANK]:
        fixed, counts[BLANK], size = 1, 0, size - 1
    groups = (letters.vowels, letters.consonants, letters.flexible)
    v_ways, c_ways, f_ways = (_group_ways(counts, g, size) for g in groups)
    return sum(
        v_ways[v] * c_ways[c] * f_ways[size - v - c]
        for v in range(size + 1)
        for c in range(size + 1 - v)
        if _meets(v, c, size - v - c + fixed, minimum)
    )


class _Search:
    """One call's search for a rack that stands (§3.1.4–§3.1.6), bounded so that it ends."""

    def __init__(
        self,
        bag: Bag,
        rng: random.Random,
        unplayed: tuple[int, ...],
        round_number: int,
        has_move: HasMove | None,
        exhausted: EndReason,
        variant: Variant,
        search: Search | None,
    ):
        self.bag, self.rng, self.has_move, self.exhausted = bag, rng, has_move, exhausted
        self.letters = letters = bag.letters
        self.variant, self.search = variant, search
        if has_move is None and search is not None:
            self.has_move = lambda tiles: bool(search(tiles).plays)
        if variant.explodes and search is None:
            raise ValueError("an explosive game's draw needs the top search")
        self.minimum = required_minimum(round_number, unplayed, letters, variant)
        self.racks_left = _count_racks(unplayed, self.minimum, letters, variant)
        self.exploded: int | None = None
        self.excluded: set[tuple[int, ...]] = set()
        self.rejections: list[tuple[int, ...]] = []
        self.reasons: list[Rejection] = []
        self.no_move = 0
        self.draws = 0
        self.end: EndReason | None = None

    def exclude(self, tiles: Iterable[int]) -> None:
        """Rule a rack out; once every rack the tiles allow is ruled out, no draw can help."""
        key = _announced(tiles)
        if key not in self.excluded and meets_minimum(key, self.minimum, self.letters):
            self.racks_left -= 1
        self.excluded.add(key)
        if self.racks_left <= 0:
            self.end = self.exhausted

    def run(self, held: tuple[int, ...], reliquat: tuple[int, ...], rejected: bool) -> Draw:
        rack = None if self.end else self._search(reliquat, rejected)
        if rack is None:
            self.bag.take(held)
            return Draw(
                held,
                rejections=self.rejections,
                rejection_reasons=self.reasons,
                no_move_redraws=self.no_move,
                end=self.end,
                letters=self.letters,
            )
        return Draw(
            *rack,
            rejections=self.rejections,
            rejection_reasons=self.reasons,
            no_move_redraws=self.no_move,
            letters=self.letters,
            exploded=self.exploded,
        )

    def _search(self, reliquat, rejected):
        """The first rack that stands, or None with ``end`` set; refused racks go back whole."""
        new = self._fill(reliquat)
        while (standing := self._stands(reliquat, new)) is None:
            self.bag.put_back(reliquat + new)
            if self.end:
                return None
            reliquat, new, rejected = (), self._fill(()), True
        return reliquat, standing, rejected

    def _fill(self, reliquat: tuple[int, ...]) -> tuple[int, ...]:
        """The new tiles completing the rack, in the order drawn: in the joker and explosive games a
        blank first when the reliquat has none and the bag has one, then tiles other than blanks."""
        count = self.variant.rack_size - len(reliquat)
        if not self.variant.one_blank or BLANK not in self.bag.tiles():
            return self.bag.draw(count, self.rng)
        blanks = self.bag.take_all(BLANK)
        first = () if BLANK in reliquat else blanks[:1]
        new = first + self.bag.draw(count - len(first), self.rng)
        self.bag.put_back(blanks[len(first) :])
        return new

    def _stands(self, reliquat: tuple[int, ...], new: tuple[int, ...]) -> tuple[int, ...] | None:
        """The new tiles of a rack that stands (swapped by the explosion), or None."""
        tiles = reliquat + new
        if self._allowed(tiles):
            if self.variant.explodes and BLANK in new:
                return self._explode(reliquat, new)
            if self.has_move is None or self.has_move(tiles):
                return new
            return self._no_move(tiles)
        return None

    def _explode(self, reliquat: tuple[int, ...], new: tuple[int, ...]) -> tuple[int, ...] | None:
        tiles = reliquat + new
        tops = self.search(tiles)
        if not tops.plays:
            return self._no_move(tiles)
        letter = _explosion(tiles, tops, self.bag, self.minimum)
        if letter is None:
            return new
        self.exploded = letter
        return _swap(new, letter, self.bag)

    def _no_move(self, tiles: tuple[int, ...]) -> None:
        self.no_move += 1  # §3.1.5
        self.exclude(tiles)
        if self.no_move >= MAX_NO_MOVE_RACKS:
            self.end = self.exhausted
        self._refuse(self.exhausted)

    def _allowed(self, tiles: tuple[int, ...]) -> bool:
        """The rack meets the minimum (§3.1.4) and is not ruled out."""
        self.draws += 1
        reason = rejection_for(tiles, self.minimum, self.letters)
        if reason is not None:  # §3.1.4
            self.rejections.append(tiles)
            self.reasons.append(reason)
            return self._refuse(EndReason.REJECTION_LIMIT)
        if _announced(tiles) in self.excluded:  # the cancelled rack, or one known to be stuck
            return self._refuse(self.exhausted)
        return True

    def _refuse(self, reason: EndReason) -> bool:
        if self.draws >= MAX_DRAWS and self.end is None:
            self.end = reason
        return False


def draw_rack(
    reliquat: Iterable[int],
    bag: Bag,
    round_number: int,
    rng: random.Random,
    has_move: HasMove | None = None,
    *,
    variant: Variant = CLASSIC,
    search: Search | None = None,
) -> Draw:
    """Complete the rack to 7, 8 in seven among eight (§3.1.1–§3.1.5), or say why the game ends
    (§3.2); the bag's set says which tiles are vowels.  ``search`` (the top search for a rack)
    stands for ``has_move`` when that is not given; the explosive game needs it."""
    held = _announced(reliquat)
    if len(held) > variant.rack_size:
        raise ValueError(f"a reliquat of {len(held)} tiles")
    unplayed = bag.tiles() + held
    end = game_over(unplayed, bag.letters, variant)
    if end:
        return Draw(held, end=end, letters=bag.letters)
    exhausted = EndReason.NO_MOVE_POSSIBLE
    return _Search(bag, rng, unplayed, round_number, has_move, exhausted, variant, search).run(
        held, held, False
    )


def cancel_round(
    rack_tiles: Iterable[int],
    bag: Bag,
    round_number: int,
    rng: random.Random,
    has_move: HasMove | None = None,
    *,
    variant: Variant = CLASSIC,
    search: Search | None = None,
) -> Draw:
    """§3.1.6: every tile of the cancelled rack goes back and a different rack is drawn."""
    held = _announced(rack_tiles)
    unplayed = bag.tiles() + held
    end = game_over(unplayed, bag.letters, variant)
    if end:
        return Draw(held, end=end, letters=bag.letters)
    exhausted = EndReason.CANCEL_IMPOSSIBLE
    search_ = _Search(bag, rng, unplayed, round_number, has_move, exhausted, variant, search)
    search_.exclude(held)
    bag.put_back(held)
    return search_.run(held, (), rejected=True)


def _explosion(tiles: tuple[int, ...], tops, bag: Bag, minimum: int) -> int | None:
    """The letter a new blank becomes (explosive game), or None: the best move is the one §3.3.5
    would propose among the tops, leaving out whether it ends the game (fewest blanks, then the
    reference in reading order, then the word); if it lays a blank as a letter the bag holds, and
    the rack with that letter instead of the blank still meets the minimum, that letter."""
    best = min(tops.plays, key=lambda p: (p.blanks, p.ref.row, p.ref.col, not p.ref.horizontal, p.word))
    laid = [t & LETTER_MASK for _sq, t in best.tiles if is_blank(t)]
    if not laid or laid[0] not in bag.tiles():
        return None
    swapped = list(tiles)
    swapped[swapped.index(BLANK)] = laid[0]
    return laid[0] if meets_minimum(swapped, minimum, bag.letters) else None


def _swap(new: tuple[int, ...], letter: int, bag: Bag) -> tuple[int, ...]:
    """The new tiles with the blank swapped for ``letter``, taken from the bag; the blank goes back."""
    bag.take((letter,))
    bag.put_back((BLANK,))
    i = new.index(BLANK)
    return (*new[:i], letter, *new[i + 1 :])


def explode(draw: Draw, bag: Bag, round_number: int, search: Search, variant: Variant) -> Draw:
    """Explosive game: the rack of ``draw``, already taken from ``bag`` (a rack typed from a physical
    bag, checked by ``check_typed_rack``), with its new blank swapped for the letter it stands for
    in the best move with the rack (``search``: the top search), when that letter is in the bag and
    the swap keeps the minimum (§3.1.3); the blank goes back to the bag.  ``Draw.exploded`` names
    the letter.  Unchanged: another variant, no new blank, a blank kept from the last round, or no
    such letter.  ``draw_rack`` does the same for the racks it draws."""
    if not variant.explodes or BLANK not in draw.new or draw.end:
        return draw
    minimum = required_minimum(round_number, bag.tiles() + draw.tiles, bag.letters, variant)
    tops = search(draw.tiles)
    letter = _explosion(draw.tiles, tops, bag, minimum) if tops.plays else None
    if letter is None:
        return draw
    return replace(draw, new=_swap(draw.new, letter, bag), exploded=letter)


def check_typed_rack(
    reliquat: Iterable[int],
    new_tiles: Iterable[int],
    bag: Bag,
    round_number: int | None = None,
    *,
    variant: Variant = CLASSIC,
) -> list[Message]:
    """What is wrong with a rack the arbiter typed (nothing: an empty list).

    ``bag`` is the bag before the new tiles leave it (its set says which tiles are vowels); with
    ``round_number`` the minimum of §3.1.3 is checked too.  In the joker and explosive games the
    rack holds one blank, never two, while the bag or the reliquat has one (before an explosion).
    """
    reliquat, new = tuple(reliquat), tuple(new_tiles)
    letters = bag.letters
    problems = []
    missing = _missing(new, bag.tiles())
    if missing:
        problems.append(Message("draw_not_in_bag", {"tiles": _names(missing, letters)}))
    available = len(drawable(bag.tiles() + reliquat, variant))
    problems.extend(_size_problems(len(reliquat) + len(new), available, variant.rack_size))
    blanks = (reliquat + new).count(BLANK)
    if variant.one_blank and blanks > 1:
        problems.append(Message("draw_joker_two", {"count": blanks}))
    elif variant.one_blank and not blanks and BLANK in bag.tiles():
        problems.append(Message("draw_joker_missing"))
    if round_number is not None:
        minimum = required_minimum(round_number, bag.tiles() + reliquat, letters, variant)
        if not meets_minimum(reliquat + new, minimum, letters):
            # The sentence names the tiles that count as either: Y and the blank in French.
            code = "draw_below_minimum" if letters.flexible - {BLANK} else "draw_below_minimum_blank"
            problems.append(Message(code, {"minimum": minimum}))
    return problems


def _size_problems(size: int, available: int, rack_size: int = RACK_SIZE) -> list[Message]:
    """§3.1.2: a rack holds 7 tiles (8 in seven among eight), fewer only when the bag runs out."""
    if size > rack_size:
        if rack_size == RACK_SIZE:
            return [Message("draw_rack_too_big", {"size": size})]
        return [Message("rack_size_most", {"size": size, "most": rack_size})]
    if size < min(rack_size, available):
        return [Message("draw_rack_short", {"size": size, "expected": min(rack_size, available)})]
    return []


def bag_left(
    board_tiles: Iterable[int], rack_tiles: Iterable[int], letters: LetterSet = FRENCH
) -> tuple[int, ...]:
    """The bag once a rack is drawn: every tile of the set (§1.1) is on the board, in the rack or
    in the bag.  ``board_tiles``: the tiles on the board, a blank as played."""
    return remaining_after(Bag.full(letters).tiles(), (*board_tiles, *rack_tiles), letters)


def remaining_after(
    rack_tiles: Iterable[int], used_tiles: Iterable[int], letters: LetterSet = FRENCH
) -> tuple[int, ...]:
    """The reliquat (§3.1.2): the rack minus the tiles the top used, in announcement order.

    ``used_tiles`` may be board tiles: a blank played as any letter is a ``BLANK`` of the rack.
    """
    rack = tuple(rack_tiles)
    used = [BLANK if t == BLANK or is_blank(t) else t for t in used_tiles]
    missing = _missing(used, rack)
    if missing:
        raise DrawError("draw_not_in_rack", tiles=_names(missing, letters))
    return _announced((Counter(rack) - Counter(used)).elements())
