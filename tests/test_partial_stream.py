"""``BlockDelta.partial`` from every source that writes an object: native provider calls
(OpenAI Chat/Responses, Anthropic, Gemini whole and streamed, AG-UI, Ollama), gadget
calls, and the structured output; monotone, ending equal to the final arguments."""

from __future__ import annotations

import copy
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import pytest
from ag_ui import core
from google import genai
from google.genai import types
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from partial_helpers import ARGUMENTS, assert_monotone
from streamblocks import (
    BlockDelta,
    BlockEnd,
    BlockRegistry,
    GadgetSyntax,
    StreamBlockProcessor,
    collect,
)
from streamblocks.ext.agui import AGUIOutputAdapter
from streamblocks.testing import MockProvider, MockReply, MockToolCall
from streamblocks.testing.mock import PROVIDERS

sys.path.insert(0, str(Path(__file__).parent))
from adapters.sse import Recorder, sse

MODES = ["sync", "async"]


def partials(events: list[Any]) -> dict[str, list[Any]]:
    """Each block's partial at each of its deltas, in order."""
    out: dict[str, list[Any]] = {}
    for event in events:
        if isinstance(event, BlockDelta):
            out.setdefault(event.block_id, []).append(event.partial)
    return out


def finals(events: list[Any]) -> dict[str, Any]:
    return {e.block.id: e.block.content for e in events if isinstance(e, BlockEnd)}


def check(events: list[Any]) -> int:
    """Every object block's partials grow and end at its content; the number checked."""
    ended = finals(events)
    seen = partials(events)
    for block_id, content in ended.items():
        if block_id in seen:
            assert_monotone(seen[block_id], content)
    return len(seen)


# ---------------------------------------------------------------- native providers


@pytest.mark.parametrize("provider", PROVIDERS)
@settings(max_examples=15, deadline=None)
@given(arguments=ARGUMENTS, cuts=st.sets(st.integers(1, 400), max_size=8))
def test_native_calls_at_every_split(
    provider: str, arguments: dict[str, Any], cuts: set[int]
) -> None:
    reply = MockReply(tool_calls=[MockToolCall("f", arguments), MockToolCall("g", {"x": 1})])

    def at_cuts(text: str) -> list[str]:
        points = sorted(c for c in cuts if c < len(text))
        return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]

    for chunking in (1, at_cuts):
        mock = MockProvider([reply], provider=provider, chunk_size=chunking)
        events = list(StreamBlockProcessor(BlockRegistry()).process(mock.stream()))
        assert check(events) == 2  # both calls streamed their arguments
        calls = list(finals(events).values())
        assert calls == [arguments, {"x": 1}]


def ollama_chunks(arguments: dict[str, Any]) -> list[dict[str, Any]]:
    base = {"model": "qwen3:8b", "created_at": "2026-01-01T00:00:00Z"}
    call = {"function": {"name": "f", "arguments": arguments}}
    message = {"role": "assistant", "content": "", "tool_calls": [call]}
    done = {"role": "assistant", "content": ""}
    return [
        {**base, "done": False, "message": message},
        {**base, "done": True, "done_reason": "stop", "message": done, "eval_count": 3},
    ]


@settings(max_examples=30, deadline=None)
@given(arguments=ARGUMENTS)
def test_ollama_calls_stream_their_arguments(arguments: dict[str, Any]) -> None:
    events = list(StreamBlockProcessor(BlockRegistry()).process(ollama_chunks(arguments)))
    assert check(events) == 1
    assert list(finals(events).values()) == [arguments]
    text = "".join(e.text for e in events if isinstance(e, BlockDelta))
    assert json.loads(text) == arguments


# ---------------------------------------------------------------- Gemini partial_args

STREAMED = {
    "location": 'Boston, "MA" 😀',
    "days": 3,
    "ratio": 0.25,
    "metric": True,
    "country": None,
    "stops": [{"name": "Harvard", "minutes": 20}, {"name": "MIT", "minutes": 15}],
}


def gemini_call_parts() -> list[dict[str, Any]]:
    """``STREAMED`` as Vertex AI streams a call (``stream_function_call_arguments``):
    the name first, then partial arguments, strings in pieces, then an empty end."""

    def arg(path: str, **value: Any) -> dict[str, Any]:
        return {"jsonPath": path, **value}

    pieces = [
        [arg("$.location", stringValue="Bost", willContinue=True)],
        [arg("$.location", stringValue='on, "MA" ', willContinue=True)],
        [arg("$.location", stringValue="😀"), arg("$.days", numberValue=3)],
        [arg("$.ratio", numberValue=0.25), arg("$.metric", boolValue=True)],
        [arg("$['country']", nullValue="NULL_VALUE")],
        [arg("$.stops[0].name", stringValue="Harv", willContinue=True)],
        [arg("$.stops[0].name", stringValue="ard"), arg("$.stops[0].minutes", numberValue=20)],
        [arg("$.stops[1].name", stringValue="MIT"), arg("$.stops[1].minutes", numberValue=15)],
    ]
    calls = [{"id": "fc_7", "name": "plan_trip", "willContinue": True}]
    calls += [{"partialArgs": piece, "willContinue": True} for piece in pieces]
    calls.append({})
    return [{"functionCall": call} for call in calls]


def gemini_body() -> bytes:
    events = [(None, {"candidates": [{"content": {"role": "model", "parts": [{"text": "Ok. "}]}}]})]
    for part in gemini_call_parts():
        candidate = {"content": {"role": "model", "parts": [part]}, "index": 0}
        events.append((None, {"candidates": [candidate]}))
    last = {"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP"}
    events.append((None, {"candidates": [last], "modelVersion": "gemini-3-pro-preview"}))
    return sse(events)


async def gemini_stream(mode: str) -> list[Any]:
    server = Recorder(gemini_body())
    options = types.HttpOptions(
        base_url="https://vertex.test",
        httpx_client=server.sync_client() if mode == "sync" else None,
        httpx_async_client=server.async_client() if mode == "async" else None,
    )
    client = genai.Client(vertexai=True, api_key="test", http_options=options)
    config = types.GenerateContentConfig(
        tool_config=types.ToolConfig(
            function_calling_config=types.FunctionCallingConfig(stream_function_call_arguments=True)
        ),
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    model = "gemini-3-pro-preview"
    if mode == "sync":
        return list(
            client.models.generate_content_stream(model=model, contents="hi", config=config)
        )
    stream = await client.aio.models.generate_content_stream(
        model=model, contents="hi", config=config
    )
    return [chunk async for chunk in stream]


@pytest.mark.parametrize("mode", MODES)
async def test_gemini_streamed_arguments(mode: str) -> None:
    chunks = await gemini_stream(mode)
    assert any(
        p.function_call.partial_args
        for c in chunks
        for p in c.candidates[0].content.parts
        if p.function_call
    )
    events = list(StreamBlockProcessor(BlockRegistry()).process(chunks))
    deltas = [e for e in events if isinstance(e, BlockDelta)]
    assert len(deltas) > 5  # piece by piece, not at the end
    assert json.loads("".join(d.text for d in deltas)) == STREAMED
    assert check(events) == 1
    assert [d.partial for d in deltas][:4] == [
        {"location": "Bost"},
        {"location": 'Boston, "MA" '},
        {"location": 'Boston, "MA" 😀'},  # 3: a number is complete when a comma follows
        {"location": 'Boston, "MA" 😀', "days": 3, "ratio": 0.25, "metric": True},
    ]
    step = collect(chunks)
    assert [(c.id, c.name, c.arguments) for c in step.tool_calls] == [
        ("fc_7", "plan_trip", STREAMED)
    ]
    assert step.text == "Ok. "

    out = list(
        StreamBlockProcessor(BlockRegistry(), output_adapter=AGUIOutputAdapter()).process(chunks)
    )
    args = [e.delta for e in out if e.type == core.EventType.TOOL_CALL_ARGS]
    assert len(args) == len(deltas) and json.loads("".join(args)) == STREAMED


# ---------------------------------------------------------------- gadget calls

KEYS = st.text("abcdefghij_", min_size=1, max_size=5)
WORDS = st.text('abcdeé😀 "\\{}', min_size=0, max_size=6).map(lambda s: "w" + s)
GADGET_VALUES = st.one_of(
    WORDS,
    st.lists(WORDS, min_size=2, max_size=3).map("\n".join),  # several lines: text
    st.integers(-999, 999),
    st.booleans(),
)
GADGET_ARGUMENTS = st.dictionaries(
    KEYS,
    st.one_of(
        GADGET_VALUES,
        st.lists(GADGET_VALUES, min_size=1, max_size=3),
        st.dictionaries(KEYS, GADGET_VALUES, min_size=1, max_size=3),
    ),
    min_size=1,
    max_size=4,
)


def gadget_text(arguments: dict[str, Any]) -> str:
    lines = ["Calling it.", "!!!GADGET_START:Plan"]

    def put(pointer: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                put(f"{pointer}/{key}", inner)
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                put(f"{pointer}/{index}", inner)
        else:
            lines.append(f"!!!ARG:{pointer}")
            lines.append(json.dumps(value) if isinstance(value, bool) else str(value))

    for key, value in arguments.items():
        put(key, value)
    lines += ["!!!GADGET_END", "done"]
    return "\n".join(lines)


@settings(max_examples=40, deadline=None)
@given(arguments=GADGET_ARGUMENTS, cut=st.integers(1, 20))
def test_gadget_calls_build_their_object_as_it_arrives(arguments: dict[str, Any], cut: int) -> None:
    registry = BlockRegistry()
    registry.register("Plan", syntax=GadgetSyntax())
    text = gadget_text(arguments)
    for size in (1, cut):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        events = list(StreamBlockProcessor(registry).process(chunks))
        assert check(events) == 1
        assert list(finals(events).values()) == [arguments]


# ---------------------------------------------------------------- the event itself


def call_events(chunk_size: int = 3) -> list[Any]:
    reply = MockReply(tool_calls=[MockToolCall("f", {"path": "a.txt", "body": "x" * 20})])
    mock = MockProvider([reply], provider="anthropic", chunk_size=chunk_size)
    return list(StreamBlockProcessor(BlockRegistry()).process(mock.stream()))


def test_partial_is_computed_only_when_read() -> None:
    events = call_events()
    deltas = [e for e in events if isinstance(e, BlockDelta)]
    source = deltas[0].partial_at.source  # type: ignore[union-attr]
    assert source is not None and source.reader is None  # nothing read yet
    text = "".join(d.text for d in deltas[:6])
    assert text == '{"path": "a.txt", '  # 3-character pieces
    assert deltas[5].partial == {"path": "a.txt"}
    assert source.read_to == 6  # read up to there, once


def test_reading_out_of_order_gives_the_same_values() -> None:
    in_order = [e.partial for e in call_events() if isinstance(e, BlockDelta)]
    deltas = [e for e in call_events() if isinstance(e, BlockDelta)]
    backwards = [d.partial for d in reversed(deltas)][::-1]
    assert backwards == in_order


def test_equality_pickling_and_copies_keep_the_event() -> None:
    deltas = [e for e in call_events() if isinstance(e, BlockDelta)]
    again = [e for e in call_events() if isinstance(e, BlockDelta)]
    assert deltas == again and hash(deltas[3]) == hash(again[3])  # partial_at: not compared
    assert deltas[3] == BlockDelta(*deltas[3][:5])
    for delta in deltas:
        restored = pickle.loads(pickle.dumps(delta))
        assert restored == delta and restored.partial == delta.partial
        assert copy.deepcopy(delta).partial == delta.partial
    with pytest.raises(AttributeError):
        deltas[0].text = "changed"  # type: ignore[misc]


def test_text_blocks_have_no_partial() -> None:
    registry = BlockRegistry()
    registry.register("note")
    events = list(StreamBlockProcessor(registry).process(["!!n1:note\nsome {text", "\n!!end\n"]))
    deltas = [e for e in events if isinstance(e, BlockDelta)]
    assert deltas and all(d.partial is None and d.partial_at is None for d in deltas)
    mock = MockProvider([MockReply(thinking="hmm {", text="hi")], provider="anthropic")
    events = list(StreamBlockProcessor(BlockRegistry()).process(mock.stream()))
    assert all(e.partial is None for e in events if isinstance(e, BlockDelta))


def test_a_session_snapshot_mid_call_resumes_the_partial() -> None:
    reply = MockReply(tool_calls=[MockToolCall("f", {"path": "a.txt", "n": [1, 2]})])
    items = list(MockProvider([reply], provider="openai", chunk_size=2).stream())
    processor = StreamBlockProcessor(BlockRegistry())
    session = processor.session()
    first = [e for item in items[:6] for e in session.feed(item)]
    resumed = processor.restore(session.snapshot())
    rest = [e for item in items[6:] for e in resumed.feed(item)] + resumed.close()
    values = [e.partial for e in first + rest if isinstance(e, BlockDelta)]
    assert_monotone(values, {"path": "a.txt", "n": [1, 2]})


def test_a_gadget_snapshot_mid_call_resumes_the_partial() -> None:
    class Args(BaseModel):  # local: a snapshot must write it as a reference
        path: str
        n: int

    registry = BlockRegistry()
    registry.register("Write", syntax=GadgetSyntax(), content=Args)
    processor = StreamBlockProcessor(registry)
    session = processor.session()
    events = session.feed("!!!GADGET_START:Write\n!!!ARG:path\n/tmp/a\n!!!ARG:n\n")
    resumed = processor.restore(session.snapshot())
    events += resumed.feed("15\n!!!GADGET_END\n") + resumed.close()
    values = [e.partial for e in events if isinstance(e, BlockDelta)]
    assert values == [{"path": "/tmp/a"}, {"path": "/tmp/a", "n": 15}]
    assert finals(events) == {"block-1": Args(path="/tmp/a", n=15)}


def test_a_gadget_partial_with_conflicting_pointers_is_a_function_of_its_text() -> None:
    # ``/a`` then ``/a/b``: the block is rejected at its end; meanwhile each partial is the
    # object of the longest prefix of pointers without a conflict, whatever was read before.
    registry = BlockRegistry()
    registry.register("Plan", syntax=GadgetSyntax())
    text = "!!!GADGET_START:Plan\n!!!ARG:a\nx\n!!!ARG:a/b\ny\n!!!ARG:c\nz\n!!!ARG:d\n1\n"
    chunks = [text[i : i + 2] for i in range(0, len(text), 2)]
    every = [e for e in StreamBlockProcessor(registry).process(chunks) if isinstance(e, BlockDelta)]
    read_all = [e.partial for e in every]
    some = [e for e in StreamBlockProcessor(registry).process(chunks) if isinstance(e, BlockDelta)]
    read_some = [some[-1].partial, *(e.partial for e in some[::3])]  # the last one first
    assert read_some == [read_all[-1], *read_all[::3]]
    assert read_all[-1] == {"a": "x"}
