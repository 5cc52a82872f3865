"""Pathological input: each case must be linear in time and bounded in memory.

Run: ``python benchmarks/bench_adversarial.py`` (about three minutes on two idle cores;
``--quick`` for a ten-times-smaller smoke run, ``--case NAME`` for one case).

Each case runs in a fresh child process, at full size and at a quarter of it. The input
is generated chunk by chunk (never held whole), so the child's peak RSS above its
baseline is what the session held. Printed per case: size, chunk size, seconds,
MB/s, the full/quarter time ratio (4.0 is linear; a quadratic cost would show 16) and
the peak RSS growth. The processor has every syntax registered (preamble,
frontmatter, markdown, XML, gadget) with the default ``Limits``.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

MB = 1_000_000


def _repeat(unit: str, total: int, chunk: int) -> Iterator[str]:
    """``unit`` repeated up to ``total`` characters, in chunks of ``chunk`` (the chunks
    are slices of one 64 KB block, so making them costs next to nothing)."""
    period = len(unit)
    block = unit * (-(-(max(chunk, 65_536) + period) // period) + 1)
    sent = 0
    while sent < total:
        size = min(chunk, total - sent)
        at = sent % period
        yield block[at : at + size]
        sent += size


def _then(*parts: Iterator[str]) -> Iterator[str]:
    for part in parts:
        yield from part


def _blocks(count: int, chunk: int) -> Iterator[str]:
    pending = ""
    for n in range(count):
        pending += f"!!b{n}:note\nx\n!!end\n"
        if len(pending) >= chunk:
            yield pending
            pending = ""
    if pending:
        yield pending


def _nested(depth: int, chunk: int) -> Iterator[str]:
    return _then(_repeat("<think>", depth * 7, chunk), _repeat("</think>", depth * 8, chunk))


# name -> (description, full size, chunk, input(size, chunk))
CASES: dict[str, tuple[str, int, int, Callable[[int, int], Iterator[str]]]] = {
    "no-newline": (
        "100 MB of prose without a newline",
        100 * MB,
        8_192,
        lambda n, c: _repeat("lorem ipsum dolor sit amet, consectetur adipiscing elit. ", n, c),
    ),
    "one-line-blocks": (
        "1,000,000 preamble blocks with a one-line body",
        1_000_000,
        4_096,
        _blocks,
    ),
    "lt": ("`<` x 10^6, fed 1 character at a time", 1_000_000, 1, lambda n, c: _repeat("<", n, c)),
    "bang": (
        "`!` x 10^6, fed 1 character at a time",
        1_000_000,
        1,
        lambda n, c: _repeat("!", n, c),
    ),
    "tag-header": (
        'a tag header of 10^6 characters (`<think a="xxx…`)',
        1_000_000,
        16,
        lambda n, c: _then(iter(['<think a="']), _repeat("x", n, c)),
    ),
    "unclosed-block": (
        "an unclosed preamble block of 100 MB",
        100 * MB,
        8_192,
        lambda n, c: _then(iter(["!!b1:note\n"]), _repeat("a long content line " * 5 + "\n", n, c)),
    ),
    "unclosed-tag": (
        "an unclosed <think> block of 100 MB",
        100 * MB,
        8_192,
        lambda n, c: _then(
            iter(["<think>"]), _repeat("thinking hard, line after line " * 3 + "\n", n, c)
        ),
    ),
    "nested-tags": ("10^5 nested <think> tags, then their closers", 100_000, 7, _nested),
    "surrogates-nul": (
        "2 MB of lone surrogates and NUL, in and around blocks",
        2 * MB,
        64,
        lambda n, c: _repeat("\udc80\x00 <think>\ud800</think> \x00\ud83d!!\x00 " * 4 + "\n", n, c),
    ),
}


def _processor() -> object:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))
    import harness

    return harness.PROCESSORS[0]


def child(name: str, size: int) -> None:
    """Run one case in this (fresh) process and print its figures as JSON."""
    processor = _processor()
    _, _, chunk, make = CASES[name]
    session = processor.session()  # type: ignore[attr-defined]
    session.feed("warm up\n")
    session.close()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    session = processor.session()  # type: ignore[attr-defined]
    feed = session.feed
    chars = events = 0
    started = time.perf_counter()
    for piece in make(size, chunk):
        chars += len(piece)
        events += len(feed(piece))
    events += len(session.close())
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"chars": chars, "seconds": seconds, "events": events, "rss_kb": peak - base}))


def measure(name: str, size: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", name, "--size", str(size)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="inputs ten times smaller")
    parser.add_argument("--case", choices=sorted(CASES), action="append")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.size)
        return
    print(
        f"{'case':<16} {'chars':>11} {'chunk':>6} {'seconds':>8} {'MB/s':>7} "
        f"{'x4 ratio':>8} {'peak RSS':>9}"
    )
    for name in args.case or CASES:
        description, size, chunk, _ = CASES[name]
        if args.quick:
            size //= 10
        full = measure(name, size)
        quarter = measure(name, size // 4)
        ratio = full["seconds"] / max(quarter["seconds"], 1e-9)
        rate = full["chars"] / MB / full["seconds"]
        print(
            f"{name:<16} {full['chars']:>11,} {chunk:>6} {full['seconds']:>8.2f} {rate:>7.1f} "
            f"{ratio:>8.1f} {full['rss_kb'] / 1024:>7.1f}MB   {description}",
            flush=True,
        )


if __name__ == "__main__":
    main()
