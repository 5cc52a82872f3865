"""Claude Agent SDK: its message objects, built by the SDK's own parser from the
``stream-json`` lines of the Claude CLI fixtures, give the same blocks as the lines."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from claude_agent_sdk import (
    AssistantMessage,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    UserMessage,
)
from claude_agent_sdk._internal.message_parser import parse_message

from streamblocks import BlockRegistry, StopReason, StreamBlockProcessor
from streamblocks.adapters import detect_input_adapter
from streamblocks.content import MessageAccumulator
from streamblocks.ext.claude_agent_sdk import ClaudeAgentSDKInputAdapter
from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter
from streamblocks.testing import AdapterConformance, AdapterSample, run_adapter

from . import transcripts as t
from .test_transcripts import CLAUDE_TOOL_KINDS, CLAUDE_USAGE

RUNS = {
    "tool_run": t.claude_tool_run,
    "partial_run": t.claude_partial_run,
    "error_run": t.claude_error_run,
}


def messages(lines: list[dict[str, Any]]) -> list[Any]:
    parsed = [parse_message(line) for line in lines]
    return [m for m in parsed if m is not None]


def processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    return StreamBlockProcessor(registry)


def shape(events: list[Any]) -> list[Any]:
    """What a run gives, the passthrough objects aside (the SDK's objects vs. line dicts)."""
    out = []
    for e in events:
        if e.type == "BLOCK_END":
            b = e.block
            out.append((b.id, b.type, b.syntax, dict(b.attrs), b.content))
        elif e.type in ("TEXT_DELTA", "BLOCK_DELTA"):
            out.append((e.type, e.text))
        elif e.type == "STREAM_FINISHED":
            out.append((e.stop_reason, e.usage, e.error))
    return out


@pytest.mark.parametrize("name", RUNS)
def test_same_blocks_as_the_cli_transcript(name: str) -> None:
    lines = RUNS[name]()
    objects = messages(lines)
    assert len(objects) == len(lines)
    adapter = detect_input_adapter(objects[0])
    assert isinstance(adapter, ClaudeAgentSDKInputAdapter)
    from_sdk = list(processor().process(objects))
    from_cli = list(processor().process(lines))
    assert shape(from_sdk) == shape(from_cli)
    assert len(shape(from_sdk)) >= 2  # some text and the end at least


def test_tool_run_content_and_passthrough() -> None:
    objects = messages(t.claude_tool_run())
    assert {type(m) for m in objects} == {
        SystemMessage,
        AssistantMessage,
        UserMessage,
        ResultMessage,
    }
    events = list(processor().process(objects))
    message = MessageAccumulator().add_all(events)
    assert [block.type for block in message.content] == CLAUDE_TOOL_KINDS
    finished = events[-1]
    assert (finished.stop_reason, finished.usage) == (StopReason.end_turn, CLAUDE_USAGE)
    passed = [e.event for e in events if e.type == "PASSTHROUGH"]
    assert [type(p) for p in passed] == [SystemMessage, ResultMessage]  # the SDK's own objects
    assert passed[0].data["session_id"] == t.SESSION


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_partial_messages_sync_and_async(mode: str) -> None:
    objects = messages(t.claude_partial_run())
    assert any(isinstance(m, StreamEvent) for m in objects)
    if mode == "sync":
        events = list(processor().process(objects))
    else:

        async def replay() -> AsyncIterator[Any]:
            for m in objects:
                yield m

        events = [e async for e in processor().process_stream(replay())]
    message = MessageAccumulator().add_all(events)
    assert message.text() == "Let me look at the code.\n" + t.OUTRO  # once, not twice
    assert events[-1].stop_reason is StopReason.end_turn


def test_error_result() -> None:
    events = list(processor().process(messages(t.claude_error_run())))
    assert events[-1].stop_reason is StopReason.error
    assert events[-1].error == "API Error: 529 overloaded"


def test_other_messages_pass_through() -> None:
    from claude_agent_sdk import RateLimitEvent

    limit = parse_message(
        {
            "type": "rate_limit_event",
            "rate_limit_info": {"status": "allowed"},
            "uuid": "u",
            "session_id": t.SESSION,
        }
    )
    assert isinstance(limit, RateLimitEvent)
    objects = [limit, *messages(t.claude_error_run())]
    adapter = detect_input_adapter(limit)
    assert isinstance(adapter, ClaudeAgentSDKInputAdapter)
    run = run_adapter(adapter, objects)
    assert run.passthrough[0] is limit
    assert run.text == "Working on it.\n"


def test_cli_adapter_is_not_picked_for_sdk_objects() -> None:
    assert not ClaudeCLIInputAdapter().matches(messages(t.claude_tool_run())[0])
    assert not ClaudeAgentSDKInputAdapter().matches(t.claude_tool_run()[0])


class TestClaudeAgentSDKConformance(AdapterConformance):
    adapter_factory = ClaudeAgentSDKInputAdapter
    registered = True
    samples = (
        AdapterSample(
            "partial_run",
            messages(t.claude_partial_run()),
            "Let me look at the code.\n!!n1:note\nremember the tests\n!!end\n" + t.OUTRO,
            StopReason.end_turn,
            CLAUDE_USAGE,
        ),
    )
