"""Model markup as an inline syntax of the session's scanner
(:mod:`streamblocks.core.syntax`).

The scanner looks for the family's markers in visible text; at one it hands the text,
from the marker on, to a region reader that follows the family's grammar with a
:class:`~streamblocks.markup.reader.Reader` and attributes every character it reads:
markers and call bodies to their block's ``raw``, thinking text as content, framing
before visible text as hidden. The region ends where visible text begins again.

Blocks are ``"thinking"`` and ``"tool_call"`` with syntax ``"native"``, the blocks the
provider adapters report, so ``collect()``, the accumulator and the AG-UI output treat
them alike. A call's block is started once its name is known (``attrs``: ``name``, and
``id`` when the markup gives one) and ends with the argument object.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from ..core.errors import ErrorCode
from ..core.events import StopReason
from ..core.registry import BlockType, TypeTable
from ..core.syntax import BODY, GO_ON, NOT_MINE, Header, InlineOut, InlineReader, InlineSyntax
from .attribution import Piece
from .families import Markup
from .formats import GRAMMARS
from .grammar import tables
from .reader import Reader

_TYPES = {kind: BlockType.generic(kind) for kind in ("thinking", "tool_call")}


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class MarkupSyntax(InlineSyntax):
    """The inline syntax of one :class:`Markup` (one family, configured)."""

    markup: Markup

    def openers(self, types: TypeTable) -> Sequence[str]:
        return tables(GRAMMARS[self.markup.family]).text.literals

    def reader(self, opener: str, types: TypeTable) -> InlineReader:
        return MarkupRegion(self._reader(at_start=False))

    def initial(self, types: TypeTable) -> InlineReader | None:
        grammar = GRAMMARS[self.markup.family]
        if (self.markup.starts_in_thinking and grammar.thinking) or grammar.start:
            return MarkupRegion(self._reader(at_start=True), initial=True)
        return None

    def describe(self, types: Sequence[BlockType]) -> str:
        return (
            f"The model's own {self.markup.family} markup (thinking and tool calls) is read "
            "from the reply; nothing needs to be asked of the model."
        )

    def _reader(self, *, at_start: bool) -> Reader:
        markup = self.markup
        return Reader(
            GRAMMARS[markup.family],
            markup.schemas,
            starts_in_thinking=at_start and markup.starts_in_thinking,
            at_reply_start=at_start,
            region=True,
            calls_in_thinking=markup.calls_in_thinking,
        )


MarkupSyntax.name = "native"  # not in the body: mypyc makes a dataclass field of a ClassVar


@mypyc_attr(allow_interpreted_subclasses=True)
class MarkupRegion(InlineReader):
    """A region of the scanner, read by a markup :class:`Reader`."""

    __slots__ = ("_initial", "_kind", "_work", "reader")

    def __init__(self, reader: Reader, *, initial: bool = False) -> None:
        self.reader = reader
        self._initial = initial
        self._kind = ""
        self._work = 0  # the reader's parse work reported so far

    def read(self, text: str, start: int, stop: int, out: InlineOut) -> int:
        reader = self.reader
        before = reader.given
        piece = text[start:stop] if start or stop != len(text) else text
        n = None if out.reference else reader.thinking_only(piece)  # (the common case)
        if n is not None:
            if n:
                out.content(n)
            return GO_ON
        self._apply(reader.feed_full(piece), out)
        if reader.work != self._work:
            out.work(reader.work - self._work)
            self._work = reader.work
        if not reader.ended:
            return GO_ON
        if self._initial and reader.attributed == 0 and not out.block_open:
            return NOT_MINE  # the reply does not start with this format
        return max(start, start + reader.attributed - before)

    def bulk(self, text: str) -> int | None:
        return self.reader.thinking_only(text)  # (the common cases of read)

    def bulk_held(self, text: str) -> bool:
        return self.reader.head_only(text)

    def bulk_start(self, text: str, out: InlineOut) -> bool:
        pieces = self.reader.head_named(text)
        if pieces is None:
            return False
        self._apply(pieces, out)
        return True

    def content_stop(self) -> str | None:
        return self.reader.content_stop()

    def bulk_raw(self, text: str) -> tuple[str, int] | None:
        return self.reader.body_only(text)

    def close(self, out: InlineOut, stop_reason: StopReason | None) -> None:
        reader = self.reader
        self._apply(reader.finish(cut=stop_reason is StopReason.max_tokens), out)
        if reader.work != self._work:
            out.work(reader.work - self._work)
            self._work = reader.work

    def _apply(self, pieces: list[Piece], out: InlineOut) -> None:
        for piece in pieces:
            tag = piece[0]
            if tag == "marker":
                out.marker(len(piece[1]))
            elif tag == "text":
                out.text(len(piece[1]))
            elif tag == "args":
                out.stream(piece[1])
            elif tag == "content":
                out.content(len(piece[1]))
            elif tag == "hide":
                out.hide(len(piece[1]))
            elif tag == "start":
                self._kind = piece[1]
                out.start(_header(piece[1], piece[2]))
            elif tag == "end":
                if self._kind == "thinking":
                    out.end(BODY)
                else:
                    out.end(piece[1], piece[2])
            elif tag == "fail":
                code = ErrorCode.UNCLOSED if piece[2] else ErrorCode.PARSE_FAILED
                out.fail(code, piece[1])


def _header(kind: str, attrs: dict[str, Any]) -> Header:
    return Header(kind, _TYPES[kind], None, dict(attrs), None)
