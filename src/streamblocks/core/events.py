"""The events a session emits.

Events are built on the hot path (about one per token-sized chunk), so they are
named tuples: immutable, picklable, and cheap to make. Each class reports its
:class:`EventType` as ``type``. Two events are equal only when
they are of the same class and have equal fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

if TYPE_CHECKING:
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
        changes = {
            name: getattr(newer, name)
            for name in self.__slots__
            if getattr(newer, name) is not None
        }
        return replace(self, **changes)


class Counts(NamedTuple):
    """What one stream contained, reported in ``STREAM_FINISHED``."""

    chars: int
    """Characters of text fed to the syntaxes."""
    blocks: int
    """Blocks that ended with ``BLOCK_END``."""
    errors: int
    """``BLOCK_ERROR`` events."""


class StreamStarted(NamedTuple):
    """First event of every stream.

    ``session_id`` / ``run_id``: the provider's conversation and run ids (a Claude CLI
    session, a Codex thread, an AG-UI thread and run) when the input adapter reported
    them in the first fed item; ``STREAM_FINISHED`` carries the ids known at the end.
    """

    stream_id: str
    session_id: str | None = None
    run_id: str | None = None

    @property
    def type(self) -> Literal[EventType.STREAM_STARTED]:
        return EventType.STREAM_STARTED


class TextDelta(NamedTuple):
    """Visible text outside blocks, released as soon as it cannot be part of a marker."""

    text: str

    @property
    def type(self) -> Literal[EventType.TEXT_DELTA]:
        return EventType.TEXT_DELTA


class BlockStart(NamedTuple):
    """A block's opening marker is complete."""

    block_id: str
    block_type: str
    syntax: str
    attrs: Mapping[str, Any]

    @property
    def type(self) -> Literal[EventType.BLOCK_START]:
        return EventType.BLOCK_START


class BlockDelta(NamedTuple):
    """Block text as it arrives.

    ``path`` names the part of structured content the text belongs to (a gadget's
    argument pointer); it is ``None`` for plain content. ``partial_at`` is where
    :attr:`partial` is read from (``None`` for blocks whose body is not an object);
    it takes no part in equality.
    """

    block_id: str
    block_type: str
    section: str
    text: str
    path: str | None = None
    partial_at: PartialAt | None = None

    @property
    def type(self) -> Literal[EventType.BLOCK_DELTA]:
        return EventType.BLOCK_DELTA

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


class BlockMetadata(NamedTuple):
    """The metadata section is complete and validated, before the content streams."""

    block_id: str
    block_type: str
    metadata: Any

    @property
    def type(self) -> Literal[EventType.BLOCK_METADATA]:
        return EventType.BLOCK_METADATA


class BlockEnd(NamedTuple):
    """The block closed and was parsed and validated."""

    block: Block

    @property
    def type(self) -> Literal[EventType.BLOCK_END]:
        return EventType.BLOCK_END

    @property
    def block_id(self) -> str:
        return self.block.id

    @property
    def block_type(self) -> str:
        return self.block.type


class BlockError(NamedTuple):
    """A block was rejected. ``raw`` is the text it held, so nothing is lost."""

    block_id: str | None
    block_type: str | None
    code: ErrorCode
    message: str
    raw: str

    @property
    def type(self) -> Literal[EventType.BLOCK_ERROR]:
        return EventType.BLOCK_ERROR


class Passthrough(NamedTuple):
    """A provider event the input adapter passed through untouched."""

    event: Any

    @property
    def type(self) -> Literal[EventType.PASSTHROUGH]:
        return EventType.PASSTHROUGH


class StreamFinished(NamedTuple):
    """Last event of every stream (``session_id`` / ``run_id``: see :class:`StreamStarted`)."""

    stop_reason: StopReason
    usage: Usage | None
    counts: Counts
    error: str | None = None
    session_id: str | None = None
    run_id: str | None = None

    @property
    def type(self) -> Literal[EventType.STREAM_FINISHED]:
        return EventType.STREAM_FINISHED


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


def _same_event(self: tuple[Any, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _different_event(self: tuple[Any, ...], other: object) -> bool:
    return not _same_event(self, other)


for _cls in EVENT_CLASSES:
    # Tuples compare by position; events must also compare by class, or a TextDelta
    # would equal any other one-field event with the same value.
    setattr(_cls, "__eq__", _same_event)  # noqa: B010
    setattr(_cls, "__ne__", _different_event)  # noqa: B010
    setattr(_cls, "__hash__", tuple.__hash__)  # noqa: B010


def _same_delta(self: tuple[Any, ...], other: object) -> bool:
    # ``partial_at`` (the last field) is where a value is read from, not a value.
    return type(self) is type(other) and self[:5] == other[:5]


setattr(BlockDelta, "__eq__", _same_delta)  # noqa: B010
setattr(BlockDelta, "__ne__", lambda self, other: not _same_delta(self, other))  # noqa: B010
setattr(BlockDelta, "__hash__", lambda self: hash(self[:5]))  # noqa: B010
