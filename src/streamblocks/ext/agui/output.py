"""AG-UI output adapter: our events as ``ag_ui.core`` events, for a front end.

One configured :class:`AGUIOutputAdapter` serves any number of streams: the processor
calls :meth:`AGUIOutputAdapter.for_stream` once per stream and feeds that copy, which
holds the stream's state (the open text message, the run ids, the open blocks).
Used by hand on a session, call ``for_stream()`` yourself for each stream.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from ...core.events import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockStart,
    StopReason,
    StreamFinished,
    StreamStarted,
    TextDelta,
)
from .payloads import (
    block_payload,
    delta_payload,
    error_payload,
    jsonable,
    metadata_payload,
    run_result,
    start_payload,
    token_usage,
)
from .types import EVENT_TYPES

GROUPS = frozenset({"run", "text", "thinking", "tool_calls", "blocks", "errors", "passthrough"})
"""The groups of AG-UI events an :class:`AGUIOutputAdapter` can emit:

- ``run``: ``RUN_STARTED``, ``RUN_FINISHED``, ``RUN_ERROR``;
- ``text``: ``TEXT_MESSAGE_START`` / ``_CONTENT`` / ``_END`` for the visible text;
- ``thinking``: ``REASONING_START``, ``REASONING_MESSAGE_START`` / ``_CONTENT`` /
  ``_END``, ``REASONING_END`` for thinking blocks;
- ``tool_calls``: ``TOOL_CALL_START`` / ``_ARGS`` / ``_END`` for native tool calls and
  gadget blocks, ``TOOL_CALL_RESULT`` for native tool results;
- ``blocks``: ``CUSTOM`` events ``streamblocks.block_start``, ``.block_metadata``,
  ``.block_delta``, ``.block_end`` for every other block;
- ``errors``: ``CUSTOM`` ``streamblocks.block_error`` for rejected blocks;
- ``passthrough``: the input's own AG-UI events as they are, other providers' events
  as ``RAW`` events.
"""

CUSTOM_PREFIX = "streamblocks."
_THINKING_TYPES = frozenset({"thinking", "reasoning"})


class _Open:
    """A block whose AG-UI events are under way."""

    __slots__ = ("args_sent", "kind", "message_id", "tool_call_id")

    def __init__(self, kind: str, message_id: str = "", tool_call_id: str = "") -> None:
        self.kind = kind  # "thinking", "tool", "gadget", "tool_result", "custom"
        self.message_id = message_id
        self.tool_call_id = tool_call_id
        self.args_sent = False


class AGUIOutputAdapter:
    """Turns a stream's events into ``ag_ui.core`` events (needs the ``agui`` extra).

    - The run is framed by ``RUN_STARTED`` and ``RUN_FINISHED`` (``RUN_ERROR`` when the
      stream stopped with :attr:`StopReason.error`). When the input is itself an AG-UI
      stream, its own ``RUN_STARTED``/``RUN_FINISHED``/``RUN_ERROR`` are used instead
      (the finishing one is held until the stream's end), so nothing is duplicated.
      ``RUN_FINISHED.result`` carries the stop reason, usage and counts.
    - Visible text is one ``TEXT_MESSAGE_START`` … ``TEXT_MESSAGE_END`` message per run
      of text; a block ends the message, and text after it starts a new one (new id).
      A content delta is never empty.
    - Thinking blocks become reasoning messages, tool-call blocks (provider-native and
      gadget) ``TOOL_CALL_START``/``ARGS``/``END`` (a gadget's arguments are sent as
      one JSON ``ARGS`` delta when it closes), native tool results ``TOOL_CALL_RESULT``;
      every other block becomes ``CUSTOM`` events named ``streamblocks.block_*`` with
      JSON payloads (metadata and content dumped with pydantic).

    ``groups`` chooses what is emitted (see :data:`GROUPS`); ``thread_id`` and ``run_id``
    default to the provider's session and run ids that ``STREAM_STARTED`` carries (a
    Claude CLI session, a Codex thread), else to the stream id; ``RUN_FINISHED.result``
    names the provider's ids known at the end. The ``ag_ui`` package is imported when the
    adapter is made.
    """

    def __init__(
        self,
        *,
        groups: Collection[str] = GROUPS,
        thread_id: str | None = None,
        run_id: str | None = None,
    ) -> None:
        try:
            from ag_ui import core
        except ImportError as exc:  # pragma: no cover - the extra is installed in tests
            raise ImportError(
                "AGUIOutputAdapter needs the AG-UI SDK (ag-ui-protocol): install this "
                "project with its agui extra, pip install '.[agui]' from a checkout"
            ) from exc
        unknown = set(groups) - GROUPS
        if unknown:
            raise ValueError(
                f"unknown AG-UI event groups {sorted(unknown)}; choose from {sorted(GROUPS)}"
            )
        self._core = core
        self.groups = frozenset(groups)
        self.thread_id = thread_id
        self.run_id = run_id
        self._stream_id = ""
        self._provider_ids: tuple[str | None, str | None] = (None, None)
        self._run_pending = False
        self._run_started = False
        self._final: Any = None
        self._message_id: str | None = None
        self._last_message_id: str | None = None
        self._messages = 0
        self._open: dict[str, _Open] = {}
        self._event_adapter: Any = None

    def for_stream(self) -> AGUIOutputAdapter:
        """A fresh adapter with this one's configuration, for one stream."""
        return type(self)(groups=self.groups, thread_id=self.thread_id, run_id=self.run_id)

    def __repr__(self) -> str:
        return f"AGUIOutputAdapter(groups={sorted(self.groups)!r})"

    # ------------------------------------------------------------------ helpers

    def _ids(self) -> tuple[str, str]:
        """The run's thread and run ids: as configured, else the provider's (a Claude
        CLI session, a Codex thread, an AG-UI run), else the stream id."""
        return (
            self.thread_id or self._provider_ids[0] or self._stream_id,
            self.run_id or self._provider_ids[1] or self._stream_id,
        )

    def _start_run(self, out: list[Any]) -> None:
        if self._run_pending:
            self._run_pending = False
            if "run" in self.groups:
                thread_id, run_id = self._ids()
                out.append(self._core.RunStartedEvent(thread_id=thread_id, run_id=run_id))
                self._run_started = True

    def _end_text(self, out: list[Any]) -> None:
        if self._message_id is not None:
            if "text" in self.groups:
                out.append(self._core.TextMessageEndEvent(message_id=self._message_id))
                self._last_message_id = self._message_id
            self._message_id = None

    def _new_id(self, what: str) -> str:
        self._messages += 1
        return f"{self._stream_id}-{what}{self._messages}"

    # ------------------------------------------------------------------ our events

    def to_protocol_event(self, event: Any) -> list[Any]:
        """The AG-UI events for one of our events (often none or one)."""
        out: list[Any] = []
        if isinstance(event, TextDelta):
            if event.text:
                self._start_run(out)
                if "text" in self.groups:
                    if self._message_id is None:
                        self._message_id = self._new_id("m")
                        out.append(
                            self._core.TextMessageStartEvent(
                                message_id=self._message_id, role="assistant"
                            )
                        )
                    out.append(
                        self._core.TextMessageContentEvent(
                            message_id=self._message_id, delta=event.text
                        )
                    )
                elif self._message_id is None:
                    self._message_id = self._new_id("m")
            return out
        if isinstance(event, StreamStarted):
            self._stream_id = event.stream_id
            self._provider_ids = (event.session_id, event.run_id)
            self._run_pending = True
            return out
        self._start_run(out)
        if isinstance(event, BlockStart):
            self._end_text(out)
            self._block_start(event, out)
        elif isinstance(event, BlockDelta):
            self._block_delta(event, out)
        elif isinstance(event, BlockMetadata):
            opened = self._open.get(event.block_id)
            if opened is not None and opened.kind == "custom" and "blocks" in self.groups:
                out.append(self._custom("block_metadata", metadata_payload(event)))
        elif isinstance(event, BlockEnd):
            self._end_text(out)
            self._block_end(event, out)
        elif isinstance(event, BlockError):
            self._end_text(out)
            self._block_error(event, out)
        elif isinstance(event, StreamFinished):
            self._finish(event, out)
        return out

    def _custom(self, name: str, value: Any) -> Any:
        return self._core.CustomEvent(name=CUSTOM_PREFIX + name, value=value)

    def _block_start(self, event: BlockStart, out: list[Any]) -> None:
        core, groups = self._core, self.groups
        native = event.syntax == "native"
        if native and event.block_type in _THINKING_TYPES:
            opened = _Open("thinking", message_id=f"{self._stream_id}-{event.block_id}")
            if "thinking" in groups:
                out.append(core.ReasoningStartEvent(message_id=opened.message_id))
                out.append(core.ReasoningMessageStartEvent(message_id=opened.message_id))
        elif (native and event.block_type == "tool_call") or event.syntax == "gadget":
            call_id = event.attrs.get("id") if native else None
            name = event.attrs.get("name") if native else None
            opened = _Open(
                "tool" if native else "gadget",
                tool_call_id=str(call_id or event.block_id),
            )
            if "tool_calls" in groups:
                out.append(
                    core.ToolCallStartEvent(
                        tool_call_id=opened.tool_call_id,
                        tool_call_name=str(name or event.block_type),
                        parent_message_id=self._last_message_id,
                    )
                )
        elif native and event.block_type == "tool_result":
            opened = _Open("tool_result")
        else:
            opened = _Open("custom")
            if "blocks" in groups:
                out.append(self._custom("block_start", start_payload(event)))
        self._open[event.block_id] = opened

    def _block_delta(self, event: BlockDelta, out: list[Any]) -> None:
        opened = self._open.get(event.block_id)
        if opened is None or not event.text:
            return
        kind = opened.kind
        if kind == "thinking":
            if "thinking" in self.groups:
                out.append(
                    self._core.ReasoningMessageContentEvent(
                        message_id=opened.message_id, delta=event.text
                    )
                )
        elif kind == "tool":
            opened.args_sent = True
            if "tool_calls" in self.groups:
                out.append(
                    self._core.ToolCallArgsEvent(tool_call_id=opened.tool_call_id, delta=event.text)
                )
        elif kind == "custom" and "blocks" in self.groups:
            out.append(self._custom("block_delta", delta_payload(event)))

    def _close_open(self, opened: _Open, out: list[Any], content: Any = None) -> None:
        core, groups = self._core, self.groups
        if opened.kind == "thinking" and "thinking" in groups:
            out.append(core.ReasoningMessageEndEvent(message_id=opened.message_id))
            out.append(core.ReasoningEndEvent(message_id=opened.message_id))
        elif opened.kind in ("tool", "gadget") and "tool_calls" in groups:
            if not opened.args_sent and content is not None:
                arguments = json.dumps(jsonable(content), ensure_ascii=False)
                out.append(
                    core.ToolCallArgsEvent(tool_call_id=opened.tool_call_id, delta=arguments)
                )
            out.append(core.ToolCallEndEvent(tool_call_id=opened.tool_call_id))

    def _block_end(self, event: BlockEnd, out: list[Any]) -> None:
        block = event.block
        opened = self._open.pop(block.id, None)
        if opened is None:  # its start was not seen (converted elsewhere): start it now
            self._block_start(BlockStart(block.id, block.type, block.syntax, block.attrs), out)
            opened = self._open.pop(block.id)
        if opened.kind == "tool_result":
            if "tool_calls" in self.groups:
                content = jsonable(block.content)
                text = (
                    content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
                )
                out.append(
                    self._core.ToolCallResultEvent(
                        message_id=self._new_id("t"),
                        tool_call_id=str(block.attrs.get("tool_call_id") or block.id),
                        content=text,
                    )
                )
        elif opened.kind == "custom":
            if "blocks" in self.groups:
                out.append(self._custom("block_end", block_payload(event)))
        else:
            self._close_open(opened, out, block.content if block.content is not None else {})

    def _block_error(self, event: BlockError, out: list[Any]) -> None:
        opened = self._open.pop(event.block_id, None) if event.block_id is not None else None
        if opened is not None:
            self._close_open(opened, out, {})
        if "errors" in self.groups:
            out.append(self._custom("block_error", error_payload(event)))

    def _finish(self, event: StreamFinished, out: list[Any]) -> None:
        self._end_text(out)
        for opened in self._open.values():
            self._close_open(opened, out, {})
        self._open.clear()
        if "run" not in self.groups:
            return
        if self._final is not None:
            out.append(self._final)
            return
        core = self._core
        usage = token_usage(core, event.usage)
        if event.stop_reason is StopReason.error:
            message = event.error or "the stream stopped with an error"
            out.append(core.RunErrorEvent(message=message, usage=usage))
            return
        thread_id, run_id = self._ids()
        result = run_result(event)
        out.append(
            core.RunFinishedEvent(thread_id=thread_id, run_id=run_id, result=result, usage=usage)
        )

    # ------------------------------------------------------------------ passthrough

    def passthrough(self, event: Any) -> list[Any]:
        """A provider event the input adapter passed through: an AG-UI event as it is
        (its run framing taking the place of ours), anything else as a ``RAW`` event."""
        core = self._core
        agui = self._as_agui(event)
        out: list[Any] = []
        if agui is None:
            self._start_run(out)
            if "passthrough" in self.groups:
                source = None if isinstance(event, Mapping) else type(event).__module__
                out.append(core.RawEvent(event=jsonable(event), source=source))
            return out
        kind = agui.type.value if hasattr(agui.type, "value") else str(agui.type)
        if kind == "RUN_STARTED":
            if not self._run_started:  # the input's run framing replaces ours
                self._run_pending = False
                self.thread_id = self.thread_id or agui.thread_id
                self.run_id = self.run_id or agui.run_id
                if "run" in self.groups:
                    self._run_started = True
                    out.append(agui)
            return out
        if kind in ("RUN_FINISHED", "RUN_ERROR"):
            self._start_run(out)
            self._final = agui  # sent at the stream's end, after what is still open
            return out
        self._start_run(out)
        if "passthrough" in self.groups:
            out.append(agui)
        return out

    def _as_agui(self, event: Any) -> Any:
        """``event`` as an ``ag_ui.core`` event, or ``None`` when it is not one."""
        core = self._core
        if isinstance(event, core.BaseEvent):
            return event
        if isinstance(event, Mapping) and _is_type_name(event.get("type")):
            if self._event_adapter is None:
                from pydantic import TypeAdapter

                self._event_adapter = TypeAdapter(core.Event)
            try:
                return self._event_adapter.validate_python(dict(event))
            except ValueError:
                return None
        return None


def _is_type_name(kind: Any) -> bool:
    return isinstance(kind, str) and kind in EVENT_TYPES


def agui_events(events: Iterable[Any], adapter: AGUIOutputAdapter | None = None) -> list[Any]:
    """Convert a finished list of our events (one stream) to AG-UI events."""
    out_adapter = (adapter or AGUIOutputAdapter()).for_stream()
    converted: list[Any] = []
    for event in events:
        if getattr(event, "type", None) == "PASSTHROUGH":
            converted.extend(out_adapter.passthrough(event.event))
        else:
            converted.extend(out_adapter.to_protocol_event(event))
    return converted
