"""The printed report: latencies per kind of request, each round's slips and database check, the goals
line (status p99, slips p99, the last phone's results after the close), the strangers, the CPU by
component, and the server's own figures per kind of request (``--timings``)."""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from .client import PUSHES, SHOWN
from .cpu import COMPONENTS
from .measure import ACTIONS, AFTER_ACTION_SECONDS, COUNTS, LAG, SAMPLES, latency_line, percentile

if TYPE_CHECKING:
    from .cpu import CpuSampler
    from .deployments import Deployment
    from .play import RoundResult


def report_cpu(args, results: list[RoundResult], sampler: CpuSampler) -> None:
    """What the capacity model needs: CPU per phone per minute while a round runs quietly, what a
    round-state change costs (every phone fetching its new screen), and the slips' last 10 s."""
    if not results or len(sampler.samples) < 4:
        return
    names = [*COMPONENTS, "client"]
    cores = os.cpu_count()
    print(f"  CPU of this run's own processes and database backends (seconds of one core; {cores} cores):")
    print(f"    counted: {sampler.counted_line()}")
    print(" " * 44 + " ".join(f"{n:>9}" for n in names))

    def line(label: str, used: dict, per: float = 1.0, unit: str = "") -> None:
        if used:
            print(f"    {label:<40}" + " ".join(f"{used.get(n, 0) / per * 1000:8.2f}m" for n in names) + unit)

    quiet, changes, slips = defaultdict(float), [], defaultdict(float)
    quiet_seconds = 0.0
    for r in results:
        deadline = r.times["deadline"]
        # From 4 s after the clock started to 11 s before the deadline: nothing changes, nobody sends.
        window = sampler.used(deadline - args.round_seconds + 4, deadline - 11)
        if window:
            quiet_seconds += window["seconds"]
            for k in names:
                quiet[k] += window.get(k, 0.0)
        last10 = sampler.used(deadline - 10, deadline)
        for k in names:
            slips[k] += last10.get(k, 0.0)
    if quiet_seconds:
        rate = {k: quiet[k] / quiet_seconds for k in names}
        line("quiet, per phone per minute", {k: rate[k] * 60 for k in names}, args.players, " (ms)")
        moments = [r.times["closed"] for r in results if r.times["closed"]]
        moments += [sent for _path, sent, _done in ACTIONS]
        # Each change's window, from 0.5 s before to 5 s after it; changes whose windows overlap (a draw
        # and its clock started together) share one, its CPU counted once for all of them.
        for start, end, count in change_windows(moments):
            used = sampler.used(start, end)
            if used:
                changes.append(({k: used[k] - rate[k] * used["seconds"] for k in names}, count))
        seen = sum(count for _used, count in changes)
        if seen:
            mean = {k: sum(c[k] for c, _count in changes) / seen for k in names}
            line(f"a state change, per phone ({seen} seen)", mean, args.players, " (ms, over the quiet)")
        sent = sum(r.checks.get("sent", 0) for r in results)
        extra = {k: slips[k] - rate[k] * 10 * len(results) for k in names}
        line(f"a slip ({sent} sent in the last 10 s)", extra, max(1, sent), " (ms, over the quiet)")
    total = sampler.used(sampler.samples[0][0], sampler.samples[-1][0])
    line(f"whole run ({total.get('seconds', 0):.0f} s)", total, 1.0, " (ms)")


def change_windows(moments: list[float], before: float = 0.5, after: float = 5.0):
    """The windows ``(start, end, changes in it)`` of changes at ``moments``, overlapping ones merged."""
    windows: list[list] = []
    for moment in sorted(moments):
        if windows and moment - before <= windows[-1][1]:
            windows[-1][1] = moment + after
            windows[-1][2] += 1
        else:
            windows.append([moment - before, moment + after, 1])
    return [tuple(w) for w in windows]


def report(args, results: list[RoundResult], deployment: Deployment, sampler: CpuSampler) -> int:
    print()
    print(f"== {args.deployment}: {args.players} phones, {len(results)} rounds of {args.round_seconds} s ==")
    if args.deployment == "scale":
        front = "nginx (deploy/nginx.conf) before " if deployment.proxy else "no proxy: "
        push = "; phones polling every 2 s" if args.no_push or not deployment.proxy else "; changes pushed"
        print(f"   {front}gunicorn: {' '.join(deployment.gunicorn_command()[1:])}{push}")
        print(f"   celery worker --concurrency={args.celery_concurrency}")
    print(
        f"   load average before {args.load_before:.2f}, at the end {os.getloadavg()[0]:.2f} "
        f"({os.cpu_count()} cores, shared with the load client)"
    )
    print(f"  {'requests':<34} {'count':>7} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    buckets = defaultdict(list)
    for sample in SAMPLES:
        buckets[sample.bucket].append(sample)
    for name in sorted(buckets):
        print(latency_line(name, buckets[name]))
    closing, after_action, quiet = [], [], []
    for sample in buckets["phone: status poll"]:
        if any(
            r.times["deadline"] <= sample.sent <= r.times["deadline"] + (r.last_results or 0) for r in results
        ):
            closing.append(sample)
        elif any(sent <= sample.sent <= done + AFTER_ACTION_SECONDS for _path, sent, done in ACTIONS):
            after_action.append(sample)
        else:
            quiet.append(sample)
    print(latency_line("phone: status poll, round closing", closing))
    print(latency_line(f"phone: status poll, {AFTER_ACTION_SECONDS:.0f} s after an action", after_action))
    print(latency_line("phone: status poll, other times", quiet))
    if args.timings:
        dump = {
            "samples": [asdict(s) for s in SAMPLES],
            "actions": ACTIONS,
            "rounds": [r.times for r in results],
        }
        (args.timings / "client.json").write_text(json.dumps(dump, default=str))
    lag = [x * 1000 for x in LAG]
    print(f"  client schedule lag p99 {percentile(lag, 99):.0f} ms, max {max(lag, default=0):.0f} ms")
    statuses = Counter(f"{s.bucket} {s.status}" for s in SAMPLES if s.status not in ("200", "204", "302"))
    print("  errors by status:", dict(statuses) or "none", dict(COUNTS) or "")
    ok = True
    for r in results:
        ok &= print_round(r, r.players or args.players)
    print_goals(args, buckets, results)
    report_strangers(buckets)
    report_cpu(args, results, sampler)
    if PUSHES:
        print(f"  pushed messages received by the phones: {len(PUSHES)}")
    if SHOWN:
        ms = sorted(x * 1000 for x in SHOWN)
        figures = " ".join(f"{percentile(ms, q):8.0f}" for q in (50, 90, 99)) + f" {ms[-1]:8.0f}"
        print(f"  {'phone: state shown from a push':<34} {len(ms):>7} {figures}")
    return 0 if ok else 1


def print_round(r: RoundResult, players: int) -> bool:
    t, c = r.times, r.checks
    deadline, grace = t["deadline"], t["grace"]

    def since(value):
        return f"{value - deadline:+.2f} s" if value else "—"

    accepted = c["accepted_before_deadline"] / max(1, c["sent_before_deadline"]) * 100
    where = f"centre {r.centre}, " if r.centre else ""
    print(f"  {where}round {r.number} (id {r.round_id}), deadline + grace {grace} s:")
    print(
        f"    slips sent {c['sent']}, before the deadline {c['sent_before_deadline']}, "
        f"accepted {c['accepted_before_deadline']} ({accepted:.1f} %)"
    )
    print(f"    slips' outcomes: {dict(c['outcomes'])}")
    print(f"    requests' answers: {dict(c['attempts'])}")
    print(
        f"    database: {t['slips']} rows, players with two rows {t['players_with_two_rows']}, "
        f"rows differing from the last accepted slip {len(c['mismatched'])} "
        f"(players whose last slip's answer was lost: {c['unsure']}), ungraded {t['ungraded']}"
    )
    for index, expected, stored in c["mismatched"][:5]:
        print(f"      phone {index}: expected {expected!r}, stored {stored!r}")
    print(f"    grades: {dict(t['reasons'])}")
    print(
        f"    from the deadline: closed {since(t['closed'])}, first slip graded {since(t['graded_first'])}, "
        f"all graded {since(t['graded_last'])}"
    )
    first = f"{r.first_results:+.2f} s" if r.first_results is not None else "—"
    last = f"{r.last_results:+.2f} s" if r.last_results is not None else "—"
    print(
        f"    phones showing their results: {r.phones_with_results}/{players}, first {first}, last {last}",
        end="",
    )
    if r.last_results is not None and t["closed"]:
        print(f" (last: {deadline + r.last_results - t['closed']:+.2f} s after the close)")
    else:
        print()
    return accepted == 100.0 and not c["mismatched"] and not t["ungraded"] and not t["players_with_two_rows"]


def print_goals(args, buckets, results: list[RoundResult]) -> None:
    statuses = buckets["phone: status poll"] + buckets["phone: status, pushed"]
    # From a change to a phone showing it: a status fetched (the request's time), or drawn from a
    # pushed message (from the change's commit, the message's ``at``).
    polls = [s.seconds for s in statuses if s.status.isdigit()] + SHOWN
    slips = [s.seconds for s in buckets["phone: slip"] if s.status.isdigit()]
    worst = max((r.last_results or float("inf")) for r in results) if results else float("nan")
    after_close = [
        r.times["deadline"] + r.last_results - r.times["closed"]
        for r in results
        if r.last_results is not None and r.times["closed"]
    ]
    goal = 0.5 if args.deployment == "embedded" else 1.0
    print(f"  goals ({args.deployment}): p99 < {goal * 1000:.0f} ms", end="")
    p99_polls, p99_slips = percentile(polls, 99) * 1000, percentile(slips, 99) * 1000
    print(f"; status p99 {p99_polls:.0f} ms, slips p99 {p99_slips:.0f} ms", end="")
    print(
        f"; last phone's results {worst:+.2f} s after the deadline, "
        f"{max(after_close, default=float('nan')):+.2f} s after the close (goal: within 4 s)"
    )


def report_strangers(buckets) -> None:
    for name in sorted(b for b in buckets if b.startswith("stranger:")):
        samples = buckets[name]
        span = max(s.sent for s in samples) - min(s.sent for s in samples) if samples else 0
        statuses = dict(Counter(s.status for s in samples))
        print(f"  {name}: {len(samples)} requests, {len(samples) / max(span, 1):.1f}/s, {statuses}")


def summarize_timings(out: Path) -> None:
    """Merge every process's rows into ``requests.json`` and print them, costliest first."""
    rows: dict[str, list] = defaultdict(list)
    for path in out.glob("rows-*.json"):
        for kind, values in json.loads(path.read_text(encoding="utf-8")).items():
            rows[kind] += values
    summary = {
        kind: {
            "count": len(r),
            "wall_ms_mean": round(1000 * sum(x[0] for x in r) / len(r), 1),
            "wall_ms_p99": round(1000 * percentile([x[0] for x in r], 99), 1),
            "queries_mean": round(sum(x[1] for x in r) / len(r), 1),
            "queries_max": max(x[1] for x in r),
            "query_ms_mean": round(1000 * sum(x[2] for x in r) / len(r), 1),
            # CPU time of the request's own thread: its cost, whatever the GIL or a lock made it wait.
            "cpu_ms_mean": round(1000 * sum(x[3] for x in r) / len(r), 1),
            "cpu_ms_max": round(1000 * max(x[3] for x in r), 1),
            "cpu_s_total": round(sum(x[3] for x in r), 2),
        }
        for kind, r in rows.items()
    }
    (out / "requests.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    print(f"  server side, per kind of request (inside the application; {out}/requests.json):")
    print(
        f"  {'kind':<22}{'count':>7}{'CPU ms':>8}{'CPU max':>9}{'CPU s':>8}{'wall ms':>9}{'wall p99':>9}"
        f"{'queries':>8}{'max':>5}{'query ms':>9}"
    )
    for kind, v in sorted(summary.items(), key=lambda item: -item[1]["cpu_s_total"]):
        print(
            f"  {kind:<22}{v['count']:>7}{v['cpu_ms_mean']:>8}{v['cpu_ms_max']:>9}{v['cpu_s_total']:>8}"
            f"{v['wall_ms_mean']:>9}{v['wall_ms_p99']:>9}{v['queries_mean']:>8}{v['queries_max']:>5}"
            f"{v['query_ms_mean']:>9}"
        )
