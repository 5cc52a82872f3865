"""AG-UI output adapter: our events as ``ag_ui.core`` events, for a front end.

One configured :class:`AGUIOutputAdapter` serves any number of streams: the processor
calls :meth:`AGUIOutputAdapter.for_stream` once per stream and feeds that copy, which
holds the stream's state (the run ids, the open text message, and through its
:class:`~streamblocks.ext.agui.blocks.BlockEvents` part the open blocks).
Used by hand on a session, call ``for_stream()`` yourself for each stream.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from ...core.blocks import Block
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
from ...step import passthrough_block
from .blocks import BlockEvents
from .payloads import jsonable, run_result, token_usage
from .subagents import SubAgentEvents
from .types import EVENT_TYPES

GROUPS = frozenset(
    {"run", "text", "thinking", "tool_calls", "subagents", "blocks", "errors", "passthrough"}
)
"""The groups of AG-UI events an :class:`AGUIOutputAdapter` can emit:

- ``run``: ``RUN_STARTED``, ``RUN_FINISHED``, ``RUN_ERROR``;
- ``text``: ``TEXT_MESSAGE_START`` / ``_CONTENT`` / ``_END`` for the visible text;
- ``thinking``: ``REASONING_START``, ``REASONING_MESSAGE_START`` / ``_CONTENT`` /
  ``_END``, ``REASONING_END`` for thinking blocks, ``REASONING_ENCRYPTED_VALUE`` for
  thinking signatures, redacted thinking and thought signatures (1.0);
- ``tool_calls``: ``TOOL_CALL_START`` / ``_ARGS`` / ``_END`` for native tool calls and
  gadget blocks, ``TOOL_CALL_RESULT`` for native tool results;
- ``subagents``: ``SUBAGENT_STARTED`` / ``_FINISHED`` / ``_ERROR`` around a sub-agent's
  blocks (1.0);
- ``blocks``: ``CUSTOM`` events ``streamblocks.block_start``, ``.block_metadata``,
  ``.block_delta``, ``.block_end`` for every other block;
- ``errors``: ``CUSTOM`` ``streamblocks.block_error`` for rejected blocks;
- ``passthrough``: the input's own AG-UI events as they are, other providers' events
  as ``RAW`` events.
"""


PROTOCOLS = ("1.0", "0.1")
"""The shapes :class:`AGUIOutputAdapter` can emit (its ``protocol``)."""
_NO_PENDING = frozenset({StopReason.max_tokens, StopReason.content_filter, StopReason.refusal})


def sdk_protocol(core: Any) -> str:
    """The newest shape the installed ``ag_ui`` SDK can build: ``"1.0"`` when it has the
    1.0 events (``ag-ui-protocol`` 1.0 and later), else ``"0.1"``."""
    has_v1 = hasattr(core, "SubagentStartedEvent") and hasattr(core, "PROTOCOL_VERSION")
    return "1.0" if has_v1 else "0.1"


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

    ``protocol`` is the shape (:data:`PROTOCOLS`): ``"1.0"`` (the default with
    ``ag-ui-protocol`` 1.0) declares ``protocol_version`` on ``RUN_STARTED``, sends a
    sub-agent's blocks as its own events between ``SUBAGENT_STARTED`` and
    ``SUBAGENT_FINISHED``/``_ERROR`` (:mod:`~streamblocks.ext.agui.subagents`), thinking
    signatures and redacted thinking as ``REASONING_ENCRYPTED_VALUE``, and the outcome on
    ``RUN_FINISHED`` (the calls left to run as ``pending_tool_call_ids``). ``"0.1"`` (the
    default with an older SDK) is the shape before 1.0, for clients that read no more:
    none of these, a sub-agent's text as ``streamblocks.block_*`` events whose ``attrs``
    name its ``parent_id``.

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
        protocol: str | None = None,
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
        newest = sdk_protocol(core)
        protocol = protocol or newest
        if protocol not in PROTOCOLS:
            raise ValueError(f"unknown AG-UI protocol {protocol!r}; choose from {PROTOCOLS}")
        if protocol == "1.0" and newest != "1.0":
            raise ValueError(
                "AG-UI protocol 1.0 needs ag-ui-protocol 1.0 or newer; the installed SDK "
                "builds the 0.1 events only (upgrade it, or pass protocol='0.1')"
            )
        self.protocol = protocol
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
        self._messages = 0
        subagents = SubAgentEvents(core) if protocol == "1.0" else None
        self._blocks = BlockEvents(core, self.groups, self._new_id, subagents)
        self._event_adapter: Any = None

    def for_stream(self) -> AGUIOutputAdapter:
        """A fresh adapter with this one's configuration, for one stream."""
        return type(self)(
            groups=self.groups, thread_id=self.thread_id, run_id=self.run_id, protocol=self.protocol
        )

    def __repr__(self) -> str:
        return f"AGUIOutputAdapter(groups={sorted(self.groups)!r}, protocol={self.protocol!r})"

    def __getstate__(self) -> dict[str, Any]:
        """The per-stream state, picklable (a resumed stream's worker goes on with the
        same message ids): the ``ag_ui`` module is imported again when unpickled."""
        state = dict(self.__dict__)
        state["_core"] = state["_event_adapter"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        from ag_ui import core

        self.__dict__.update(state)
        self._core = self._blocks.core = core
        if self._blocks.subagents is not None:
            self._blocks.subagents.core = core

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
                thread, run = self._ids()
                start = self._core.RunStartedEvent(thread_id=thread, run_id=run, **self._version())
                out.append(start)
                self._run_started = True

    def _version(self) -> dict[str, Any]:
        """``RUN_STARTED``'s protocol declaration (1.0: a producer must make one)."""
        if self.protocol == "1.0":
            return {"protocol_version": self._core.PROTOCOL_VERSION}
        return {}

    def _end_text(self, out: list[Any]) -> None:
        if self._message_id is not None:
            if "text" in self.groups:
                out.append(self._core.TextMessageEndEvent(message_id=self._message_id))
                self._blocks.parent_message_id = self._message_id
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
            self._stream_id = self._blocks.stream_id = event.stream_id
            self._provider_ids = (event.session_id, event.run_id)
            self._run_pending = True
            return out
        self._start_run(out)
        blocks = self._blocks
        if isinstance(event, BlockStart):
            self._end_text(out)
            blocks.start(event, out)
        elif isinstance(event, BlockDelta):
            blocks.delta(event, out)
        elif isinstance(event, BlockMetadata):
            blocks.metadata(event, out)
        elif isinstance(event, BlockEnd):
            self._end_text(out)
            blocks.end(event, out)
        elif isinstance(event, BlockError):
            self._end_text(out)
            blocks.error(event, out)
        elif isinstance(event, StreamFinished):
            self._finish(event, out)
        return out

    def _finish(self, event: StreamFinished, out: list[Any]) -> None:
        self._end_text(out)
        failed = event.stop_reason is StopReason.error
        error = (event.error or "the stream stopped with an error") if failed else None
        self._blocks.close_all(out, error)
        if "run" not in self.groups:
            return
        if self._final is not None:
            out.append(self._final)
            return
        core = self._core
        usage = token_usage(core, event.usage)
        if error is not None:
            out.append(core.RunErrorEvent(message=error, usage=usage))
            return
        thread_id, run_id = self._ids()
        result = run_result(event)
        outcome: dict[str, Any] = {}
        if self.protocol == "1.0":  # success (a failed run is RUN_ERROR), naming calls to run
            pending = list(self._blocks.pending) if event.stop_reason not in _NO_PENDING else []
            outcome["outcome"] = core.RunFinishedSuccessOutcome(
                pending_tool_call_ids=pending or None
            )
        out.append(
            core.RunFinishedEvent(
                thread_id=thread_id, run_id=run_id, result=result, usage=usage, **outcome
            )
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
            if self.protocol == "1.0":
                self._redacted(event, out)
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
                    if self.protocol == "1.0" and agui.protocol_version is None:
                        agui = agui.model_copy(update=self._version())  # we declare ours
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

    def _redacted(self, event: Any, out: list[Any]) -> None:
        """A provider's redacted thinking passed through (Anthropic's
        ``redacted_thinking`` block) as an empty reasoning message whose
        ``REASONING_ENCRYPTED_VALUE`` is the encrypted thinking."""
        found = passthrough_block(event)
        if found is None or found.redacted is None:
            return
        self._end_text(out)
        self._messages += 1
        block_id = f"r{self._messages}"  # (made a reasoning message id as its own are)
        attrs = {"redacted": found.redacted}
        self._blocks.start(BlockStart(block_id, "thinking", "native", attrs), out)
        block = Block(block_id, "thinking", "native", None, "", attrs, "")
        self._blocks.end(BlockEnd(block), out)

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
