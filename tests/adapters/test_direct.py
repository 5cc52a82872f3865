"""The provider adapters' direct reading of a plain text delta answers what their general
reader answers: step by step and event by event, for every event of the recorded
streams and of streams of edge cases, as the SDK's own objects (read by its client over
a mock transport) and as wire dicts — and the direct reading does take the plain deltas.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from streamblocks import BlockRegistry, StreamBlockProcessor, StreamStarted
from streamblocks.adapters import EventCategory
from streamblocks.ext._base import ProviderAdapter
from streamblocks.ext.anthropic import AnthropicInputAdapter
from streamblocks.ext.gemini import GeminiInputAdapter
from streamblocks.ext.ollama import OllamaInputAdapter
from streamblocks.ext.openai import OpenAIInputAdapter

from . import fixtures, test_anthropic, test_gemini, test_ollama, test_openai
from .sse import sse

TEXT = EventCategory.TEXT_CONTENT

# -- edge cases, in each provider's wire format -------------------------------------------


def chat(delta: dict[str, Any] | None, finish: str | None = None, **extra: Any) -> Any:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    if delta is None:
        del choice["delta"]
    return test_openai.chunk(None, finish, **{"choices": [choice], **extra})


TOOL = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": ""}}
USAGE = {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}


def chat_edges() -> list[tuple[str | None, Any]]:
    second = chat({"content": "b"})
    second[1]["choices"].append({"index": 1, "delta": {"content": "x"}, "finish_reason": None})
    return [
        chat({"role": "assistant"}),  # role only
        chat({"role": "assistant", "content": "", "refusal": None}),
        chat({}),  # empty delta
        chat({"content": "Hi "}),
        chat({"content": "there", "role": "assistant"}),
        chat({"content": "a", "reasoning": None, "reasoning_content": None}),  # nulls said
        chat({"reasoning_content": "think"}),  # thinking opens...
        chat({"content": "after"}),  # ...and text closes it
        chat({"content": "call", "tool_calls": [TOOL]}),  # text and a tool call
        chat({"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}),
        chat({"content": "more"}),
        chat({"content": "c"}, usage=USAGE),  # usage on a text chunk
        chat({"content": "m"}, moderation={"flagged": False}),
        chat({"content": "old", "function_call": {"name": "g", "arguments": "{}"}}),
        second,  # two choices
        chat({"content": "o"}, obfuscation="xyz"),
        chat({"refusal": "no"}),
        chat({"content": "end"}, "stop"),  # finish reason with text
        (None, {**chat({})[1], "choices": [], "usage": USAGE}),  # usage only
    ]


def chat_wire_only() -> list[tuple[str | None, Any]]:
    """Chunks the SDK would not hold as they are: wrong types, a missing delta."""
    one = chat({"content": "x"})
    one[1]["choices"][0]["index"] = 1
    return [
        chat({"content": 5}),
        chat({"content": "y"}, None, choices=[]),
        chat(None),
        one,
        chat({"content": "z"}, None, choices=({"index": 0, "delta": {"content": "t"}},)),
        chat({"content": "q", "refusal": ""}),
        (None, {"object": "chat.completion.chunk", "choices": [{"delta": {"content": "n"}}]}),
    ]


def responses_edges() -> list[tuple[str | None, Any]]:
    def text(delta: Any, **extra: Any) -> tuple[str, Any]:
        kind = "response.output_text.delta"
        fields = {"item_id": "m", "output_index": 0, "content_index": 0, "logprobs": []}
        return (kind, {"type": kind, "sequence_number": 1, "delta": delta, **fields, **extra})

    return [text("a"), text(""), text("b", obfuscation="xy"), text("c")]


def anthropic_edges() -> list[tuple[str | None, Any]]:
    delta = test_anthropic.delta
    return [
        delta(0, "text_delta", text="a"),
        delta(0, "text_delta", text=""),
        delta(0, "text_delta", text="b", extra=1),
        test_anthropic.ev("content_block_delta", index=0, delta={"type": "text_delta"}),
    ]


def gemini_edges() -> list[tuple[str | None, Any]]:
    response = test_gemini.response
    usage = {"promptTokenCount": 3, "totalTokenCount": 5}
    call = {"functionCall": {"name": "f", "args": {"a": 1}}}
    return [
        response([{"text": "a"}]),
        response([{"text": ""}]),
        response([{"text": "t", "thought": True}]),  # thinking opens...
        response([{"text": "b"}]),  # ...and text closes it
        response([{"text": "c"}], usageMetadata=usage),
        response([{"text": "d"}, {"text": "e"}]),
        response([{"text": "f"}, call]),
        response([{"text": "g"}], "STOP"),
        response([{"text": "h", "thoughtSignature": "c2ln"}]),
        response([{"text": "i"}], promptFeedback={"blockReason": "SAFETY"}),
        response([{"inlineData": {"mimeType": "image/png", "data": "AA=="}}]),
        (None, {"candidates": [], "usageMetadata": usage, "modelVersion": "m"}),
    ]


def ollama_edges() -> list[Any]:
    def chunk(done: bool = False, **message: Any) -> dict[str, Any]:
        fields = {"message": {"role": "assistant", "content": "", **message}}
        return test_ollama.line(**fields, done=done)

    call = {"function": {"name": "f", "arguments": {"a": 1}}}
    return [
        chunk(thinking="hm"),
        chunk(content="a"),
        chunk(content="b", thinking=""),
        chunk(content="c", tool_calls=[call]),
        chunk(content=""),
        chunk(content="d", images=None),
        {**chunk(True, content="e"), "done_reason": "stop", "eval_count": 3},
    ]


# -- the streams: recorded bodies and edge cases, as SDK objects and as dicts -------------


def wire(body: bytes) -> list[dict[str, Any]]:
    """The JSON data of an SSE body, event by event."""
    lines = body.decode().splitlines()
    found = [line[len("data: ") :] for line in lines if line.startswith("data: ")]
    return [json.loads(data) for data in found if data != "[DONE]"]


Stream = tuple[Callable[[], ProviderAdapter], Callable[[], list[Any]], list[Any]]
"""An adapter, the stream as the SDK's client reads it, and the stream as wire dicts."""


def sse_stream(make: Callable[[], ProviderAdapter], read: Any, body: bytes) -> Stream:
    return (make, lambda: read(body), wire(body))


def ollama_stream(kind: str, lines: list[dict[str, Any]]) -> Stream:
    return (OllamaInputAdapter, lambda: asyncio.run(test_ollama.read("sync", kind, lines)), lines)


STREAMS: dict[str, Stream] = {
    "openai-chat": sse_stream(OpenAIInputAdapter, fixtures.openai_chat, test_openai.chat_body()),
    "openai-chat-edges": sse_stream(
        OpenAIInputAdapter, fixtures.openai_chat, sse(chat_edges(), done=True)
    ),
    "openai-responses": sse_stream(
        OpenAIInputAdapter, fixtures.openai_responses, test_openai.responses_body()
    ),
    "openai-responses-edges": sse_stream(
        OpenAIInputAdapter, fixtures.openai_responses, sse(responses_edges())
    ),
    "anthropic": sse_stream(
        AnthropicInputAdapter, fixtures.anthropic_messages, test_anthropic.messages_body()
    ),
    "anthropic-edges": sse_stream(
        AnthropicInputAdapter, fixtures.anthropic_messages, sse(anthropic_edges())
    ),
    "gemini": sse_stream(GeminiInputAdapter, fixtures.gemini_stream, test_gemini.stream_body()),
    "gemini-edges": sse_stream(GeminiInputAdapter, fixtures.gemini_stream, sse(gemini_edges())),
    "ollama-chat": ollama_stream("chat", test_ollama.chat_lines()),
    "ollama-generate": ollama_stream("generate", test_ollama.generate_lines()),
    "ollama-edges": ollama_stream("chat", ollama_edges()),
}
ODD: dict[str, tuple[Callable[[], ProviderAdapter], list[Any]]] = {
    "openai-chat-odd": (OpenAIInputAdapter, wire(sse(chat_wire_only()))),
}
"""Streams only as dicts: values the SDKs would not hold."""


def cases() -> list[tuple[str, Callable[[], ProviderAdapter], list[Any]]]:
    out = []
    for name, (adapter, read, dicts) in STREAMS.items():
        out.append((f"{name}-sdk", adapter, read()))
        out.append((f"{name}-dict", adapter, dicts))
    out += [(name, adapter, events) for name, (adapter, events) in ODD.items()]
    return out


CASES = cases()

# -- the comparison ----------------------------------------------------------------------


def reference(make: Callable[[], ProviderAdapter]) -> ProviderAdapter:
    adapter = make()
    adapter.reference = True
    return adapter


def steps(adapter: ProviderAdapter, events: list[Any]) -> tuple[list[Any], int]:
    """What ``read`` answers for each event (natives as tuples: a list and a tuple of
    the same pieces mean the same), and how many events the general reader took."""
    stream = adapter.for_stream()
    general = stream._general  # type: ignore[attr-defined]
    taken = 0

    def counted(event: Any) -> Any:
        nonlocal taken
        taken += 1
        return general(event)

    stream._general = counted  # type: ignore[attr-defined]
    answers = []
    for event in events:
        step = stream.read(event)
        answers.append(step._replace(natives=tuple(step.natives)))
    return answers, taken


def observe(adapter: ProviderAdapter, events: list[Any]) -> tuple[list[Any], list[str]]:
    registry = BlockRegistry()
    registry.register("note")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = list(StreamBlockProcessor(registry, input_adapter=adapter).process(events))
    out = [StreamStarted("s") if isinstance(e, StreamStarted) else e for e in out]
    return out, [str(w.message) for w in caught]


@pytest.mark.parametrize(("name", "make", "events"), CASES, ids=[c[0] for c in CASES])
def test_direct_reading_answers_as_the_general_reader(
    name: str, make: Callable[[], ProviderAdapter], events: list[Any]
) -> None:
    direct, taken = steps(make(), events)
    general, all_taken = steps(reference(make), events)
    assert direct == general
    assert all_taken == len(events)
    assert taken < len(events)  # some were read directly
    if "-edges" not in name and "-odd" not in name:  # (the recorded streams)
        plain = [step for step in general if step[:5] == (TEXT, step.text, (), None, None)]
        assert taken == len(events) - len(plain)  # every plain delta was read directly
    assert observe(make(), events) == observe(reference(make), events)


def session_reads(adapter: ProviderAdapter, events: list[Any]) -> list[Any]:
    """What the session reads of each event: the text ``text_delta`` answers, else the
    step ``read`` answers (natives as tuples)."""
    stream = adapter.for_stream()
    getter = stream.text_delta  # type: ignore[attr-defined]
    out: list[Any] = []
    for event in events:
        text = getter(event) if getter is not None else None
        if text is not None:
            out.append(text)
        else:
            step = stream.read(event)
            out.append(step._replace(natives=tuple(step.natives)))
    return out


@pytest.mark.parametrize(("name", "make", "events"), CASES, ids=[c[0] for c in CASES])
def test_text_delta_answers_as_the_general_reader(
    name: str, make: Callable[[], ProviderAdapter], events: list[Any]
) -> None:
    """The direct getter answers the text of plain text deltas only, as the general
    reader reads them; the session reads the others as before."""
    general, _ = steps(reference(make), events)
    assert reference(make).for_stream().text_delta is None  # type: ignore[attr-defined]
    got = session_reads(make(), events)
    answered = 0
    for ours, theirs in zip(got, general, strict=True):
        if isinstance(ours, str):
            answered += 1
            assert theirs == (TEXT, ours, (), None, None, None, None)
        else:
            assert ours == theirs
    assert answered > 0
    if "-edges" not in name and "-odd" not in name:  # every plain delta answered directly
        assert answered == sum(step == (TEXT, step.text, (), None, None, None, None)
                               for step in general)  # fmt: skip


def test_reference_is_kept_for_each_stream() -> None:
    adapter = reference(OpenAIInputAdapter)
    assert adapter.for_stream().reference is True
    assert OpenAIInputAdapter().for_stream().reference is False


def test_the_sdk_streams_are_the_sdk_objects() -> None:
    """The direct readers know the SDKs' classes: the fixtures must be of those classes."""
    kinds = {name: {type(e).__name__ for e in events} for name, _, events in CASES}
    assert "ChatCompletionChunk" in kinds["openai-chat-sdk"]
    assert "ResponseTextDeltaEvent" in kinds["openai-responses-sdk"]
    assert "RawContentBlockDeltaEvent" in kinds["anthropic-sdk"]
    assert kinds["gemini-sdk"] == {"GenerateContentResponse"}
    assert kinds["ollama-chat-sdk"] == {"ChatResponse"}


# -- generated chat chunks and Gemini chunks: any mix of the fields the readers look at ---

MAYBE_TEXT = st.sampled_from([None, "", "a", "b\n", 0])
CHAT_DELTA = st.fixed_dictionaries(
    {},
    optional={
        "content": MAYBE_TEXT,
        "role": st.sampled_from(["assistant", None]),
        "refusal": st.sampled_from([None, "", "no"]),
        "reasoning_content": MAYBE_TEXT,
        "reasoning": MAYBE_TEXT,
        "tool_calls": st.sampled_from([None, [], [TOOL]]),
        "function_call": st.sampled_from([None, {"name": "g", "arguments": "{}"}]),
    },
)
CHAT_CHOICE = st.fixed_dictionaries(
    {"delta": CHAT_DELTA},
    optional={
        "index": st.sampled_from([0, 1, None]),
        "finish_reason": st.sampled_from([None, "", "stop", "length"]),
    },
)
CHAT_CHUNK = st.builds(
    lambda choices, extra: {"object": "chat.completion.chunk", "choices": choices, **extra},
    st.lists(CHAT_CHOICE, max_size=2),
    st.fixed_dictionaries(
        {}, optional={"usage": st.sampled_from([None, USAGE]), "moderation": st.none()}
    ),
)
GEMINI_PART = st.fixed_dictionaries(
    {},
    optional={
        "text": MAYBE_TEXT,
        "thought": st.sampled_from([None, False, True]),
        "functionCall": st.sampled_from([None, {"name": "f", "args": {}}]),
    },
)
GEMINI_CHUNK = st.builds(
    lambda parts, finish, extra: {
        "candidates": [{"content": {"role": "model", "parts": parts}, **finish}],
        **extra,
    },
    st.lists(GEMINI_PART, max_size=2),
    st.fixed_dictionaries({}, optional={"finishReason": st.sampled_from([None, "STOP"])}),
    st.fixed_dictionaries(
        {},
        optional={
            "usageMetadata": st.just({"promptTokenCount": 1}),
            "promptFeedback": st.sampled_from([None, {"blockReason": "SAFETY"}]),
        },
    ),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(CHAT_CHUNK, max_size=8), st.lists(GEMINI_CHUNK, max_size=8))
def test_generated_chunks(chunks: list[Any], responses: list[Any]) -> None:
    for make, events in ((OpenAIInputAdapter, chunks), (GeminiInputAdapter, responses)):
        assert steps(make(), events)[0] == steps(reference(make), events)[0]
        general = steps(reference(make), events)[0]
        for ours, theirs in zip(session_reads(make(), events), general, strict=True):
            assert ours == (theirs.text if isinstance(ours, str) else theirs)
