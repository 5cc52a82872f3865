"""What users get: the default processor over each provider's own stream objects.

    python benchmarks/bench_default.py [--rounds 5] [--blocks 1000] [--only NAME...]

The same text — ``bench_peers``' document of 1,000 ``!!id:note`` blocks with prose
between them, cut into 4-character chunks — is fed as:

- ``str`` with ``input_adapter=None`` (the configuration the other benchmarks measure:
  the reference every ratio divides by), and ``str`` through the default
  ``StreamBlockProcessor(registry)``, which detects the source;
- each provider's text deltas, as the SDK's own model objects (built once with the SDK's
  model classes, outside the timed loop) and as dicts of the JSON wire format (a log
  replayed through a gateway): OpenAI Chat Completions chunks, OpenAI Responses events,
  Anthropic message stream events, Gemini ``GenerateContentResponse`` chunks, each
  stream opened and closed by its provider's usual first and last events.

Every source is read three ways by the default processor: ``process`` (sync),
``process_stream`` over an async generator of the items (async), and a hand-written
``async for`` loop over the same async generator feeding a session (loop). Every round
runs every case once, in one process, the cases interleaved; CPU time
(``time.process_time``); the table gives the medians of the rounds in µs per fed item,
and each figure ÷ the same driver's ``str``/``input_adapter=None`` figure (``async`` ÷
``loop`` for the driver's own cost). Every run must find the 1,000 blocks.

``--case NAME --once`` feeds one case once (``--repeat K``: K times, one stream after
another), ``--case NAME --setup`` only builds it (for callgrind: ``sh
benchmarks/callgrind_default.sh SRC_DIR CASE...`` counts the instructions of the second
feed, the first's one-time costs — imports, detection, compiled searches — left out;
``sh benchmarks/callgrind_each.sh SRC_DIR CASE...`` counts the same, every case in one
process); case names are
``SOURCE/DRIVER`` (sources ``str-none``, ``str-auto``, ``PROVIDER-sdk``, ``PROVIDER-dict``;
drivers ``sync``, ``async``, ``loop``, and ``feed`` for ``str-none``), e.g.
``openai-chat-sdk/sync``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_peers import chunked, delimiter_document  # noqa: E402

from streamblocks import BlockRegistry, DelimiterPreambleSyntax, StreamBlockProcessor  # noqa: E402
from streamblocks.testing.wire import anthropic_message_start  # noqa: E402

Wire = dict[str, Any]

# -- each provider's stream as JSON wire dicts --------------------------------------------


def openai_chat(pieces: list[str]) -> list[Wire]:
    def chunk(delta: Wire, finish: str | None = None) -> Wire:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 1700000000,
            "model": "gpt-test",
            "system_fingerprint": None,
            "choices": [choice],
        }

    first = chunk({"role": "assistant", "content": "", "refusal": None})
    return [first, *(chunk({"content": p}) for p in pieces), chunk({}, "stop")]


def openai_responses(pieces: list[str]) -> list[Wire]:
    message = {"id": "msg_1", "type": "message", "status": "in_progress", "role": "assistant"}
    response = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1700000000,
        "model": "gpt-test",
        "status": "in_progress",
        "output": [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }
    done = {**response, "status": "completed"}
    seq = iter(range(len(pieces) + 4))
    return [
        {"type": "response.created", "response": response, "sequence_number": next(seq)},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**message, "content": []},
            "sequence_number": next(seq),
        },
        *(
            {
                "type": "response.output_text.delta",
                "item_id": "msg_1",
                "output_index": 0,
                "content_index": 0,
                "delta": p,
                "logprobs": [],
                "sequence_number": next(seq),
            }
            for p in pieces
        ),
        {"type": "response.completed", "response": done, "sequence_number": next(seq)},
    ]


def anthropic(pieces: list[str]) -> list[Wire]:
    return [
        anthropic_message_start("claude-test", {"input_tokens": 10, "output_tokens": 1}),
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        *(
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}
            for p in pieces
        ),
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": len(pieces)},
        },
        {"type": "message_stop"},
    ]


def gemini(pieces: list[str]) -> list[Wire]:
    def response(text: str, finish: str | None = None) -> Wire:
        candidate: Wire = {"content": {"role": "model", "parts": [{"text": text}]}, "index": 0}
        if finish:
            candidate["finishReason"] = finish
        return {"candidates": [candidate], "modelVersion": "gemini-test", "responseId": "r1"}

    last = response("", "STOP")
    last["usageMetadata"] = {"promptTokenCount": 10, "totalTokenCount": 10 + len(pieces)}
    return [*(response(p) for p in pieces), last]


def sdk_objects(provider: str, wire: list[Wire]) -> list[Any]:
    """The wire dicts as the SDK's own objects (each event's model class validates it)."""
    if provider == "openai-chat":
        from openai.types.chat import ChatCompletionChunk

        return [ChatCompletionChunk.model_validate(event) for event in wire]
    if provider == "openai-responses":
        from openai.types.responses import ResponseStreamEvent
        from pydantic import TypeAdapter

        read = TypeAdapter(ResponseStreamEvent).validate_python
        return [read(event) for event in wire]
    if provider == "anthropic":
        from anthropic.types import RawMessageStreamEvent
        from pydantic import TypeAdapter

        read = TypeAdapter(RawMessageStreamEvent).validate_python
        return [read(event) for event in wire]
    from google.genai.types import GenerateContentResponse

    return [GenerateContentResponse.model_validate(event) for event in wire]


PROVIDERS: dict[str, Callable[[list[str]], list[Wire]]] = {
    "openai-chat": openai_chat,
    "openai-responses": openai_responses,
    "anthropic": anthropic,
    "gemini": gemini,
}

# -- the drivers ------------------------------------------------------------------------


async def _items(items: list[Any]) -> AsyncIterator[Any]:
    for item in items:
        yield item


def _sync(processor: StreamBlockProcessor, items: list[Any]) -> int:
    return sum(event.type == "BLOCK_END" for event in processor.process(items))


def _feed(processor: StreamBlockProcessor, items: list[Any]) -> int:
    session = processor.session()
    feed = session.feed
    blocks = 0
    for item in items:
        for event in feed(item):
            blocks += event.type == "BLOCK_END"
    return blocks + sum(event.type == "BLOCK_END" for event in session.close())


async def _process_stream(processor: StreamBlockProcessor, items: list[Any]) -> int:
    blocks = 0
    async for event in processor.process_stream(_items(items)):
        blocks += event.type == "BLOCK_END"
    return blocks


async def _loop(processor: StreamBlockProcessor, items: list[Any]) -> int:
    session = processor.session()
    feed = session.feed
    blocks = 0
    async for item in _items(items):
        for event in feed(item):
            blocks += event.type == "BLOCK_END"
    return blocks + sum(event.type == "BLOCK_END" for event in session.close())


async def _repeated(
    run: Callable[[StreamBlockProcessor, list[Any]], Any],
    processor: StreamBlockProcessor,
    items: list[Any],
    times: int,
) -> int:
    """``times`` streams, one after another, in one event loop."""
    return sum([await run(processor, items) for _ in range(times)])


DRIVERS: dict[str, Callable[[StreamBlockProcessor, list[Any]], int]] = {
    "feed": _feed,
    "sync": _sync,
    "async": lambda p, items: asyncio.run(_process_stream(p, items)),
    "loop": lambda p, items: asyncio.run(_loop(p, items)),
}
ASYNC = {"async": _process_stream, "loop": _loop}

# -- the cases --------------------------------------------------------------------------

REFERENCE = "str-none"


def registry() -> BlockRegistry:
    reg = BlockRegistry()
    reg.register("note", syntax=DelimiterPreambleSyntax())
    return reg


SOURCES = [REFERENCE, "str-auto", *(f"{p}-{kind}" for p in PROVIDERS for kind in ("sdk", "dict"))]


def sources(blocks: int, names: Iterable[str]) -> dict[str, tuple[StreamBlockProcessor, list[Any]]]:
    """The sources named: each one's processor and items (``str-none``:
    ``input_adapter=None``; the others the default processor)."""
    pieces = chunked(delimiter_document(blocks), 4)
    default = StreamBlockProcessor(registry())
    out: dict[str, tuple[StreamBlockProcessor, list[Any]]] = {}
    for name in names:
        if name == REFERENCE:
            out[name] = (StreamBlockProcessor(registry(), input_adapter=None), pieces)
        elif name == "str-auto":
            out[name] = (default, pieces)
        else:
            provider, kind = name.rsplit("-", 1)
            wire = PROVIDERS[provider](pieces)
            out[name] = (default, sdk_objects(provider, wire) if kind == "sdk" else wire)
    return out


def case_names(names: Iterable[str]) -> list[str]:
    out = []
    for source in names:
        out += [
            f"{source}/{driver}" for driver in DRIVERS if driver != "feed" or source == REFERENCE
        ]
    return out


def timed(run: Callable[[], int], expected: int, name: str) -> float:
    gc.collect()
    start = time.process_time()
    found = run()
    seconds = time.process_time() - start
    if found != expected:
        raise SystemExit(f"{name}: {found} blocks, expected {expected}")
    return seconds


def _run(
    all_sources: dict[str, tuple[StreamBlockProcessor, list[Any]]], case: str, times: int = 1
) -> int:
    source, driver = case.split("/")
    processor, items = all_sources[source]
    if times > 1 and driver in ASYNC:
        return asyncio.run(_repeated(ASYNC[driver], processor, items, times))
    return sum(DRIVERS[driver](processor, items) for _ in range(times))


def table(results: dict[str, list[float]], counts: dict[str, int]) -> None:
    def us(source: str, driver: str) -> float:
        return statistics.median(results[f"{source}/{driver}"]) / counts[source] * 1e6

    header = (
        f"{'source (default processor)':<28}{'sync µs':>9}{'÷ str':>8}"
        f"{'async µs':>10}{'÷ str':>8}{'loop µs':>9}{'async ÷ loop':>14}"
    )
    print(header)
    print("-" * len(header))
    base = {d: us(REFERENCE, d) for d in ("sync", "async")}
    for source in counts:
        if f"{source}/sync" not in results:
            continue
        sync, asy, loop = us(source, "sync"), us(source, "async"), us(source, "loop")
        label = "str, input_adapter=None" if source == REFERENCE else source
        print(
            f"{label:<28}{sync:>9.2f}{sync / base['sync']:>7.2f}×"
            f"{asy:>10.2f}{asy / base['async']:>7.2f}×{loop:>9.2f}{asy / loop:>13.2f}×"
        )
    feed = us(REFERENCE, "feed")
    print(f"\n(str, input_adapter=None, a bare session.feed loop: {feed:.2f} µs per chunk)")


def main() -> None:
    import streamblocks

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--blocks", type=int, default=1000)
    parser.add_argument("--only", nargs="*", help="sources to run (str-none always runs)")
    parser.add_argument("--case", help="one case, SOURCE/DRIVER (with --once or --setup)")
    parser.add_argument("--once", action="store_true", help="feed the case once, untimed")
    parser.add_argument("--repeat", type=int, default=1, help="with --once: feed it K times")
    parser.add_argument("--setup", action="store_true", help="build the case, no feed")
    parser.add_argument("--count", action="store_true", help="print the case's item count")
    args = parser.parse_args()
    if args.case:
        source = args.case.split("/")[0]
        case_sources = sources(args.blocks, [source])
        if args.count:
            print(len(case_sources[source][1]))
        if args.once:
            _run(case_sources, args.case, args.repeat)
        gc.collect()
        return
    chosen = [s for s in SOURCES if s != REFERENCE and (not args.only or s in args.only)]
    names = [REFERENCE, *chosen]
    all_sources = sources(args.blocks, names)
    counts = {s: len(all_sources[s][1]) for s in names}
    cases = case_names(names)
    for case in cases:  # warm up: compiled searches, detection tables, imports
        _run(all_sources, case)
    results: dict[str, list[float]] = {case: [] for case in cases}
    for _ in range(args.rounds):
        for case in cases:
            results[case].append(timed(lambda: _run(all_sources, case), args.blocks, case))  # noqa: B023
    build = "compiled" if getattr(streamblocks, "compiled", False) else "pure"
    print(
        f"{build} build ({os.path.dirname(streamblocks.__file__)}), Python "
        f"{sys.version.split()[0]}, {args.blocks} blocks at 4-character chunks "
        f"({counts[REFERENCE]} chunks), medians of {args.rounds} rounds, CPU time\n"
    )
    table(results, counts)


if __name__ == "__main__":
    main()
