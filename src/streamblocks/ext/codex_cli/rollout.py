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

import shlex
from collections.abc import Callable, Mapping
from typing import Any

from ...adapters.protocols import EventCategory, Native, NativeDelta, NativeEnd, NativeStart
from ...core.events import StopReason, Usage
from .._base import PASSTHROUGH, SKIP, Step, as_int, tool_result, whole_arguments
from .._jsonl import JSONLinesAdapter, file_change_kind, is_mapping
from .outputs import arguments_of, command_of, output_of, patch_changes, texts_of
from .types import SHELL_TOOLS

PATCH_TOOL = "apply_patch"

LEGACY_HEADER = frozenset({"id", "timestamp", "instructions", "git"})
"""The keys of the first line of the older rollout format, which has no envelope: the
header, then the items themselves and ``{"record_type": "state"}`` lines."""


def is_legacy_header(event: Mapping[str, Any]) -> bool:
    """Whether ``event`` is the header line of an older rollout file."""
    return (
        isinstance(event.get("id"), str)
        and isinstance(event.get("timestamp"), str)
        and all(key in LEGACY_HEADER for key in event)
    )


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

    def _untyped(self, kind: Any, event: Mapping[str, Any]) -> Step:
        """An older rollout's line without a ``type``: its header passes through, a
        ``record_type`` (state) line says nothing."""
        if is_mapping(event) and is_legacy_header(event):
            return PASSTHROUGH
        if not is_mapping(event) or "record_type" not in event:
            self._unknown(kind)
        return SKIP

    def _bare_item(self, kind: str, event: Mapping[str, Any]) -> Step:
        """An older rollout's item, not wrapped in a ``response_item`` line."""
        return _ITEMS[kind](self, event)

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
        text = texts_of(item.get("content"), "output_text", "text")
        if not text:
            return Step(EventCategory.SKIP, stop=StopReason.end_turn)
        if self._texted and not text.startswith("\n"):
            text = "\n" + text
        self._texted = not text.endswith("\n")
        return Step(EventCategory.TEXT_CONTENT, text, stop=StopReason.end_turn)

    def _r_reasoning(self, item: Mapping[str, Any]) -> Step:
        text = texts_of(item.get("summary"), "summary_text") or texts_of(
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
        arguments = arguments_of(item.get("arguments"))
        if name in SHELL_TOOLS:
            command = command_of(name, arguments)
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
        command = command_of("shell", action)
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
        text, code, seconds, failed = output_of(item.get("output"))
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

ITEM_TYPES = frozenset(_ITEMS)
"""The item types read (also bare, as the older rollout format writes them)."""

__all__ = [
    "ITEM_TYPES",
    "LEGACY_HEADER",
    "PATCH_TOOL",
    "RolloutLines",
    "is_legacy_header",
    "usage_of",
]
