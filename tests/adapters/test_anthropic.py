"""Anthropic: the real ``anthropic`` client, sync and async, over a mock transport."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import pytest

from streamblocks.adapters import EventCategory, detect_input_adapter
from streamblocks.core.events import StopReason, Usage
from streamblocks.ext.anthropic import AnthropicInputAdapter
from streamblocks.testing import run_adapter
from streamblocks.testing.wire import anthropic_message_start

from .sse import (
    REPLY,
    REPLY_PIECES,
    THINKING,
    THINKING_PIECES,
    TOOL_ARGS,
    TOOL_ARGS_PIECES,
    Recorder,
    collect_async,
    sse,
)

MODES = ["sync", "async"]
KWARGS: dict[str, Any] = {
    "model": "claude-test",
    "max_tokens": 1024,
    "messages": [{"role": "user", "content": "hi"}],
}
USAGE = Usage(
    input_tokens=25,
    output_tokens=60,
    cache_read_tokens=10,
    cache_write_tokens=5,
    reasoning_tokens=20,
)


def ev(kind: str, **data: Any) -> tuple[str, dict[str, Any]]:
    return (kind, {"type": kind, **data})


def delta(index: int, kind: str, **data: Any) -> tuple[str, dict[str, Any]]:
    return ev("content_block_delta", index=index, delta={"type": kind, **data})


CITATION = {
    "type": "char_location",
    "cited_text": "x",
    "document_index": 0,
    "document_title": "doc",
    "start_char_index": 0,
    "end_char_index": 1,
}


def message_start(**usage: int) -> tuple[str, dict[str, Any]]:
    """``message_start`` of a ``claude-test`` reply, with ``usage`` (SSE kind and data)."""
    return ("message_start", anthropic_message_start("claude-test", usage))


def messages_body(stop_reason: str = "tool_use") -> bytes:
    usage = {"cache_read_input_tokens": 10, "cache_creation_input_tokens": 5}
    events = [
        message_start(input_tokens=25, output_tokens=1, **usage),
        ev(
            "content_block_start",
            index=0,
            content_block={"type": "thinking", "thinking": "", "signature": ""},
        ),
        *(delta(0, "thinking_delta", thinking=piece) for piece in THINKING_PIECES),
        delta(0, "signature_delta", signature="c2lnbmF0dXJl"),
        ev("content_block_stop", index=0),
        ev("content_block_start", index=1, content_block={"type": "text", "text": ""}),
        ev("ping"),
        *(delta(1, "text_delta", text=piece) for piece in REPLY_PIECES[:4]),
        delta(1, "citations_delta", citation=CITATION),
        *(delta(1, "text_delta", text=piece) for piece in REPLY_PIECES[4:]),
        ev("content_block_stop", index=1),
        ev(
            "content_block_start",
            index=2,
            content_block={"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}},
        ),
        *(delta(2, "input_json_delta", partial_json=piece) for piece in TOOL_ARGS_PIECES),
        ev("content_block_stop", index=2),
        ev(
            "message_delta",
            delta={"stop_reason": stop_reason, "stop_sequence": None},
            usage={"output_tokens": 60, "output_tokens_details": {"thinking_tokens": 20}},
        ),
        ev("message_stop"),
    ]
    return sse(events)


def client(mode: str, server: Recorder) -> Any:
    if mode == "sync":
        return anthropic.Anthropic(
            api_key="test",
            base_url="https://anthropic.test",
            http_client=server.sync_client(anthropic.DefaultHttpxClient),
        )
    return anthropic.AsyncAnthropic(
        api_key="test",
        base_url="https://anthropic.test",
        http_client=server.async_client(anthropic.DefaultAsyncHttpxClient),
    )


async def create(mode: str, server: Recorder) -> list[Any]:
    c = client(mode, server)
    if mode == "sync":
        return list(c.messages.create(**KWARGS, stream=True))
    return await collect_async(await c.messages.create(**KWARGS, stream=True))


async def helper(mode: str, server: Recorder) -> list[Any]:
    c = client(mode, server)
    if mode == "sync":
        with c.messages.stream(**KWARGS) as stream:
            return list(stream)
    async with c.messages.stream(**KWARGS) as stream:
        return await collect_async(stream)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("read", [create, helper], ids=["create", "stream_helper"])
async def test_messages(mode: str, read: Any) -> None:
    server = Recorder(messages_body())
    events = await read(mode, server)
    assert json.loads(server.requests[0].content)["stream"] is True
    if read is helper:  # the helper repeats every delta as its own event
        assert {"text", "thinking", "input_json", "signature", "citation"} <= {
            e.type for e in events
        }

    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, AnthropicInputAdapter)
    assert adapter.categorize(events[0]) is EventCategory.STREAM_START
    run = run_adapter(adapter, events)

    assert run.problems == []
    assert run.text == REPLY
    assert run.ended
    assert run.stop_reason is StopReason.tool_use
    assert run.usage == USAGE  # message_start's input + message_delta's output
    assert [(b.block_type, b.block_id, b.content) for b in run.natives] == [
        ("thinking", None, THINKING),
        ("tool_call", "toolu_1", TOOL_ARGS),
    ]
    assert run.natives[0].attrs == {"signature": "c2lnbmF0dXJl"}
    assert run.natives[1].attrs == {"name": "get_weather", "id": "toolu_1"}
    # The citation is the one event passed through untouched.
    assert [(e.type, e.delta.type) for e in run.passthrough] == [
        ("content_block_delta", "citations_delta")
    ]


@pytest.mark.parametrize(
    ("wire", "ours"),
    [
        ("end_turn", StopReason.end_turn),
        ("stop_sequence", StopReason.stop_sequence),
        ("max_tokens", StopReason.max_tokens),
        ("refusal", StopReason.refusal),
        ("model_context_window_exceeded", StopReason.max_tokens),
        ("pause_turn", StopReason.unknown),
    ],
)
@pytest.mark.parametrize("mode", MODES)
async def test_stop_reasons(mode: str, wire: str, ours: StopReason) -> None:
    run = run_adapter(AnthropicInputAdapter(), await create(mode, Recorder(messages_body(wire))))
    assert run.stop_reason is ours
    assert run.text == REPLY


def test_replayed_json_including_error() -> None:
    body = messages_body().decode()
    events = [
        json.loads(line[len("data: ") :]) for line in body.splitlines() if line.startswith("data:")
    ]
    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, AnthropicInputAdapter)
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    assert adapter.matches(error)
    run = run_adapter(adapter, [*events[:10], error])
    assert run.stop_reason is StopReason.error
    assert run.passthrough[-1] is error
    assert all(block.closed for block in run.natives)


def test_redacted_thinking_and_server_tools() -> None:
    events = [
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "redacted_thinking", "data": "x"},
        },
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {
                "type": "server_tool_use",
                "id": "srv_1",
                "name": "web_search",
                "input": {},
            },
        },
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": '{"query": "q"}'},
        },
        {"type": "content_block_stop", "index": 1},
        {
            "type": "content_block_start",
            "index": 2,
            "content_block": {
                "type": "web_search_tool_result",
                "tool_use_id": "srv_1",
                "content": [],
            },
        },
        {"type": "content_block_stop", "index": 2},
    ]
    run = run_adapter(AnthropicInputAdapter(), events)
    assert run.passthrough == [events[0]]
    assert [(b.block_type, b.content, b.attrs.get("server")) for b in run.natives] == [
        ("tool_call", {"query": "q"}, True),
        ("tool_result", [], True),
    ]
    # The server tool's result names its tool and call.
    assert run.natives[1].attrs == {
        "tool_call_id": "srv_1",
        "name": "web_search",
        "is_error": False,
        "server": True,
    }
