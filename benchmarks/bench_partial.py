"""``BlockDelta.partial`` on a 100 KB argument object streamed in 4-character deltas.

For each shape of arguments (one long string; a thousand small records), one Anthropic
tool call is played by :class:`~streamblocks.testing.MockProvider` (the events built
before timing) and run through a session:

- ``not read``: the events only (what every stream pays);
- ``read each``: ``delta.partial`` read on every delta (the incremental reader);
- ``from_json each``: pydantic-core's ``from_json(text so far, allow_partial=...)`` on
  every delta instead (a one-shot parse of the whole text so far: what re-parsing costs).

Rounds alternate the cases; the table gives medians and ratios to ``not read``::

    python benchmarks/bench_partial.py --rounds 5
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from pydantic_core import from_json

from streamblocks import BlockDelta, BlockRegistry, StreamBlockProcessor
from streamblocks.testing import MockProvider, MockReply, MockToolCall

SIZE = 100_000


def shapes() -> dict[str, dict[str, Any]]:
    record = {"id": 0, "name": "row name é", "tags": ["a", "b"], "ok": True, "score": 1.5}
    rows = []
    while len(json.dumps(rows)) < SIZE:
        rows.append({**record, "id": len(rows)})
    return {
        "long string": {
            "path": "notes/today.md",
            "content": ('line of text \\ "q" ✓\n' * 5000)[:SIZE],
        },
        "1k records": {"rows": rows},
    }


def events_for(arguments: dict[str, Any]) -> list[Any]:
    reply = MockReply(tool_calls=[MockToolCall("write", arguments)])
    return list(MockProvider([reply], provider="anthropic", chunk_size=4).stream())


def not_read(items: list[Any]) -> int:
    count = 0
    for event in StreamBlockProcessor(BlockRegistry()).process(items):
        count += event.__class__ is BlockDelta
    return count


def read_each(items: list[Any]) -> int:
    count = 0
    for event in StreamBlockProcessor(BlockRegistry()).process(items):
        if event.__class__ is BlockDelta:
            count += event.partial is not None
    return count


def from_json_each(items: list[Any]) -> int:
    count = 0
    text: list[str] = []
    for event in StreamBlockProcessor(BlockRegistry()).process(items):
        if event.__class__ is BlockDelta:
            text.append(event.text)
            count += from_json("".join(text), allow_partial="trailing-strings") is not None
    return count


CASES: dict[str, Callable[[list[Any]], int]] = {
    "not read": not_read,
    "read each": read_each,
    "from_json each": from_json_each,
}


def timed(case: Callable[[list[Any]], int], items: list[Any]) -> float:
    gc.collect()
    start = time.perf_counter()
    case(items)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated case names")
    args = parser.parse_args()
    cases = {name: CASES[name] for name in args.cases.split(",")}
    streams = {name: events_for(arguments) for name, arguments in shapes().items()}
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for shape, items in streams.items():
            for name, case in cases.items():
                times.setdefault((shape, name), []).append(timed(case, items))
    print(f"medians of {args.rounds} rounds; 100 KB arguments, 4-character deltas")
    print(f"{'arguments':12} {'case':16} {'ms':>9} {'÷ not read':>11}")
    for shape in streams:
        base = statistics.median(times[(shape, "not read")])
        for name in cases:
            median = statistics.median(times[(shape, name)])
            print(f"{shape:12} {name:16} {median * 1e3:9.1f} {median / base:11.2f}")


if __name__ == "__main__":
    main()
