"""Redis snapshot store (extra ``redis``): streams that survive a worker."""

from .store import RedisSnapshotStore

__all__ = ["RedisSnapshotStore"]
