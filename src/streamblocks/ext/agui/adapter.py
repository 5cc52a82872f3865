"""AG-UI input adapter: ``ag_ui.core`` events (or their JSON) as an input stream."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ...adapters.protocols import (
    EventCategory,
    Native,
    NativeDelta,
    NativeEnd,
    NativeStart,
    StreamIds,
)
from ...core.events import StopReason, Usage
from .._base import (
    PASSTHROUGH,
    SKIP,
    ProviderAdapter,
    Step,
    as_int,
    enum_value,
    field2,
    tool_call_start,
)
from .._subagents import Nesting, parent_of
from .types import (
    EVENT_TYPES,
    FRAMING_SKIP_TYPES,
    REASONING_CONTENT_TYPES,
    REASONING_END_TYPES,
    REASONING_START_TYPES,
    TEXT_TYPES,
)

_USAGE_FIELDS = (
    ("input_tokens", "input_tokens", "inputTokens"),
    ("output_tokens", "output_tokens", "outputTokens"),
    ("total_tokens", "total_tokens", "totalTokens"),
    ("cache_read_tokens", "cached_input_tokens", "cachedInputTokens"),
    ("cache_write_tokens", "cache_write_input_tokens", "cacheWriteInputTokens"),
    ("reasoning_tokens", "reasoning_tokens", "reasoningTokens"),
)


def _usage(entries: Any) -> Usage | None:
    """The sum of a run's ``usage`` entries (one per model call)."""
    if not entries:
        return None
    totals: dict[str, int] = {}
    for entry in entries:
        for ours, snake, camel in _USAGE_FIELDS:
            value = as_int(field2(entry, snake, camel))
            if value is not None:
                totals[ours] = totals.get(ours, 0) + value
    return Usage(**totals) if totals else None


_SEALS = {"message": ("reasoning", "signature"), "tool-call": ("tool_call", "thought_signature")}
"""``REASONING_ENCRYPTED_VALUE`` subtype -> the key kind of its block, the attr it sets."""
_STOPS = {reason.value: reason for reason in StopReason}


def _redacted(event: Any) -> bool:
    """Whether an encrypted value is redacted thinking (as our output marks it)."""
    mark = field2(field2(event, "metadata", "metadata"), "streamblocks", "streamblocks")
    return bool(field2(mark, "redacted", "redacted"))


def _kind(event: Any) -> str | None:
    kind = enum_value(field2(event, "type", "type"))
    return kind if kind in EVENT_TYPES else None


class AGUIInputAdapter(ProviderAdapter):
    """Reads an AG-UI event stream (``ag_ui.core`` events, or their JSON dicts).

    ``TEXT_MESSAGE_CONTENT`` and ``TEXT_MESSAGE_CHUNK`` deltas are text; the message
    start/end events only frame it. ``REASONING_MESSAGE_*`` (and the older
    ``THINKING_TEXT_MESSAGE_*``) become ``thinking`` blocks, ``TOOL_CALL_START/ARGS/END``
    and ``TOOL_CALL_CHUNK`` become ``tool_call`` blocks, ``TOOL_CALL_RESULT`` a
    ``tool_result`` block naming the call's tool. ``RUN_FINISHED`` reports the
    stop reason and the run's summed usage, ``RUN_ERROR`` an error (its message is
    ``STREAM_FINISHED.error``). The run events and everything else (state, steps,
    custom and raw events) pass through, so an :class:`AGUIOutputAdapter`
    re-emits the input's own run framing instead of adding a second one.

    AG-UI 1.0: an event carrying a ``subagent_run_id`` belongs to that sub-agent, which
    ``SUBAGENT_STARTED`` tied to the call that started it (``parent_tool_call_id``;
    without one, the ``subagent_run_id`` itself): its text, thinking, calls and results
    become blocks with ``attrs["parent_id"]``, as Claude Code's ``Task`` gives them
    (never the run's ``TEXT_DELTA``); ``SUBAGENT_FINISHED`` / ``_ERROR`` close what it
    left open. ``REASONING_ENCRYPTED_VALUE`` becomes the ``signature`` of the thinking
    block it names (``redacted`` when marked as redacted thinking) or the
    ``thought_signature`` of the call, when it comes before that block's end (a
    reasoning message inside a ``REASONING_START`` span of the same id ends with the
    span); one that comes later passes through. ``RUN_FINISHED`` from this project's
    own output gives back the stop reason its ``result`` names.
    """

    _open: dict[Hashable, None]
    _chunk_tool: Hashable | None
    _pending_calls: set[Any]
    _names: dict[str, Any]
    _agents: dict[str, str]
    _nesting: Nesting
    _seals: dict[Hashable, dict[str, str]]
    _spans: set[Any]

    def _reset(self) -> None:
        self._open = {}
        self._chunk_tool = None
        self._pending_calls = set()
        self._names = {}  # tool-call id -> tool name, to name its result
        self._agents = {}  # subagent_run_id -> the call that started it
        self._nesting = Nesting()
        self._seals = {}  # open block key -> the attrs its encrypted value sets
        self._spans = set()  # reasoning spans (REASONING_START) still open

    def matches(self, event: Any) -> bool:
        try:
            module = type(event).__module__
            if module.startswith("ag_ui.") or isinstance(event, dict):
                return _kind(event) is not None
            return False
        except Exception:
            return False

    def _start(self, key: Hashable, start: NativeStart) -> list[Native]:
        if key in self._open:
            return []
        self._open[key] = None
        return [start]

    def _end(self, key: Hashable) -> list[Native]:
        if key not in self._open:
            return []
        del self._open[key]
        if key == self._chunk_tool:
            self._chunk_tool = None
        return [NativeEnd(key, None, self._seals.pop(key, None))]

    def _analyze(self, event: Any) -> Step:
        kind = _kind(event)
        if kind is not None and kind.startswith("SUBAGENT_"):
            return self._subagent(kind, event)
        agent = parent_of(field2(event, "subagent_run_id", "subagentRunId"))
        if agent is None:
            return self._read(kind, event)
        parent = self._agents.get(agent, agent)
        nesting = self._nesting
        if kind in TEXT_TYPES or kind == "TEXT_MESSAGE_END":
            message = field2(event, "message_id", "messageId")
            if kind == "TEXT_MESSAGE_END":
                natives = nesting.end_text(parent, message)
            else:
                delta = field2(event, "delta", "delta")
                natives = nesting.text(parent, message, delta) if delta else []
            return Step(EventCategory.SKIP, natives=natives) if natives else SKIP
        step = self._read(kind, event)
        if kind in ("TOOL_CALL_START", "TOOL_CALL_CHUNK"):  # its calls are not the run's
            self._pending_calls.discard(field2(event, "tool_call_id", "toolCallId"))
        return nesting.step(parent, step, None)

    def _subagent(self, kind: str, event: Any) -> Step:
        """``SUBAGENT_STARTED`` ties a sub-agent to its call; its end closes its blocks."""
        agent = parent_of(field2(event, "subagent_run_id", "subagentRunId"))
        if agent is None:
            return PASSTHROUGH
        if kind == "SUBAGENT_STARTED":
            call = parent_of(field2(event, "parent_tool_call_id", "parentToolCallId"))
            self._agents[agent] = call or agent
            return SKIP
        natives = self._nesting.close(self._agents.get(agent, agent))
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP

    def _seal(self, event: Any) -> Step:
        """``REASONING_ENCRYPTED_VALUE``: kept for the open block it names (set at its
        end); passed through when that block is not open."""
        kind_attr = _SEALS.get(str(field2(event, "subtype", "subtype")))
        value = field2(event, "encrypted_value", "encryptedValue")
        if kind_attr is None or not isinstance(value, str):
            return PASSTHROUGH
        key = (kind_attr[0], field2(event, "entity_id", "entityId"))
        if key not in self._open:
            return PASSTHROUGH
        attr = "redacted" if kind_attr[0] == "reasoning" and _redacted(event) else kind_attr[1]
        self._seals.setdefault(key, {})[attr] = value
        return SKIP

    def _read(self, kind: str | None, event: Any) -> Step:
        """What an event gives, whoever's it is."""
        if kind == "REASONING_ENCRYPTED_VALUE":
            return self._seal(event)
        if kind == "REASONING_START":
            self._spans.add(field2(event, "message_id", "messageId"))
        elif kind == "REASONING_END":
            span = field2(event, "message_id", "messageId")
            self._spans.discard(span)
            natives = self._end(("reasoning", span))  # its message, held to the span's end
            return Step(EventCategory.SKIP, natives=natives) if natives else SKIP
        if kind in TEXT_TYPES:
            delta = field2(event, "delta", "delta")
            return Step(EventCategory.TEXT_CONTENT, delta) if delta else SKIP
        if kind is None or kind in FRAMING_SKIP_TYPES:
            return SKIP if kind else PASSTHROUGH
        if kind in REASONING_START_TYPES or kind in REASONING_CONTENT_TYPES:
            message_id = field2(event, "message_id", "messageId")
            key = ("reasoning", message_id)
            natives = self._start(
                key,
                NativeStart(key, "thinking", message_id if isinstance(message_id, str) else None),
            )
            delta = field2(event, "delta", "delta")
            if delta:
                natives.append(NativeDelta(key, delta))
            return Step(EventCategory.SKIP, natives=natives) if natives else SKIP
        if kind in REASONING_END_TYPES:
            message = field2(event, "message_id", "messageId")
            if message in self._spans:
                return SKIP  # ends with its span: an encrypted value may still come
            natives = self._end(("reasoning", message))
            return Step(EventCategory.SKIP, natives=natives) if natives else SKIP
        if kind.startswith("TOOL_CALL_"):
            return self._tool(kind, event)
        if kind == "RUN_STARTED":
            return PASSTHROUGH  # its thread and run ids are the output's run framing
        if kind == "RUN_FINISHED":
            self._open.clear()
            return Step(
                EventCategory.PASSTHROUGH,
                natives=(NativeEnd(None),),
                stop=self._finish_reason(event),
                usage=_usage(field2(event, "usage", "usage")),
            )
        if kind == "RUN_ERROR":
            self._open.clear()
            return Step(
                EventCategory.PASSTHROUGH,
                natives=(NativeEnd(None),),
                stop=StopReason.error,
                usage=_usage(field2(event, "usage", "usage")),
            )
        return PASSTHROUGH

    def stream_ids(self, event: Any) -> StreamIds | None:
        """The thread and run ids of ``RUN_STARTED`` / ``RUN_FINISHED``."""
        if _kind(event) not in ("RUN_STARTED", "RUN_FINISHED"):
            return None
        thread_id = field2(event, "thread_id", "threadId")
        run_id = field2(event, "run_id", "runId")
        return StreamIds(
            thread_id if isinstance(thread_id, str) else None,
            run_id if isinstance(run_id, str) else None,
        )

    def error(self, event: Any) -> str | None:
        """The message of a ``RUN_ERROR``."""
        if _kind(event) == "RUN_ERROR":
            message = field2(event, "message", "message")
            return message if isinstance(message, str) else "RUN_ERROR"
        return None

    def _tool(self, kind: str, event: Any) -> Step:
        call_id = field2(event, "tool_call_id", "toolCallId")
        if kind == "TOOL_CALL_RESULT":
            self._pending_calls.discard(call_id)
            return self._result(call_id, event)
        natives: list[Native] = []
        if kind == "TOOL_CALL_CHUNK":
            if call_id is None:
                key = self._chunk_tool
            else:
                key = ("tool_call", call_id)
                if key != self._chunk_tool and self._chunk_tool is not None:
                    natives.extend(self._end(self._chunk_tool))
            if key is None:
                return SKIP
            if key not in self._open:
                self._chunk_tool = key
        else:
            key = ("tool_call", call_id)
        if kind in ("TOOL_CALL_START", "TOOL_CALL_CHUNK") and key not in self._open:
            self._pending_calls.add(call_id)
            name = field2(event, "tool_call_name", "toolCallName")
            if isinstance(call_id, str):
                self._names[call_id] = name
            natives.extend(self._start(key, tool_call_start(key, call_id, name)))
        if kind == "TOOL_CALL_END":
            natives.extend(self._end(key))
        else:
            delta = field2(event, "delta", "delta")
            if delta and key in self._open:
                natives.append(NativeDelta(key, delta))
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP

    def _result(self, call_id: Any, event: Any) -> Step:
        """A ``TOOL_CALL_RESULT`` as a ``tool_result`` block naming the call's tool (its
        ``message_id`` kept in the attrs, so an AG-UI output re-emits it unchanged)."""
        key = ("tool_result", call_id, field2(event, "message_id", "messageId"))
        content = field2(event, "content", "content")
        attrs = {
            "tool_call_id": call_id,
            "name": self._names.get(call_id) if isinstance(call_id, str) else None,
            "is_error": False,
            "message_id": key[2],
        }
        return Step(
            EventCategory.SKIP,
            natives=(
                NativeStart(key, "tool_result", None, attrs),
                NativeEnd(key, content if content is not None else ""),
            ),
        )

    def _finish_reason(self, event: Any) -> StopReason:
        said = field2(field2(event, "result", "result"), "stop_reason", "stop_reason")
        if isinstance(said, str) and said in _STOPS:  # our own output's: as it was
            return _STOPS[said]
        outcome = field2(event, "outcome", "outcome")
        outcome_type = enum_value(field2(outcome, "type", "type")) if outcome else None
        if outcome_type in ("interrupt", "cancelled"):
            return StopReason.unknown
        pending = field2(outcome, "pending_tool_call_ids", "pendingToolCallIds") if outcome else ()
        if pending or self._pending_calls:
            return StopReason.tool_use
        return StopReason.end_turn
