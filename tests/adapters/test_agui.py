"""AG-UI: ``ag_ui.core`` events encoded by the SDK's encoder, streamed over SSE and decoded
back into ``ag_ui.core`` events, sync and async."""

from __future__ import annotations

import json
from typing import Any

import pytest
from ag_ui import core
from ag_ui.encoder import EventEncoder
from pydantic import TypeAdapter

from streamblocks.adapters import EventCategory, detect_input_adapter
from streamblocks.core.events import StopReason, Usage
from streamblocks.ext.agui import AGUIInputAdapter
from streamblocks.testing import run_adapter

from .sse import (
    REPLY,
    REPLY_PIECES,
    THINKING,
    THINKING_PIECES,
    TOOL_ARGS,
    TOOL_ARGS_PIECES,
    Recorder,
)

MODES = ["sync", "async"]
EVENT = TypeAdapter(core.Event)


def run_events(outcome: Any = None) -> list[Any]:
    return [
        core.RunStartedEvent(thread_id="t1", run_id="r1"),
        core.ReasoningStartEvent(message_id="rsn_1"),
        core.ReasoningMessageStartEvent(message_id="rsn_1", role="reasoning"),
        *(core.ReasoningMessageContentEvent(message_id="rsn_1", delta=p) for p in THINKING_PIECES),
        core.ReasoningMessageEndEvent(message_id="rsn_1"),
        core.ReasoningEndEvent(message_id="rsn_1"),
        core.TextMessageStartEvent(message_id="m1", role="assistant"),
        *(core.TextMessageContentEvent(message_id="m1", delta=p) for p in REPLY_PIECES[:5]),
        core.StateDeltaEvent(delta=[{"op": "add", "path": "/x", "value": 1}]),
        *(core.TextMessageContentEvent(message_id="m1", delta=p) for p in REPLY_PIECES[5:]),
        core.TextMessageEndEvent(message_id="m1"),
        core.ToolCallStartEvent(tool_call_id="tc_1", tool_call_name="get_weather"),
        *(core.ToolCallArgsEvent(tool_call_id="tc_1", delta=p) for p in TOOL_ARGS_PIECES),
        core.ToolCallEndEvent(tool_call_id="tc_1"),
        core.RunFinishedEvent(
            thread_id="t1",
            run_id="r1",
            outcome=outcome,
            usage=[
                core.TokenUsage(input_tokens=10, output_tokens=20, reasoning_tokens=5),
                core.TokenUsage(input_tokens=1, output_tokens=2, cached_input_tokens=4),
            ],
        ),
    ]


def body(events: list[Any]) -> bytes:
    encoder = EventEncoder()
    return "".join(encoder.encode(event) for event in events).encode("utf-8")


def decode_lines(lines: list[str]) -> list[Any]:
    return [
        EVENT.validate_json(line[len("data: ") :]) for line in lines if line.startswith("data: ")
    ]


async def receive(mode: str, server: Recorder) -> list[Any]:
    """What an AG-UI HTTP client does: POST, read the SSE lines, decode each event."""
    if mode == "sync":
        with server.sync_client() as http, http.stream("POST", "https://agent.test/") as r:
            return decode_lines(list(r.iter_lines()))
    async with server.async_client() as http, http.stream("POST", "https://agent.test/") as r:
        return decode_lines([line async for line in r.aiter_lines()])


@pytest.mark.parametrize("mode", MODES)
async def test_run(mode: str) -> None:
    sent = run_events()
    events = await receive(mode, Recorder(body(sent)))
    assert [type(e) for e in events] == [type(e) for e in sent]
    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, AGUIInputAdapter)
    # The run events pass through: an AG-UI output re-emits the input's own framing.
    assert adapter.categorize(events[0]) is EventCategory.PASSTHROUGH
    run = run_adapter(adapter, events)

    assert run.problems == []
    assert run.text == REPLY
    assert run.stop_reason is StopReason.tool_use  # a tool call without a result
    assert run.usage == Usage(
        input_tokens=11, output_tokens=22, reasoning_tokens=5, cache_read_tokens=4
    )
    assert [(b.block_type, b.block_id, b.content) for b in run.natives] == [
        ("thinking", "rsn_1", THINKING),
        ("tool_call", "tc_1", TOOL_ARGS),
    ]
    assert [type(e).__name__ for e in run.passthrough] == [
        "RunStartedEvent",
        "StateDeltaEvent",
        "RunFinishedEvent",
    ]


@pytest.mark.parametrize("mode", MODES)
async def test_run_error_and_tool_results(mode: str) -> None:
    sent = [
        core.RunStartedEvent(thread_id="t1", run_id="r1"),
        core.ToolCallStartEvent(tool_call_id="tc_1", tool_call_name="lookup"),
        core.ToolCallEndEvent(tool_call_id="tc_1"),
        core.ToolCallResultEvent(message_id="m2", tool_call_id="tc_1", content="42"),
        core.TextMessageChunkEvent(message_id="m3", delta="The answer is 42."),
        core.RunErrorEvent(message="model crashed", code="E1"),
    ]
    events = await receive(mode, Recorder(body(sent)))
    run = run_adapter(AGUIInputAdapter(), events)
    assert run.text == "The answer is 42."
    assert run.stop_reason is StopReason.error
    assert [type(e).__name__ for e in run.passthrough] == ["RunStartedEvent", "RunErrorEvent"]
    assert [(b.block_type, b.content) for b in run.natives] == [
        ("tool_call", {}),
        ("tool_result", "42"),
    ]
    # The result names its call and the call's tool; its message id is kept.
    assert run.natives[1].attrs == {
        "tool_call_id": "tc_1",
        "name": "lookup",
        "is_error": False,
        "message_id": "m2",
    }


def test_finished_outcomes() -> None:
    finished = core.RunFinishedEvent(thread_id="t", run_id="r")
    assert run_adapter(AGUIInputAdapter(), [finished]).stop_reason is StopReason.end_turn
    interrupted = {
        "type": "RUN_FINISHED",
        "threadId": "t",
        "runId": "r",
        "outcome": {"type": "interrupt", "interrupts": [{"id": "i1"}]},
    }
    assert run_adapter(AGUIInputAdapter(), [interrupted]).stop_reason is StopReason.unknown


def test_chunk_events_and_legacy_thinking_as_wire_json() -> None:
    events = [
        {"type": "THINKING_START"},
        {"type": "THINKING_TEXT_MESSAGE_START"},
        {"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "hmm !!b1:note"},
        {"type": "THINKING_TEXT_MESSAGE_END"},
        {"type": "THINKING_END"},
        {"type": "TOOL_CALL_CHUNK", "toolCallId": "a", "toolCallName": "f", "delta": '{"x":'},
        {"type": "TOOL_CALL_CHUNK", "delta": " 1}"},
        {"type": "TOOL_CALL_CHUNK", "toolCallId": "b", "toolCallName": "g", "delta": "{}"},
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "delta": "ok"},
    ]
    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, AGUIInputAdapter)
    run = run_adapter(adapter, events)
    assert run.problems == []
    assert run.text == "ok"
    assert [(b.block_type, b.content) for b in run.natives] == [
        ("thinking", "hmm !!b1:note"),
        ("tool_call", {"x": 1}),
        ("tool_call", {}),
    ]
    assert [b.attrs["name"] for b in run.blocks("tool_call")] == ["f", "g"]


def test_wire_json_of_a_whole_run() -> None:
    events = [json.loads(e.model_dump_json(by_alias=True)) for e in run_events()]
    assert "messageId" in events[2]
    run = run_adapter(detect_input_adapter(events[0]), events)
    assert (run.text, run.stop_reason) == (REPLY, StopReason.tool_use)
