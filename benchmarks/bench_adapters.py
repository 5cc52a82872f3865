"""Adapter overhead per event, for each provider, against feeding the same text as ``str``.

    python benchmarks/bench_adapters.py [--events 20000]

For each provider the same reply (token-sized pieces, a block in the middle) is processed
three ways: as plain ``str`` chunks, as the provider's SDK objects (dicts of the JSON wire
format when the SDK is not installed) through ``StreamBlockProcessor``, and through the
adapter alone (every method the session calls, no session). Reported in µs per event;
"overhead" is the processor-with-adapter time minus the ``str`` time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from streamblocks import BlockRegistry, StreamBlockProcessor
from streamblocks.ext.agui import AGUIInputAdapter
from streamblocks.ext.anthropic import AnthropicInputAdapter
from streamblocks.ext.gemini import GeminiInputAdapter
from streamblocks.ext.openai import OpenAIInputAdapter

PIECES = ["Hello", " there", ",", " this", " is", " a", " reply", ".\n"]
BLOCK = ["!!b1:no", "te\n", "some", " note", " text\n", "!!e", "nd\n"]


def pieces(count: int) -> list[str]:
    out: list[str] = []
    while len(out) < count:
        out.extend(PIECES * 4)
        out.extend(BLOCK)
    return out[:count]


def openai_chat(text: str) -> dict[str, Any]:
    return {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}],
    }


def openai_responses(text: str) -> dict[str, Any]:
    return {
        "type": "response.output_text.delta",
        "item_id": "msg",
        "output_index": 0,
        "content_index": 0,
        "delta": text,
        "sequence_number": 0,
        "logprobs": [],
    }


def anthropic(text: str) -> dict[str, Any]:
    delta = {"type": "text_delta", "text": text}
    return {"type": "content_block_delta", "index": 0, "delta": delta}


def gemini(text: str) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "index": 0}]}


def agui(text: str) -> dict[str, Any]:
    return {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": text}


def sdk_class(name: str) -> Callable[[dict[str, Any]], Any] | None:
    """The SDK's model for a provider's event, or ``None`` when it is not installed."""
    try:
        if name == "openai-chat":
            from openai.types.chat import ChatCompletionChunk

            return ChatCompletionChunk.model_validate
        if name == "openai-responses":
            from openai.types.responses import ResponseTextDeltaEvent

            return ResponseTextDeltaEvent.model_validate
        if name == "anthropic":
            from anthropic.types import RawContentBlockDeltaEvent

            return RawContentBlockDeltaEvent.model_validate
        if name == "gemini":
            from google.genai.types import GenerateContentResponse

            return GenerateContentResponse.model_validate
        if name == "agui":
            from ag_ui.core import TextMessageContentEvent

            return TextMessageContentEvent.model_validate
    except ImportError:
        return None
    return None


PROVIDERS: list[tuple[str, Callable[[str], dict[str, Any]], Callable[[], Any]]] = [
    ("openai-chat", openai_chat, OpenAIInputAdapter),
    ("openai-responses", openai_responses, OpenAIInputAdapter),
    ("anthropic", anthropic, AnthropicInputAdapter),
    ("gemini", gemini, GeminiInputAdapter),
    ("agui", agui, AGUIInputAdapter),
]


def best(fn: Callable[[], object], repeat: int = 9) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def adapter_only(adapter: Any, events: list[Any]) -> None:
    a = adapter.for_stream()
    for event in events:
        a.categorize(event)
        a.stop_reason(event)
        a.usage(event)
        a.native_events(event)
        a.extract_text(event)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    args = parser.parse_args()
    registry = BlockRegistry()
    registry.register("note")
    processor = StreamBlockProcessor(registry)
    texts = pieces(args.events)
    n = len(texts)

    str_time = best(lambda: sum(1 for _ in processor.process(texts)))
    print(f"{n} events; str chunks through the processor: {str_time / n * 1e6:.2f} µs/event\n")
    header = f"{'provider':<18}{'events':<8}{'adapter only':>14}{'processor':>12}{'overhead':>11}"
    print(header)
    print("-" * len(header))
    for name, make, adapter_cls in PROVIDERS:
        validate = sdk_class(name)
        events = [make(t) for t in texts]
        kind = "dict"
        if validate is not None:
            events = [validate(e) for e in events]
            kind = "sdk"
        adapter = adapter_cls()
        explicit = StreamBlockProcessor(registry, input_adapter=adapter)
        only = best(lambda: adapter_only(adapter, events)) / n * 1e6  # noqa: B023
        full = best(lambda: sum(1 for _ in explicit.process(events))) / n * 1e6  # noqa: B023
        # The str baseline is measured again beside each row: machines drift.
        baseline = best(lambda: sum(1 for _ in processor.process(texts))) / n * 1e6
        overhead = full - baseline
        print(f"{name:<18}{kind:<8}{only:>11.2f} µs{full:>9.2f} µs{overhead:>8.2f} µs")


if __name__ == "__main__":
    main()
