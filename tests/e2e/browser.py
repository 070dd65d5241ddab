"""What the browser tests share: the test thread's own database calls, and a recorded voice."""

from __future__ import annotations

from contextlib import contextmanager

from django.db import connections

#: speechSynthesis replaced before the page's scripts run: what the page says is recorded in
#: ``window.__spoken``.
VOICE = """
window.__spoken = [];
class RecordedUtterance { constructor(text) { this.text = text; } }
window.SpeechSynthesisUtterance = RecordedUtterance;
Object.defineProperty(window, "speechSynthesis", { value: {
  speak(u) { window.__spoken.push(u.text); }, cancel() {}, getVoices() { return []; }
} });
"""


@contextmanager
def orm():
    """The test's own database calls.  While Playwright runs, this thread has a running event loop,
    and Django then keeps the thread's connection apart from the one the test database's teardown
    closes: close it after use, or PostgreSQL could not drop the test database."""
    try:
        yield
    finally:
        connections.close_all()
