"""Claude CLI input adapter: the JSON lines of ``claude -p --output-format stream-json``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ...adapters.protocols import (
    EventCategory,
    Native,
    NativeDelta,
    NativeEnd,
    NativeStart,
    StreamIds,
)
from ...core.events import StopReason, Usage
from .._base import PASSTHROUGH, SKIP, Step, as_int, whole_arguments
from .._jsonl import (
    JSONLinesAdapter,
    is_mapping,
    text_of,
)
from .._subagents import Nesting, parent_of
from ..anthropic import AnthropicInputAdapter
from ..anthropic.types import STOP_REASONS
from .results import Tool, typed_blocks
from .types import COMMAND_TOOLS, LINE_TYPES

_new_part = tuple.__new__


class Part(NamedTuple):
    """One content block of an ``assistant`` or ``user`` line, analysed on its own so
    text and tool calls keep their order."""

    role: str
    block: Mapping[str, Any]
    line: Mapping[str, Any]
    position: int


def _usage(raw: Any, cost: Any) -> Usage | None:
    if not is_mapping(raw):
        return Usage(cost_usd=float(cost)) if isinstance(cost, (int, float)) else None
    return Usage(
        input_tokens=as_int(raw.get("input_tokens")),
        output_tokens=as_int(raw.get("output_tokens")),
        cache_read_tokens=as_int(raw.get("cache_read_input_tokens")),
        cache_write_tokens=as_int(raw.get("cache_creation_input_tokens")),
        cost_usd=float(cost) if isinstance(cost, (int, float)) else None,
    )


def _is_line(event: Any) -> bool:
    if not is_mapping(event):
        return False
    kind = event.get("type")
    if kind == "system":
        return isinstance(event.get("subtype"), str)
    if kind == "stream_event":
        return is_mapping(event.get("event"))
    if kind in ("assistant", "user"):
        message = event.get("message")
        return is_mapping(message) and "content" in message
    if kind == "result":
        return "subtype" in event or "is_error" in event
    return False


class ClaudeCLIInputAdapter(JSONLinesAdapter):
    """Reads Claude Code's ``stream-json`` transcript (``claude -p --output-format
    stream-json --verbose``, with or without ``--include-partial-messages``).

    Feed raw chunks (``str`` or ``bytes``, cut anywhere), parsed line dicts, or the JSON
    array ``--output-format json --verbose`` prints. What becomes what:

    - ``stream_event`` lines wrap Anthropic stream events and are read by
      :class:`~streamblocks.ext.anthropic.AnthropicInputAdapter`: text deltas are text,
      thinking and tool-use blocks become ``thinking`` / ``tool_call`` blocks (input JSON
      assembled from its deltas);
    - ``assistant`` lines give text, ``thinking`` and ``tool_call`` blocks — unless the
      message was already streamed by ``stream_event`` lines (partial messages on), in
      which case the snapshot is skipped so nothing arrives twice;
    - ``user`` lines give a ``tool_result`` block per result and, from the line's
      ``tool_use_result``, a typed block: ``code`` for a Read (path, language, start
      line, total lines), ``command`` for Bash (output, status), ``file_change`` for
      Edit/MultiEdit/Write (path, kind, diff), ``todo`` for TodoWrite;
    - ``system`` (``init``: session id, model, tools) and ``result`` (duration, turns,
      cost, usage) lines pass through; ``result`` sets the stop reason, the usage with
      ``cost_usd``, and on an error turn :attr:`StopReason.error` with its message.

    A transcript without a ``result`` line is incomplete: its stop reason stays
    :attr:`StopReason.unknown`, never ``end_turn``. Malformed lines (not JSON, unknown
    type, missing fields) are skipped with an :class:`AdapterWarning`.
    """

    tool_name = "Claude CLI"

    _inner: AnthropicInputAdapter
    _streamed: set[Any]
    _tools: dict[str, Tool]
    _last_stop: StopReason | None
    _subs: dict[str, AnthropicInputAdapter]
    _nesting: Nesting
    _ids: StreamIds | None

    def _reset(self) -> None:
        super()._reset()
        self._ids = None
        self._inner = AnthropicInputAdapter()
        self._subs = {}  # parent call id -> the reader of its sub-agent's stream events
        self._nesting = Nesting()
        self._streamed = set()  # ids of messages read from stream_event lines
        self._tools = {}
        self._last_stop = None

    def matches(self, event: Any) -> bool:
        try:
            if isinstance(event, list):  # `--output-format json --verbose`, parsed
                return bool(event) and _is_line(event[0])
            return _is_line(event)
        except Exception:
            return False

    # ------------------------------------------------------------------ framing

    def _expand(self, event: Mapping[str, Any]) -> list[Any]:
        kind = event.get("type")
        if kind not in ("assistant", "user"):
            return [event]
        message = event.get("message")
        content = message.get("content") if is_mapping(message) else None
        if not isinstance(content, list):
            return [event]
        if len(content) == 1:  # (most lines: one block; a Part made without its __new__)
            return [_new_part(Part, (kind, content[0], event, 0))]
        return [Part(kind, block, event, i) for i, block in enumerate(content)]

    def _remember_tool(self, call_id: Any, name: Any, tool_input: Any) -> None:
        if isinstance(call_id, str):
            known = self._tools.get(call_id)
            if tool_input is None and known is not None:
                tool_input = known.input
            self._tools[call_id] = Tool(str(name or ""), tool_input)

    # ------------------------------------------------------------------ analysis

    def _analyze(self, event: Any) -> Step:
        if isinstance(event, Part):
            return self._part(event)
        kind = event.get("type") if is_mapping(event) else None
        if kind == "stream_event":
            return self._stream_event(event)
        if kind == "assistant":
            if not is_mapping(event.get("message")):
                self._missing(kind, "a message")
            elif parent_of(event.get("parent_tool_use_id")) is None:
                self._note_stop(event)
            return SKIP
        if kind == "user":
            if not is_mapping(event.get("message")):
                self._missing(kind, "a message")
            return SKIP  # a prompt echoed back (--replay-user-messages)
        if kind == "system":
            if event.get("subtype") == "init":  # a (new) run: not finished until its result
                self._last_stop = None
                return Step(EventCategory.PASSTHROUGH, stop=StopReason.unknown)
            return PASSTHROUGH
        if kind == "result":
            return self._result(event)
        if kind in LINE_TYPES:
            return SKIP
        self._unknown(kind)
        return SKIP

    def _note_stop(self, line: Mapping[str, Any]) -> None:
        stop = line["message"].get("stop_reason")
        if isinstance(stop, str):
            self._last_stop = STOP_REASONS.get(stop, StopReason.unknown)

    def stream_ids(self, event: Any) -> StreamIds | None:
        """The run's ``session_id``, which every line carries."""
        line = event.line if event.__class__ is Part or isinstance(event, Part) else event
        session_id = line.get("session_id") if line.__class__ is dict or is_mapping(line) else None
        if not isinstance(session_id, str):
            return None
        ids = self._ids  # (the same on every line: made once)
        if ids is None or ids.session_id != session_id:
            ids = self._ids = StreamIds(session_id)
        return ids

    def error(self, event: Any) -> str | None:
        """The message of an error ``result``."""
        if event.__class__ is Part or not is_mapping(event) or event.get("type") != "result":
            return None
        if not (event.get("is_error") or str(event.get("subtype", "")).startswith("error")):
            return None
        for key in ("result", "error"):
            value = event.get(key)
            if isinstance(value, str) and value:
                return value
        errors = event.get("errors")
        if isinstance(errors, list) and errors:
            return "; ".join(str(error) for error in errors)
        return f"Claude CLI run failed ({event.get('subtype', 'error')})"

    def _result(self, event: Mapping[str, Any]) -> Step:
        usage = _usage(event.get("usage"), event.get("total_cost_usd"))
        if event.get("is_error") or str(event.get("subtype", "")).startswith("error"):
            stop = StopReason.error
        else:
            reported = event.get("stop_reason")
            if isinstance(reported, str):
                stop = STOP_REASONS.get(reported, StopReason.unknown)
            else:
                stop = self._last_stop or StopReason.end_turn
        return Step(EventCategory.PASSTHROUGH, stop=stop, usage=usage)

    def _stream_event(self, event: Mapping[str, Any]) -> Step:
        inner = event.get("event")
        if not is_mapping(inner):
            self._missing("stream_event", "an event")
            return SKIP
        inner_kind = inner.get("type")
        if inner_kind == "message_start":
            message = inner.get("message")
            if is_mapping(message):
                self._streamed.add(message.get("id"))
        if inner_kind == "content_block_start":
            block = inner.get("content_block")
            if is_mapping(block) and block.get("type") == "tool_use":
                self._remember_tool(block.get("id"), block.get("name"), None)
        parent = parent_of(event.get("parent_tool_use_id"))
        if parent is not None:
            return self._sub_stream_event(parent, inner)
        adapter = self._inner
        category = adapter.categorize(inner)
        natives = adapter.native_events(inner)
        stop = adapter.stop_reason(inner)
        if stop is not None and stop is not StopReason.error:
            self._last_stop = stop  # the run's stop reason is decided by its result line
        if category is EventCategory.TEXT_CONTENT:
            return Step(category, adapter.extract_text(inner), natives)
        if category is EventCategory.PASSTHROUGH:
            return Step(category, natives=natives)
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP

    def _sub_stream_event(self, parent: str, inner: Mapping[str, Any]) -> Step:
        """A sub-agent's stream event: read by a reader of its own (its content-block
        indexes are its own), its pieces under the parent call."""
        adapter = self._subs.get(parent)
        if adapter is None:
            adapter = self._subs[parent] = AnthropicInputAdapter()
        category = adapter.categorize(inner)
        nesting = self._nesting
        natives = nesting.pieces(parent, adapter.native_events(inner))
        index = inner.get("index")
        if category is EventCategory.TEXT_CONTENT:
            natives = [*nesting.text(parent, index, adapter.extract_text(inner)), *natives]
        elif inner.get("type") == "content_block_stop":
            natives = [*nesting.end_text(parent, index), *natives]
        elif category is EventCategory.STREAM_END:
            natives = [*natives, *nesting.close(parent)]  # the sub-agent's turn ended
        if category is not EventCategory.PASSTHROUGH:
            category = EventCategory.SKIP  # neither its text nor its start and end are the run's
        return Step(category, natives=natives)

    def _part(self, part: Part) -> Step:
        parent = part.line.get("parent_tool_use_id")
        if parent is None or not (isinstance(parent, str) and parent):  # (parent_of)
            return self._own_part(part)
        step = self._own_part(part, sub_agent=True)
        return self._nesting.step(parent, step, (id(part.line), part.position))

    def _own_part(self, part: Part, *, sub_agent: bool = False) -> Step:
        block = part.block
        if block.__class__ is not dict and not is_mapping(block):
            return SKIP
        kind = block.get("type")
        key = (part.role, id(part.line), part.position)
        if part.role == "assistant":
            if kind == "tool_use":
                self._remember_tool(block.get("id"), block.get("name"), block.get("input"))
            if part.position == 0 and not sub_agent:
                self._note_stop(part.line)
            if part.line["message"].get("id") in self._streamed:
                return SKIP  # a snapshot of content already read from stream events
            if kind == "text":
                text = block.get("text")
                return Step(EventCategory.TEXT_CONTENT, text) if isinstance(text, str) else SKIP
            if kind == "thinking":
                thinking = block.get("thinking")
                signature = block.get("signature")
                natives: list[Native] = [NativeStart(key, "thinking")]
                if isinstance(thinking, str) and thinking:
                    natives.append(NativeDelta(key, thinking))
                natives.append(
                    NativeEnd(key, None, {"signature": signature} if signature else None)
                )
                return Step(EventCategory.SKIP, natives=natives)
            if kind == "tool_use":
                call_id = block.get("id")
                if not isinstance(call_id, str):
                    self._missing("tool_use", "an id")
                    return SKIP
                tool_input = block.get("input")
                return Step(
                    EventCategory.SKIP,
                    natives=(
                        NativeStart(
                            key,
                            "tool_call",
                            call_id,
                            {"name": block.get("name"), "id": call_id},
                            "json",
                        ),
                        *whole_arguments(key, tool_input if is_mapping(tool_input) else {}),
                    ),
                )
            return SKIP  # redacted thinking, server tool blocks, anything newer
        if kind != "tool_result":
            return SKIP  # text or images of a user prompt
        call_id = block.get("tool_use_id")
        if not isinstance(call_id, str):
            self._missing("tool_result", "a tool_use_id")
            return SKIP
        is_error = bool(block.get("is_error", False))
        content = text_of(block.get("content"))
        tool = self._tools.get(call_id)
        attrs = {"tool_call_id": call_id, "name": tool.name if tool else None, "is_error": is_error}
        natives = [
            NativeStart(key, "tool_result", None, attrs),
            NativeEnd(key, content if content is not None else ""),
        ]
        line = part.line
        payload = line.get("tool_use_result", line.get("toolUseResult"))
        if is_mapping(payload):
            natives.extend(typed_blocks(("typed", key), call_id, tool, payload, is_error, content))
        elif isinstance(payload, str) and tool is not None and tool.name in COMMAND_TOOLS:
            # A failed command's result is its error text ("Error: Exit code 1\n...").
            failure = {"stdout": "", "stderr": payload}
            natives.extend(typed_blocks(("typed", key), call_id, tool, failure, is_error, payload))
        return Step(EventCategory.SKIP, natives=natives)
