"""A :class:`~streamblocks.store.SnapshotStore` in Redis, shared by every worker.

Each stream's snapshot is one hash, ``{prefix}{stream_id}``, with the fields ``v`` (the
version) and ``d`` (the bytes); a delete removes ``d`` and keeps ``v``, so the stream's
versions never restart and a stale worker's version never comes round again. A write is
one Lua script, so the compare-and-set is atomic on the server: it stores only if the
stored version is the one the writer names, whatever other workers do at the same moment.
"""

from __future__ import annotations

import math
from typing import Any

from ...extras import missing_extra
from ...store import StaleSnapshotError, Stored

# KEYS[1] the hash; ARGV: expected version, data, expiry in ms (0: none).
# Returns the new version, or -1 - the stored version when the expected one is not it.
# A deleted snapshot (``v`` without ``d``) counts as version 0 but numbers on from ``v``.
_PUT = """
local last = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
local current = last
if redis.call('HEXISTS', KEYS[1], 'd') == 0 then current = 0 end
if current ~= tonumber(ARGV[1]) then return -1 - current end
redis.call('HSET', KEYS[1], 'v', last + 1, 'd', ARGV[2])
local ttl = tonumber(ARGV[3])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return last + 1
"""

# KEYS[1] the hash; ARGV[1]: the version to delete, or '' for any. Keeps ``v``.
_DELETE = """
local current = redis.call('HGET', KEYS[1], 'v')
if not current or redis.call('HEXISTS', KEYS[1], 'd') == 0 then return 0 end
if ARGV[1] ~= '' and tonumber(current) ~= tonumber(ARGV[1]) then return 0 end
return redis.call('HDEL', KEYS[1], 'd')
"""


def _client(url: str) -> Any:
    """A redis-py client of the server at ``url``."""
    try:
        import redis
    except ImportError as exc:
        raise missing_extra("RedisSnapshotStore", "redis", exc) from exc
    return redis.Redis.from_url(url)


class RedisSnapshotStore:
    """Snapshots in Redis through a redis-py client.

    ``client``: a ``redis.Redis`` (``redis.Redis.from_url(url)``), or the server's URL
    (``"redis://host:port/db"``, as :meth:`from_url`); give a client
    ``decode_responses=False`` (the default), snapshots are bytes. ``prefix`` names the
    keys; ``ttl``: seconds a snapshot lives after its last write (``None``: until
    deleted) — set one, so streams nobody resumes do not stay for ever.
    """

    def __init__(
        self, client: Any, *, prefix: str = "streamblocks:snapshot:", ttl: float | None = None
    ) -> None:
        if isinstance(client, str):
            client = _client(client)
        elif not callable(getattr(client, "register_script", None)):
            raise TypeError(
                "RedisSnapshotStore takes a redis.Redis client or a redis:// URL, "
                f"got {type(client).__name__}"
            )
        self.client = client
        self.prefix = prefix
        self.ttl = ttl
        self._put = client.register_script(_PUT)
        self._delete = client.register_script(_DELETE)

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> RedisSnapshotStore:
        """A store on the server at ``url`` (``redis://host:port/db``)."""
        return cls(_client(url), **kwargs)

    def _key(self, stream_id: str) -> str:
        return self.prefix + stream_id

    def get(self, stream_id: str) -> Stored | None:
        version, data = self.client.hmget(self._key(stream_id), "v", "d")
        if version is None or data is None:
            return None
        return Stored(int(version), bytes(data))

    def put(self, stream_id: str, data: bytes, *, version: int) -> int:
        # (a ttl under a millisecond is one: 0 would mean no expiry at all)
        ttl = max(1, math.ceil(self.ttl * 1000)) if self.ttl else 0
        answer = int(self._put(keys=[self._key(stream_id)], args=[version, data, ttl]))
        if answer < 0:
            raise StaleSnapshotError(stream_id, version, -1 - answer)
        return answer

    def delete(self, stream_id: str, *, version: int | None = None) -> bool:
        expected = "" if version is None else str(version)
        return bool(self._delete(keys=[self._key(stream_id)], args=[expected]))

    def __repr__(self) -> str:
        return f"RedisSnapshotStore(prefix={self.prefix!r})"


__all__ = ["RedisSnapshotStore"]
