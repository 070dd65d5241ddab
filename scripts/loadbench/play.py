"""One run's rooms played: one room (``session``) or a simultaneous's centres on one server
(``session_centres``), round after round, each round checked against the database (every player's row
is the last slip the server accepted)."""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from . import DUMP_PATH
from .browser import Browser, csrf_from, sleep_until
from .client import PLANS, Arbiter, Phone, Poller
from .strangers import start_strangers
from .tournament import make_event, make_public_event, make_tournament, round_times, wait_top_ready


@dataclass
class RoundResult:
    """One round as played: its times and rows in the database, when the phones showed their results,
    the check of its slips."""

    number: int
    round_id: int
    times: dict
    phones_with_results: int = 0
    first_results: float | None = None
    last_results: float | None = None
    checks: dict = field(default_factory=dict)
    players: int = 0  # the phones of its room
    centre: int = 0  # --centres: which centre's room (1..N)


ORM = ThreadPoolExecutor(max_workers=1, thread_name_prefix="orm")


async def orm(function, *args):
    """The database is read by one thread of its own, never by the event loop's."""
    return await asyncio.get_running_loop().run_in_executor(ORM, function, *args)


async def wait_until(predicate, seconds: float, step: float = 0.1) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        await asyncio.sleep(step)
    return predicate()


async def wait_closed(round_id: int, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and (await orm(round_times, round_id))["closed"] is None:
        await asyncio.sleep(0.5)


async def play_round(arbiter: Arbiter, game_id: int, number: int, phones: list[Phone], args) -> RoundResult:
    page = await arbiter.post(f"/parties/{game_id}/tirage/", expected_number=str(number), rack="")
    round_id = int(re.search(r"/coups/(\d+)/chrono/", page).group(1))
    PLANS[round_id] = await orm(wait_top_ready, round_id)
    print(f"  round {number}: drawn (round id {round_id}), top ready; starting the clock", flush=True)
    await arbiter.post(f"/coups/{round_id}/chrono/")
    deadline = (await orm(round_times, round_id))["deadline"]
    await sleep_until(time.monotonic() + deadline - time.time())
    joined = [p for p in phones if p.joined]
    got_all = await wait_until(lambda: all(round_id in p.results for p in joined), args.results_timeout)
    if not got_all:
        print(f"  round {number}: not every phone showed its results within {args.results_timeout} s")
    await wait_closed(round_id, args.results_timeout)  # the arbiter places the top once closed
    result = RoundResult(number, round_id, await orm(round_times, round_id))
    seen = [p.results[round_id] for p in phones if round_id in p.results]
    result.phones_with_results = len(seen)
    result.first_results = min(seen) - deadline if seen else None
    result.last_results = max(seen) - deadline if seen else None
    path = f"/tournois/{arbiter.tournament_id}/classement/"
    await arbiter.browser.request("arbiter: ranking page", "GET", path)
    await arbiter.post(f"/coups/{round_id}/placer/", index="0")
    return result


async def play_rounds(arbiter: Arbiter, game_id: int, phones: list[Phone], players: dict, args) -> list:
    """The room's rounds one after the other, each checked against the database."""
    results = []
    for number in range(1, args.rounds + 1):
        result = await play_round(arbiter, game_id, number, phones, args)
        result.checks = check_round(result, phones, players)
        results.append(result)
        await asyncio.sleep(args.pause)
    return results


def check_round(result: RoundResult, phones: list[Phone], players: dict[str, int]) -> dict:
    """The database after the round: every player's row is the last slip the server accepted.  A slip
    sent after it whose answer never came (and was not accepted when sent again) may be there too."""
    times = result.times
    deadline = times["deadline"]
    sent = [s for p in phones for s in p.sendings if s.round_id == result.round_id]
    before = [s for s in sent if s.sent < deadline]
    mismatched, unsure = [], 0
    for phone in phones:
        mine = [s for s in phone.sendings if s.round_id == result.round_id]
        done = [i for i, s in enumerate(mine) if s.outcome == "accepted"]
        allowed = {mine[done[-1]].text} if done else {None}
        lost = {s.text for s in mine[(done[-1] + 1 if done else 0) :] if s.maybe_stored}
        unsure += bool(lost)
        stored = times["rows"].get(players[phone.token])
        if stored not in allowed | lost:
            mismatched.append((phone.index, sorted(allowed | lost, key=str), stored))
    return {
        "sent": len(sent),
        "attempts": Counter(a for s in sent for a in s.attempts),
        "sent_before_deadline": len(before),
        "accepted_before_deadline": sum(s.outcome == "accepted" for s in before),
        "outcomes": Counter(s.outcome for s in sent),
        "mismatched": mismatched,
        "unsure": unsure,
    }


def make_clients(
    args, port: int, rows, arbiter: Arbiter, game_id: int, first: int = 0, total: int = 0
) -> tuple[list[Phone], list[Poller]]:
    """The room's phones (numbered from ``first`` among ``total``: each its own address) and screens."""
    now = time.monotonic()
    total = total or len(rows)
    phones = [
        Phone(first + i, token, port, args.seed, now + args.join_seconds * (first + i) / max(1, total))
        for i, (_pk, token) in enumerate(rows)
    ]
    screens = []
    for bucket, page, element in (
        ("arbiter game screen", f"/parties/{game_id}/", "live"),
        ("projector", f"/projecteur/{game_id}/", "projection"),
    ):
        browser = Browser(port)
        browser.cookies = dict(arbiter.browser.cookies)
        screens.append(Poller(bucket, page, element, browser))
    return phones, screens


async def session(args, port: int) -> list[RoundResult]:
    public_key = await orm(make_public_event, args.players, args.seed) if args.public_rps else ""
    tournament_id, rows = await orm(make_tournament, args.players, args.round_seconds)
    players = {token: pk for pk, token in rows}
    arbiter = Arbiter(port)
    arbiter.tournament_id = tournament_id
    await arbiter.login()
    game_id = await arbiter.start_game()
    print(f"  tournament {tournament_id}, game {game_id}, {len(rows)} players, port {port}", flush=True)
    phones, screens = make_clients(args, port, rows, arbiter, game_id)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(actor.run(stop)) for actor in [*screens, *phones]]
    if not await wait_until(lambda: all(p.joined for p in phones), args.join_seconds + 60, 0.2):
        print("  some phones could not join", flush=True)
    print(f"  {sum(p.joined for p in phones)} phones joined", flush=True)
    tasks += start_strangers(args, port, stop, public_key)
    await asyncio.sleep(3)
    results = await play_rounds(arbiter, game_id, phones, players, args)
    stop.set()
    await asyncio.wait(tasks, timeout=70)
    if args.profile or args.timings:
        await arbiter.browser.request("(bench) timings dump", "GET", DUMP_PATH)
    return results


async def public_reader(port: int, key: str, stop: asyncio.Event, every: float) -> None:
    """Someone following the event's public results page (no login), reading it every few seconds."""
    browser = Browser(port)
    while not stop.is_set():
        await browser.request("public results page", "GET", f"/simultane/{key}/")
        await asyncio.sleep(every)
    browser.close()


async def session_centres(args, port: int) -> list[RoundResult]:
    key, rooms = await orm(make_event, args.players, args.centres, args.round_seconds, args.seed)
    main = Arbiter(port)
    await main.login()
    page = await main.browser.request("arbiter: tournament page (setup)", "GET", f"/tournois/{rooms[0][0]}/")
    main.csrf = csrf_from(page.text)
    print(f"  event {key}: {len(rooms)} centres, {args.players} players, port {port}", flush=True)
    stop = asyncio.Event()
    tasks, everyone, centres = [], [], []
    for tournament_id, game_id, rows in rooms:
        arbiter = Arbiter(port)  # the centre's arbiter: the same account (it sees every club)
        arbiter.browser.cookies, arbiter.csrf = dict(main.browser.cookies), main.csrf
        arbiter.tournament_id = tournament_id
        phones, screens = make_clients(args, port, rows, arbiter, game_id, len(everyone), args.players)
        everyone += phones
        centres.append((arbiter, game_id, phones, {token: pk for pk, token in rows}))
        tasks += [asyncio.create_task(actor.run(stop)) for actor in [*screens, *phones]]
    tasks += [asyncio.create_task(public_reader(port, key, stop, 5.0)) for _ in range(args.readers)]
    if not await wait_until(lambda: all(p.joined for p in everyone), args.join_seconds + 60, 0.2):
        print("  some phones could not join", flush=True)
    print(f"  {sum(p.joined for p in everyone)} phones joined", flush=True)
    tasks += start_strangers(args, port, stop, key)
    await asyncio.sleep(3)

    async def centre_plays(n: int, arbiter: Arbiter, game_id: int, phones: list[Phone], players: dict):
        await asyncio.sleep(n * args.centre_stagger)  # each centre at its own pace
        results = await play_rounds(arbiter, game_id, phones, players, args)
        for result in results:
            result.players, result.centre = len(phones), n + 1
        return results

    played = await asyncio.gather(*(centre_plays(n, *centre) for n, centre in enumerate(centres)))
    stop.set()
    await asyncio.wait(tasks, timeout=70)
    return [r for results in played for r in results]
