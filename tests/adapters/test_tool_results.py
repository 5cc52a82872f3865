"""Tool results name their tool and call, server-side tool results are tool-result blocks,
commands keep their streams and exit code apart, file changes share one vocabulary, and a
Codex item that ended shows its final status."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from ag_ui import core

from streamblocks import BlockRegistry, StreamBlockProcessor
from streamblocks.content import (
    CommandBlock,
    FileChangeBlock,
    Message,
    MessageAccumulator,
    ToolCallBlock,
    ToolResultBlock,
)
from streamblocks.core.events import EventType
from streamblocks.ext._jsonl import file_change_kind
from streamblocks.ext.agui import AGUIOutputAdapter
from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter
from streamblocks.ext.codex_cli import CodexCLIInputAdapter

from . import fixtures, test_anthropic, test_openai, transcripts
from .sse import sse

KINDS = {"add", "modify", "delete", "rename"}


def message(events: list[Any], adapter: Any = "auto") -> Message:
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=adapter)
    accumulator = MessageAccumulator()
    for event in processor.process(events):
        accumulator.add(event)
    restored = Message.model_validate_json(accumulator.message.model_dump_json())
    assert restored == accumulator.message  # plain data: it survives JSON
    return accumulator.message


def results(msg: Message) -> list[ToolResultBlock]:
    return [block for block in msg.content if isinstance(block, ToolResultBlock)]


# -- server-side tools ----------------------------------------------------------------------

MESSAGE = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-test",
    "content": [],
    "stop_reason": None,
    "stop_sequence": None,
    "usage": {"input_tokens": 3, "output_tokens": 1},
}


def test_anthropic_server_tool_results_are_tool_result_blocks() -> None:
    ev, delta = test_anthropic.ev, test_anthropic.delta
    found = {
        "type": "web_search_result",
        "url": "https://example.test/a",
        "title": "A",
        "encrypted_content": "enc",
        "page_age": None,
    }
    body = sse(
        [
            ev("message_start", message=MESSAGE),
            ev(
                "content_block_start",
                index=0,
                content_block={
                    "type": "server_tool_use",
                    "id": "srvtoolu_1",
                    "name": "web_search",
                    "input": {},
                },
            ),
            delta(0, "input_json_delta", partial_json='{"query": "streamblocks"}'),
            ev("content_block_stop", index=0),
            ev(
                "content_block_start",
                index=1,
                content_block={
                    "type": "web_search_tool_result",
                    "tool_use_id": "srvtoolu_1",
                    "content": [found],
                },
            ),
            ev("content_block_stop", index=1),
            ev(
                "content_block_start",
                index=2,
                content_block={
                    "type": "code_execution_tool_result",
                    "tool_use_id": "srvtoolu_2",
                    "content": {
                        "type": "code_execution_tool_result_error",
                        "error_code": "unavailable",
                    },
                },
            ),
            ev("content_block_stop", index=2),
            ev("message_delta", delta={"stop_reason": "end_turn"}, usage={"output_tokens": 5}),
            ev("message_stop"),
        ]
    )
    events = fixtures.anthropic_messages(body)
    assert type(events[4].content_block).__name__ == "WebSearchToolResultBlock"
    msg = message(events)
    assert msg.content[0] == ToolCallBlock(
        id="srvtoolu_1", name="web_search", arguments={"query": "streamblocks"}
    )
    web, code = results(msg)
    assert (web.tool_call_id, web.name, web.is_error) == ("srvtoolu_1", "web_search", False)
    assert web.content == [found]
    assert (code.tool_call_id, code.name, code.is_error) == (
        "srvtoolu_2",
        "code_execution",
        True,
    )
    assert code.content == {"type": "code_execution_tool_result_error", "error_code": "unavailable"}


def test_openai_builtin_tool_items_are_tool_result_blocks() -> None:
    def add(kind: str, **data: Any) -> tuple[str, dict[str, Any]]:
        return (kind, {"type": kind, "sequence_number": 0, **data})

    web = {"id": "ws_1", "type": "web_search_call", "status": "in_progress"}
    done = {**web, "status": "completed", "action": {"type": "search", "query": "q"}}
    mcp = {
        "id": "mcp_1",
        "type": "mcp_call",
        "name": "search_issues",
        "server_label": "github",
        "arguments": '{"q": "bug"}',
        "output": None,
        "error": "server unreachable",
        "status": "failed",
    }
    body = sse(
        [
            add("response.created", response=test_openai.RESPONSE),
            add("response.output_item.added", output_index=0, item=web),
            add("response.web_search_call.in_progress", output_index=0, item_id="ws_1"),
            add("response.output_item.done", output_index=0, item=done),
            add("response.output_item.done", output_index=1, item=mcp),
            add(
                "response.completed",
                response={**test_openai.RESPONSE, "status": "completed", "output": [done, mcp]},
            ),
        ]
    )
    events = fixtures.openai_responses(body)
    assert type(events[3].item).__name__ == "ResponseFunctionWebSearch"
    msg = message(events)
    search, call = results(msg)
    assert (search.tool_call_id, search.name, search.is_error) == ("ws_1", "web_search", False)
    assert (
        search.content
        == {"action": {"type": "search", "query": "q", "queries": None, "sources": None}}
        or search.content["action"]["query"] == "q"
    )
    assert (call.tool_call_id, call.name, call.is_error) == ("mcp_1", "search_issues", True)
    assert call.content["error"] == "server unreachable"


# -- commands ---------------------------------------------------------------------------------


def bash_run(content: Any, payload: Any, *, is_error: bool) -> list[dict[str, Any]]:
    lines = transcripts.claude_tool_run()
    call = next(i for i, line in enumerate(lines) if "toolu_bash" in str(line))
    result = copy.deepcopy(lines[call + 1])
    result["message"]["content"][0].update(content=content, is_error=is_error)
    result["tool_use_result"] = payload
    return [lines[0], lines[call], result]


@pytest.mark.parametrize(
    ("content", "payload", "is_error", "expected"),
    [
        (
            "3 passed",
            {"stdout": "3 passed\n", "stderr": "", "interrupted": False, "isImage": False},
            False,
            {"exit_code": 0, "stdout": "3 passed\n", "stderr": "", "status": "completed"},
        ),
        (
            "Exit code 1\n1 failed\nwarning: slow",
            {"stdout": "1 failed\n", "stderr": "warning: slow\n", "interrupted": False},
            True,
            {"exit_code": 1, "stdout": "1 failed\n", "stderr": "warning: slow\n"},
        ),
        (
            "Error: Exit code 2\nno such file",
            "Error: Exit code 2\nno such file",
            True,
            {"exit_code": 2, "stdout": "", "stderr": "Error: Exit code 2\nno such file"},
        ),
        (
            "interrupted by the user",
            {"stdout": "partial\n", "stderr": "", "interrupted": True},
            False,
            {"exit_code": None, "interrupted": True, "status": "interrupted"},
        ),
    ],
)
def test_claude_bash_keeps_exit_code_and_streams_apart(
    content: str, payload: Any, is_error: bool, expected: dict[str, Any]
) -> None:
    msg = message(bash_run(content, payload, is_error=is_error), ClaudeCLIInputAdapter())
    (command,) = [block for block in msg.content if isinstance(block, CommandBlock)]
    assert command.command == "pytest -q"
    for key, value in expected.items():
        assert getattr(command, key) == value, key
    (result,) = results(msg)
    assert (result.tool_call_id, result.name, result.is_error) == ("toolu_bash", "Bash", is_error)


def test_codex_commands_match_claude_fields() -> None:
    msg = message(transcripts.codex_run(), CodexCLIInputAdapter())
    command = next(block for block in msg.content if isinstance(block, CommandBlock))
    assert (command.exit_code, command.status, command.output) == (1, "failed", "..F\n1 failed\n")


# -- file changes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("update", "modify"),
        ("add", "add"),
        ("create", "add"),
        ("delete", "delete"),
        ("Removed", "delete"),
        ("rename", "rename"),
        ({"type": "update", "move_path": "b.py"}, "rename"),
        ({"type": "add"}, "add"),
        (None, "modify"),
        (7, "modify"),
        ("something-new", "modify"),
    ],
)
def test_file_change_vocabulary(word: Any, kind: str) -> None:
    assert file_change_kind(word) == kind


def test_file_changes_use_one_vocabulary_across_agents() -> None:
    claude = message(transcripts.claude_tool_run(), ClaudeCLIInputAdapter())
    codex = message(transcripts.codex_run(), CodexCLIInputAdapter())
    changes = [
        (block.path, block.kind)
        for msg in (claude, codex)
        for block in msg.content
        if isinstance(block, FileChangeBlock)
    ]
    assert changes == [
        ("/repo/calc.py", "modify"),
        ("/repo/NOTES.md", "add"),
        ("calc.py", "modify"),
        ("NOTES.md", "add"),
        ("old.txt", "delete"),
    ]
    assert {kind for _, kind in changes} <= KINDS


# -- Codex: the final status wins -----------------------------------------------------------


def test_a_codex_item_that_ended_shows_its_final_status() -> None:
    lines = transcripts.codex_run()
    # A completed item that still says "in_progress" (as some versions write it).
    for line in lines:
        item = line.get("item", {})
        if line["type"] == "item.completed" and item.get("id") == "item_4":
            item["status"] = "in_progress"
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=CodexCLIInputAdapter())
    out = list(processor.process(lines))
    ends = {
        e.block.id: e.block.attrs.get("status")
        for e in out
        if e.type is EventType.BLOCK_END and "status" in e.block.attrs
    }
    assert ends["item_1"] == "failed"  # command: exit code 1
    assert ends["item_4"] == "completed"  # the MCP call ended: not in_progress
    assert ends["item_5"] == "completed"  # the web search
    assert "in_progress" not in ends.values()
    starts = {e.block_id: e.attrs.get("status") for e in out if e.type is EventType.BLOCK_START}
    assert starts["item_1"] == "in_progress"  # what it was when the block started
    # The MCP call's block stays open until its item completes.
    kinds = [(e.type, getattr(e, "block_id", None)) for e in out]
    assert kinds.index((EventType.BLOCK_START, "item_4")) < kinds.index(
        (EventType.BLOCK_END, "item_4")
    )


def test_agui_tool_call_results_name_their_tool_and_survive_the_output() -> None:
    sent = [
        core.RunStartedEvent(thread_id="t1", run_id="r1"),
        core.ToolCallStartEvent(tool_call_id="tc_1", tool_call_name="lookup"),
        core.ToolCallArgsEvent(tool_call_id="tc_1", delta='{"q": 1}'),
        core.ToolCallEndEvent(tool_call_id="tc_1"),
        core.ToolCallResultEvent(message_id="m2", tool_call_id="tc_1", content="42"),
        core.RunFinishedEvent(thread_id="t1", run_id="r1"),
    ]
    (result,) = results(message(sent))
    assert (result.tool_call_id, result.name, result.content) == ("tc_1", "lookup", "42")
    processor = StreamBlockProcessor(BlockRegistry())
    out = list(processor.process(sent, output_adapter=AGUIOutputAdapter()))
    (again,) = [e for e in out if e.type == core.EventType.TOOL_CALL_RESULT]
    assert (again.message_id, again.tool_call_id, again.content) == ("m2", "tc_1", "42")
