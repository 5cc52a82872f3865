"""Snapshot stores: where a stream's snapshot waits for the worker that resumes it.

A worker that streams a long run saves ``session.snapshot()`` (with whatever else it needs
to resume: the provider position, the last event id sent) under the stream's id every so
often. When it dies, another worker reads the snapshot, ``processor.restore()``-s the
session and goes on. Each stored snapshot has a *version*, and a write names the version
it replaces (compare-and-set): a stale worker — one that was thought dead, or was slow to
notice another took over — cannot overwrite a newer snapshot; its write raises
:class:`StaleSnapshotError` and it should stop streaming.

:class:`MemorySnapshotStore` keeps snapshots in this process (tests, docs, one worker);
:class:`streamblocks.ext.redis.RedisSnapshotStore` (extra ``redis``) shares them between
processes and machines. Any object with the three methods of :class:`SnapshotStore` is a
store.
"""

from __future__ import annotations

import threading
import time
from typing import NamedTuple, Protocol, runtime_checkable

from .core.errors import StreamBlocksError


class StaleSnapshotError(StreamBlocksError):
    """A write named a version that is no longer the stored one: another worker wrote
    since (or the snapshot was deleted). ``current`` is the stored version (0: none)."""

    def __init__(self, stream_id: str, expected: int, current: int) -> None:
        super().__init__(
            f"snapshot of stream {stream_id!r} is at version {current}, not {expected}: "
            "another worker took the stream over"
        )
        self.stream_id = stream_id
        self.expected = expected
        self.current = current


class Stored(NamedTuple):
    """A stored snapshot and its version (1 for the first write, +1 for each next; after
    a delete the count goes on from the deleted version, so no version is used twice)."""

    version: int
    data: bytes


@runtime_checkable
class SnapshotStore(Protocol):
    """Snapshots by stream id, versioned (see the module docstring)."""

    def get(self, stream_id: str) -> Stored | None:
        """The stored snapshot, or ``None``."""
        ...

    def put(self, stream_id: str, data: bytes, *, version: int) -> int:
        """Store ``data`` if the stored version is ``version`` (0: nothing stored yet);
        returns the new version: ``version + 1``, or after a delete one more than the
        deleted version (versions never restart, so a stale worker's version never comes
        round again). Raises :class:`StaleSnapshotError` otherwise, storing nothing."""
        ...

    def delete(self, stream_id: str, *, version: int | None = None) -> bool:
        """Remove the snapshot (only if at ``version``, when given); whether it was. The
        stream's last version is kept (a few bytes, expiring with the ``ttl``)."""
        ...


class MemorySnapshotStore:
    """A :class:`SnapshotStore` in this process's memory, safe across threads.

    ``ttl``: seconds a snapshot is kept after its last write (``None``: for ever), like
    the Redis store's expiry.
    """

    def __init__(self, *, ttl: float | None = None) -> None:
        self.ttl = ttl
        # stream id -> (version, data or None once deleted, expiry on the monotonic clock)
        self._items: dict[str, tuple[int, bytes | None, float]] = {}
        self._lock = threading.Lock()

    def _entry(self, stream_id: str) -> tuple[int, bytes | None]:
        """The stream's last version and its data (``None``: deleted); ``(0, None)``
        when the store knows nothing of it (never written, or expired)."""
        item = self._items.get(stream_id)
        if item is None:
            return 0, None
        version, data, expires = item
        if expires and time.monotonic() >= expires:
            del self._items[stream_id]
            return 0, None
        return version, data

    def _keep(self, stream_id: str, version: int, data: bytes | None) -> None:
        expires = time.monotonic() + self.ttl if self.ttl else 0.0
        self._items[stream_id] = (version, data, expires)

    def get(self, stream_id: str) -> Stored | None:
        with self._lock:
            version, data = self._entry(stream_id)
            return None if data is None else Stored(version, data)

    def put(self, stream_id: str, data: bytes, *, version: int) -> int:
        with self._lock:
            last, stored = self._entry(stream_id)
            current = last if stored is not None else 0
            if current != version:
                raise StaleSnapshotError(stream_id, version, current)
            self._keep(stream_id, last + 1, bytes(data))
            return last + 1

    def delete(self, stream_id: str, *, version: int | None = None) -> bool:
        with self._lock:
            last, stored = self._entry(stream_id)
            if stored is None or (version is not None and last != version):
                return False
            self._keep(stream_id, last, None)
            return True

    def __repr__(self) -> str:
        live = sum(data is not None for _, data, _ in self._items.values())
        return f"MemorySnapshotStore({live} streams)"


__all__ = ["MemorySnapshotStore", "SnapshotStore", "StaleSnapshotError", "Stored"]
