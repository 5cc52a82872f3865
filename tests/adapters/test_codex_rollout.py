"""Codex's session files (rollouts): the lines Codex keeps under ``~/.codex/sessions``,
read by the same adapter as ``codex exec --json`` — every item kind, nothing twice, every
cut of the bytes, the usage per model call, and the files as ``extract`` and ``view`` read
them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from streamblocks import StopReason, StreamBlockProcessor, Usage
from streamblocks.adapters import detect_input_adapter
from streamblocks.batch import records
from streamblocks.content import (
    CommandBlock,
    FileChangeBlock,
    MessageAccumulator,
    ThinkingBlock,
    TodoBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from streamblocks.ext.codex_cli import CodexCLIInputAdapter
from streamblocks.ext.codex_cli.outputs import patch_changes
from streamblocks.runs.usage import TurnUsage, metered

from . import rollout_lines as r
from .test_transcripts import byte_pieces, kinds, registry, run
from .transcripts import jsonl

SAMPLE = Path(__file__).parents[2] / "examples" / "transcripts" / "codex-rollout.jsonl"
KINDS = [
    "text", "command", "thinking", "command", "thinking",
    "file_change", "file_change", "file_change", "todo",
    "tool_call", "tool_result", "tool_call", "command", "text", "custom", "text",
]  # fmt: skip
TOTAL = Usage(input_tokens=62720, output_tokens=689, cache_read_tokens=55296, reasoning_tokens=288)


def _payload_type(line: dict[str, Any]) -> Any:
    return line["payload"].get("type")


def test_a_rollout_normalises_into_content_blocks() -> None:
    message, finished, events = run(r.codex_rollout_run())
    assert kinds(message) == KINDS
    content = message.content
    assert content[1] == CommandBlock(
        command="bash -lc 'pytest -m slow'", status="interrupted", interrupted=True
    )
    assert content[2] == ThinkingBlock(text="**Finding the bug**", signature="gAAAAABpQ2xv")
    assert content[3] == CommandBlock(
        command="bash -lc 'pytest -q'", output="..F\n1 failed\n", exit_code=1, status="failed"
    )
    assert content[4] == ThinkingBlock(text="", signature="gAAAAABpQ3Jk")  # encrypted only
    assert content[5] == FileChangeBlock(path="calc.py", kind="modify", diff=r.PATCH_DIFF)
    assert content[6] == FileChangeBlock(
        path="NOTES.md",
        kind="add",
        diff="--- /dev/null\n+++ b/NOTES.md\n@@ -0,0 +1,2 @@\n+# Notes\n+add() fixed\n",
        content="# Notes\nadd() fixed\n",
    )
    assert content[7] == FileChangeBlock(path="old.txt", kind="delete")
    assert content[8] == TodoBlock.model_validate(
        {
            "items": [
                {"text": "Fix add()", "status": "completed"},
                {"text": "Run tests", "status": "in_progress"},
            ]
        }
    )
    assert content[9] == ToolCallBlock(
        id="call_4", name="github__search_issues", arguments={"query": "add bug"}
    )
    assert content[10] == ToolResultBlock(
        tool_call_id="call_4", name="github__search_issues", content="#12 add() subtracts"
    )
    assert (content[11].name, content[11].arguments) == ("web_search", {"query": "python add"})  # type: ignore[union-attr]
    assert content[12] == CommandBlock(
        command="pytest -q", output="...\n3 passed\n", exit_code=0, status="completed"
    )
    # each message once (the event_msg copies are not read), the second on a line of its own
    assert message.text() == "Running the slow suite first.\nFixed `add()`.\nAll green ✓\n"
    texts = "".join(e.text for e in events if e.type == "TEXT_DELTA")
    raws = "".join(e.block.raw for e in events if e.type == "BLOCK_END")
    assert texts.count("Fixed") == 1 and raws == "!!n1:note\nran the tests\n!!end\n"
    assert finished.stop_reason is StopReason.end_turn
    assert finished.usage == TOTAL  # the last total_token_usage
    assert finished.session_id == r.SESSION
    passed = [e.event["type"] for e in events if e.type == "PASSTHROUGH"]
    assert passed == ["session_meta", "turn_context"]
    ends = {e.block.id: e.block.attrs for e in events if e.type == "BLOCK_END"}
    assert ends["call_1"]["duration_ms"] == 800.0 and ends["call_5"]["duration_ms"] == 700.0


def test_a_rollout_is_detected_from_any_of_its_lines() -> None:
    lines = r.codex_rollout_run()
    for line in lines:
        assert isinstance(detect_input_adapter(line), CodexCLIInputAdapter), line["type"]
    adapter = CodexCLIInputAdapter()
    assert not adapter.matches({"type": "response_item", "payload": "text"})
    assert not adapter.matches({"type": "session_meta"})


@pytest.mark.parametrize("size", [1, 3, 64, 4096])
def test_raw_bytes_in_pieces_of_any_size(size: int) -> None:
    reference, _, _ = run(r.codex_rollout_run())
    pieces = byte_pieces(jsonl(r.codex_rollout_run()), size)
    message, finished, _ = run(pieces, CodexCLIInputAdapter())
    assert message == reference
    assert finished.usage == TOTAL


def test_every_cut_of_the_bytes_gives_the_same_run() -> None:
    data = jsonl(r.codex_rollout_run()).encode("utf-8")
    processor = StreamBlockProcessor(registry(), input_adapter=CodexCLIInputAdapter())
    reference = MessageAccumulator().add_all(processor.process([data]))
    mark = data.index("✓".encode())
    cuts = {*range(1, len(data), 11), *range(mark - 40, mark + 40)}  # and inside the ✓
    for cut in sorted(cuts):
        events = list(processor.process([data[:cut], data[cut:]]))
        assert MessageAccumulator().add_all(events) == reference, cut


def test_the_usage_of_each_model_call_and_its_time() -> None:
    processor = StreamBlockProcessor(registry())
    turns = [e for e in metered(processor.process, r.codex_rollout_run()) if type(e) is TurnUsage]
    said = [
        (t.input_tokens, t.cache_read_tokens, t.output_tokens, t.reasoning_tokens) for t in turns
    ]
    assert said == r.CALLS
    # from the line before the model's first item to its token count
    assert [t.duration_ms for t in turns] == [1700.0, 2200.0, 1300.0, 600.0, 500.0, 1000.0, 1200.0]


def test_an_interrupted_last_turn_is_an_error() -> None:
    lines = r.codex_rollout_run()
    cut = next(i for i, line in enumerate(lines) if _payload_type(line) == "turn_aborted")
    message, finished, _ = run(lines[: cut + 1])
    assert finished.stop_reason is StopReason.error
    assert finished.error == "turn aborted (interrupted)"
    assert message.content[-1] == CommandBlock(
        command="bash -lc 'pytest -m slow'", status="interrupted", interrupted=True
    )


def test_a_file_cut_while_a_command_runs_says_so() -> None:
    lines = r.codex_rollout_run()
    cut = next(i for i, line in enumerate(lines) if line["payload"].get("call_id") == "call_1")
    events = list(StreamBlockProcessor(registry()).process(lines[: cut + 1]))
    assert events[-1].stop_reason is StopReason.unknown  # the turn did not end
    errors = [e for e in events if e.type == "BLOCK_ERROR"]
    assert [(e.block_id, e.code.value) for e in errors] == [("call_1", "UNCLOSED")]


EXITED = "Process exited with code 2"


def test_a_failed_patch_and_other_output_shapes() -> None:
    def item(payload: dict[str, Any]) -> dict[str, Any]:
        return {"timestamp": "2026-11-30T10:00:00Z", "type": "response_item", "payload": payload}

    patch = "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-x\n+y\n*** End Patch"
    lines = [
        item({"type": "custom_tool_call", "call_id": "p", "name": "apply_patch", "input": patch}),
        item({"type": "custom_tool_call_output", "call_id": "p",
              "output": "Exit code: 1\nWall time: 0 seconds\nOutput:\nverification failed\n"}),
        item({"type": "local_shell_call", "call_id": "l", "status": "completed",
              "action": {"type": "exec", "command": ["ls", "-a"]}}),
        item({"type": "function_call_output", "call_id": "l",
              "output": {"content": "denied", "success": False}}),
        item({"type": "function_call", "name": "exec_command", "call_id": "e",
              "arguments": json.dumps({"cmd": "make", "yield_time_ms": 1000})}),
        item({"type": "function_call_output", "call_id": "e",
              "output": f"Chunk ID: 1a\nWall time: 2.5 seconds\n{EXITED}\nOutput:\nerror\n"}),
        item({"type": "function_call", "name": "view_image", "call_id": "v", "arguments": "{bad"}),
        item({"type": "function_call_output", "call_id": "v",
              "output": [{"type": "input_text", "text": "an image"}]}),
    ]  # fmt: skip
    message, _, events = run(lines)
    assert kinds(message) == [
        "file_change",
        "tool_result",
        "command",
        "command",
        "tool_call",
        "tool_result",
    ]
    change, result, ls, make, call, shown = message.content
    assert change == FileChangeBlock(
        path="a.py", kind="rename", diff="--- a/a.py\n+++ b/b.py\n@@\n-x\n+y\n"
    )
    assert result == ToolResultBlock(
        tool_call_id="p", name="apply_patch", content="verification failed\n", is_error=True
    )
    assert (ls.command, ls.output, ls.status) == ("ls -a", "denied", "failed")  # type: ignore[union-attr]
    assert (make.command, make.exit_code, make.output) == ("make", 2, "error\n")  # type: ignore[union-attr]
    assert call == ToolCallBlock(id="v", name="view_image", arguments={"arguments": "{bad"})
    assert shown == ToolResultBlock(tool_call_id="v", name="view_image", content="an image")
    statuses = [
        e.block.attrs["status"]
        for e in events
        if e.type == "BLOCK_END" and e.block.type == "file_change"
    ]
    assert statuses == ["failed"]


def test_patch_changes() -> None:
    assert patch_changes("no patch") == []
    assert [(c["path"], c["kind"]) for c in patch_changes(r.PATCH)] == [
        ("calc.py", "modify"), ("NOTES.md", "add"), ("old.txt", "delete")
    ]  # fmt: skip


def test_the_sample_file_is_this_rollout() -> None:
    assert SAMPLE.read_text("utf-8") == jsonl(r.codex_rollout_run())


def test_extract_json_records_are_the_run() -> None:
    found = list(records(SAMPLE.read_text("utf-8").splitlines(keepends=True)))
    assert found[0]["type"] == "STREAM_STARTED" and found[0]["session_id"] == r.SESSION
    finished = found[-1]
    assert (finished["type"], finished["stop_reason"]) == ("STREAM_FINISHED", "end_turn")
    assert finished["usage"]["input_tokens"] == 62720
    ends = [rec["block"]["type"] for rec in found if rec["type"] == "BLOCK_END"]
    assert ends.count("command") == 3 and ends.count("file_change") == 3


def test_the_older_format_without_envelopes() -> None:
    """Older releases wrote a header, the items themselves and state lines."""
    header = {"id": r.SESSION, "timestamp": "2025-07-01T09:00:00Z", "instructions": None}
    rollout = r.codex_rollout_run()
    second = next(i for i, line in enumerate(rollout) if _payload_type(line) == "turn_aborted")
    items = [line["payload"] for line in rollout[second:] if line["type"] == "response_item"]
    lines = [header, {"record_type": "state"}, *items, {"record_type": "state"}]
    assert isinstance(detect_input_adapter(header), CodexCLIInputAdapter)
    message, finished, events = run(lines)
    reference, _, _ = run(rollout[second + 1 :])
    assert message == reference
    assert finished.session_id == r.SESSION
    assert finished.stop_reason is StopReason.end_turn
    assert [e.event for e in events if e.type == "PASSTHROUGH"] == [header]
    raw, _, _ = run(byte_pieces(jsonl(lines), 5), CodexCLIInputAdapter())
    assert raw == reference


def test_extract_as_text_and_markdown(capsys: Any) -> None:
    from cli_helpers import run as cli

    code, out, err = cli(capsys, "extract", str(SAMPLE))
    assert (code, err) == (0, "")
    assert "Running the slow suite first.\n" in out and "All green ✓" in out
    assert "┌─ command call_1 (native)" in out and "stop: end_turn" in out
    assert "62720 in, 689 out" in out
    code, out, err = cli(capsys, "extract", str(SAMPLE), "--markdown")
    assert (code, err) == (0, "")
    assert "$ bash -lc 'pytest -q'\n..F\n1 failed\n" in out
    assert "**File add** `NOTES.md`" in out and "- [x] Fix add()" in out
    assert out.count("## Turn ") == 6  # a turn after each tool output
    assert "*in 8,120 · out 94 · cached 3,072 · reasoning 64 · took 1.70 s*" in out
    assert "| input tokens | 62,720 |" in out and "| turns metered | 7 |" in out
