"""What an input or output adapter is.

An input adapter tells the session, for each provider event, what it is
(:class:`EventCategory`) and what reply text it carries. Adapters should be
stateless so one instance can serve many streams; an adapter that needs per-stream
state provides ``for_stream()`` returning a fresh instance, which the session calls
once at the start of each stream.

Provider-native structure (reasoning, tool calls, command runs) is reported through the
optional ``native_events(event)``: a list of :class:`NativeStart`, :class:`NativeDelta`
and :class:`NativeEnd` pieces keyed by a value the adapter chooses (a content-block
index, a tool-call id). The session keeps the open native blocks and turns the pieces
into ``BLOCK_START`` / ``BLOCK_DELTA`` / ``BLOCK_END`` events, so adapters hold no state.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, NamedTuple, Protocol, runtime_checkable

from ..core.events import Event, StopReason, Usage


class EventCategory(str, Enum):
    """What a provider event is to the session.

    An adapter may answer a member or its plain string value (``"text_content"``); the
    session accepts both (and the member's name, ``"TEXT_CONTENT"``). Any other answer
    is reported once per stream with an :class:`~streamblocks.core.errors.AdapterWarning`
    and the event is passed through.
    """

    TEXT_CONTENT = "text_content"
    """Carries reply text: ``extract_text(event)`` goes to the syntaxes."""
    PASSTHROUGH = "passthrough"
    """Not text; emitted untouched as a ``PASSTHROUGH`` event, in stream order."""
    SKIP = "skip"
    """Dropped (keep-alives, duplicates of text already taken from another event)."""
    STREAM_START = "stream_start"
    """Opens the provider's stream. The session emits nothing for it and resets
    nothing: ``STREAM_STARTED`` is emitted for the first fed item whatever it is, and a
    second ``STREAM_START`` does not begin a new stream. Its stop reason, usage, ids and
    native pieces are read like any other event's."""
    STREAM_END = "stream_end"
    """Closes the provider's stream: the session finishes there (unclosed blocks are
    reported, ``STREAM_FINISHED`` is emitted) and ignores later events with one
    warning; ``close()`` then returns nothing more."""


_BY_VALUE: dict[object, EventCategory] = {}
for _member in EventCategory:
    _BY_VALUE[_member.value] = _member
    _BY_VALUE[_member.name] = _member


def as_category(answer: object) -> EventCategory | None:
    """The :class:`EventCategory` an adapter's ``categorize`` answer stands for: a
    member, its value (``"text_content"``) or its name; ``None`` for anything else."""
    if answer.__class__ is EventCategory:
        return answer
    try:
        return _BY_VALUE.get(answer)
    except TypeError:  # an unhashable answer
        return None


@runtime_checkable
class InputAdapter(Protocol):
    """Turns a provider's stream events into text for the syntaxes.

    Optional methods, used when present: ``matches(event) -> bool`` (auto-detection,
    must not import the SDK), ``stop_reason(event) -> StopReason | None``,
    ``usage(event) -> Usage | None``, ``native_events(event) -> list[Native]``,
    ``error(event) -> str | None`` (the message of an error the event reports; the
    last one becomes ``STREAM_FINISHED.error`` when the stream stops with
    ``StopReason.error``), ``stream_ids(event) -> StreamIds | None`` (the provider's
    session and run ids, carried by ``STREAM_STARTED``/``STREAM_FINISHED``) and
    ``for_stream() -> InputAdapter``.

    ``read(event) -> Reading`` answers all of these questions about one event at once:
    when an adapter has it, the session asks it alone (one call per event instead of up
    to seven), so its answers must be the ones the separate methods give.

    An adapter that reads raw framed input (NDJSON lines as ``str``/``bytes`` chunks
    cut anywhere) adds ``frames(item) -> Iterable[event]``: the session hands it each
    fed item and analyses the events it returns (zero, one or several), in order; at
    ``close()`` it calls ``end_frames() -> Iterable[event]`` for what is still held.
    Such an adapter keeps per-stream state and needs ``for_stream()``.
    """

    def categorize(self, event: Any) -> EventCategory: ...

    def extract_text(self, event: Any) -> str: ...


@runtime_checkable
class OutputAdapter(Protocol):
    """Turns our events into another protocol's events (AG-UI, for a front end).

    Each method returns the protocol events (zero or more) for one of our events.
    An output adapter that keeps per-stream state (an open text message, run ids)
    provides ``for_stream()`` returning a fresh instance; the processor's drivers call
    it once per stream, so one configured adapter serves any number of streams.
    """

    def to_protocol_event(self, event: Event) -> Iterable[Any]: ...

    def passthrough(self, event: Any) -> Iterable[Any]: ...


class StreamIds(NamedTuple):
    """The provider's ids for a stream, as an adapter's optional ``stream_ids(event)``
    reports them: ``session_id`` names the conversation (a Claude CLI session, a Codex
    thread, an AG-UI thread), ``run_id`` this run of it (an AG-UI run). ``None`` where
    the event does not say."""

    session_id: str | None = None
    run_id: str | None = None


class NativeStart(NamedTuple):
    """A provider-native block begins (thinking, a tool call, a command run...).

    ``parse`` says how the session turns the collected deltas into the block's
    content: ``"text"`` keeps the string, ``"json"`` parses it (an empty string is
    ``{}``); a :class:`NativeEnd` with ``content`` set overrides both.
    """

    key: Hashable
    block_type: str
    block_id: str | None = None
    attrs: Mapping[str, Any] = {}
    parse: str = "text"


class NativeDelta(NamedTuple):
    """Text of an open native block (thinking text, tool-call argument JSON)."""

    key: Hashable
    text: str


class NativeEnd(NamedTuple):
    """A native block is complete. ``key=None`` closes every open native block."""

    key: Hashable | None
    content: Any = None
    attrs: Mapping[str, Any] | None = None


Native = NativeStart | NativeDelta | NativeEnd
"""One piece of a provider-native block."""


class Reading(NamedTuple):
    """Everything the session asks of one provider event, as an adapter's optional
    ``read(event)`` answers it in one call: what the event is, the reply text it carries
    (for ``TEXT_CONTENT``), its native pieces, and the stop reason, usage, error message
    and ids it reports (``None``: it reports none)."""

    category: EventCategory
    text: str = ""
    natives: Sequence[Native] = ()
    stop: StopReason | None = None
    usage: Usage | None = None
    error: str | None = None
    ids: StreamIds | None = None


__all__ = [
    "EventCategory",
    "InputAdapter",
    "Native",
    "NativeDelta",
    "NativeEnd",
    "NativeStart",
    "OutputAdapter",
    "Reading",
    "StopReason",
    "StreamIds",
    "Usage",
    "as_category",
]
