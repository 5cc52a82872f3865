"""The events a session emits.

Events are built on the hot path (about one per token-sized chunk), so they are
named tuples: immutable, picklable, and cheap to make. Each class reports its
:class:`EventType` as ``type``, a class attribute. Two events are equal only when
they are of the same class and have equal fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, ClassVar, Literal, NamedTuple

from mypy_extensions import mypyc_attr

from .blocks import Block
from .errors import ErrorCode
from .partials import PartialAt


class EventType(str, Enum):
    """The kind of an event; see the table in the documentation."""

    STREAM_STARTED = "STREAM_STARTED"
    TEXT_DELTA = "TEXT_DELTA"
    BLOCK_START = "BLOCK_START"
    BLOCK_DELTA = "BLOCK_DELTA"
    BLOCK_METADATA = "BLOCK_METADATA"
    BLOCK_END = "BLOCK_END"
    BLOCK_ERROR = "BLOCK_ERROR"
    PASSTHROUGH = "PASSTHROUGH"
    STREAM_FINISHED = "STREAM_FINISHED"


class StopReason(str, Enum):
    """Why the provider stopped generating, normalised across providers."""

    end_turn = "end_turn"
    stop_sequence = "stop_sequence"
    tool_use = "tool_use"
    max_tokens = "max_tokens"
    content_filter = "content_filter"
    refusal = "refusal"
    error = "error"
    unknown = "unknown"


@dataclass(frozen=True, slots=True)
class Usage:
    """Token usage in one shape for every provider (``None`` where it was not reported)."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None
    cost_usd: float | None = None

    def updated(self, newer: Usage) -> Usage:
        """This usage with every field ``newer`` reports replacing it: providers report
        usage in pieces (input tokens first, output tokens at the end), later wins."""
        mine, theirs = self._values(), newer._values()
        return Usage(*(old if new is None else new for old, new in zip(mine, theirs, strict=True)))

    def _values(self) -> tuple[Any, ...]:
        """The fields in order, without ``dataclasses.astuple``'s deep copy: a Codex run
        reports usage thousands of times."""
        return tuple(getattr(self, name) for name in _USAGE_FIELDS)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # (a constructor call, as ``Block``: the compiled build cannot set a frozen field)
        return (Usage, self._values())


_USAGE_FIELDS = tuple(field.name for field in fields(Usage))


class Counts(NamedTuple):
    """What one stream contained, reported in ``STREAM_FINISHED``."""

    chars: int
    """Characters of text fed to the syntaxes."""
    blocks: int
    """Blocks that ended with ``BLOCK_END``."""
    errors: int
    """``BLOCK_ERROR`` events."""


def _equality_by_class() -> tuple[Callable[[Any, object], bool], Callable[[Any, object], bool]]:
    """Events compare by class and fields: a ``TextDelta`` never equals another
    one-field event (or a plain tuple) holding the same value.

    The two functions are made inside a function because the compiled build binds a
    nested function as a method (it gets a ``__get__``) but not a module-level one."""

    def same(self: tuple[Any, ...], other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)

    def different(self: tuple[Any, ...], other: object) -> bool:
        return not same(self, other)

    return same, different


_same_event, _different_event = _equality_by_class()


# Each event is a named tuple of its fields (``_…Fields``) and a subclass that adds
# ``type`` as a plain class attribute (read on every event by every caller: a class
# attribute costs a dictionary lookup, a property a call) and equality by class.


class _StreamStartedFields(NamedTuple):
    stream_id: str
    session_id: str | None = None
    run_id: str | None = None


@mypyc_attr(native_class=False)
class StreamStarted(_StreamStartedFields):
    """First event of every stream.

    ``session_id`` / ``run_id``: the provider's conversation and run ids (a Claude CLI
    session, a Codex thread, an AG-UI thread and run) when the input adapter reported
    them in the first fed item; ``STREAM_FINISHED`` carries the ids known at the end.
    """

    __slots__ = ()
    type: ClassVar[Literal[EventType.STREAM_STARTED]] = EventType.STREAM_STARTED
    __eq__ = _same_event
    __ne__ = _different_event
    __hash__ = tuple.__hash__


class _TextDeltaFields(NamedTuple):
    text: str


@mypyc_attr(native_class=False)
class TextDelta(_TextDeltaFields):
    """Visible text outside blocks, released as soon as it cannot be part of a marker."""

    __slots__ = ()
    type: ClassVar[Literal[EventType.TEXT_DELTA]] = EventType.TEXT_DELTA
    __eq__ = _same_event
    __ne__ = _different_event
    __hash__ = tuple.__hash__


class _BlockStartFields(NamedTuple):
    block_id: str
    block_type: str
    syntax: str
    attrs: Mapping[str, Any]


@mypyc_attr(native_class=False)
class BlockStart(_BlockStartFields):
    """A block's opening marker is complete."""

    __slots__ = ()
    type: ClassVar[Literal[EventType.BLOCK_START]] = EventType.BLOCK_START
    __eq__ = _same_event
    __ne__ = _different_event
    __hash__ = tuple.__hash__


class _BlockDeltaFields(NamedTuple):
    block_id: str
    block_type: str
    section: str
    text: str
    path: str | None = None
    partial_at: PartialAt | None = None


@mypyc_attr(native_class=False)
class BlockDelta(_BlockDeltaFields):
    """Block text as it arrives.

    ``path`` names the part of structured content the text belongs to (a gadget's
    argument pointer); it is ``None`` for plain content. ``partial_at`` is where
    :attr:`partial` is read from (``None`` for blocks whose body is not an object);
    it takes no part in equality.
    """

    __slots__ = ()
    type: ClassVar[Literal[EventType.BLOCK_DELTA]] = EventType.BLOCK_DELTA

    def __eq__(self, other: object) -> bool:
        # ``partial_at`` (the last field) is where a value is read from, not a value.
        return type(self) is type(other) and self[:5] == other[:5]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self[:5])

    @property
    def partial(self) -> Any:
        """The object written so far, up to and including this delta, on a block whose
        body is an object (a tool call's arguments, the structured output, a gadget's
        arguments): complete values as they will be, an unfinished string as far as it
        is written, an unfinished number, literal or key left out; ``None`` before the
        first value and on other blocks. Computed on first read (read deltas in order:
        each piece of text is then read once); a fresh object."""
        at = self.partial_at
        return at.value if at is not None else None


class _BlockMetadataFields(NamedTuple):
    block_id: str
    block_type: str
    metadata: Any


@mypyc_attr(native_class=False)
class BlockMetadata(_BlockMetadataFields):
    """The metadata section is complete and validated, before the content streams."""

    __slots__ = ()
    type: ClassVar[Literal[EventType.BLOCK_METADATA]] = EventType.BLOCK_METADATA
    __eq__ = _same_event
    __ne__ = _different_event
    __hash__ = tuple.__hash__


class _BlockEndFields(NamedTuple):
    block: Block


@mypyc_attr(native_class=False)
class BlockEnd(_BlockEndFields):
    """The block closed and was parsed and validated."""

    __slots__ = ()
    type: ClassVar[Literal[EventType.BLOCK_END]] = EventType.BLOCK_END
    __eq__ = _same_event
    __ne__ = _different_event
    __hash__ = tuple.__hash__

    @property
    def block_id(self) -> str:
        return self.block.id

    @property
    def block_type(self) -> str:
        return self.block.type


class _BlockErrorFields(NamedTuple):
    block_id: str | None
    block_type: str | None
    code: ErrorCode
    message: str
    raw: str


@mypyc_attr(native_class=False)
class BlockError(_BlockErrorFields):
    """A block was rejected. ``raw`` is the text it held, so nothing is lost."""

    __slots__ = ()
    type: ClassVar[Literal[EventType.BLOCK_ERROR]] = EventType.BLOCK_ERROR
    __eq__ = _same_event
    __ne__ = _different_event
    __hash__ = tuple.__hash__


class _PassthroughFields(NamedTuple):
    event: Any


@mypyc_attr(native_class=False)
class Passthrough(_PassthroughFields):
    """A provider event the input adapter passed through untouched."""

    __slots__ = ()
    type: ClassVar[Literal[EventType.PASSTHROUGH]] = EventType.PASSTHROUGH
    __eq__ = _same_event
    __ne__ = _different_event
    __hash__ = tuple.__hash__


class _StreamFinishedFields(NamedTuple):
    stop_reason: StopReason
    usage: Usage | None
    counts: Counts
    error: str | None = None
    session_id: str | None = None
    run_id: str | None = None
    stop_named: bool = False


@mypyc_attr(native_class=False)
class StreamFinished(_StreamFinishedFields):
    """Last event of every stream (``session_id`` / ``run_id``: see :class:`StreamStarted`).

    ``stop_named`` tells whether the stream named its stop reason: ``False`` for plain
    text or an adapter that reports none, where ``stop_reason`` is ``unknown`` only
    because nothing was said (:func:`~streamblocks.collect` then calls a normal end
    ``done``), not because the provider gave a reason nobody knows."""

    __slots__ = ()
    type: ClassVar[Literal[EventType.STREAM_FINISHED]] = EventType.STREAM_FINISHED
    __eq__ = _same_event
    __ne__ = _different_event
    __hash__ = tuple.__hash__


Event = (
    StreamStarted
    | TextDelta
    | BlockStart
    | BlockDelta
    | BlockMetadata
    | BlockEnd
    | BlockError
    | Passthrough
    | StreamFinished
)
"""Any event a session emits."""

new_event = tuple.__new__
"""Builds an event from its class and a tuple of all of its fields, without the
keyword-handling constructor: what the hot paths use."""

CONTENT_SECTION = "content"
"""``BlockDelta.section`` of content text."""

EVENT_CLASSES: tuple[type[Any], ...] = (
    StreamStarted,
    TextDelta,
    BlockStart,
    BlockDelta,
    BlockMetadata,
    BlockEnd,
    BlockError,
    Passthrough,
    StreamFinished,
)
