"""gunicorn's settings for the scale deployment (read by gunicorn from the folder it starts in):
``gunicorn arbiter.wsgi:application --bind 0.0.0.0:8000``.  scripts/loadbench.py measured them."""

# One worker per core and a spare; each runs Python on one core at a time, so two threads each:
# more threads only add switching.
workers = 4
worker_class = "gthread"
threads = 2
# Phones poll every 2 seconds on the same connection.
keepalive = 10


def post_worker_init(worker):
    """Each worker loads the word list and the search before its first request: otherwise the first
    slip it grades waits about a second, in the last seconds of a round."""
    import django

    django.setup()  # already done by arbiter.wsgi; not by a wrapper loaded lazily (loadbench --timings)
    from server.warmup import warm_up_rooms

    warm_up_rooms()
