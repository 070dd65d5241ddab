"""Every write of the live room: keyword-only functions named ``<entity>_<action>``.
- ``slips``: a phone's slip stored (``submission_record``), the arbiter's paper slip
  (``submission_enter``), a correction and its undoing; ``slip_batch``: the slips of the last
  seconds' rush stored together, one commit for many; ``slip_rows``: their SQL;
- ``tried``: a slip a phone tried to send while the server did not answer, kept as a claim the
  arbiter accepts or refuses (§3.3.3).
A refusal is a ``server.writes.ServiceError``, as in the tournament's services
(``tournaments.services``), where rounds are drawn, started, closed and their slips graded.
"""

from live.services.slips import (
    submission_correct,
    submission_correction_undo,
    submission_enter,
    submission_record,
)
from live.services.tried import tried_accept, tried_record, tried_refuse
from server.writes import ServiceError

__all__ = [
    "ServiceError",
    "submission_correct",
    "submission_correction_undo",
    "submission_enter",
    "submission_record",
    "tried_accept",
    "tried_record",
    "tried_refuse",
]
