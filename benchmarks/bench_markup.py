"""Model markup: its cost over the same stream without it, and against thinkstrip.

    python benchmarks/bench_markup.py [--rounds 7] [--quick]
    python benchmarks/bench_markup.py --only CASE    # one case once (for callgrind)

Cases, each fed in 4-character chunks, interleaved round by round (medians reported):

- ``bare``: a loop over the chunks that does nothing (the floor);
- ``calls/none``: a ~1 MB Qwen3 reply (thinking, text, 200 tool calls) through
  ``StreamBlockProcessor`` without ``markup=`` (the markup is visible text);
- ``calls/qwen3``: the same reply with ``markup="qwen3"``;
- ``think/qwen3``: a ~1 MB thinking-heavy reply with ``markup="qwen3"`` (thinking
  deltas as events);
- ``think/thinkstrip``: the same reply through ``thinkstrip.ThinkStrip`` (a dedicated
  ``<think>`` stripper on the package index, Python ≥ 3.13; skipped when absent).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from streamblocks import BlockRegistry, StreamBlockProcessor

PARAGRAPH = "We compare the two sources, weigh what each one says and note the gaps.\n"


def calls_reply(size: int) -> str:
    """Thinking, then text with 200 tool calls spread through it, about ``size`` chars."""
    call = (
        '<tool_call>\n{{"name": "get_weather", "arguments": {{"city": "City {n}"}}}}\n'
        "</tool_call>\n"
    )
    head = "<think>\n" + PARAGRAPH * (size // 4 // len(PARAGRAPH)) + "</think>\n\n"
    calls = [call.format(n=n) for n in range(200)]
    room = size - len(head) - sum(map(len, calls))
    text = PARAGRAPH.replace("We", "You") * max(1, room // len(PARAGRAPH) // 200)
    return head + "".join(text + c for c in calls)


def thinking_reply(size: int) -> str:
    body = PARAGRAPH * (size // len(PARAGRAPH))
    return "<think>\n" + body + "</think>\n\nThe answer is 42.\n"


def chunked(text: str, size: int = 4) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def run_processor(processor: StreamBlockProcessor, chunks: list[str]) -> int:
    session = processor.session()
    count = 0
    for chunk in chunks:
        count += len(session.feed(chunk))
    return count + len(session.close())


def cases(size: int) -> dict[str, Callable[[], object]]:
    calls = chunked(calls_reply(size))
    thinking = chunked(thinking_reply(size))
    plain = StreamBlockProcessor(BlockRegistry(), input_adapter=None)
    qwen3 = StreamBlockProcessor(BlockRegistry(), input_adapter=None, markup="qwen3")
    found: dict[str, Callable[[], object]] = {
        "bare": lambda: [c for c in calls],  # noqa: C416 (the loop is the point)
        "calls/none": lambda: run_processor(plain, calls),
        "calls/qwen3": lambda: run_processor(qwen3, calls),
        "think/qwen3": lambda: run_processor(qwen3, thinking),
    }
    try:
        from thinkstrip import ThinkStrip  # type: ignore[import-not-found]
    except ImportError:
        return found

    def strip() -> list[str]:
        stripper, out = ThinkStrip(), []
        for chunk in thinking:
            out.append(stripper.feed(chunk))
        out.append(stripper.flush())
        return out

    found["think/thinkstrip"] = strip
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", help="run one case once (for callgrind)")
    args = parser.parse_args()
    size = 200_000 if args.quick else 1_000_000
    found = cases(size)
    if args.only:
        found[args.only]()
        return
    times: dict[str, list[float]] = {name: [] for name in found}
    for _ in range(args.rounds):
        for name, case in found.items():  # interleaved: each round runs every case
            start = time.perf_counter()
            case()
            times[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(found) for name, found in times.items()}
    for name, median in medians.items():
        print(f"{name:18} {median * 1000:9.1f} ms  ({min(times[name]) * 1000:.1f} best)")
    ratios = {
        "calls: with markup / without": medians["calls/qwen3"] / medians["calls/none"],
        "calls: with markup / bare loop": medians["calls/qwen3"] / medians["bare"],
    }
    if "think/thinkstrip" in medians:
        ratios["think: qwen3 / thinkstrip"] = medians["think/qwen3"] / medians["think/thinkstrip"]
    print(json.dumps({name: round(value, 2) for name, value in ratios.items()}, indent=1))


if __name__ == "__main__":
    main()
