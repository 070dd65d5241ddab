"""gunicorn's settings for the scale deployment (read by gunicorn from the folder it starts in):
``gunicorn arbiter.wsgi:application --bind 0.0.0.0:8000``.  scripts/loadbench.py measured them."""

# One worker per core and a spare, four threads each: a Python process runs on one core at a time,
# but a phone's slip waits for its batch's commit (live/slipgate.py, services/slip_batch.py),
# and the slips waiting in a worker are committed together: 4 threads answered the slips' last 10 s
# at p99 43-44 ms for 4.6-5.5 ms of CPU a slip, 2 threads at 64-236 ms for 6.2-6.8 ms, 8 threads
# at 1,039 ms (scripts/loadbench.py --deployment scale --players 300 --rounds 1, 2026-11-26).
workers = 4
worker_class = "gthread"
threads = 4
# How long an idle connection is kept: longer than nginx keeps its own to gunicorn (deploy/nginx.conf,
# upstream keepalive_timeout 60s), so that nginx always closes one first.  Were gunicorn to close one
# first, a slip nginx sent on it in that instant would get a 502 and not be stored (nginx does not
# send a POST again).  An idle connection costs a gthread worker a file, not a thread.
keepalive = 75


def post_worker_init(worker):
    """Each worker loads the word list and the search before its first request: otherwise the first
    slip it grades waits about a second, in the last seconds of a round."""
    import django

    django.setup()  # already done by arbiter.wsgi; not by a wrapper loaded lazily (loadbench --timings)
    from server.warmup import warm_up_rooms

    warm_up_rooms()
