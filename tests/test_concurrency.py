"""One processor, many streams at once: each stream's events equal its solo run."""

from __future__ import annotations

import asyncio
import random
import sys
import threading
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from helpers import run

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))
import harness

PROCESSOR = harness.PROCESSORS[0]
PARTS = [
    "Plain words. ",
    "<think>step\nby step</think> ",
    "\n!!b{n}:note\nline {n}\n!!end\n",
    "!!start\n---\nid: t{n}\nblock_type: task\n---\nbody\n!!end\n",
    "```\n---\nid: c{n}\nblock_type: code\n---\nx = {n}\n```\n",
    "!!!GADGET_START:Calc\n!!!ARG:a\n{n}\n!!!GADGET_END\n",
    '<c id="r{n}">ref</c> ',
    "!!b{n}:note\nunclosed",
]


def _document(n: int) -> tuple[str, list[str]]:
    rng = random.Random(n)
    text = "".join(rng.choice(PARTS).format(n=n) for _ in range(rng.randint(1, 12)))
    chunks, i = [], 0
    while i < len(text):
        size = rng.randint(1, 9)
        chunks.append(text[i : i + size])
        i += size
    return text, chunks


def _solo(chunks: list[str]) -> list[Any]:
    return run(PROCESSOR, chunks)[1:]  # without STREAM_STARTED (stream ids differ)


async def test_a_thousand_concurrent_streams_in_one_event_loop() -> None:
    documents = [_document(n)[1] for n in range(1_000)]

    async def source(chunks: list[str]) -> AsyncIterator[str]:
        for chunk in chunks:
            await asyncio.sleep(0)  # every chunk interleaves with the other streams
            yield chunk

    async def collect(chunks: list[str]) -> list[Any]:
        return [e async for e in PROCESSOR.process_stream(source(chunks))]

    results = await asyncio.gather(*(collect(chunks) for chunks in documents))
    ids = {events[0].stream_id for events in results}
    assert len(ids) == 1_000
    for chunks, events in zip(documents, results, strict=True):
        assert events[1:] == _solo(chunks)


def test_eight_threads_share_one_processor() -> None:
    documents = [_document(n)[1] for n in range(400)]
    results: dict[int, list[Any]] = {}
    barrier = threading.Barrier(8)

    def worker(first: int) -> None:
        barrier.wait()
        for n in range(first, len(documents), 8):
            results[n] = list(PROCESSOR.process(iter(documents[n])))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(previous)
    assert len(results) == len(documents)
    for n, chunks in enumerate(documents):
        assert results[n][1:] == _solo(chunks)


def test_an_idle_open_session_is_small() -> None:
    """Documented in docs/reliability.md: about 2 KB per open session (all syntaxes)."""
    sessions = []
    PROCESSOR.session().feed("warm up")
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for n in range(1_000):
        session = PROCESSOR.session(f"s{n}")
        session.feed("Some text, then a partial marker\n!!b1:no")
        sessions.append(session)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    per_session = sum(s.size_diff for s in after.compare_to(before, "filename")) / 1_000
    assert per_session < 8_000, per_session
