"""Throughput and memory of the core on a ~1 MB and a ~10 MB document (and ~1 MB of
XML-dense prose and of gadget calls).

Run: ``python benchmarks/bench_core.py`` (add ``--quick`` for a smoke run). Prints
MB/s, µs per chunk, events per second and peak traced memory for 4-character and
1 KB chunks, the 10 MB / 1 MB time ratio, and the pathological single-line and
single-block cases fed one character at a time.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
from collections.abc import Iterable

from bench_gadget import processor as gadget_processor
from bench_gadget import reply as gadget_reply
from documents import chunks, document, processor, xml_document, xml_processor

from streamblocks import BlockRegistry, Limits, StreamBlockProcessor


def feed_all(proc: StreamBlockProcessor, pieces: Iterable[str]) -> int:
    session = proc.session()
    feed = session.feed
    count = 0
    for piece in pieces:
        count += len(feed(piece))
    return count + len(session.close())


def timed(proc: StreamBlockProcessor, pieces: list[str], repeat: int = 3) -> tuple[float, int]:
    best, events = float("inf"), 0
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        events = feed_all(proc, pieces)
        best = min(best, time.perf_counter() - start)
    return best, events


def peak_memory(proc: StreamBlockProcessor, pieces: list[str]) -> int:
    """Peak memory the session allocates while streaming (events are dropped)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    session = proc.session()
    for piece in pieces:
        session.feed(piece)
    session.close()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def row(label: str, text: str, size: int, proc: StreamBlockProcessor, repeat: int) -> float:
    pieces = chunks(text, size)
    seconds, events = timed(proc, pieces, repeat)
    mb = len(text.encode()) / 1e6
    print(
        f"{label:<28} {size:>5} {mb / seconds:>9.2f} {seconds / len(pieces) * 1e6:>9.3f}"
        f" {events / seconds / 1e6:>9.3f} {seconds:>8.3f}"
    )
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, one repetition")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    small = document(100_000 if args.quick else 1_000_000)
    large = document(1_000_000 if args.quick else 10_000_000)
    proc = processor()
    blocks = sum(1 for e in proc.process([small]) if e.type.value == "BLOCK_END")
    print(f"document: {len(small):,} chars, {blocks} blocks; large: {len(large):,} chars")
    print(f"{'case':<28} {'chunk':>5} {'MB/s':>9} {'µs/chunk':>9} {'Mev/s':>9} {'seconds':>8}")
    t_small = row("1 MB mixed", small, 4, proc, repeat)
    row("1 MB mixed", small, 1024, proc, repeat)
    t_large = row("10 MB mixed", large, 4, proc, repeat)  # best of as many runs as 1 MB
    row("10 MB mixed", large, 1024, proc, 1)
    print(f"10 MB / 1 MB time ratio (4-char chunks): {t_large / t_small:.2f}")
    peak = peak_memory(proc, chunks(large, 1024))
    print(f"peak traced memory, 10 MB stream in 1 KB chunks: {peak / 1e6:.3f} MB")

    one_mb = 1_000_000 // (10 if args.quick else 1)
    line = "word " * (one_mb // 5)
    row("1 MB line, no newline", line, 1, proc, 1)
    registry = BlockRegistry()
    registry.register("note")
    big = StreamBlockProcessor(
        registry, input_adapter=None, limits=Limits(max_block_chars=2_000_000)
    )
    block = "!!b1:note\n" + ("x" * 79 + "\n") * (one_mb // 80) + "!!end\n"
    row("1 MB block", block, 1, big, 1)
    peak = peak_memory(big, list(block))
    print(f"peak traced memory, 1 MB block fed per character: {peak / 1e6:.3f} MB")

    tags = xml_document(one_mb)
    row("1 MB XML-dense", tags, 4, xml_processor(), repeat)
    row("1 MB XML-dense", tags, 1024, xml_processor(), repeat)
    gadgets = gadget_reply(one_mb)
    row("1 MB gadget calls", gadgets, 4, gadget_processor(), repeat)
    row("1 MB gadget calls", gadgets, 1024, gadget_processor(), repeat)


if __name__ == "__main__":
    main()
