"""Every write of a tournament's setup and its games: keyword-only functions named
``<entity>_<action>``, one module per part of the evening.  Rules are the engine's
(``../shared/rules/duplicate.md``); these functions load rows, call the engine, and store results.
A refusal is a ``server.writes.ServiceError``.

- ``registration``: tournaments and players one by one, their settings and details changed, a player
  removed; ``players_csv``: players from a spreadsheet's CSV;
- ``games``: a game started, ended (by the rules or the arbiter), abandoned or deleted;
- ``follow``: a centre's game in a live simultaneous, following the lead centre's racks and tops;
- ``draws``: each round's rack drawn, typed from a physical bag or replayed, a round cancelled;
- ``tops``: the round's top searched while the players think, queued to a worker or run here;
- ``rounds``: the clock started, the round closed on time, the top placed;
- ``grading``: slips graded against the top (§3.4).
The slips themselves (the phones', the arbiter's paper slips and corrections) are the live room's
(``live.services``).

The names below are this room's services and the refusal they raise, so a caller writes
``services.round_draw(...)`` and catches ``services.ServiceError``.
"""

from server.writes import ServiceError
from tournaments.services.draws import DrawOutcome, round_cancel, round_draw
from tournaments.services.follow import game_follow, game_follow_lead
from tournaments.services.games import (
    game_abandon,
    game_delete,
    game_end,
    game_start,
)
from tournaments.services.players_csv import CsvRefused, players_import_csv
from tournaments.services.registration import (
    player_register,
    player_remove,
    player_update,
    tournament_create,
    tournament_create_with_list,
    tournament_locked,
    tournament_update,
)
from tournaments.services.rounds import (
    round_close,
    round_close_if_due,
    round_place_top,
    round_start,
    rounds_close_overdue,
)
from tournaments.services.tops import round_compute_top, round_requeue_top

__all__ = [
    "CsvRefused",
    "DrawOutcome",
    "ServiceError",
    "game_abandon",
    "game_delete",
    "game_end",
    "game_follow",
    "game_follow_lead",
    "game_start",
    "player_register",
    "player_remove",
    "player_update",
    "players_import_csv",
    "round_cancel",
    "round_close",
    "round_close_if_due",
    "round_compute_top",
    "round_draw",
    "round_place_top",
    "round_requeue_top",
    "round_start",
    "rounds_close_overdue",
    "tournament_create",
    "tournament_create_with_list",
    "tournament_locked",
    "tournament_update",
]
