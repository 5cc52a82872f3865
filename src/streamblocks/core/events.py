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
from functools import partialmethod
from typing import Any, Literal, NamedTuple

# Imported at run time: a compiled (mypyc) NamedTuple needs its field types.
from .blocks import Block
from .errors import ErrorCode


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
    argument pointer); it is ``None`` for plain content.
    """

    block_id: str
    block_type: str
    section: str
    text: str
    path: str | None = None

    @property
    def type(self) -> Literal[EventType.BLOCK_DELTA]:
        return EventType.BLOCK_DELTA


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
    # (partialmethod: a compiled function is not a descriptor, so it would not bind.)
    setattr(_cls, "__eq__", partialmethod(_same_event))  # noqa: B010
    setattr(_cls, "__ne__", partialmethod(_different_event))  # noqa: B010
    setattr(_cls, "__hash__", tuple.__hash__)  # noqa: B010
