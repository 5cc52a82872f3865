"""Inputs the viewer tests show: the adapters' transcripts, the demo, text with blocks."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from adapters.transcripts import claude_tool_run, codex_run, jsonl
from streamblocks import (
    Block,
    BlockDelta,
    BlockEnd,
    BlockMetadata,
    BlockStart,
    Counts,
    StopReason,
    StreamFinished,
    StreamStarted,
    TextDelta,
)

CUSTOM_TEXT = """\
# Release notes

The parser is **faster** now; see [the docs](https://example.com/docs) and `feed()`.

!!n1:note
Keep the *old* API for a release.
!!end

<cite url="https://example.com/paper">The streaming paper</cite>

```python
def feed(text):
    return len(text)
```

!!start
---
id: t1
block_type: todo
owner: ana
---
- ship it
!!end

Unclosed at the end:
!!n2:note
this never ends
"""

HOSTILE = """\
Look: <img src=x onerror=alert(1) /> and <script>alert(2)</script> here.

!!x1:note
<img src=x onerror=alert(3)><script>alert(4)</script>
!!end

```html
<script>alert(5)</script><img src=x onerror=alert(6)>
```

[click](javascript:alert(7)) **<b onmouseover=alert(8)>bold</b>**

!!start
---
id: m1
block_type: todo
title: <img src=x onerror=alert(9)>
---
<svg onload=alert(10)>
!!end
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def claude_file(tmp_path: Path) -> Path:
    return write(tmp_path, "claude.jsonl", jsonl(claude_tool_run()))


def untyped_results(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``lines`` without the structured payloads of their tool results: each result is
    then shown as a result row, not as the typed row (terminal, code panel) it stands for."""
    return [{k: v for k, v in line.items() if k != "tool_use_result"} for line in lines]


def codex_file(tmp_path: Path) -> Path:
    return write(tmp_path, "codex.jsonl", jsonl(codex_run()))


def demo_file(tmp_path: Path) -> Path:
    text = resources.files("streamblocks._demo").joinpath("anthropic.ndjson").read_text("utf-8")
    return write(tmp_path, "demo.ndjson", text)


def _native(block_id: str, kind: str, content: Any, **attrs: Any) -> list[Any]:
    block = Block(block_id, kind, "native", None, content, attrs)
    delta = [BlockDelta(block_id, kind, "content", content)] if kind == "thinking" else []
    return [BlockStart(block_id, kind, "native", attrs), *delta, BlockEnd(block)]


def _call(call_id: str, name: str, arguments: dict[str, Any], **attrs: Any) -> list[Any]:
    return _native(call_id, "tool_call", arguments, id=call_id, name=name, **attrs)


def _result(call_id: str, text: str, **attrs: Any) -> list[Any]:
    return _native(f"r-{call_id}", "tool_result", text, tool_call_id=call_id, **attrs)


def subagent_events() -> list[Any]:
    """A run whose ``Task`` call starts a sub-agent that starts one of its own (two
    levels), shaped as the adapters give it (DESIGN.md, "Adapters and plugins"): the
    sub-agents' text, thinking, calls and results are blocks with ``attrs["parent_id"]``."""
    return [
        StreamStarted("s1"),
        TextDelta("I'll delegate the search.\n"),
        *_call("task1", "Task", {"description": "Find the bug", "prompt": "look"}),
        *_native("a1", "thinking", "The sub-agent plans.", parent_id="task1"),
        *_native("a2", "text", "SUBAGENT TEXT: reading calc.py", parent_id="task1"),
        *_call("read1", "Read", {"file_path": "/repo/calc.py"}, parent_id="task1"),
        *_result("read1", "def add(a, b):\n    return a - b\n", parent_id="task1"),
        *_call("task2", "Task", {"description": "Check the tests"}, parent_id="task1"),
        *_native("b1", "text", "NESTED TEXT: running grep", parent_id="task2"),
        *_call("grep1", "Grep", {"pattern": "add("}, parent_id="task2"),
        *_result("grep1", "grep: tests/: No such file", parent_id="task2", is_error=True),
        *_result("task2", "no tests found", parent_id="task1"),
        *_native("a3", "text", "SUBAGENT DONE: add() subtracts", parent_id="task1"),
        *_result("task1", "add() subtracts instead of adding"),
        TextDelta("Done: add() subtracts.\n"),
        StreamFinished(StopReason.end_turn, None, Counts(0, 12, 0)),
    ]


def _card(
    block_id: str,
    block_type: str,
    syntax: str,
    content: Any,
    deltas: list[str],
    start: dict[str, Any] | None = None,
    metadata: Any = None,
    **attrs: Any,
) -> list[Any]:
    """A card's events: its start (with ``start`` as its attrs, else the end's), its
    metadata, its deltas and its end."""
    block = Block(block_id, block_type, syntax, metadata, content, attrs, raw=f"[{block_id}]")
    head = [BlockMetadata(block_id, block_type, metadata)] if metadata is not None else []
    body = [BlockDelta(block_id, block_type, "content", text) for text in deltas]
    opened = BlockStart(block_id, block_type, syntax, start or attrs)
    return [opened, *head, *body, BlockEnd(block)]


def card_events() -> list[Any]:
    """A run of cards of every kind the page draws (custom blocks with metadata, a
    citation, native commands, file changes, code, to-dos and a sub-agent's text),
    including the ones whose end alone would not give the same row: native code and
    text whose content is not the text of their deltas."""
    command = {"command": "pytest -q", "status": "in_progress"}
    ended = {"command": "pytest -q", "status": "failed", "exit_code": 1}
    return [
        StreamStarted("s2"),
        TextDelta("Looking at the *tests*.\n"),
        *_card("n1", "note", "delimiter_preamble", "Keep **this**.\n", ["Keep **this**.\n"],
               metadata={"id": "n1", "block_type": "note", "owner": "ana"}),
        *_card("c1", "cite", "xml", "The paper", ["The ", "paper"],
               url="https://example.com/paper"),
        *_card("x1", "command", "native", "..F\n1 failed\n", ["..F\n", "1 failed\n"],
               start=command, **ended),
        TextDelta("Then a change.\n"),
        *_card("f1", "file_change", "native", "", [], path="src/a.py", kind="add"),
        *_card("k1", "code", "native", "print(1)\n", ["print(1)\n"], language="python"),
        *_card("k2", "code", "native", {"lines": 1}, ["x = 2\n"], language="python"),
        *_card("d1", "todo", "native", [{"content": "ship", "status": "pending"}], []),
        *_card("t1", "text", "native", "SUB TEXT", ["SUB ", "TEXT"], parent_id="task9"),
        *_card("t2", "text", "native", "whole", ["par", "tial"], parent_id="task9"),
        TextDelta("Done.\n"),
        StreamFinished(StopReason.end_turn, None, Counts(0, 10, 0)),
    ]  # fmt: skip


class Replay:
    """Stands in for the processor: hands on events that are already ours."""

    def process(self, items: Iterator[Any]) -> Iterator[Any]:
        return items
