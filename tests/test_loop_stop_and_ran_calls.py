"""The outcome at both ends: a text stream that names no stop reason, and an agent
transcript whose calls already ran (their results are in the stream)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from adapters import transcripts as t
from streamblocks import (
    BlockRegistry,
    GadgetSyntax,
    Outcome,
    StopReason,
    StreamBlockProcessor,
    acollect,
    collect,
)
from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter
from streamblocks.ext.codex_cli import CodexCLIInputAdapter

CALL = "Looking it up.\n!!!GADGET_START:Search\n!!!ARG:query\nstreams\n!!!GADGET_END\n"


def gadget_processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("Search", syntax=GadgetSyntax(), description="Search the web.")
    return StreamBlockProcessor(registry)


def test_plain_text_that_ends_normally_is_done() -> None:
    step = collect(["just ", "text"], processor=gadget_processor())
    assert (step.outcome, step.stop_reason, step.stop_named) == (
        Outcome.done,
        StopReason.unknown,
        False,
    )
    assert step.reason is None and step.should_stop


def test_plain_text_with_a_complete_call_is_run_tools() -> None:
    step = collect(["just text\n", CALL], processor=gadget_processor())
    assert step.outcome is Outcome.run_tools
    assert [(c.name, c.arguments) for c in step.tool_calls] == [("Search", {"query": "streams"})]


def test_events_folded_later_follow_the_same_rule() -> None:
    events = list(gadget_processor().process([CALL]))
    assert collect(events).outcome is Outcome.run_tools


def test_the_caller_states_the_stop_reason() -> None:
    step = collect(["cut off mid"], processor=gadget_processor(), stop_reason="max_tokens")
    assert step.outcome is Outcome.failed and "token limit" in (step.reason or "")
    assert (step.stop_reason, step.stop_named) == (StopReason.max_tokens, True)
    with pytest.raises(ValueError, match="finished"):
        collect(["x"], stop_reason="finished")


def test_a_stop_reason_the_stream_names_wins_over_the_callers() -> None:
    source = t.claude_tool_run()
    step = collect(
        source, processor=StreamBlockProcessor(BlockRegistry()), stop_reason="max_tokens"
    )
    assert step.stop_reason is StopReason.end_turn


def test_an_unknown_reason_the_provider_names_still_fails() -> None:
    # a Claude CLI run cut before its result line: the adapter says "unknown"
    lines = [line for line in t.claude_tool_run() if line.get("type") != "result"]
    lines[-1] = {**lines[-1], "message": {**lines[-1]["message"], "stop_reason": "pause_turn"}}
    step = collect(lines, processor=StreamBlockProcessor(BlockRegistry()))
    assert step.stop_named and step.stop_reason is StopReason.unknown
    assert step.outcome is Outcome.failed


def test_a_finished_claude_code_transcript_is_done_with_nothing_to_run() -> None:
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=ClaudeCLIInputAdapter())
    step = collect(t.claude_tool_run(), processor=processor)
    assert step.stop_reason is StopReason.end_turn
    assert step.outcome is Outcome.done and step.tool_calls == []
    ran = {call.name: call for call in step.ran_calls}
    assert list(ran) == ["Read", "Bash", "Edit", "Write", "TodoWrite"]
    write = ran["Write"]
    assert write.arguments == {"file_path": "/repo/NOTES.md", "content": "# Notes\n"}
    assert write.result is not None and write.result.type == "tool_result"
    assert write.result.attrs["tool_call_id"] == write.id == "toolu_write"
    assert write.result.content == "File created successfully at: /repo/NOTES.md"
    assert ran["Bash"].result is not None and ran["Bash"].result.attrs["is_error"] is True


def test_acollect_sets_ran_calls_aside_too() -> None:
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=ClaudeCLIInputAdapter())
    step = asyncio.run(acollect(t.claude_tool_run(), processor=processor))
    assert step.outcome is Outcome.done and step.tool_calls == []
    assert len(step.ran_calls) == 5


def test_a_codex_run_is_done_with_its_calls_ran() -> None:
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=CodexCLIInputAdapter())
    step = collect(t.codex_run(), processor=processor)
    assert step.tool_calls == [] and step.outcome is Outcome.done
    ran = {call.name: call.result for call in step.ran_calls}
    assert ran["web_search"] is None  # codex searched: completed, no result block
    assert all(result is not None for name, result in ran.items() if name != "web_search")


def test_a_call_without_its_result_is_still_to_run() -> None:
    lines: list[dict[str, Any]] = t.claude_tool_run()
    cut = next(i for i, line in enumerate(lines) if _result_of(line) == "toolu_todo")
    step = collect(lines[:cut], processor=StreamBlockProcessor(BlockRegistry()))
    assert [call.name for call in step.tool_calls] == ["TodoWrite"]
    assert [call.name for call in step.ran_calls] == ["Read", "Bash", "Edit", "Write"]


def _result_of(line: dict[str, Any]) -> str | None:
    if line.get("type") != "user":
        return None
    content = line["message"]["content"]
    return next((b.get("tool_use_id") for b in content if isinstance(b, dict)), None)
