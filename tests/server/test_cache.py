"""``server.cache.RedisCache``: Django's Redis cache with one client kept per server, on a real Redis."""

import threading

from django.core.cache.backends.redis import RedisCacheClient

from server.cache import RedisCache
from tests.live_services import REDIS_DATABASES


def _cache(redis_server, prefix="kept"):
    url = f"{redis_server}/{REDIS_DATABASES['cache']}"
    return RedisCache(url, {"KEY_PREFIX": prefix, "OPTIONS": {"socket_timeout": 1}})


def test_one_client_serves_every_call(redis_server):
    cache = _cache(redis_server)
    first = cache._cache.get_client("a")
    assert first is cache._cache.get_client("b", write=True)
    # Django's own makes a new one each time: what this backend saves.
    plain = RedisCacheClient([f"{redis_server}/{REDIS_DATABASES['cache']}"])
    assert plain.get_client("a") is not plain.get_client("a")


def test_the_kept_client_reads_and_writes_from_many_threads(redis_server):
    cache = _cache(redis_server, prefix="threads")
    failures = []

    def work(n):
        try:
            for i in range(50):
                cache.set(f"k{n}-{i}", [n, i], 30)
                assert cache.get(f"k{n}-{i}") == [n, i]
        except Exception as failure:  # collected: an assertion in a thread does not fail the test
            failures.append(failure)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert cache.get_many([f"k{n}-49" for n in range(8)]) == {f"k{n}-49": [n, 49] for n in range(8)}
    cache.delete_many([f"k{n}-{i}" for n in range(8) for i in range(50)])
    assert cache.get("k0-0") is None


def test_a_server_that_does_not_answer_fails_each_call():
    cache = RedisCache("redis://127.0.0.1:1/0", {"OPTIONS": {"socket_connect_timeout": 1}})
    for _ in range(2):
        try:
            cache.get("x")
        except Exception as failure:
            assert "connect" in str(failure).lower() or isinstance(failure, OSError)
        else:
            raise AssertionError("a cache with nothing listening answered")
