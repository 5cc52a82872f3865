"""Claude CLI and Codex CLI transcripts: every line kind, every way lines arrive, the
formats' traps, malformed lines, and the content model they normalise into."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from streamblocks import BlockRegistry, StopReason, StreamBlockProcessor, StreamFinished, Usage
from streamblocks.adapters import detect_input_adapter
from streamblocks.content import (
    CodeBlock,
    CommandBlock,
    CustomBlock,
    FileChangeBlock,
    Message,
    MessageAccumulator,
    TextBlock,
    ThinkingBlock,
    TodoBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from streamblocks.core.errors import AdapterWarning
from streamblocks.ext._jsonl import LineAssembler, language_for
from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter
from streamblocks.ext.codex_cli import CodexCLIInputAdapter
from streamblocks.testing import AdapterConformance, AdapterSample

from . import transcripts as t
from .rollout_lines import ROLLOUT_REPLY, codex_rollout_run

MODES = ["sync", "async"]


def registry() -> BlockRegistry:
    reg = BlockRegistry()
    reg.register("note")
    return reg


def run(source: Any, adapter: Any = "auto") -> tuple[Message, StreamFinished, list[Any]]:
    processor = StreamBlockProcessor(registry(), input_adapter=adapter)
    events = list(processor.process(source))
    acc = MessageAccumulator()
    acc.add_all(events)
    finished = events[-1]
    assert isinstance(finished, StreamFinished)
    assert acc.errors == []
    return acc.message, finished, events


async def arun(source: list[Any], adapter: Any) -> list[Any]:
    async def items() -> Any:
        for item in source:
            yield item

    processor = StreamBlockProcessor(registry(), input_adapter=adapter)
    return [event async for event in processor.process_stream(items())]


def pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def byte_pieces(text: str, size: int) -> list[bytes]:
    data = text.encode("utf-8")
    return [data[i : i + size] for i in range(0, len(data), size)]


def kinds(message: Message) -> list[str]:
    return [block.type for block in message.content]


CLAUDE_TOOL_KINDS = [
    "thinking", "text", "custom",
    "tool_call", "tool_result", "code",
    "tool_call", "tool_result", "command",
    "tool_call", "tool_result", "file_change",
    "tool_call", "tool_result", "file_change",
    "tool_call", "tool_result", "todo",
    "text",
]  # fmt: skip

CLAUDE_USAGE = Usage(
    input_tokens=120,
    output_tokens=240,
    cache_read_tokens=4000,
    cache_write_tokens=300,
    cost_usd=0.0421,
)


# ---------------------------------------------------------------------- Claude CLI


def test_claude_tool_run_normalises_into_content_blocks() -> None:
    message, finished, _ = run(t.claude_tool_run())
    assert kinds(message) == CLAUDE_TOOL_KINDS
    content = message.content
    assert content[0] == ThinkingBlock(text="The add() looks wrong.", signature="sig1")
    assert content[1] == TextBlock("Let me look at the code.\n")
    assert isinstance(content[2], CustomBlock) and content[2].content == "remember the tests\n"
    assert content[3] == ToolCallBlock(
        id="toolu_read", name="Read", arguments={"file_path": "/repo/calc.py"}
    )
    assert isinstance(content[4], ToolResultBlock) and content[4].tool_call_id == "toolu_read"
    assert content[5] == CodeBlock(
        code=t.READ_CONTENT, language="python", path="/repo/calc.py", start_line=1, total_lines=5
    )
    assert content[7] == ToolResultBlock(
        tool_call_id="toolu_bash", name="Bash", content="1 failed", is_error=True
    )
    assert content[8] == CommandBlock(
        command="pytest -q",
        output="1 failed\nwarning: slow\n",
        status="failed",
        stdout="1 failed\n",
        stderr="warning: slow\n",
        interrupted=False,
    )
    edit = content[11]
    assert isinstance(edit, FileChangeBlock)
    assert (edit.path, edit.kind) == ("/repo/calc.py", "modify")
    assert edit.diff is not None and "-    return a - b\n+    return a + b\n" in edit.diff
    assert content[13].content == "File created successfully at: /repo/NOTES.md"  # type: ignore[union-attr]
    assert content[14] == FileChangeBlock(path="/repo/NOTES.md", kind="add", content="# Notes\n")
    todo = content[17]
    assert isinstance(todo, TodoBlock)
    assert [(i.text, i.status) for i in todo.items] == [
        ("Read calc.py", "completed"),
        ("Fix add()", "in_progress"),
    ]
    assert content[-1] == TextBlock(t.OUTRO)
    assert finished.stop_reason is StopReason.end_turn
    assert finished.usage == CLAUDE_USAGE
    assert finished.error is None


def test_claude_partial_messages_text_arrives_once() -> None:
    message, finished, events = run(t.claude_partial_run())
    assert kinds(message) == [
        "thinking", "text", "custom", "tool_call", "tool_result", "command", "text",
    ]  # fmt: skip
    assert message.content[0] == ThinkingBlock(text="The add() looks wrong.", signature="sig1")
    assert message.content[3] == ToolCallBlock(
        id="toolu_bash", name="Bash", arguments={"command": "pytest -q"}
    )
    assert message.text() == "Let me look at the code.\n" + t.OUTRO
    assert finished.stop_reason is StopReason.end_turn
    assert finished.usage == CLAUDE_USAGE
    # The tool call's input streamed as JSON deltas.
    deltas = [e.text for e in events if e.type == "BLOCK_DELTA" and e.block_type == "tool_call"]
    assert "".join(deltas) == '{"command": "pytest -q"}'
    assert len(deltas) > 1


@pytest.mark.parametrize("size", [1, 3, 64, 10_000])
def test_claude_raw_str_chunks_cut_anywhere(size: int) -> None:
    reference, finished_ref, _ = run(t.claude_tool_run())
    text = t.jsonl(t.claude_tool_run())
    message, finished, _ = run(pieces(text, size), ClaudeCLIInputAdapter())
    assert message == reference
    assert finished.usage == finished_ref.usage


@pytest.mark.parametrize("size", [1, 2, 5, 4096])
def test_claude_raw_bytes_cut_inside_utf8(size: int) -> None:
    reference, _, _ = run(t.claude_partial_run())
    text = t.jsonl(t.claude_partial_run()).replace("\n", "\r\n")
    message, finished, _ = run(byte_pieces(text, size), ClaudeCLIInputAdapter())
    assert message == reference
    assert finished.stop_reason is StopReason.end_turn


@pytest.mark.parametrize("mode", MODES)
async def test_claude_sync_and_async(mode: str) -> None:
    source = pieces(t.jsonl(t.claude_partial_run()), 11)
    if mode == "sync":
        events = list(
            StreamBlockProcessor(registry(), input_adapter=ClaudeCLIInputAdapter()).process(source)
        )
    else:
        events = await arun(source, ClaudeCLIInputAdapter())
    message = MessageAccumulator().add_all(events)
    assert message.text() == "Let me look at the code.\n" + t.OUTRO


def test_claude_last_line_without_newline() -> None:
    text = t.jsonl(t.claude_error_run()).rstrip("\n")
    message, finished, _ = run([text], ClaudeCLIInputAdapter())
    assert message.text() == "Working on it.\n"
    assert finished.stop_reason is StopReason.error


def test_claude_error_turn() -> None:
    _, finished, _ = run(t.claude_error_run())
    assert finished.stop_reason is StopReason.error
    assert finished.error == "API Error: 529 overloaded"
    assert finished.usage is not None and finished.usage.cost_usd == 0.001


def test_claude_without_result_is_incomplete() -> None:
    lines = t.claude_tool_run()[:-1]  # the last assistant message said end_turn
    _, finished, _ = run(lines)
    assert finished.stop_reason is StopReason.unknown
    assert finished.usage is None


def test_claude_verbose_json_array() -> None:
    """``--output-format json --verbose`` prints the whole run as one JSON array."""
    reference, _, _ = run(t.claude_tool_run())
    one_line = json.dumps(t.claude_tool_run())
    assert run([one_line], ClaudeCLIInputAdapter())[0] == reference
    pretty = json.dumps(t.claude_tool_run(), indent=2)
    assert run(pieces(pretty, 100), ClaudeCLIInputAdapter())[0] == reference
    assert run([t.claude_tool_run()])[0] == reference  # the parsed array, auto-detected


def test_claude_passthrough_lines() -> None:
    _, _, events = run(t.claude_tool_run())
    passed = [e.event for e in events if e.type == "PASSTHROUGH"]
    assert [(line["type"], line.get("subtype")) for line in passed] == [
        ("system", "init"),
        ("result", "success"),
    ]
    assert passed[0]["session_id"] == t.SESSION
    assert passed[1]["num_turns"] == 6


def test_claude_ten_megabyte_line() -> None:
    big = "x" * 10_000_000 + "\n"
    lines = t.claude_tool_run()
    lines[4]["tool_use_result"]["file"]["content"] = big
    text = t.jsonl(lines)
    message, _, _ = run(pieces(text, 65_536), ClaudeCLIInputAdapter())
    code = message.content[5]
    assert isinstance(code, CodeBlock) and code.code == big


def test_claude_malformed_lines_are_skipped_with_warnings() -> None:
    good = t.claude_error_run()
    text = (
        "this is not json\n"
        + json.dumps(good[0])
        + "\n"
        + '{"type": "telemetry", "x": 1}\n'
        + '{"type": "telemetry", "x": 2}\n'
        + '{"type": "stream_event"}\n'
        + '{"type": "assistant"}\n'
        + "[1, 2]\n"
        + "\n"
        + t.jsonl(good[1:])
    )
    with pytest.warns(AdapterWarning) as caught:
        message, finished, _ = run([text], ClaudeCLIInputAdapter())
    messages = [str(w.message) for w in caught]
    assert any("not JSON" in m for m in messages)
    assert sum("'telemetry'" in m for m in messages) == 1  # once per type
    assert any("'assistant'" in m and "without" in m for m in messages)
    assert any("not an object" in m for m in messages)
    assert message.text() == "Working on it.\n"
    assert finished.stop_reason is StopReason.error


def test_claude_typed_blocks_without_tool_names() -> None:
    """A transcript that starts mid-way (no tool_use seen): results are typed by shape."""
    lines = [line for line in t.claude_tool_run() if line["type"] in ("user", "result")]
    message, _, _ = run(lines)
    assert [b.type for b in message.content if b.type != "tool_result"] == [
        "code", "command", "file_change", "file_change", "todo",
    ]  # fmt: skip


# ---------------------------------------------------------------------- Codex CLI


CODEX_KINDS = [
    "thinking", "command", "file_change", "file_change", "file_change",
    "tool_call", "tool_result", "tool_call", "text", "custom", "text", "todo",
]  # fmt: skip


def test_codex_run_normalises_into_content_blocks() -> None:
    message, finished, events = run(t.codex_run())
    assert kinds(message) == CODEX_KINDS
    content = message.content
    assert content[0] == ThinkingBlock(text="**Finding the bug**")
    assert content[1] == CommandBlock(
        command="bash -lc 'pytest -q'", output="..F\n1 failed\n", exit_code=1, status="failed"
    )
    assert content[2] == FileChangeBlock(path="calc.py", kind="modify", diff=t.CODEX_DIFF)
    assert (content[3].kind, content[4].kind) == ("add", "delete")  # type: ignore[union-attr]
    assert content[5] == ToolCallBlock(
        id="item_4", name="search_issues", arguments={"query": "add bug"}
    )
    assert content[6] == ToolResultBlock(
        tool_call_id="item_4", name="search_issues", content="#12 add() subtracts"
    )
    assert content[7] == ToolCallBlock(
        id="item_5", name="web_search", arguments={"query": "python add"}
    )
    assert message.text() == "Fixed `add()`.\nAll green ✓\n"
    assert content[11] == TodoBlock.model_validate(
        {
            "items": [
                {"text": "Fix add()", "status": "completed"},
                {"text": "Run tests", "status": "completed"},
            ]
        }
    )
    assert finished.stop_reason is StopReason.end_turn
    assert finished.usage == Usage(input_tokens=1200, output_tokens=345, cache_read_tokens=200)
    # The command's output streamed as it grew; the error item passed through.
    deltas = [e.text for e in events if e.type == "BLOCK_DELTA" and e.block_type == "command"]
    assert deltas == ["..F\n", "1 failed\n"]
    passed = [e.event["type"] for e in events if e.type == "PASSTHROUGH"]
    assert passed == ["thread.started", "item.completed"]


def test_codex_legacy_field_names() -> None:
    message, finished, _ = run(t.codex_legacy_run())
    assert kinds(message) == ["thinking", "command", "text"]
    assert message.text() == "hello"
    assert finished.stop_reason is StopReason.end_turn


@pytest.mark.parametrize("size", [1, 7, 4096])
def test_codex_raw_bytes(size: int) -> None:
    reference, _, _ = run(t.codex_run())
    message, _, _ = run(byte_pieces(t.jsonl(t.codex_run()), size), CodexCLIInputAdapter())
    assert message == reference


def test_codex_cumulative_usage_replaces() -> None:
    lines = [
        *t.codex_legacy_run(),
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "i9", "type": "agent_message", "text": "!"}},
        {
            "type": "turn.completed",
            "usage": {"input_tokens": 9, "cached_input_tokens": 4, "output_tokens": 3},
        },
    ]
    _, finished, _ = run(lines)
    assert finished.usage == Usage(input_tokens=9, output_tokens=3, cache_read_tokens=4)


def test_codex_turn_without_terminal_event_is_incomplete() -> None:
    lines = [*t.codex_legacy_run(), {"type": "turn.started"}]
    _, finished, _ = run(lines)
    assert finished.stop_reason is StopReason.unknown


def test_codex_failed_turn() -> None:
    lines = [
        {"type": "thread.started", "thread_id": t.THREAD},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "i0", "type": "agent_message", "text": "Hm."}},
        {"type": "turn.failed", "error": {"message": "stream disconnected before completion"}},
    ]
    _, finished, _ = run(lines)
    assert finished.stop_reason is StopReason.error
    assert finished.error == "stream disconnected before completion"


def test_codex_error_then_completed_is_success() -> None:
    lines = [
        {"type": "thread.started", "thread_id": t.THREAD},
        {"type": "turn.started"},
        {"type": "error", "message": "Reconnecting... 1/5"},
        {"type": "item.completed", "item": {"id": "i0", "type": "agent_message", "text": "ok"}},
        {"type": "turn.completed", "usage": {"input_tokens": 1, "output_tokens": 1}},
    ]
    _, finished, _ = run(lines)
    assert (finished.stop_reason, finished.error) == (StopReason.end_turn, None)


def test_codex_malformed_lines() -> None:
    text = (
        '{"type": "thread.started", "thread_id": "t"}\n'
        '{"type": "turn.started"}\n'
        "{broken\n"
        '{"type": "item.completed"}\n'
        '{"type": "item.completed", "item": {"id": "x", "type": "hologram"}}\n'
        '{"type": "session.configured"}\n'
        '{"type": "item.completed", "item": {"id": "i", "type": "agent_message", "text": "hi"}}\n'
        '{"type": "turn.completed", "usage": {}}\n'
    )
    with pytest.warns(AdapterWarning) as caught:
        message, finished, _ = run(pieces(text, 5), CodexCLIInputAdapter())
    messages = " | ".join(str(w.message) for w in caught)
    assert "not JSON" in messages
    assert "without an item" in messages
    assert "hologram" in messages
    assert "session.configured" in messages
    assert message.text() == "hi"
    assert finished.stop_reason is StopReason.end_turn


# ---------------------------------------------------------------------- detection


def test_parsed_dicts_are_detected() -> None:
    assert isinstance(detect_input_adapter(t.claude_tool_run()[0]), ClaudeCLIInputAdapter)
    assert isinstance(detect_input_adapter(t.claude_partial_run()[1]), ClaudeCLIInputAdapter)
    assert isinstance(detect_input_adapter(t.codex_run()[0]), CodexCLIInputAdapter)
    assert isinstance(detect_input_adapter(t.codex_run()[2]), CodexCLIInputAdapter)


def test_raw_str_stream_is_text_unless_named() -> None:
    text = t.jsonl(t.claude_error_run())
    message, _, _ = run([text])
    assert message.text() == text  # a str stream is plain text by default


# ---------------------------------------------------------------------- content model


@pytest.mark.parametrize("lines", [t.claude_tool_run, t.claude_partial_run, t.codex_run])
def test_message_json_round_trip_and_replay(lines: Any) -> None:
    message, _, events = run(lines())
    assert Message.model_validate_json(message.model_dump_json()) == message
    turns = [message, Message(role="user", content=[TextBlock("thanks")])]
    dumped = json.dumps([m.model_dump(mode="json") for m in turns])
    assert [Message.model_validate(m) for m in json.loads(dumped)] == turns
    replay = MessageAccumulator()
    for event in events:  # a replay of the stored events rebuilds the same message
        replay.add(event)
    assert replay.message == message


# ---------------------------------------------------------------------- line assembly


def test_line_assembler() -> None:
    lines = LineAssembler()
    assert lines.feed("a") == []
    assert lines.feed("b\r\nc\n\nd") == ["ab", "c", ""]
    assert lines.feed("é".encode()[:1]) == []
    assert lines.feed("é".encode()[1:] + b"\n") == ["dé"]
    assert lines.feed("tail") == []
    assert lines.end() == ["tail"]
    one = LineAssembler()
    out = [line for ch in "x" * 5000 + "\n" for line in one.feed(ch)]
    assert out == ["x" * 5000]


def test_language_for() -> None:
    assert language_for("/a/b/calc.py") == "python"
    assert language_for("src/App.TSX") == "tsx"
    assert language_for("Dockerfile") == "dockerfile"
    assert language_for("LICENSE") is None


# ---------------------------------------------------------------------- conformance


def _claude_text(piece: str) -> dict[str, Any]:
    return {
        "type": "stream_event",
        "event": {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": piece},
        },
    }


def _codex_lines() -> Iterator[dict[str, Any]]:
    yield from t.codex_legacy_run()


class TestClaudeCLIConformance(AdapterConformance):
    adapter_factory = ClaudeCLIInputAdapter
    registered = True
    text_event = staticmethod(_claude_text)
    samples = (
        AdapterSample(
            "tool run",
            t.claude_tool_run(),
            text=t.INTRO + t.OUTRO,
            stop_reason=StopReason.end_turn,
            usage=CLAUDE_USAGE,
        ),
        AdapterSample(
            "partial messages",
            t.claude_partial_run(),
            text=t.INTRO + t.OUTRO,
            stop_reason=StopReason.end_turn,
            native=[
                ("thinking", "The add() looks wrong."),
                ("tool_call", {"command": "pytest -q"}),
                ("tool_result", "3 passed"),
                ("command", "3 passed\n"),
            ],
        ),
    )


class TestCodexCLIConformance(AdapterConformance):
    adapter_factory = CodexCLIInputAdapter
    registered = True
    text_event = None
    samples = (
        AdapterSample(
            "legacy names",
            list(_codex_lines()),
            text="hello",
            stop_reason=StopReason.end_turn,
            usage=Usage(input_tokens=5, output_tokens=2, cache_read_tokens=0),
            native=[("thinking", "thinking"), ("command", "a\nb\n")],
        ),
        AdapterSample(
            "every item", t.codex_run(), text=t.CODEX_REPLY, stop_reason=StopReason.end_turn
        ),
        AdapterSample(
            "a session file (rollout)",
            codex_rollout_run(),
            text=ROLLOUT_REPLY,
            stop_reason=StopReason.end_turn,
            usage=Usage(
                input_tokens=62720, output_tokens=689, cache_read_tokens=55296, reasoning_tokens=288
            ),
        ),
    )


def test_cli_reads_transcript_files(tmp_path: Any) -> None:
    """``streamblocks extract`` sniffs an NDJSON file and detects the transcript."""
    for name, lines, stop in (
        ("claude.jsonl", t.claude_tool_run(), "end_turn"),
        ("codex.jsonl", t.codex_run(), "end_turn"),
    ):
        path = tmp_path / name
        path.write_text(t.jsonl(lines), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "streamblocks", "extract", str(path), "--json"],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        )
        assert done.returncode == 0, done.stderr
        finished = json.loads(done.stdout.splitlines()[-1])
        assert (finished["type"], finished["stop_reason"]) == ("STREAM_FINISHED", stop)


def test_snapshot_mid_line_resumes() -> None:
    """A session saved in the middle of a line (and of a UTF-8 character) resumes."""
    processor = StreamBlockProcessor(registry(), input_adapter=ClaudeCLIInputAdapter())
    raw = t.jsonl(t.claude_partial_run()).encode()
    cut = raw.index("✓".encode()) + 1
    session = processor.session()
    events = session.feed(raw[:cut])
    resumed = processor.restore(session.snapshot())
    events += resumed.feed(raw[cut:]) + resumed.close()
    reference = list(processor.process([raw]))
    assert MessageAccumulator().add_all(events) == MessageAccumulator().add_all(reference)
