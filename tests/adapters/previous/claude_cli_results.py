"""The typed blocks Claude Code's tool results stand for: ``code`` for a Read,
``command`` for Bash, ``file_change`` for Edit/MultiEdit/Write, ``todo`` for TodoWrite —
read from the ``tool_use_result`` payload a ``user`` line carries beside the result."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from streamblocks.adapters.protocols import Native, NativeEnd, NativeStart
from streamblocks.ext.claude_cli.types import COMMAND_TOOLS, EDIT_TOOLS, READ_TOOLS, TODO_TOOLS

from ._base import as_int
from ._jsonl import file_change_kind, is_mapping, language_for, unified_diff


class Tool(NamedTuple):
    """A tool call as the transcript announced it (its result comes later)."""

    name: str
    input: Any


_EXIT_CODE = re.compile(r"\bExit code (-?\d+)")


def _command(
    key: Any,
    call_id: str,
    tool_input: Mapping[str, Any],
    payload: Mapping[str, Any],
    is_error: bool,
    content: Any,
) -> list[Native]:
    """A ``command`` block from a Bash result: stdout, stderr, the interruption and the
    exit code kept apart (the output is both streams, as a terminal shows them).

    The exit code is the payload's when it has one, else the ``Exit code N`` Claude Code
    writes into a failed command's result, else 0 for a command that neither failed nor
    was interrupted (Claude Code reports a non-zero exit as an error)."""
    stdout, stderr = payload.get("stdout"), payload.get("stderr")
    stdout = stdout if isinstance(stdout, str) else ""
    stderr = stderr if isinstance(stderr, str) else ""
    output = stdout
    if stderr:
        output += ("" if not output or output.endswith("\n") else "\n") + stderr
    interrupted = bool(payload.get("interrupted"))
    exit_code = as_int(payload.get("exitCode", payload.get("exit_code")))
    if exit_code is None:
        found = _EXIT_CODE.search(content) if isinstance(content, str) else None
        if found is not None:
            exit_code = int(found.group(1))
        elif not is_error and not interrupted:
            exit_code = 0
    attrs = {
        "command": str(tool_input.get("command", "")),
        "status": "interrupted" if interrupted else "failed" if is_error else "completed",
        "exit_code": exit_code,
        "stdout": stdout,
        "stderr": stderr,
        "interrupted": interrupted,
        "tool_call_id": call_id,
    }
    return [NativeStart(key, "command", None, attrs), NativeEnd(key, output)]


def typed_blocks(
    key: Any,
    call_id: str,
    tool: Tool | None,
    payload: Mapping[str, Any],
    is_error: bool,
    content: Any,
) -> list[Native]:
    """The typed block a tool's structured result stands for (none when unknown)."""
    name = tool.name if tool is not None else ""
    tool_input = tool.input if tool is not None and is_mapping(tool.input) else {}
    file = payload.get("file")
    if (name in READ_TOOLS or not name) and is_mapping(file):
        path = file.get("filePath")
        code = file.get("content")
        if isinstance(path, str) and isinstance(code, str):
            attrs = {
                "path": path,
                "language": language_for(path),
                "start_line": as_int(file.get("startLine")),
                "total_lines": as_int(file.get("totalLines")),
                "num_lines": as_int(file.get("numLines")),
                "tool_call_id": call_id,
            }
            return [NativeStart(key, "code", None, attrs), NativeEnd(key, code)]
    if name in COMMAND_TOOLS or (not name and "stdout" in payload):
        return _command(key, call_id, tool_input, payload, is_error, content)
    path = payload.get("filePath")
    if (name in EDIT_TOOLS or not name) and isinstance(path, str):
        created = payload.get("type") == "create"  # (Write; an Edit says nothing)
        patch = payload.get("structuredPatch")
        diff = unified_diff(path, patch) if isinstance(patch, list) else None
        new_content = payload.get("content")
        attrs = {
            "path": path,
            "kind": "add" if created else file_change_kind(payload.get("type")),
            "diff": diff,
            "content": new_content if isinstance(new_content, str) else None,
            "tool_call_id": call_id,
        }
        return [NativeStart(key, "file_change", None, attrs), NativeEnd(key, diff or "")]
    todos = payload.get("newTodos")
    if todos is None and name in TODO_TOOLS:
        todos = tool_input.get("todos")
    if isinstance(todos, list):
        items = [
            {"text": str(todo.get("content", "")), "status": str(todo.get("status", "pending"))}
            for todo in todos
            if is_mapping(todo)
        ]
        return [
            NativeStart(key, "todo", None, {"tool_call_id": call_id}),
            NativeEnd(key, {"items": items}),
        ]
    return []
