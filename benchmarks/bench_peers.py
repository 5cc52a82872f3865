"""The core against its peers, each on the same text, in the same interpreter.

    python benchmarks/bench_peers.py --python313 /tmp/peers/bin/python [--rounds 5]

Rows (every case fed in chunks, each run in a fresh process, rounds interleaved,
medians reported):

- ``delim-*``: 1,000 ``!!id:note`` blocks with prose between them, through this core
  and through the older ``streamblocks`` 0.4.0 from the package index (a different
  project, ``hother.streamblocks``, Python ≥ 3.13), at 4-character and 1 KB chunks; both
  must find the 1,000 blocks. ``delim-ours-*`` is the sync loop with
  ``input_adapter=None``; ``delim-stream-*`` the default processor (auto-detection)
  through ``async for`` over ``process_stream``, as users read a stream;
- ``think-*``: a ~1 MB thinking-heavy reply through ``markup="qwen3"`` and through
  ``thinkstrip`` (a one-purpose ``<think>`` filter, Python ≥ 3.13); both must give the
  same visible text;
- ``think-floor``: the same chunks through a ``feed`` that only returns one
  ``BLOCK_DELTA`` each, read by the same loop: the most any session with this event
  vocabulary can reach;
- ``calls-*``: a ~1 MB reply with 200 tool calls, with and without ``markup="qwen3"``;
- ``long-*``: 4 and 8 MB of thinking at 4-character chunks under a 64 MiB block limit
  (the ratio shows whether holding a long block is linear).

Every case is timed in CPU time (``time.process_time``) of its own process.

``--compiled-python PY`` runs this package's cases with ``PY`` and no ``PYTHONPATH``, so
that they use the build installed there (the compiled one:
``STREAMBLOCKS_COMPILE=1 PY -m pip install .``), and the peers' cases with
``--python313``; ``run_case`` prints which build ran.

The peers are installed into a separate environment for the benchmark only, never as a
dependency: ``python3.13 -m venv /tmp/peers && /tmp/peers/bin/pip install
streamblocks==0.4.0 thinkstrip pydantic pluggy PyYAML mypy_extensions``. This
checkout's ``src/`` is put first on that interpreter's path. ``--case NAME --once``
runs one case once (for callgrind).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
sys.path.insert(0, HERE)
PROSE = "the model keeps writing plain prose about the weather and the data files\n"


def delimiter_document(blocks: int = 1000) -> str:
    parts = []
    for n in range(blocks):
        parts.append(PROSE * 3 + f"!!b{n}:note\n" + PROSE * 4 + "!!end\n")
    return "".join(parts)


def chunked(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def _ours_blocks(chunks: list[str], **options: object) -> tuple[int, str]:
    from streamblocks import BlockRegistry, DelimiterPreambleSyntax, StreamBlockProcessor

    registry = BlockRegistry()
    registry.register("note", syntax=DelimiterPreambleSyntax())
    session = StreamBlockProcessor(registry, input_adapter=None, **options).session()  # type: ignore[arg-type]
    return _drain(session, chunks)


def _ours_stream(chunks: list[str]) -> tuple[int, str]:
    """The document read the way users read it: the default processor (auto-detection)
    and ``async for`` over ``process_stream``."""
    import asyncio

    from streamblocks import BlockRegistry, DelimiterPreambleSyntax, StreamBlockProcessor

    registry = BlockRegistry()
    registry.register("note", syntax=DelimiterPreambleSyntax())
    processor = StreamBlockProcessor(registry)

    async def source() -> object:
        for chunk in chunks:
            yield chunk

    async def read() -> tuple[int, str]:
        blocks, text = 0, []
        async for event in processor.process_stream(source()):  # type: ignore[arg-type]
            kind = event.type
            if kind == "BLOCK_END":
                blocks += 1
            elif kind == "TEXT_DELTA":
                text.append(event.text)
        return blocks, "".join(text)

    return asyncio.run(read())


def _drain(session: object, chunks: list[str]) -> tuple[int, str]:
    blocks, text = 0, []
    feed = session.feed  # type: ignore[attr-defined]
    for chunk in chunks:
        for event in feed(chunk):
            kind = event.type
            if kind == "BLOCK_END":
                blocks += 1
            elif kind == "TEXT_DELTA":
                text.append(event.text)
    for event in session.close():  # type: ignore[attr-defined]
        if event.type == "BLOCK_END":
            blocks += 1
        elif event.type == "TEXT_DELTA":
            text.append(event.text)
    return blocks, "".join(text)


def _old_blocks(chunks: list[str]) -> tuple[int, str]:
    from hother.streamblocks import Registry  # type: ignore[import-not-found]
    from hother.streamblocks import StreamBlockProcessor as OldProcessor

    processor = OldProcessor(Registry())
    blocks, text = 0, []
    for chunk in chunks:
        for event in processor.process_chunk(chunk):
            blocks += event.type == "BLOCK_END"
    for event in processor.finalize():
        blocks += event.type == "BLOCK_END"
    return blocks, "".join(text)


def _markup(chunks: list[str], markup: str | None, **options: object) -> tuple[int, str]:
    from streamblocks import BlockRegistry, StreamBlockProcessor

    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=None, markup=markup, **options)  # type: ignore[arg-type]
    return _drain(processor.session(), chunks)


def _thinkstrip(chunks: list[str]) -> tuple[int, str]:
    from thinkstrip import ThinkStrip  # type: ignore[import-not-found]

    stripper, out = ThinkStrip(), []
    for chunk in chunks:
        out.append(stripper.feed(chunk))
    out.append(stripper.flush())
    return 0, "".join(out)


def _floor(chunks: list[str]) -> tuple[int, str]:
    """The least a session can do with a chunk of thinking: one call returning one
    ``BLOCK_DELTA``, read by the same loop as ours (the ceiling of our speed)."""
    from streamblocks.core.events import CONTENT_SECTION, BlockDelta, new_event

    class Floor:
        def feed(self, chunk: str) -> list[object]:
            return [new_event(BlockDelta, ("b1", "thinking", CONTENT_SECTION, chunk, None, None))]

        def close(self) -> list[object]:
            return []

    _drain(Floor(), chunks)
    return 0, ""


PEERS = ("-0.4.0-4", "-0.4.0-1k", "-thinkstrip")
"""The cases that run a peer, not this package."""


def cases() -> dict[str, Callable[[], Callable[[], tuple[int, str]]]]:
    """Each case builds its input, then returns the timed run."""
    from bench_markup import calls_reply, thinking_reply

    def delim(size: int, old: bool) -> Callable[[], tuple[int, str]]:
        chunks = chunked(delimiter_document(), size)
        return (lambda: _old_blocks(chunks)) if old else (lambda: _ours_blocks(chunks))

    def delim_stream(size: int) -> Callable[[], tuple[int, str]]:
        chunks = chunked(delimiter_document(), size)
        return lambda: _ours_stream(chunks)

    def think(strip: bool) -> Callable[[], tuple[int, str]]:
        chunks = chunked(thinking_reply(1_000_000), 4)
        return (lambda: _thinkstrip(chunks)) if strip else (lambda: _markup(chunks, "qwen3"))

    def think_floor() -> Callable[[], tuple[int, str]]:
        chunks = chunked(thinking_reply(1_000_000), 4)
        return lambda: _floor(chunks)

    def calls(markup: str | None) -> Callable[[], tuple[int, str]]:
        chunks = chunked(calls_reply(1_000_000), 4)
        return lambda: _markup(chunks, markup)

    def long(size: int) -> Callable[[], tuple[int, str]]:
        from streamblocks import Limits

        text = "<think>" + ("thinking about the weather and data files " * (size // 40))[:size]
        chunks = chunked(text + "</think>done", 4)
        return lambda: _markup(chunks, "qwen3", limits=Limits(max_block_chars=64 * 2**20))

    return {
        "delim-ours-4": lambda: delim(4, False),
        "delim-0.4.0-4": lambda: delim(4, True),
        "delim-ours-1k": lambda: delim(1024, False),
        "delim-0.4.0-1k": lambda: delim(1024, True),
        "delim-stream-4": lambda: delim_stream(4),
        "delim-stream-1k": lambda: delim_stream(1024),
        "think-qwen3": lambda: think(False),
        "think-thinkstrip": lambda: think(True),
        "think-floor": think_floor,
        "calls-none": lambda: calls(None),
        "calls-qwen3": lambda: calls("qwen3"),
        "long-4mb": lambda: long(4_000_000),
        "long-8mb": lambda: long(8_000_000),
    }


def run_case(name: str) -> dict[str, object]:
    run = cases()[name]()
    clock = time.process_time  # (CPU time: on a shared host wall time moves with the load)
    best = float("inf")
    for _ in range(1):
        start = clock()
        blocks, text = run()
        best = min(best, clock() - start)
    # (thinking's trailing blanks belong to its block here, to the text in thinkstrip)
    visible = text.lstrip()
    build = "peer" if name.endswith(PEERS) else _build()
    return {
        "seconds": best,
        "blocks": blocks,
        "text": len(visible),
        "digest": hash(visible),
        "build": build,
    }


def _build() -> str:
    import streamblocks

    return "compiled" if streamblocks.compiled else "pure"


RATIOS = [
    ("1,000 delimiter blocks, 4-char chunks: 0.4.0 time ÷ ours", "delim-0.4.0-4", "delim-ours-4"),
    ("1,000 delimiter blocks, 1 KB chunks: 0.4.0 time ÷ ours", "delim-0.4.0-1k", "delim-ours-1k"),
    (
        "the same, 4-char chunks, ours the default processor through process_stream",
        "delim-0.4.0-4",
        "delim-stream-4",
    ),
    (
        "the same, 1 KB chunks, ours the default processor through process_stream",
        "delim-0.4.0-1k",
        "delim-stream-1k",
    ),
    (
        "thinking 1 MB: thinkstrip time ÷ ours (our speed ÷ theirs)",
        "think-thinkstrip",
        "think-qwen3",
    ),
    (
        "thinking 1 MB: thinkstrip time ÷ the floor's (one BLOCK_DELTA per chunk, no work)",
        "think-thinkstrip",
        "think-floor",
    ),
    ("1 MB with 200 calls: markup= ÷ without", "calls-qwen3", "calls-none"),
    ("thinking under a 64 MiB limit: 8 MB ÷ 4 MB CPU time", "long-8mb", "long-4mb"),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--python313", required=False, help="a Python ≥ 3.13 with the peers")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--case")
    parser.add_argument("--once", action="store_true")
    parser.add_argument("--only", default="", help="the cases whose names start with this")
    parser.add_argument(
        "--compiled-python",
        help="run our cases with this interpreter's installed build (the compiled one), "
        "the peers' with --python313",
    )
    args = parser.parse_args()
    if args.case:
        if args.once:
            cases()[args.case]()()
        else:
            print(json.dumps(run_case(args.case)))
        return
    python = args.python313 or sys.executable
    sys.path.insert(0, SRC)
    env = dict(os.environ, PYTHONPATH=SRC, PYTHONHASHSEED="0")
    installed = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    results: dict[str, list[dict[str, float]]] = {}
    for _ in range(args.rounds):
        for name in [name for name in cases() if name.startswith(args.only)]:
            run = [python, __file__, "--case", name]
            if args.compiled_python and not name.endswith(PEERS):
                run[0] = args.compiled_python  # (its installed build: no src/ on the path)
            out = subprocess.run(
                run,
                env=installed if run[0] == args.compiled_python else env,
                capture_output=True,
                text=True,
            )
            if out.returncode:
                print(f"{name}: failed\n{out.stderr[-800:]}", file=sys.stderr)
                continue
            results.setdefault(name, []).append(json.loads(out.stdout))
    for name, rows in results.items():
        seconds = statistics.median(row["seconds"] for row in rows)
        print(f"{name:18} {seconds * 1000:9.1f} ms  blocks {rows[0]['blocks']}  {rows[0]['build']}")
    _check(results)
    for label, slow, fast in RATIOS:
        if slow in results and fast in results:
            ratio = statistics.median(r["seconds"] for r in results[slow]) / statistics.median(
                r["seconds"] for r in results[fast]
            )
            print(f"{label}: {ratio:.2f}")


def _check(results: dict[str, list[dict[str, float]]]) -> None:
    """Both sides of a comparison read the same text the same way."""
    for ours, theirs, key in (
        ("delim-ours-4", "delim-0.4.0-4", "blocks"),
        ("delim-ours-1k", "delim-0.4.0-1k", "blocks"),
        ("delim-stream-4", "delim-0.4.0-4", "blocks"),
        ("delim-stream-1k", "delim-0.4.0-1k", "blocks"),
        ("think-qwen3", "think-thinkstrip", "digest"),
    ):
        if (
            ours in results
            and theirs in results
            and results[ours][0][key] != results[theirs][0][key]
        ):
            raise SystemExit(f"{ours} and {theirs} disagree on {key}")


if __name__ == "__main__":
    main()
