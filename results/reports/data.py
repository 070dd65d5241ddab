"""What the printed sheets show, as plain values gathered before layout starts (pretix's habit).

The renderers in ``results.reports`` read these (and ``engine.ranking.Row``) and nothing else: no
Django, no database.

Conventions the caller follows:

* Labels that depend on a setting (``grading``, ``base``, ``tie_break``, ``category``, ``sanction``) arrive
  already in the sheet's language; the renderers translate only their own fixed labels, by
  ``SheetHeader.lang`` ("fr", "en", "es" or "ca").
* Percentages arrive rounded (``engine.ranking.rounded``: two decimals, half up on the exact fraction,
  the same figure as the screens and the CSV); the sheets print them with the language's decimal
  separator ("96,45" / "96.45").
* Words and racks use the notation of the rules §1.3: a blank played is a lower-case letter, a rack drawn
  after a rejection starts with "-".
* Any text may hold characters the standard PDF fonts lack: the renderers replace them, never fail.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from engine.ranking import Row


@dataclass(frozen=True)
class RoundTimes:
    """Rounds of one game played one after the other at the same time per round: rounds ``first`` to
    ``last``; ``game`` is the game's number on a sheet of several games, 0 on a game's own sheets."""

    seconds: int
    first: int
    last: int
    game: int = 0
    #: Every counted round of that game: the sheet names the game alone.
    whole: bool = False


@dataclass(frozen=True)
class SheetHeader:
    """The block at the top of every sheet: which game, and the settings it was played and graded with."""

    tournament: str
    #: "Partie 2", or "Classement général" for the whole tournament.
    game: str
    date: datetime.date
    place: str
    lexicon: str
    #: sha256 hex digest of the word list (§6); the sheets print its first 12 characters.
    lexicon_checksum: str
    #: "FISF" or "calculé" (§3.4).
    grading: str
    #: The server's grace window for late slips (§3.3.3).
    grace_seconds: int
    #: The tournament's time per round: what the sheet says when no round was played yet.
    round_seconds: int
    #: Which total the percentage and the négatif are computed on (§4).
    base: str
    tie_break: str
    generated_at: datetime.datetime
    lang: str = "fr"
    #: The time each counted round was played at (§3.3), in order: a change of the setting during
    #: the evening does not rewrite the rounds played before it.
    round_times: tuple[RoundTimes, ...] = ()
    #: An original game's variant, named in the sheet's language ("Partie joker"); "" for the classic
    #: game and a sheet of several games.
    variant: str = ""


@dataclass(frozen=True)
class RankingSheet:
    header: SheetHeader
    #: The top of the game (or of the tournament): the sum of the round tops.
    top: int
    #: ``engine.ranking.Row``: the one row type of screens, sheets and files.
    rows: tuple[Row, ...]
    #: The solos announced at the end of the game (§3.5): (round number, player name).
    solos: tuple[tuple[int, str], ...] = ()
    #: A ranking of several games: every game's solos, (game number, round number, player name).
    game_solos: tuple[tuple[int, int, str], ...] = ()
    #: A merged ranking (§5): each row's centre (the club whose file it came from), in the rows' order;
    #: table numbers are each centre's own.
    centres: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameRound:
    number: int
    #: The rack as announced: "AEI+BLRN", "-FESSOYT" after a rejection.
    rack: str
    #: Earlier draws of this round that were rejected, in order; printed struck through.
    rejected: tuple[str, ...]
    #: "H4" horizontal, "4H" vertical.
    ref: str
    #: The top, blanks in lower case.
    word: str
    score: int
    #: The sum of the tops up to this round.
    cumulated: int
    #: How many moves tied for the top; 0 when unknown.
    tied: int
    #: Earlier draws of this round the arbiter cancelled (§3.1.6), in order: printed struck through
    #: and marked as cancelled, before the rejected draws.  ``rack`` then has no "-" of its own
    #: unless a rejection followed the cancel: a cancel is not a rejection.
    cancelled: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameSheet:
    header: SheetHeader
    rounds: tuple[GameRound, ...]
    #: The final board, row by row (A1, A2 … O15): "" empty, a tile's name ("A", "CH"), a blank's in
    #: lower case.
    board: tuple[str, ...]
    #: The top of the game.
    total: int
    #: Each tile's points by its name, for the board (None: the French set's).
    tile_values: dict[str, int] | None = None


@dataclass(frozen=True)
class CardRound:
    number: int
    #: The slip as handed in ("H4 FAVORI 30"); "" when none was.
    slip: str
    paid: int
    #: "", "avertissement", "-5", "zéro"…
    sanction: str
    #: Why the sanction; may be long, the card wraps it.
    reason: str
    top: int
    #: The top's reference and word: "H4 FAVORI".
    top_move: str
    #: The player's running total of paid scores.
    total: int


@dataclass(frozen=True)
class ScoreCard:
    """One player's game, round by round, as handed to them after the game."""

    header: SheetHeader
    #: The player's line of the game's ranking: name, table, club, series, category, paid scores,
    #: solos, warnings, penalty, total, percentage on the rules' base, rank.
    row: Row
    rounds: tuple[CardRound, ...]
    #: What the solos are worth (0 below the solo threshold, §3.5).
    solo_points: int
    #: The top of the game.
    top: int


@dataclass(frozen=True)
class GamePapers:
    """Everything printed for one game, in the order it is printed: its ranking, its game sheet and its
    players' score cards (by table)."""

    ranking: RankingSheet
    game: GameSheet
    cards: tuple[ScoreCard, ...]
