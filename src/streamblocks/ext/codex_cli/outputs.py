"""What a Codex rollout's items hold in their own formats: content parts, argument
strings, a tool's output (JSON with metadata, or a header over ``Output:``) and an
``apply_patch`` patch."""

from __future__ import annotations

import contextlib
from typing import Any

from ...core.json_values import loads
from .._base import as_int
from .._jsonl import is_mapping


def texts_of(parts: Any, *kinds: str) -> str:
    """The ``text`` of the parts of the given types, joined."""
    if not isinstance(parts, list):
        return ""
    return "\n\n".join(
        part["text"]
        for part in parts
        if is_mapping(part) and part.get("type") in kinds and isinstance(part.get("text"), str)
    )


def arguments_of(raw: Any) -> Any:
    """A function call's arguments: a JSON string (as the Responses API gives them)."""
    if isinstance(raw, str):
        try:
            return loads(raw) if raw.strip() else {}
        except (ValueError, RecursionError):
            return {"arguments": raw}  # (kept: the call is shown as written)
    return raw if is_mapping(raw) else {}


def command_of(name: str, arguments: Any) -> str | list[str] | None:
    if not is_mapping(arguments):
        return None
    command = arguments.get("cmd" if name == "exec_command" else "command")
    if isinstance(command, list) and all(isinstance(word, str) for word in command):
        return command
    return command if isinstance(command, str) and command else None


def output_of(raw: Any) -> tuple[str, int | None, float | None, bool]:
    """A tool's output as text, its exit code and seconds when it says them, and whether
    it failed. The output is a string — for a command often a JSON object
    ``{"output": …, "metadata": {"exit_code": …, "duration_seconds": …}}``, or a header
    (``Exit code: 0``, ``Wall time: 0.2 seconds``, ``Process exited with code 0``) and
    ``Output:`` — a list of content parts, or ``{"content": …, "success": …}``."""
    if is_mapping(raw):
        text, _, _, failed = output_of(raw.get("content"))
        return text, None, None, failed or raw.get("success") is False
    if isinstance(raw, list):
        return texts_of(raw, "input_text", "output_text", "text"), None, None, False
    if not isinstance(raw, str):
        return "", None, None, False
    if raw.startswith("{") and '"output"' in raw:
        try:
            value = loads(raw)
        except (ValueError, RecursionError):
            value = None
        if is_mapping(value) and isinstance(value.get("output"), str):
            meta = value.get("metadata")
            code = as_int(meta.get("exit_code")) if is_mapping(meta) else None
            seconds = meta.get("duration_seconds") if is_mapping(meta) else None
            seconds = seconds if isinstance(seconds, (int, float)) else None
            return value["output"], code, seconds, code not in (None, 0)
    return _headed(raw)


_HEADS = ("Exit code: ", "Process exited with code ", "Wall time: ", "Chunk ID: ")


def _headed(text: str) -> tuple[str, int | None, float | None, bool]:
    if not text.startswith(_HEADS):
        return text, None, None, False
    head, found, body = text.partition("\nOutput:\n")
    if not found:
        return text, None, None, False
    code: int | None = None
    seconds: float | None = None
    for line in head.splitlines():
        for prefix in ("Exit code: ", "Process exited with code "):
            if line.startswith(prefix) and line[len(prefix) :].strip().lstrip("-").isdigit():
                code = int(line[len(prefix) :].strip())
        if line.startswith("Wall time: "):
            with contextlib.suppress(ValueError, IndexError):
                seconds = float(line[len("Wall time: ") :].split()[0])
    return body, code, seconds, code not in (None, 0)


def patch_changes(patch: str) -> list[dict[str, Any]]:
    """The files an ``apply_patch`` patch changes (``*** Add File:``, ``*** Update
    File:`` with ``*** Move to:``, ``*** Delete File:``): path, kind, a diff of its
    hunks, an added file's content."""
    changes: list[dict[str, Any]] = []
    lines: list[str] = []
    for line in patch.splitlines():
        for marker, kind in (("Add", "add"), ("Update", "modify"), ("Delete", "delete")):
            if line.startswith(f"*** {marker} File: "):
                lines = []
                path = line[len(f"*** {marker} File: ") :].strip()
                changes.append({"path": path, "kind": kind, "to": path, "lines": lines})
                break
        else:
            if line.startswith("*** Move to: ") and changes:
                changes[-1]["kind"] = "rename"
                changes[-1]["to"] = line[len("*** Move to: ") :].strip()
            elif changes and line not in ("*** End Patch", "*** End of File"):
                lines.append(line)
    out = []
    for change in changes:
        path, kind, body = change["path"], change["kind"], change["lines"]
        found: dict[str, Any] = {"path": path, "kind": kind, "diff": None, "content": None}
        if kind == "add":
            added = [line[1:] for line in body if line.startswith("+")]
            found["content"] = "".join(line + "\n" for line in added)
            head = f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(added)} @@\n"
            found["diff"] = head + "".join(f"+{line}\n" for line in added)
        elif kind != "delete" and body:
            head = f"--- a/{path}\n+++ b/{change['to']}\n"
            found["diff"] = head + "".join(line + "\n" for line in body)
        if kind == "rename":
            found["move_path"] = change["to"]
        out.append(found)
    return out


__all__ = ["arguments_of", "command_of", "output_of", "patch_changes", "texts_of"]
