"""The state of one block while a session reads it."""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from .errors import ErrorCode
from .line_syntax import LineParser
from .partials import Source
from .registry import BlockType
from .syntax import Header

COMPACT_EVERY = 256
"""Held pieces joined into one at a time (see :meth:`OpenBlock.add`)."""


def compact_pieces(pieces: list[str], at: int) -> tuple[int, int]:
    """The newest :data:`COMPACT_EVERY` pieces (from ``at - COMPACT_EVERY``, ``at`` the
    count that set this off) joined into one: the characters joined, and the next ``at``."""
    first = at - COMPACT_EVERY
    pieces[first:] = [joined := "".join(pieces[first:])]
    return len(joined), len(pieces) + COMPACT_EVERY


@mypyc_attr(allow_interpreted_subclasses=True)
class OpenBlock:
    """A block being read: its held raw text and what its header said.

    A line block has the :class:`LineParser` that classifies its lines; an inline block
    (``parser is None``) may interleave markers and content, so it notes where its
    content lies in the raw text (``spans``) rather than keeping the content twice.
    """

    __slots__ = (
        "block_id",
        "block_type",
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
        "spans",
        "start",
        "started",
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
        self.compact_at = COMPACT_EVERY
        self.compacted = 0
        """Characters joined by :meth:`compact` so far (tests check that it is linear)."""
        self.opener_len = 0
        self.body_end = -1
        self.spans: list[int] = []
        """Inline blocks: the content's ``[start, end)`` offsets in the raw text, flat."""
        self.block_id = ""
        self.type_name = ""
        self.block_type: BlockType | None = None
        self.header: Header | None = None
        self.metadata: Any = None
        self.started = False
        """Its header is complete and it was announced (see ``Emitter.begin``)."""
        self.streamed = False
        self.error: tuple[ErrorCode, str] | None = None
        self.partial: Source | None = None  # BlockDelta.partial's source (object bodies)

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
        """Hold ``piece`` as raw text. Every :data:`COMPACT_EVERY` pieces the newest ones
        are joined into one (each character is copied once more, whatever the block's
        length), so a block fed a character at a time holds about one string per
        kilobyte, not millions."""
        raw = self.raw
        raw.append(piece)
        self.raw_len += len(piece)
        if len(raw) > self.compact_at:
            self.compact()

    def compact(self) -> None:
        joined, self.compact_at = compact_pieces(self.raw, self.compact_at)
        self.compacted += joined

    def add_content(self, piece: str) -> None:
        """Hold ``piece`` as raw text that is content (inline blocks)."""
        spans = self.spans
        at = self.raw_len
        if spans and spans[-1] == at:
            spans[-1] = at + len(piece)
        else:
            spans += (at, at + len(piece))
        self.add(piece)

    def joined(self) -> str:
        raw = "".join(self.raw)
        self.raw = [raw]
        self.compact_at = 1 + COMPACT_EVERY
        return raw

    def reset(self, raw: str) -> None:
        """Hold ``raw`` instead of what was held."""
        self.raw = [raw]
        self.raw_len = len(raw)
        self.compact_at = 1 + COMPACT_EVERY

    def body_text(self, raw: str) -> str:
        """The content text in ``raw``, the block's joined raw text: between opener and
        closer (line blocks), or the spans attributed as content (inline blocks)."""
        if self.parser is None:
            spans = self.spans
            if len(spans) == 2:
                return raw[spans[0] : spans[1]]
            return "".join([raw[spans[k] : spans[k + 1]] for k in range(0, len(spans), 2)])
        end = self.body_end if self.body_end >= 0 else len(raw)
        return raw[self.opener_len : end]
