"""Django's Redis cache, its client kept.

Django's ``RedisCache`` makes a new ``redis.Redis`` client object for every call (on the same
connection pool): building one costs more than the ``GET`` it sends, a good share of a phone's
slip's CPU in a hall (measured: docs/developer/benchmarks.md).  A client is safe to share between
threads (each command takes a connection from the pool), so this one keeps one client per pool."""

from __future__ import annotations

from django.core.cache.backends import redis as django_redis


class KeptClientRedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict = {}  # pool -> its client

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(pool)
        if client is None:
            client = self._clients.setdefault(pool, self._client(connection_pool=pool))
        return client


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache``, one client kept per server."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = KeptClientRedisCacheClient
