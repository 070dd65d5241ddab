"""gunicorn's settings for the scale deployment, a module of the package so that an installed server
has them as a checkout does: ``gunicorn arbiter.wsgi:application --config python:arbiter.gunicorn
--bind 127.0.0.1:8000`` (server/deployment.py says the deployment's commands).  gunicorn reads every
name below that is one of its settings, and ignores the others."""

# One worker per core and a spare, four threads each: a Python process runs on one core at a time,
# but a phone's slip waits for its batch's commit (live/slipgate.py, live/services/slip_batch.py),
# and the slips waiting in a worker are committed together.  Fewer threads leave slips queued behind
# a commit, more make them wait for the core: the measures are in docs/developer/benchmarks.md ("The
# lean slip path").
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
