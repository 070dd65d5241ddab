"""The n best placements of a position: the top search with the bar lowered to the n-th score.

``find_best`` runs the top search's slots, bounds, walk and anagram lookups
unchanged; only what a complete word does differs (``BestSearch.complete``).
The search's ``best``, the score below which slots and branches are dropped,
is here the n-th best score kept so far: -1 until n placements are kept, then
rising as better ones push the lowest out.  Placements scoring exactly that
much are all kept, so every tie at the n-th score is listed.

A word's blanks are not settled on its lightest squares only, as for the top:
each way of laying the word from the rack is a placement of its own (a blank
on either of two squares, or a blank where the rack also holds the real
letter), kept if it scores at least the bar.
"""

from __future__ import annotations

from collections.abc import Iterable
from heapq import heappop, heappush
from itertools import combinations, product
from operator import itemgetter

from engine.choice import ranked
from engine.movegen.position import Position
from engine.movegen.walk import SlotSearch, walk_slots
from engine.play import Play
from engine.variants import Variant


def find_best(
    position: Position, n: int = 10, bag: Iterable[int] | None = None, variant: Variant = Variant.CLASSIC
) -> list[Play]:
    """The ``n`` best distinct placements, best first, with every placement tied with the n-th.

    A placement is the set of tiles a move adds, so a one-tile move forming a
    word both ways is listed once, read across when it forms a word across.
    In round 1 only horizontal placements exist (§3.3.4).  Placements of equal
    score follow §3.3.5's order of tied tops (``choice.ranked``): fewest
    blanks, then one that ends the game, then reference and word.  Whether a
    placement ends the game depends on the tiles left in the ``bag`` after the
    rack was drawn; without ``bag`` that rule is left out and equal scores go
    by blanks, reference and word alone.  ``variant``: the game's, for what ends it (a joker
    game's blank comes back); the position carries its limits (``Variant.limits``).
    """
    if n < 1:
        raise ValueError("n counts placements: at least 1")
    search = walk_slots(position, lambda *prepared: BestSearch(*prepared, n))
    order = ranked(search.kept(), position.rack, bag, position.lexicon.letters, variant)
    return sorted(order, key=lambda play: -play.score)


class BestSearch(SlotSearch):
    """The slot search keeping the n best placements; ``best`` is the n-th best score kept so far."""

    def __init__(self, position: Position, checks, rack, counts, blanks, n: int):
        super().__init__(position, checks, rack, counts, blanks)
        self.n = n
        #: The placements kept, by score; ``scores`` is a heap of their scores, lowest first.
        self.buckets: dict[int, list[Play]] = {}
        self.scores: list[int] = []
        self.total = 0
        #: One-tile placements kept, by key: the second reading of one is not a new placement.
        self.singles: dict[frozenset, Play] = {}

    def kept(self) -> list[Play]:
        return [play for bucket in self.buckets.values() for play in bucket]

    def complete(self, slot, squares, placed, upper: int) -> None:
        """Keep every way of laying a word filling the slot that scores at least the bar.

        ``upper`` is its score with every letter the rack holds at all counted
        as a real tile; each blank laid where a real tile could go costs its
        letter's value times its square's weight.
        """
        if upper < self.best:
            return
        if not self.blanks:
            self._keep(self._play(slot, squares, placed, (), upper))
            return
        for loss, blank_positions in self._blank_choices(placed, slot.weights, upper - self.best):
            self._keep(self._play(slot, squares, placed, blank_positions, upper - loss))

    def _blank_choices(self, placed, weights, slack: int) -> list[tuple[int, frozenset]]:
        """Every set of squares the rack's blanks can take in the word, with what it costs, if no
        more than ``slack``.  A letter the rack lacks is a blank wherever it is, at no cost (it was
        never counted); a letter used ``m`` times with ``r`` real tiles takes from ``m - r`` to ``m``
        blanks, as many as the rack holds."""
        original = self.original
        need: dict[int, list[int]] = {}
        for j, letter in enumerate(placed):
            need.setdefault(letter, []).append(j)
        groups = []
        for letter, positions in need.items():
            real = original[letter]
            if not real:
                groups.append([(len(positions), 0, tuple(positions))])
                continue
            value = self.tile_values[letter]
            options = []
            for b in range(max(0, len(positions) - real), min(len(positions), self.blanks) + 1):
                for combo in combinations(positions, b):
                    options.append((b, value * sum(weights[j] for j in combo), combo))
            groups.append(options)
        choices = []
        for pick in product(*groups):
            if sum(map(itemgetter(0), pick)) <= self.blanks:
                loss = sum(map(itemgetter(1), pick))
                if loss <= slack:
                    choices.append((loss, frozenset(j for part in pick for j in part[2])))
        return choices

    def _keep(self, play: Play) -> None:
        score = play.score
        if score < self.best:
            return
        if len(play.tiles) == 1 and self._seen_single(play):
            return
        bucket = self.buckets.get(score)
        if bucket is None:
            self.buckets[score] = [play]
            heappush(self.scores, score)
        else:
            bucket.append(play)
        self.total += 1
        # Drop the lowest score while the others still make n; the lowest left is then the n-th.
        scores, buckets = self.scores, self.buckets
        while self.total - len(buckets[scores[0]]) >= self.n:
            self.total -= len(buckets.pop(heappop(scores)))
        if self.total >= self.n:
            self.best = scores[0]

    def _seen_single(self, play: Play) -> bool:
        """Whether this one-tile placement is kept already, read the other way; the reading across
        replaces the reading down (both score the same)."""
        old = self.singles.get(play.key)
        if old is None:
            self.singles[play.key] = play
            return False
        if play.ref.horizontal and not old.ref.horizontal:
            self.singles[play.key] = play
            bucket = self.buckets[play.score]
            bucket[next(i for i, kept in enumerate(bucket) if kept is old)] = play
        return True
