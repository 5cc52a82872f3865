"""Throughput of gadget-heavy streams.

Run: ``python benchmarks/bench_gadget.py`` (``--quick`` for a smoke run). Builds a
~1 MB reply made of prose and gadget calls (nested pointers, arrays of objects,
multiline values) and prints MB/s and events per second for 4-character and 1 KB
chunks, plus a ~4x larger document to show the cost stays linear.
"""

from __future__ import annotations

import argparse
import gc
import time

from pydantic import BaseModel

from streamblocks import BlockRegistry, GadgetSyntax, StreamBlockProcessor


class Edit(BaseModel):
    path: str
    line: int
    content: str


def processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    syntax = GadgetSyntax()
    registry.register("Calculator", syntax=syntax, description="Arithmetic.")
    registry.register("Search", syntax=syntax, description="Web search.")
    registry.register("EditFile", syntax=syntax, content=Edit, description="Edit a file.")
    return StreamBlockProcessor(registry, input_adapter=None)


def reply(size: int) -> str:
    calls = [
        "Let me compute that for you.\n"
        "!!!GADGET_START:Calculator\n!!!ARG:operation\nmultiply\n!!!ARG:a\n15\n"
        "!!!ARG:b\n23.5\n!!!GADGET_END\n",
        "Now searching with a few filters.\n"
        "!!!GADGET_START:Search\n!!!ARG:query\nstreaming parsers in python\n"
        "!!!ARG:filters/site\nexample.org\n!!!ARG:filters/recent\ntrue\n"
        "!!!ARG:sources/0/name\nweb\n!!!ARG:sources/0/weight\n0.7\n"
        "!!!ARG:sources/1/name\nnews\n!!!ARG:sources/1/weight\n0.3\n!!!GADGET_END\n",
        "And the edit:\n"
        "!!!GADGET_START:EditFile\n!!!ARG:path\nsrc/app.py\n!!!ARG:line\n42\n"
        "!!!ARG:content\n"
        + "def handler(event):\n    return process(event)\n" * 8
        + "!!!GADGET_END\n",
    ]
    parts, total, i = [], 0, 0
    while total < size:
        part = calls[i % len(calls)]
        parts.append(part)
        total += len(part)
        i += 1
    return "".join(parts)


def run(proc: StreamBlockProcessor, pieces: list[str]) -> tuple[float, int]:
    best, events = float("inf"), 0
    for _ in range(3):
        gc.collect()
        start = time.perf_counter()
        session = proc.session()
        count = 0
        for piece in pieces:
            count += len(session.feed(piece))
        count += len(session.close())
        best, events = min(best, time.perf_counter() - start), count
    return best, events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    args = parser.parse_args()
    size = 100_000 if args.quick else 1_000_000
    proc = processor()
    for label, n in (("1x", size), ("4x", 4 * size)):
        text = reply(n)
        for chunk in (4, 1024):
            pieces = [text[i : i + chunk] for i in range(0, len(text), chunk)]
            seconds, events = run(proc, pieces)
            mb = len(text) / 1_000_000
            print(
                f"{label} {mb:5.2f} MB, {chunk:>4}-char chunks: {mb / seconds:7.2f} MB/s, "
                f"{events / seconds / 1000:8.0f} k events/s"
            )


if __name__ == "__main__":
    main()
