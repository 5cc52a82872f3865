"""Codex CLI input adapter: the JSON lines of ``codex exec --json`` and Codex's own
session files (rollouts, read by :mod:`.rollout`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...adapters.protocols import (
    EventCategory,
    Native,
    NativeDelta,
    NativeEnd,
    NativeStart,
    StreamIds,
)
from ...core.events import StopReason
from .._base import PASSTHROUGH, SKIP, Step, as_int, whole_arguments
from .._jsonl import file_change_kind, is_mapping, text_of
from .rollout import ITEM_TYPES, RolloutLines, is_legacy_header, usage_of
from .types import EVENT_TYPES, MESSAGE_ITEMS, ROLLOUT_TYPES, THREAD_START_TYPES

STREAMED_AT_MOST = 65_536
"""Characters of an item's text (a command's output, reasoning) streamed as deltas. Past
them the text is held and comes whole with the item's end: a transcript's output is the
provider's structure, kept whole, not model-written text bounded by
``Limits.max_block_chars`` (which applies to what streams)."""


def _message(raw: Any) -> str | None:
    if is_mapping(raw):
        raw = raw.get("message")
    return raw if isinstance(raw, str) and raw else None


_NAMING = frozenset({*THREAD_START_TYPES, "session_meta", None})
"""The lines that name the session: ``thread.started`` (and its older names), a rollout's
``session_meta``, an older rollout's header (no ``type``)."""

_FAILING = frozenset({"turn.failed", "error", "event_msg"})
"""The lines that may carry an error (a rollout's: ``event_msg`` ``turn_aborted``, ``error``)."""


def _final_status(item: Mapping[str, Any]) -> str:
    """The status of an item that completed: its own, unless it still says it is under
    way (or nothing), which a completed item no longer is."""
    status = item.get("status")
    if isinstance(status, str) and status and status != "in_progress":
        return status
    failed = item.get("error") is not None or as_int(item.get("exit_code")) not in (None, 0)
    return "failed" if failed else "completed"


class CodexCLIInputAdapter(RolloutLines):
    """Reads Codex's ``codex exec --json`` transcript, and Codex's session files
    (``~/.codex/sessions/…/rollout-….jsonl``: see :class:`.rollout.RolloutLines`), told
    apart by each line's ``type``.

    Feed raw chunks (``str`` or ``bytes``, cut anywhere) or parsed line dicts. Items
    (``item.started`` / ``item.updated`` / ``item.completed``) become:

    - ``agent_message`` (formerly ``assistant_message``): text — an item's text
      reported again (updated, completed) is emitted once, only what is new;
    - ``reasoning``: a ``thinking`` block;
    - ``command_execution``: a ``command`` block (command, output streamed from
      ``aggregated_output``, exit code, status); an output of any size is kept whole
      (past :data:`STREAMED_AT_MOST` characters it comes with the block's end);
    - ``file_change``: one ``file_change`` block per changed file (path, kind, diff
      when present);
    - ``todo_list``: a ``todo`` block (the list as it stands when the item completes);
    - ``mcp_tool_call``: a ``tool_call`` block (``server``, ``tool``, ``arguments``)
      and, when it completes, a ``tool_result`` block;
    - ``web_search``: a ``tool_call`` block named ``web_search`` with the query;
    - ``error`` items (non-fatal) pass through.

    The item's kind is read from ``type`` or the older ``item_type``.
    ``thread.started`` passes through; ``turn.completed`` ends the turn
    (:attr:`StopReason.end_turn`) with its usage — cumulative, so it replaces earlier
    reports; ``turn.failed`` and ``error`` stop with :attr:`StopReason.error` and their
    message. A turn with no terminal event stays :attr:`StopReason.unknown`
    (incomplete). Malformed lines are skipped with an :class:`AdapterWarning`.
    """

    tool_name = "Codex CLI"

    _texts: dict[Any, str]
    _open: set[Any]
    _done: set[Any]
    _todos: dict[Any, Any]
    _held: set[Any]

    def _reset(self) -> None:
        super()._reset()
        self._held = set()  # streamed texts past STREAMED_AT_MOST: they end whole
        self._texts = {}  # item id -> what was emitted of its text / output
        self._open = set()  # native keys started
        self._done = set()  # item ids already turned into blocks once
        self._todos = {}  # todo lists not completed yet

    def matches(self, event: Any) -> bool:
        try:
            if not is_mapping(event):
                return False
            kind = event.get("type")
            if kind == "error":
                return isinstance(event.get("message"), str)
            if isinstance(kind, str) and kind.startswith("item."):
                return kind in EVENT_TYPES and is_mapping(event.get("item"))
            if kind in ROLLOUT_TYPES:
                return is_mapping(event.get("payload"))
            if kind is None:  # an older rollout's header
                return is_legacy_header(event)
            return kind in EVENT_TYPES
        except Exception:
            return False

    def stream_ids(self, event: Any) -> StreamIds | None:
        """The ``thread_id`` of ``thread.started`` (the Codex session), the ``id`` of a
        rollout's ``session_meta``."""
        if event.__class__ is not dict and not is_mapping(event):
            return None
        kind = event.get("type")
        if kind not in _NAMING:  # (most lines: one look-up)
            return None
        if kind == "session_meta":
            payload = event.get("payload")
            thread_id = payload.get("id") if is_mapping(payload) else None
        elif kind is None:
            thread_id = event["id"] if is_legacy_header(event) else None
        else:
            thread_id = event.get("thread_id", event.get("session_id"))
        return StreamIds(thread_id) if isinstance(thread_id, str) else None

    def error(self, event: Any) -> str | None:
        """The message of ``turn.failed`` or ``error`` (a rollout's ``turn_aborted``,
        ``error``)."""
        if event.__class__ is not dict and not is_mapping(event):
            return None
        kind = event.get("type")
        if kind not in _FAILING:  # (most lines: one look-up)
            return None
        if kind == "event_msg":
            return self._rollout_error(event.get("payload"))
        if kind == "turn.failed":
            return _message(event.get("error")) or "the turn failed"
        if kind == "error":
            return _message(event) or "error"
        return None

    def _analyze(self, event: Any) -> Step:
        kind = event.get("type") if event.__class__ is dict or is_mapping(event) else None
        read = _LINES.get(kind)  # (an unhashable type raises: the event is skipped)
        if read is None:
            self._unknown(kind)
            return SKIP
        return read(self, kind, event)

    def _item_line(self, kind: str, event: Mapping[str, Any]) -> Step:
        item = event.get("item")
        if (item.__class__ is not dict and not is_mapping(item)) or item.get("id") is None:
            self._missing(kind, "an item with an id")
            return SKIP
        return self._item(kind, item)

    def _turn_completed(self, kind: str, event: Mapping[str, Any]) -> Step:
        return Step(
            EventCategory.SKIP,
            natives=self._flush_todos(),
            stop=StopReason.end_turn,
            usage=usage_of(event.get("usage")),
        )

    def _turn_failed(self, kind: str, event: Mapping[str, Any]) -> Step:
        return Step(EventCategory.SKIP, natives=self._flush_todos(), stop=StopReason.error)

    # ------------------------------------------------------------------ items

    def _suffix(self, item_id: Any, text: Any) -> str:
        """What of ``text`` (an item's text so far) was not emitted yet."""
        if not isinstance(text, str):
            return ""
        sent = self._texts.get(item_id, "")
        if len(text) <= len(sent) or not text.startswith(sent):
            return ""
        self._texts[item_id] = text
        return text[len(sent) :]

    def _item(self, kind: str, item: Mapping[str, Any]) -> Step:
        item_type = item.get("type")
        if item_type is None:  # (the older name)
            item_type = item.get("item_type")
        read = _ITEMS.get(item_type)  # (an unhashable type raises: the event is skipped)
        if read is None:
            self._unknown(f"item {item_type}")
            return SKIP
        return read(self, item.get("id"), item, kind == "item.completed")

    def _message_item(self, item_id: Any, item: Mapping[str, Any], completed: bool) -> Step:
        text = self._suffix(item_id, item.get("text"))
        if completed:
            self._texts.pop(item_id, None)
        return Step(EventCategory.TEXT_CONTENT, text) if text else SKIP

    def _reasoning(self, item_id: Any, item: Mapping[str, Any], completed: bool) -> Step:
        return self._streamed(item_id, "thinking", {}, item.get("text"), completed)

    def _command(self, item_id: Any, item: Mapping[str, Any], completed: bool) -> Step:
        attrs = {"command": str(item.get("command", "")), "status": item.get("status")}
        end = None
        if completed:
            end = {"exit_code": as_int(item.get("exit_code")), "status": _final_status(item)}
        return self._streamed(
            item_id, "command", attrs, item.get("aggregated_output"), completed, end
        )

    def _file_change_item(self, item_id: Any, item: Mapping[str, Any], completed: bool) -> Step:
        return self._file_change(item_id, item) if completed else SKIP

    def _todo_item(self, item_id: Any, item: Mapping[str, Any], completed: bool) -> Step:
        self._todos[item_id] = item.get("items")
        if completed:
            return Step(EventCategory.SKIP, natives=self._todo(item_id))
        return SKIP

    def _web_search(self, item_id: Any, item: Mapping[str, Any], completed: bool) -> Step:
        query = item.get("query")
        arguments = {"query": query} if isinstance(query, str) else {}
        return self._call(item_id, {"name": "web_search"}, arguments, item, completed)

    def _streamed(
        self,
        item_id: Any,
        block_type: str,
        attrs: dict[str, Any],
        text: Any,
        completed: bool,
        end_attrs: dict[str, Any] | None = None,
    ) -> Step:
        """A block whose text grows with each report of the item (reasoning, output)."""
        key = (block_type, item_id)
        natives: list[Native] = []
        if key not in self._open:
            if item_id in self._done:
                return SKIP
            self._open.add(key)
            natives.append(NativeStart(key, block_type, str(item_id), attrs))
        sent = len(self._texts.get(key, ""))
        piece = self._suffix(key, text)
        held = key in self._held
        if piece and not held and sent + len(piece) > STREAMED_AT_MOST:
            held = True  # the rest comes whole with the end
            self._held.add(key)
        if piece and not held:
            natives.append(NativeDelta(key, piece))
        if completed:
            self._open.discard(key)
            self._done.add(item_id)
            whole = self._texts.pop(key, None)
            self._held.discard(key)
            natives.append(NativeEnd(key, whole if held else None, end_attrs))
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP

    def _file_change(self, item_id: Any, item: Mapping[str, Any]) -> Step:
        changes = item.get("changes")
        if not isinstance(changes, list):
            self._missing("file_change", "changes")
            return SKIP
        natives: list[Native] = []
        for index, change in enumerate(changes):
            if not is_mapping(change) or not isinstance(change.get("path"), str):
                continue
            key = ("file", item_id, index)
            diff = change.get("diff", change.get("unified_diff"))
            attrs = {
                "path": change["path"],
                "kind": file_change_kind(change.get("kind")),
                "diff": diff if isinstance(diff, str) else None,
                "status": _final_status(item),
            }
            natives.append(NativeStart(key, "file_change", None, attrs))
            natives.append(NativeEnd(key, ""))
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP

    def _todo(self, item_id: Any) -> list[Native]:
        raw = self._todos.pop(item_id, None)
        if not isinstance(raw, list):
            return []
        items = [
            {
                "text": str(entry.get("text", "")),
                "status": "completed" if entry.get("completed") else "pending",
            }
            for entry in raw
            if is_mapping(entry)
        ]
        key = ("todo", item_id)
        return [NativeStart(key, "todo", str(item_id)), NativeEnd(key, {"items": items})]

    def _flush_todos(self) -> list[Native]:
        natives: list[Native] = []
        for item_id in list(self._todos):
            natives.extend(self._todo(item_id))
        return natives

    def _call(
        self,
        item_id: Any,
        attrs: dict[str, Any],
        arguments: Any,
        item: Mapping[str, Any],
        completed: bool,
    ) -> Step:
        """A ``tool_call`` block for an item: opened when the item starts, closed with
        its final status when it completes (or at once, for an item seen completed)."""
        natives: list[Native] = []
        key = ("call", item_id)
        if item_id not in self._done and key not in self._open:
            self._open.add(key)
            attrs = {**attrs, "id": str(item_id), "status": item.get("status")}
            natives.append(NativeStart(key, "tool_call", str(item_id), attrs, "json"))
        if completed and key in self._open:
            self._open.discard(key)
            self._done.add(item_id)
            status = {"status": _final_status(item)}
            natives += whole_arguments(key, arguments if is_mapping(arguments) else {}, status)
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP

    def _tool_call(self, item_id: Any, item: Mapping[str, Any], completed: bool) -> Step:
        tool, arguments = item.get("tool"), item.get("arguments")
        attrs = {"name": tool, "server": item.get("server")}
        natives = list(self._call(item_id, attrs, arguments, item, completed).natives)
        if completed:
            key = ("result", item_id)
            error = _message(item.get("error"))
            result = item.get("result")
            if is_mapping(result):
                structured = result.get("structured_content")
                content: Any = text_of(result.get("content")) if structured is None else structured
            else:
                content = result
            failed = error is not None or item.get("status") == "failed"
            attrs = {"tool_call_id": str(item_id), "name": tool, "is_error": failed}
            natives.append(NativeStart(key, "tool_result", None, attrs))
            natives.append(NativeEnd(key, error if content is None and error else content or ""))
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP


def _always(step: Step) -> Callable[..., Step]:
    return lambda *_: step


_LINES: dict[Any, Callable[..., Step]] = {
    **dict.fromkeys(
        ("item.started", "item.updated", "item.completed"), CodexCLIInputAdapter._item_line
    ),
    **dict.fromkeys(THREAD_START_TYPES, _always(PASSTHROUGH)),
    "turn.started": _always(Step(EventCategory.STREAM_START, stop=StopReason.unknown)),
    "turn.completed": CodexCLIInputAdapter._turn_completed,
    "turn.failed": CodexCLIInputAdapter._turn_failed,
    "error": _always(Step(EventCategory.PASSTHROUGH, stop=StopReason.error)),
    **dict.fromkeys(ROLLOUT_TYPES, RolloutLines._rollout_line),
    **dict.fromkeys(ITEM_TYPES, RolloutLines._bare_item),  # (an older rollout's)
    None: RolloutLines._untyped,
}
"""How each line type (:data:`EVENT_TYPES`, a rollout's :data:`.types.ROLLOUT_TYPES`)
is read: one look-up per line."""

_ITEMS: dict[Any, Callable[..., Step]] = {
    **dict.fromkeys(MESSAGE_ITEMS, CodexCLIInputAdapter._message_item),
    "reasoning": CodexCLIInputAdapter._reasoning,
    "command_execution": CodexCLIInputAdapter._command,
    "file_change": CodexCLIInputAdapter._file_change_item,
    "todo_list": CodexCLIInputAdapter._todo_item,
    "mcp_tool_call": CodexCLIInputAdapter._tool_call,
    "web_search": CodexCLIInputAdapter._web_search,
    "error": _always(PASSTHROUGH),
}
"""How each item type (:data:`ITEM_TYPES`) is read."""
