"""The server: what every room's requests and writes go through in this process.

Requests stamped on arrival (a slip's lateness), the memo the room's phones share, the brake on
guessing join links, the laptop's network addresses, the write queue before SQLite's lock, refusals
in the interface's language, background tasks, and ``manage.py serve`` (the laptop default).  It
knows no tournament: every room may import it, it imports none of them.
"""
