"""The top search: every legal move reaching the best score of a position (rules §2, §3.3.4).

The search works on *slots*: a stretch of one line, from a first to a last
square, that a word could exactly fill (the squares just outside it are empty
or off the board), holding 1 to 7 empty squares and touching the tiles already
placed.  Once a slot is fixed, which premiums count is fixed too, so every
move in it scores

    const + sum(value(letter on empty square j) * weight[j])

with ``weight[j] = letter_premium * (word_multiplier + cross_word_multiplier)``.
Pairing the rack's best values with the best weights bounds the slot's score
without touching the lexicon; slots are searched in decreasing bound order and
the search stops when a bound falls below the best score found.  Bounds equal
to the best are still searched: every tied move must be found.

Inside a slot the DAWG is walked square by square; a node's ``lengths`` bit
set drops branches that cannot end exactly at the slot's last square.  Blanks
are settled when a word is complete: a letter needed more often than the rack
holds it takes blanks on its lightest squares, which gives the word's exact
best score (a greedy choice while walking could under-score it), and every
equally good choice of squares is a distinct tied move.

The modules, each importing only the ones listed before it:

* ``position``: ``Position`` and ``Tops``, the search's input and output;
* ``crosschecks``: what each empty square allows across the move, and the
  ``LINES`` table;
* ``slots``: listing the slots of a position with their bounds;
* ``anagrams``: a slot's words looked up in the anagram index when the rack
  lays few enough tile multisets;
* ``walk``: ``find_tops`` and the search inside slots (DAWG walk, blanks settled);
* ``best``: ``find_best``, the n best placements, the same search with the
  bar lowered to the n-th best score;
* ``exhaustive``: ``all_plays``, every legal placement without pruning, for tests.
"""

from __future__ import annotations

from engine.movegen.best import find_best
from engine.movegen.exhaustive import all_plays
from engine.movegen.position import Position, Tops
from engine.movegen.walk import find_tops

__all__ = ["Position", "Tops", "all_plays", "find_best", "find_tops"]
