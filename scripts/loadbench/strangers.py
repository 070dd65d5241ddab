"""Strangers beside the room (``--public-rps``, ``--trainers``): readers of a simultaneous's
public page, each from an address of its own, and people starting random training games."""

from __future__ import annotations

import asyncio
import time

from .browser import Browser, csrf_from, sleep_until

#: Seconds between two reads of the public page by one reader (--public-rps: rps * this readers).
READ_EVERY = 2.0


def start_strangers(args, port: int, stop: asyncio.Event, key: str) -> list[asyncio.Task]:
    """Readers of the public page reading it ``args.public_rps`` times a second in all, and
    ``args.trainers`` people training, each from an address of its own."""
    readers = round(args.public_rps * READ_EVERY)
    tasks = [asyncio.create_task(stranger_reads(port, key, n, readers, stop)) for n in range(readers)]
    tasks += [asyncio.create_task(stranger_trains(port, n, stop)) for n in range(args.trainers)]
    if readers or args.trainers:
        print(f"  strangers: {readers} readers of the public page, {args.trainers} training", flush=True)
    return tasks


async def stranger_reads(port: int, key: str, n: int, readers: int, stop: asyncio.Event) -> None:
    browser = Browser(port, local_address=f"127.3.{n // 250}.{n % 250 + 1}")
    planned = time.monotonic() + READ_EVERY * n / readers
    while not stop.is_set():
        await sleep_until(planned)
        await browser.navigate("stranger: public results page", "GET", f"/simultane/{key}/")
        planned = max(planned + READ_EVERY, time.monotonic())
    browser.close()


async def stranger_trains(port: int, n: int, stop: asyncio.Event) -> None:
    """A new random game, two rounds played as fast as a person would (2 s to pass, 1 s on the
    results and the best placements), then another game; told to wait (429, 503), it waits."""
    browser = Browser(port, local_address=f"127.4.{n // 250}.{n % 250 + 1}")
    await asyncio.sleep(n * 0.5)
    while not stop.is_set():
        page = await browser.navigate("stranger: training start page", "GET", "/entrainement/")
        if page is None or page.status != 200:
            await asyncio.sleep(2)
            continue
        csrf = csrf_from(page.text)
        form = {"csrfmiddlewaretoken": csrf, "source": "random", "seconds": "180"}
        reply = await browser.navigate("stranger: training new game", "POST", "/entrainement/", form=form)
        if reply is None or reply.status != 302:
            await asyncio.sleep(float(reply.headers.get("retry-after", 2)) if reply else 2)
            continue
        for _round in range(2):
            while not stop.is_set():
                reply = await browser.navigate("stranger: training round", "GET", "/entrainement/coup/")
                if reply is not None and 'class="rack"' in reply.text:
                    break
                await asyncio.sleep(float(reply.headers.get("retry-after", 1)) if reply else 1)
            await asyncio.sleep(2)
            for action, pause in (("passer", 1), ("suivant", 0)):
                await browser.navigate("stranger: training action", "POST", f"/entrainement/{action}/",
                                      form={"csrfmiddlewaretoken": csrf})  # fmt: skip
                await browser.navigate("stranger: training round", "GET", "/entrainement/coup/")
                await asyncio.sleep(pause)
    browser.close()
