"""The state of one block while a session reads it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import ErrorCode
from .registry import BlockType

if TYPE_CHECKING:
    from ..syntaxes.base import LineParser, Syntax

COMPACT_EVERY = 256
"""Held pieces joined into one at a time (see :meth:`OpenBlock.compact`)."""


class OpenBlock:
    """A block being read: its parser, its held raw text and what its header said."""

    __slots__ = (
        "block_id",
        "block_type",
        "compact_at",
        "compacted",
        "error",
        "index",
        "metadata",
        "opener_len",
        "parser",
        "raw",
        "raw_len",
        "start",
        "streamed",
        "syntax",
        "type_name",
    )

    def __init__(self, parser: LineParser, syntax: Syntax, index: int, start: int) -> None:
        self.parser = parser
        self.syntax = syntax
        self.index = index
        self.start = start
        self.raw: list[str] = []
        self.raw_len = 0
        self.compacted = 0
        self.compact_at = COMPACT_EVERY
        self.opener_len = 0
        self.block_id = ""
        self.type_name = ""
        self.block_type: BlockType | None = None
        self.metadata: Any = None
        self.streamed = False
        self.error: tuple[ErrorCode, str] | None = None

    def compact(self) -> None:
        """Join the small pieces held since the last compaction into one, so a block
        fed a character at a time holds about one string per kilobyte, not millions."""
        raw = self.raw
        raw[self.compacted :] = ["".join(raw[self.compacted :])]
        self.compacted = len(raw)
        self.compact_at = self.compacted + COMPACT_EVERY
