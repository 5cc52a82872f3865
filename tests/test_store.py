"""Snapshot stores: the same contract for the in-memory store and the Redis store (on a
real Redis server), compare-and-set included — under threads racing for one version."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from redis_server import redis_url  # noqa: F401  (the session-scoped server fixture)
from streamblocks import BlockRegistry, StreamBlockProcessor
from streamblocks.store import MemorySnapshotStore, SnapshotStore, StaleSnapshotError, Stored


@pytest.fixture(params=["memory", "redis"])
def store(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "memory":
        yield MemorySnapshotStore()
        return
    url = request.getfixturevalue("redis_url")
    from streamblocks.ext.redis import RedisSnapshotStore

    store = RedisSnapshotStore.from_url(url, prefix=f"test:{request.node.name}:")
    yield store
    for key in store.client.scan_iter(f"{store.prefix}*"):
        store.client.delete(key)
    store.client.close()


def test_is_a_snapshot_store(store: Any) -> None:
    assert isinstance(store, SnapshotStore)


def test_versions_count_up_and_get_returns_the_last(store: Any) -> None:
    assert store.get("s") is None
    assert store.put("s", b"one", version=0) == 1
    assert store.put("s", b"two\x00\xff", version=1) == 2
    assert store.get("s") == Stored(2, b"two\x00\xff")
    assert store.get("other") is None


def test_a_stale_write_is_refused_and_stores_nothing(store: Any) -> None:
    store.put("s", b"one", version=0)
    store.put("s", b"two", version=1)  # the worker that took over
    with pytest.raises(StaleSnapshotError) as caught:
        store.put("s", b"old", version=1)  # the stale worker, one write behind
    assert (caught.value.expected, caught.value.current) == (1, 2)
    assert "another worker" in str(caught.value)
    with pytest.raises(StaleSnapshotError):
        store.put("s", b"new?", version=0)  # a second "first" write
    assert store.get("s") == Stored(2, b"two")


def test_delete(store: Any) -> None:
    store.put("s", b"one", version=0)
    assert store.delete("s", version=5) is False  # not at that version: kept
    assert store.delete("s", version=1) is True
    assert store.get("s") is None
    assert store.delete("s") is False
    with pytest.raises(StaleSnapshotError):
        store.put("s", b"late", version=1)  # deleted: nothing is at version 1 any more
    # a new stream under the same id numbers on from the deleted version
    assert store.put("s", b"again", version=0) == 2
    assert store.get("s") == Stored(2, b"again")


def test_a_stale_worker_cannot_overwrite_the_next_run_after_a_delete(store: Any) -> None:
    stale = store.put("s", b"run 1", version=0)  # the worker that will be thought dead
    assert store.delete("s")  # run 1 ends, its snapshot is removed
    store.put("s", b"run 2", version=0)  # the next run under the same id
    with pytest.raises(StaleSnapshotError):
        store.put("s", b"run 1, late", version=stale)
    assert store.get("s") is not None
    assert store.get("s").data == b"run 2"


def test_racing_writers_one_wins_each_version(store: Any) -> None:
    winners: list[tuple[int, int]] = []
    lock = threading.Lock()
    start = threading.Barrier(8)

    def writer(n: int) -> None:
        start.wait()
        for version in range(20):
            try:
                store.put("race", f"{n}:{version}".encode(), version=version)
            except StaleSnapshotError:
                continue
            with lock:
                winners.append((version, n))

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(v for v, _ in winners) == list(range(20))  # exactly one per version
    last = dict(winners)[19]
    assert store.get("race") == Stored(20, f"{last}:19".encode())


def test_a_session_snapshot_round_trips(store: Any) -> None:
    registry = BlockRegistry()
    registry.register("note")
    processor = StreamBlockProcessor(registry)
    session = processor.session("s1")
    session.feed("Hello\n!!n1:note\nhalf a no")
    store.put("s1", session.snapshot(), version=0)
    stored = store.get("s1")
    assert stored is not None
    resumed = processor.restore(stored.data)
    events = resumed.feed("te\n!!end\n") + resumed.close()
    block = next(e.block for e in events if e.type == "BLOCK_END")
    assert block.content == "half a note\n"


def test_memory_store_expires() -> None:
    store = MemorySnapshotStore(ttl=0.05)
    store.put("s", b"x", version=0)
    time.sleep(0.08)
    assert store.get("s") is None


def test_redis_store_expires(redis_url: str) -> None:  # noqa: F811
    from streamblocks.ext.redis import RedisSnapshotStore

    store = RedisSnapshotStore.from_url(redis_url, prefix="test:ttl:", ttl=0.05)
    store.put("s", b"x", version=0)
    assert 0 < store.client.pttl("test:ttl:s") <= 50
    time.sleep(0.1)
    assert store.get("s") is None


@pytest.mark.parametrize("ttl", [0.0004, 0.0009])
def test_a_ttl_under_a_millisecond_still_expires(redis_url: str, ttl: float) -> None:  # noqa: F811
    from streamblocks.ext.redis import RedisSnapshotStore

    store = RedisSnapshotStore.from_url(redis_url, prefix=f"test:ttl{ttl}:", ttl=ttl)
    store.put("s", b"x", version=0)
    assert store.client.pttl(f"test:ttl{ttl}:s") != -1  # -1: a key that never expires
    time.sleep(0.01)
    assert store.get("s") is None
    memory = MemorySnapshotStore(ttl=ttl)
    memory.put("s", b"x", version=0)
    time.sleep(0.01)
    assert memory.get("s") is None
