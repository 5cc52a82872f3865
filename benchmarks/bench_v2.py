"""The core against a previous version of it, and the compiled build, interleaved.

Three columns: ``old``, the core before v2 (commit 39af7b9, unpacked with ``git
archive`` into a temporary directory unless ``--old SRC`` names one); ``pure``, this
checkout's ``src/``; ``compiled``, the package installed in another environment
(``--compiled-python PATH``: a Python in whose environment ``STREAMBLOCKS_COMPILE=1 pip
install .`` built this source; that column is left out without it). Each round runs
every case once in a fresh process per column, alternating columns, and the table
gives the median of the rounds. Every figure is also given as a ratio to a
*bare loop* measured in the same process: a loop that calls a one-line ``feed`` per
chunk returning one ``TextDelta`` of it, the least any streaming API costs. Ratios are what to
compare: the host's speed moves from minute to minute, the ratios much less.

Run::

    python benchmarks/bench_v2.py --rounds 5 [--compiled-python /path/venv/bin/python]

``--case NAME`` runs one case in this process (used by the driver, and by
``valgrind --tool=callgrind python benchmarks/bench_v2.py --case mixed-4 --once``).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
SIZE = 200_000  # characters per document: enough for stable figures, quick rounds
OLD = "39af7b9"  # the core before v2


def _old_source(where: str) -> str:
    """The ``src/`` of the core before v2, unpacked from git into ``where``."""
    archive = subprocess.run(
        ["git", "-C", os.path.dirname(HERE), "archive", OLD, "src"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", where], input=archive, check=True)
    return os.path.join(where, "src")


def _cases() -> dict[str, Callable[[], tuple[object, list[str]]]]:
    """Each case: a processor and the chunks it is fed (built inside the process)."""
    sys.path.insert(0, HERE)
    from bench_gadget import processor as gadget_processor
    from bench_gadget import reply as gadget_reply
    from bench_markup import calls_reply, thinking_reply
    from documents import chunks, document, processor, xml_document, xml_processor

    from streamblocks import (
        BlockRegistry,
        DelimiterFrontmatterSyntax,
        DelimiterPreambleSyntax,
        GadgetSyntax,
        MarkdownFrontmatterSyntax,
        StreamBlockProcessor,
        XMLTagSyntax,
    )

    def markup(name: str | None) -> StreamBlockProcessor:
        return StreamBlockProcessor(BlockRegistry(), input_adapter=None, markup=name)

    def all_five() -> StreamBlockProcessor:
        registry = BlockRegistry()
        registry.register("note", syntax=DelimiterPreambleSyntax())
        registry.register("patch", syntax=DelimiterPreambleSyntax())
        registry.register("task", syntax=DelimiterFrontmatterSyntax())
        registry.register("code", syntax=MarkdownFrontmatterSyntax())
        registry.register("cite", syntax=XMLTagSyntax())
        registry.register("Search", syntax=GadgetSyntax())
        return StreamBlockProcessor(registry, input_adapter=None)

    prose = "\n".join(
        ("the model keeps writing plain prose about the weather and data files " * 2)[:79]
        for _ in range(SIZE // 80)
    )
    mixed = document(SIZE)
    xml = xml_document(SIZE)
    gadget = gadget_reply(SIZE)
    return {
        "mixed-4": lambda: (processor(), chunks(mixed, 4)),
        "mixed-1k": lambda: (processor(), chunks(mixed, 1024)),
        "prose-4": lambda: (processor(), chunks(prose, 4)),
        "xml-4": lambda: (xml_processor(), chunks(xml, 4)),
        "xml-1k": lambda: (xml_processor(), chunks(xml, 1024)),
        "gadget-1k": lambda: (gadget_processor(), chunks(gadget, 1024)),
        "mixed-4-all-five": lambda: (all_five(), chunks(mixed, 4)),
        "ticks-16k": lambda: (xml_processor(), chunks("`" * 16_000, 4)),
        "ticks-32k": lambda: (xml_processor(), chunks("`" * 32_000, 4)),
        "think-qwen3-4": lambda: (markup("qwen3"), chunks(thinking_reply(SIZE), 4)),
        "calls-4": lambda: (markup(None), chunks(calls_reply(SIZE), 4)),
        "calls-qwen3-4": lambda: (markup("qwen3"), chunks(calls_reply(SIZE), 4)),
    }


def _bare(pieces: list[str]) -> float:
    from streamblocks import TextDelta

    new = tuple.__new__

    def feed(piece: str) -> list[object]:  # the least a feed can do: one event per chunk
        return [new(TextDelta, (piece,))]

    gc.collect()
    start = time.perf_counter()
    count = 0
    for piece in pieces:
        count += len(feed(piece))
    return time.perf_counter() - start


def blocks_read(proc: object, pieces: list[str]) -> int:
    """One session fed ``pieces`` and closed: how many blocks ended."""
    session = proc.session()  # type: ignore[attr-defined]
    feed = session.feed
    blocks = 0
    for piece in pieces:
        for event in feed(piece):
            blocks += event.type == "BLOCK_END"
    for event in session.close():
        blocks += event.type == "BLOCK_END"
    return blocks


def warmed_case(top: int, top_help: str) -> tuple[argparse.Namespace, object, list[str]]:
    """The command line of the one-case profilers (``ops_v2``, ``calls_v2``): the case
    named, built and read once (first use: compiled searches, caches)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("case")
    parser.add_argument("--top", type=int, default=top, help=top_help)
    args = parser.parse_args()
    proc, pieces = _cases()[args.case]()
    blocks_read(proc, pieces)
    return args, proc, pieces


def _session(proc: object, pieces: list[str]) -> tuple[float, int]:
    gc.collect()
    start = time.perf_counter()
    blocks = blocks_read(proc, pieces)
    return time.perf_counter() - start, blocks


def run_case(name: str) -> dict[str, object]:
    import streamblocks

    proc, pieces = _cases()[name]()
    seconds, blocks = min(_session(proc, pieces) for _ in range(3))
    bare = min(_bare(pieces) for _ in range(3))
    chars = sum(len(piece) for piece in pieces)
    return {
        "seconds": seconds,
        "ratio": seconds / bare,
        "mb_s": chars / 1e6 / seconds,
        "us_per_block": seconds / blocks * 1e6 if blocks else 0.0,
        "compiled": bool(getattr(streamblocks, "compiled", False)),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--old", help=f"the src/ directory of the core at {OLD} (default: unpacked)"
    )
    parser.add_argument(
        "--compiled-python", help="a Python whose environment has the compiled build"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--case")
    parser.add_argument("--once", action="store_true", help="with --case: feed once, no timing")
    parser.add_argument("--setup", action="store_true", help="with --case: build it, no feed")
    parser.add_argument("--bare", action="store_true", help="with --once: the bare loop instead")
    args = parser.parse_args()
    if args.case:
        if args.once or args.setup:
            proc, pieces = _cases()[args.case]()
            if args.once:
                _bare(pieces) if args.bare else _session(proc, pieces)
            else:  # (the timed runs' own gc.collect(): counted in the setup, subtracted)
                gc.collect()
            return
        print(json.dumps(run_case(args.case)))
        return
    with tempfile.TemporaryDirectory() as scratch:
        columns = {
            "old": (sys.executable, args.old or _old_source(scratch)),
            "pure": (sys.executable, SRC),
        }
        if args.compiled_python:
            columns["compiled"] = (args.compiled_python, "")
        _compare(columns, args.rounds)


def _compare(columns: dict[str, tuple[str, str]], rounds: int) -> None:
    """Run every case in every column, ``rounds`` times interleaved; print medians."""
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    names = list(_cases())
    for _ in range(rounds):
        for name in names:
            for label, (python, src) in columns.items():
                env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
                if src:
                    env["PYTHONPATH"] = src
                out = subprocess.run(
                    [python, __file__, "--case", name], env=env, capture_output=True, text=True
                )
                if out.returncode:  # (the old core has no markup=: its cell stays empty)
                    continue
                row = json.loads(out.stdout)
                if label == "compiled" and not row["compiled"]:
                    raise SystemExit(f"{python} does not run the compiled build")
                results.setdefault((name, label), []).append(row)
    print(f"medians of {rounds} rounds, {SIZE:,}-character documents")
    print(f"{'case':18} " + " ".join(f"{label + ' ÷bare':>13} {'MB/s':>6} {'µs/blk':>7}"
                                      for label in columns))  # fmt: skip
    for name in names:
        cells = []
        for label in columns:
            rows = results.get((name, label))
            if not rows:
                cells.append(f"{'—':>13} {'':6} {'':7}")
                continue
            ratio = statistics.median(row["ratio"] for row in rows)
            mb_s = statistics.median(row["mb_s"] for row in rows)
            per_block = statistics.median(row["us_per_block"] for row in rows)
            cells.append(f"{ratio:13.2f} {mb_s:6.2f} {per_block:7.1f}")
        print(f"{name:18} " + " ".join(cells))


if __name__ == "__main__":
    main()
