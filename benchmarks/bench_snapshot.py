"""What a snapshot costs: take (``session.snapshot()``) and restore (``processor.restore()``)
of a session holding an open block of 1 KB to 1 MB, the snapshot's size, and a round trip
through the Redis store when a server is given.

    python benchmarks/bench_snapshot.py [--rounds 15] [--redis redis://127.0.0.1:6379/0]

Each size is measured in interleaved rounds (medians), against a bare ``pickle.dumps`` of
the same text in the same run, so the machine's noise shows in the floor too.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from collections.abc import Callable
from typing import Any

from streamblocks import BlockRegistry, StreamBlockProcessor

SIZES = (1_000, 10_000, 100_000, 1_000_000)


def holding(processor: StreamBlockProcessor, chars: int) -> Any:
    """A session inside an open ``note`` block of ``chars`` characters, fed in 64-char
    chunks (as a model streams)."""
    session = processor.session("bench")
    session.feed("Intro line.\n!!n1:note\n")
    for i in range(chars // 64):  # distinct lines: pickle would share equal chunks
        session.feed(f"{i:08d}" + "x" * 55 + "\n")
    return session


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--redis", help="also time put+get through a RedisSnapshotStore")
    args = parser.parse_args()
    registry = BlockRegistry()
    registry.register("note")
    processor = StreamBlockProcessor(registry)
    store = None
    if args.redis:
        from streamblocks.ext.redis import RedisSnapshotStore

        store = RedisSnapshotStore.from_url(args.redis, prefix="bench:")
    sessions = {size: holding(processor, size) for size in SIZES}
    data = {size: sessions[size].snapshot() for size in SIZES}
    times: dict[tuple[int, str], list[float]] = {}
    for _ in range(args.rounds):
        for size in SIZES:  # interleaved: every size sees the same noise
            session, snapshot = sessions[size], data[size]
            text = "x" * size
            samples = {
                "take": timed(session.snapshot),
                "restore": timed(lambda s=snapshot: processor.restore(s)),  # type: ignore[misc]
                "pickle floor": timed(lambda t=text: pickle.dumps(t, protocol=5)),  # type: ignore[misc]
            }
            if store is not None:

                def trip(s: bytes = snapshot) -> None:
                    store.delete("s")
                    store.put("s", s, version=0)
                    store.get("s")

                samples["redis put+get"] = timed(trip)
            for what, seconds in samples.items():
                times.setdefault((size, what), []).append(seconds)
    order = ["take", "restore", "pickle floor", "redis put+get"]
    whats = [what for what in order if (SIZES[0], what) in times]
    print(f"median (min) of {args.rounds} rounds")
    print(f"| open block | snapshot size | {' | '.join(whats)} |")
    print("|---:|---:|" + "---:|" * len(whats))
    for size in SIZES:
        cells = [
            f"{statistics.median(times[(size, w)]) * 1000:.3f} ms "
            f"({min(times[(size, w)]) * 1000:.3f})"
            for w in whats
        ]
        print(f"| {size:,} chars | {len(data[size]):,} B | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
