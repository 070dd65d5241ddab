"""What the client measures: every request's latency by bucket, the arbiter's actions (a state change
every phone then fetches), how late the client ran against its schedule; percentiles and the latency line."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class Sample:
    bucket: str
    sent: float  # wall clock (time.time), comparable with the database's timestamps
    seconds: float
    status: str


SAMPLES: list[Sample] = []
#: The arbiter's actions (draw, start the clock, place the top): path, sent, answered.  Every phone's
#: next poll brings the new screen.
ACTIONS: list[tuple[str, float, float]] = []
#: Polls sent this long after an arbiter's action are counted as "after an arbiter's action".
AFTER_ACTION_SECONDS = 3.0
LAG: list[float] = []  # how late the client sent each request against its schedule
COUNTS: Counter = Counter()


def record(bucket: str, sent: float, seconds: float, status: str) -> None:
    SAMPLES.append(Sample(bucket, sent, seconds, status))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def latency_line(name: str, samples: list[Sample]) -> str:
    ms = [s.seconds * 1000 for s in samples if s.status.isdigit()]
    figures = " ".join(f"{percentile(ms, q):8.0f}" for q in (50, 90, 99)) + f" {max(ms, default=0):8.0f}"
    return f"  {name:<34} {len(samples):>7} {figures}"
