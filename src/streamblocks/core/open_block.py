"""The state of one block while a session reads it."""

from __future__ import annotations

from typing import Any

from .errors import ErrorCode
from .line_syntax import LineParser
from .partials import Source
from .registry import BlockType
from .syntax import Header

COMPACT_EVERY = 256
"""Held pieces joined into one at a time (see :meth:`OpenBlock.compact`)."""


class OpenBlock:
    """A block being read: its held raw text and what its header said.

    A line block has the :class:`LineParser` that classifies its lines; an inline block
    (``parser is None``) keeps the pieces of its content apart from its markers in
    ``body``, since a reader may interleave them.
    """

    __slots__ = (
        "block_id",
        "block_type",
        "body",
        "body_end",
        "compact_at",
        "compacted",
        "error",
        "header",
        "index",
        "metadata",
        "opener_len",
        "parser",
        "partial",
        "raw",
        "raw_len",
        "start",
        "streamed",
        "syntax_name",
        "type_name",
    )

    def __init__(self, parser: LineParser | None, syntax_name: str, index: int, start: int) -> None:
        self.parser = parser
        self.syntax_name = syntax_name
        self.index = index
        self.start = start
        self.raw: list[str] = []
        self.raw_len = 0
        self.compacted = 0
        self.compact_at = COMPACT_EVERY
        self.opener_len = 0
        self.body_end = -1
        self.body: list[str] | None = None if parser is not None else []
        self.block_id = ""
        self.type_name = ""
        self.block_type: BlockType | None = None
        self.header: Header | None = None
        self.metadata: Any = None
        self.streamed = False
        self.error: tuple[ErrorCode, str] | None = None
        self.partial: Source | None = None  # BlockDelta.partial's source (object bodies)

    @property
    def started(self) -> bool:
        parser = self.parser
        return parser.started if parser is not None else self.header is not None

    @property
    def path(self) -> str | None:
        parser = self.parser
        return parser.path if parser is not None else None

    @property
    def not_started(self) -> str:
        """The message for a block that closed before its header was complete."""
        parser = self.parser
        return parser.error if parser is not None else "malformed block"

    def add(self, piece: str) -> None:
        """Hold ``piece`` as raw text."""
        raw = self.raw
        raw.append(piece)
        self.raw_len += len(piece)
        if len(raw) > self.compact_at:
            self.compact()

    def compact(self) -> None:
        """Join the small pieces held since the last compaction into one, so a block
        fed a character at a time holds about one string per kilobyte, not millions."""
        raw = self.raw
        raw[self.compacted :] = ["".join(raw[self.compacted :])]
        self.compacted = len(raw)
        self.compact_at = self.compacted + COMPACT_EVERY
        body = self.body
        if body is not None and len(body) > COMPACT_EVERY:
            body[:] = ["".join(body)]

    def joined(self) -> str:
        raw = "".join(self.raw)
        self.raw = [raw]
        return raw

    def body_text(self) -> str:
        """The content text: between opener and closer (line blocks), or the pieces
        attributed as content (inline blocks)."""
        if self.body is not None:
            return "".join(self.body)
        raw = self.joined()
        end = self.body_end if self.body_end >= 0 else len(raw)
        return raw[self.opener_len : end]

    def parse(self, body: Any) -> Any:
        parser = self.parser
        return parser.parse(body) if parser is not None else body
