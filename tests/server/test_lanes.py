"""Strangers' work does not slow the room: the laptop's server hands its threads to the room's
requests before strangers' (public results, training: ``settings.STRANGER_PATHS``) and keeps one
thread for the room while strangers are served.  Waitress's own dispatcher and threads; the tasks
are connections reduced to their next request's path and a service that may wait."""

from __future__ import annotations

import threading
from types import SimpleNamespace

from server.lanes import RoomFirstDispatcher


class Connection:
    def __init__(self, path: str, served: list, hold: threading.Event | None = None):
        self.requests = [SimpleNamespace(path=path)]
        self.path, self.served, self.hold = path, served, hold
        self.done = threading.Event()

    def service(self):
        self.served.append(self.path)
        if self.hold is not None:
            self.hold.wait(30)
        self.done.set()

    def cancel(self):
        pass


def test_a_thread_stays_free_for_the_room_and_the_room_passes_the_strangers_waiting():
    dispatcher = RoomFirstDispatcher()
    dispatcher.set_thread_count(2)
    served, hold = [], threading.Event()
    try:
        first = Connection("/entrainement/", served, hold)  # a stranger's request holding a thread
        dispatcher.add_task(first)
        assert _until(lambda: served == ["/entrainement/"])
        reader = Connection("/simultane/cle-publique/", served)
        phone = Connection("/j/jeton/etat/", served)
        dispatcher.add_task(reader)
        dispatcher.add_task(phone)
        # The phone, queued after the reader, is served by the thread left to the room; the reader
        # waits until the stranger before it is done.
        assert phone.done.wait(10)
        assert not reader.done.is_set() and served == ["/entrainement/", "/j/jeton/etat/"]
        hold.set()
        assert reader.done.wait(10) and first.done.is_set()
    finally:
        hold.set()
        dispatcher.shutdown()


def _until(predicate, seconds: float = 10) -> bool:
    end = threading.Event()
    for _ in range(int(seconds * 20)):
        if predicate():
            return True
        end.wait(0.05)
    return predicate()
