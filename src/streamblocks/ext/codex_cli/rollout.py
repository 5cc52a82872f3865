"""Codex's own session files: ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``.

Every line is ``{"timestamp": …, "type": …, "payload": {…}}``; the first is the
``session_meta``. The model's output and the tools' results are ``response_item`` lines
(the Responses API items Codex sends back to the model); ``event_msg`` lines repeat
most of them for the UI (``agent_message``, ``agent_reasoning``, ``user_message``) and add
``token_count`` and ``turn_aborted``. The items are the one source read here, so nothing
comes twice; of the events only the token counts and the aborted turns are read.

:class:`RolloutLines` is the reading, mixed into
:class:`~streamblocks.ext.codex_cli.CodexCLIInputAdapter`, which tells a rollout from a
``codex exec --json`` transcript by each line's ``type``.
"""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Callable, Mapping
from typing import Any

from ...adapters.protocols import EventCategory, Native, NativeDelta, NativeEnd, NativeStart
from ...core.events import StopReason, Usage
from ...core.json_values import loads
from .._base import PASSTHROUGH, SKIP, Step, as_int, tool_result, whole_arguments
from .._jsonl import JSONLinesAdapter, file_change_kind, is_mapping
from .types import SHELL_TOOLS

PATCH_TOOL = "apply_patch"


def usage_of(raw: Any) -> Usage | None:
    """A Codex token count (``codex exec``'s ``usage``, a rollout's ``total_token_usage``)."""
    if not is_mapping(raw):
        return None
    return Usage(
        input_tokens=as_int(raw.get("input_tokens")),
        output_tokens=as_int(raw.get("output_tokens")),
        cache_read_tokens=as_int(raw.get("cached_input_tokens")),
        reasoning_tokens=as_int(raw.get("reasoning_output_tokens")),
    )


def _texts(parts: Any, *kinds: str) -> str:
    """The ``text`` of the parts of the given types, joined."""
    if not isinstance(parts, list):
        return ""
    return "\n\n".join(
        part["text"]
        for part in parts
        if is_mapping(part) and part.get("type") in kinds and isinstance(part.get("text"), str)
    )


def _arguments(raw: Any) -> Any:
    """A function call's arguments: a JSON string (as the Responses API gives them)."""
    if isinstance(raw, str):
        try:
            return loads(raw) if raw.strip() else {}
        except (ValueError, RecursionError):
            return {"arguments": raw}  # (kept: the call is shown as written)
    return raw if is_mapping(raw) else {}


def _command_of(name: str, arguments: Any) -> str | list[str] | None:
    if not is_mapping(arguments):
        return None
    command = arguments.get("cmd" if name == "exec_command" else "command")
    if isinstance(command, list) and all(isinstance(word, str) for word in command):
        return command
    return command if isinstance(command, str) and command else None


def _output(raw: Any) -> tuple[str, int | None, float | None, bool]:
    """A tool's output as text, its exit code and seconds when it says them, and whether
    it failed. The output is a string — for a command often a JSON object
    ``{"output": …, "metadata": {"exit_code": …, "duration_seconds": …}}``, or a header
    (``Exit code: 0``, ``Wall time: 0.2 seconds``, ``Process exited with code 0``) and
    ``Output:`` — a list of content parts, or ``{"content": …, "success": …}``."""
    if is_mapping(raw):
        text, _, _, failed = _output(raw.get("content"))
        return text, None, None, failed or raw.get("success") is False
    if isinstance(raw, list):
        return _texts(raw, "input_text", "output_text", "text"), None, None, False
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


class RolloutLines(JSONLinesAdapter):
    """Reads the lines of a Codex rollout file (see the module's docstring):

    - ``message`` items: the assistant's ``output_text`` is text (a message that follows
      another starts on a line of its own); the user's turns (the prompt, the context
      Codex adds) are skipped, as the Claude Code adapter skips prompts;
    - ``reasoning``: a ``thinking`` block of the summary (or the raw reasoning text); the
      ``encrypted_content`` is its ``signature`` (only that: a redacted thinking);
    - a command (``function_call`` of ``shell``, ``container.exec``, ``shell_command``,
      ``exec_command``, or a ``local_shell_call``): a ``command`` block, opened by the
      call and closed by its ``function_call_output`` with the output, exit code and
      status read from it;
    - ``apply_patch`` (a ``custom_tool_call`` with the patch, or the older function
      call): one ``file_change`` block per file, closed by the output (``failed``
      when the patch did not apply, with a ``tool_result`` saying why);
    - ``update_plan``: a ``todo`` block;
    - any other call: a ``tool_call`` block (arguments parsed) and a ``tool_result``;
    - ``web_search_call``: a ``tool_call`` named ``web_search``;
    - ``token_count`` events: the usage (``total_token_usage``, the session's running
      total: the last one is the stream's); ``turn_aborted``: the calls still open are
      closed as interrupted, and the stop reason is ``error``;
    - ``session_meta`` (its ``id`` is the stream's session), ``turn_context`` (the
      model), ``compacted``: passed through.

    An assistant message ends the turn (``end_turn``); a call or a user turn after it
    starts another (``unknown`` until it ends).
    """

    _calls: dict[str, tuple[str, str, Any]]
    _texted: bool
    _count: int

    def _reset(self) -> None:
        super()._reset()
        self._calls = {}  # call id -> (what it opened, the tool's name, its keys)
        self._texted = False  # a message's text was emitted (the next starts a line)
        self._count = 0

    def _rollout_line(self, kind: str, event: Mapping[str, Any]) -> Step:
        payload = event.get("payload")
        if not is_mapping(payload):
            self._missing(kind, "a payload")
            return SKIP
        table = _ITEMS if kind == "response_item" else _EVENTS if kind == "event_msg" else None
        if table is None:
            return PASSTHROUGH  # session_meta, turn_context, compacted
        read = table.get(payload.get("type"))
        return SKIP if read is None else read(self, payload)

    def _rollout_error(self, payload: Any) -> str | None:
        """The message of a ``turn_aborted`` or ``error`` event."""
        if not is_mapping(payload):
            return None
        kind = payload.get("type")
        if kind == "turn_aborted":
            return f"turn aborted ({payload.get('reason') or 'interrupted'})"
        if kind == "error":
            message = payload.get("message")
            return message if isinstance(message, str) and message else "error"
        return None

    # ------------------------------------------------------------------ items

    def _r_key(self, *parts: Any) -> tuple[Any, ...]:
        self._count += 1
        return (*parts, self._count)

    def _r_message(self, item: Mapping[str, Any]) -> Step:
        if item.get("role") != "assistant":
            return Step(EventCategory.SKIP, stop=StopReason.unknown)  # a (new) user turn
        text = _texts(item.get("content"), "output_text", "text")
        if not text:
            return Step(EventCategory.SKIP, stop=StopReason.end_turn)
        if self._texted and not text.startswith("\n"):
            text = "\n" + text
        self._texted = not text.endswith("\n")
        return Step(EventCategory.TEXT_CONTENT, text, stop=StopReason.end_turn)

    def _r_reasoning(self, item: Mapping[str, Any]) -> Step:
        text = _texts(item.get("summary"), "summary_text") or _texts(
            item.get("content"), "reasoning_text", "text"
        )
        secret = item.get("encrypted_content")
        secret = secret if isinstance(secret, str) and secret else None
        if not text and secret is None:
            return SKIP
        key = self._r_key("thinking")
        natives: list[Native] = [NativeStart(key, "thinking", None, {})]
        if text:
            natives.append(NativeDelta(key, text))
        natives.append(NativeEnd(key, None, {"signature": secret} if secret else None))
        return Step(EventCategory.SKIP, natives=natives)

    def _r_function_call(self, item: Mapping[str, Any]) -> Step:
        name, call_id = str(item.get("name") or ""), item.get("call_id")
        call_id = str(call_id if call_id is not None else self._r_key("call")[-1])
        arguments = _arguments(item.get("arguments"))
        if name in SHELL_TOOLS:
            command = _command_of(name, arguments)
            if isinstance(command, list) and len(command) == 2 and command[0] == PATCH_TOOL:
                return self._r_patch(call_id, command[1])
            if command is not None:
                return self._r_command(call_id, name, command)
        if name == PATCH_TOOL and is_mapping(arguments) and isinstance(arguments.get("input"), str):
            return self._r_patch(call_id, arguments["input"])
        if name == "update_plan" and is_mapping(arguments):
            return self._r_plan(call_id, arguments.get("plan"))
        return self._r_call(call_id, name, arguments)

    def _r_local_shell_call(self, item: Mapping[str, Any]) -> Step:
        call_id = item.get("call_id", item.get("id"))
        action = item.get("action")
        command = _command_of("shell", action)
        if command is None:
            return self._r_call(str(call_id), "local_shell", action)
        return self._r_command(str(call_id), "local_shell", command)

    def _r_custom_tool_call(self, item: Mapping[str, Any]) -> Step:
        name, call_id = str(item.get("name") or ""), str(item.get("call_id"))
        text = item.get("input")
        if name == PATCH_TOOL and isinstance(text, str):
            return self._r_patch(call_id, text)
        return self._r_call(call_id, name, {"input": text} if isinstance(text, str) else {})

    def _r_web_search(self, item: Mapping[str, Any]) -> Step:
        action = item.get("action")
        arguments = {k: v for k, v in action.items() if k != "type"} if is_mapping(action) else {}
        if is_mapping(action) and action.get("type") not in (None, "search"):
            arguments["action"] = action.get("type")
        call_id = str(item.get("id") or f"web_search_{self._r_key()[-1]}")
        return self._r_call(call_id, "web_search", arguments, remember=False)

    def _r_command(self, call_id: str, name: str, command: str | list[str]) -> Step:
        text = command if isinstance(command, str) else shlex.join(command)
        key = ("command", call_id)
        self._calls[call_id] = ("command", name, key)
        attrs = {"command": text, "status": "in_progress"}
        return Step(
            EventCategory.SKIP, natives=[NativeStart(key, "command", call_id, attrs)],
            stop=StopReason.unknown,
        )  # fmt: skip

    def _r_patch(self, call_id: str, patch: str) -> Step:
        changes = patch_changes(patch)
        if not changes:
            return self._r_call(call_id, PATCH_TOOL, {"input": patch})
        keys = [("file", call_id, index) for index in range(len(changes))]
        self._calls[call_id] = ("files", PATCH_TOOL, keys)
        natives: list[Native] = [
            NativeStart(
                key, "file_change", None, {**change, "kind": file_change_kind(change["kind"])}
            )
            for key, change in zip(keys, changes, strict=True)
        ]
        return Step(EventCategory.SKIP, natives=natives, stop=StopReason.unknown)

    def _r_plan(self, call_id: str, plan: Any) -> Step:
        items = [
            {"text": str(entry.get("step", "")), "status": str(entry.get("status") or "pending")}
            for entry in (plan if isinstance(plan, list) else [])
            if is_mapping(entry)
        ]
        key = ("todo", call_id)
        self._calls[call_id] = ("plan", "update_plan", None)
        natives: list[Native] = [
            NativeStart(key, "todo", call_id),
            NativeEnd(key, {"items": items}),
        ]
        return Step(EventCategory.SKIP, natives=natives, stop=StopReason.unknown)

    def _r_call(self, call_id: str, name: str, arguments: Any, *, remember: bool = True) -> Step:
        key = ("call", call_id)
        if remember:
            self._calls[call_id] = ("call", name, None)
        attrs = {"name": name, "id": call_id}
        natives: list[Native] = [NativeStart(key, "tool_call", call_id, attrs, "json")]
        natives += whole_arguments(key, arguments if is_mapping(arguments) else {})
        return Step(EventCategory.SKIP, natives=natives, stop=StopReason.unknown)

    def _r_call_output(self, item: Mapping[str, Any]) -> Step:
        call_id = str(item.get("call_id"))
        opened, name, keys = self._calls.pop(call_id, ("call", None, None))
        text, code, seconds, failed = _output(item.get("output"))
        status = "failed" if failed else "completed"
        natives: list[Native]
        if opened == "command":
            end: dict[str, Any] = {"exit_code": code, "status": status}
            if seconds is not None:
                end["duration_ms"] = round(seconds * 1000, 1)
            natives = [NativeEnd(keys, text, end)]
        elif opened == "files":
            natives = [NativeEnd(key, "", {"status": status}) for key in keys or ()]
            if failed:
                natives += tool_result(("result", call_id), call_id, name, text, True, server=False)
        elif opened == "plan":
            return SKIP  # ("Plan updated")
        else:
            natives = tool_result(("result", call_id), call_id, name, text, failed, server=False)
        return Step(EventCategory.SKIP, natives=natives)

    # ------------------------------------------------------------------ events

    def _r_token_count(self, payload: Mapping[str, Any]) -> Step:
        info = payload.get("info")
        total = usage_of(info.get("total_token_usage")) if is_mapping(info) else None
        return SKIP if total is None else Step(EventCategory.SKIP, usage=total)

    def _r_aborted(self, payload: Mapping[str, Any]) -> Step:
        """The turn was interrupted: what it left running is closed as interrupted."""
        natives: list[Native] = []
        for opened, _, keys in self._calls.values():
            if opened == "command":
                end = {"status": "interrupted", "interrupted": True}
                natives.append(NativeEnd(keys, None, end))
            elif opened == "files":
                natives += [NativeEnd(key, "", {"status": "interrupted"}) for key in keys]
        self._calls.clear()
        return Step(EventCategory.SKIP, natives=natives, stop=StopReason.error)


_ITEMS: dict[Any, Callable[[RolloutLines, Mapping[str, Any]], Step]] = {
    "message": RolloutLines._r_message,
    "reasoning": RolloutLines._r_reasoning,
    "function_call": RolloutLines._r_function_call,
    "local_shell_call": RolloutLines._r_local_shell_call,
    "custom_tool_call": RolloutLines._r_custom_tool_call,
    "function_call_output": RolloutLines._r_call_output,
    "custom_tool_call_output": RolloutLines._r_call_output,
    "web_search_call": RolloutLines._r_web_search,
}
"""How each ``response_item`` is read (the rest — ghost snapshots, compactions — say
nothing to show)."""

_EVENTS: dict[Any, Callable[[RolloutLines, Mapping[str, Any]], Step]] = {
    "token_count": RolloutLines._r_token_count,
    "turn_aborted": RolloutLines._r_aborted,
    "error": lambda self, payload: Step(EventCategory.PASSTHROUGH, stop=StopReason.error),
    "task_complete": lambda self, payload: Step(EventCategory.SKIP, stop=StopReason.end_turn),
}
"""The ``event_msg`` payloads read (the others repeat the items, or are the UI's)."""

__all__ = ["PATCH_TOOL", "RolloutLines", "patch_changes", "usage_of"]
