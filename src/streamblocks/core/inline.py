"""Inline (XML) blocks in a session.

When an :class:`~streamblocks.syntaxes.xml.XMLTagSyntax` is active, the visible text
outside blocks (once the line syntaxes have decided a line is text) runs through a
small scanner that holds only a ``<`` that may still start a registered tag (or a
backtick run, with code awareness) and opens an inline block on a complete opening tag.
An open inline block takes all text, newlines included, up to its closing tag; then the
line goes on as visible text. :class:`InlineBlocks` is a part of
:class:`~streamblocks.core.session.Session`.

Token-sized chunks make a tag arrive in many pieces, so ``feed`` hands a chunk for the
scanner to it directly (:meth:`InlineBlocks._feed_inline`), and a held tag that a chunk
leaves undecided costs one look at it, or none inside an attribute value.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..syntaxes.xml import Found, Tag, XMLBlock, inner_tag, opening_tag, xml_header
from ..transforms import ComposedTransform
from .errors import ErrorCode
from .events import Event
from .limits import Limits
from .line_syntax import LineParser, Verdict
from .open_block import OpenBlock
from .part import SessionPart
from .registry import TypeTable
from .syntax import Syntax, SyntaxPlan

_TICK_OR_NEWLINE = re.compile("[`\n]")


class InlineBlocks(SessionPart):
    """The inline scanner's state and steps."""

    if TYPE_CHECKING:  # provided by Session
        _limits: Limits
        _max_marker: int
        _parser: LineParser | None
        _block: OpenBlock | None
        _line: str | None
        _flow: Verdict
        _busy: bool
        _fast: int
        _out: list[Event]
        _identity: bool
        _chain: ComposedTransform | None

        def _text(self, text: str) -> None: ...
        def _flush(self) -> None: ...
        def _update_fast(self) -> None: ...
        def _to_block(self, piece: str, verdict: Verdict) -> None: ...
        def _hold_unlimited(self, line: str) -> None: ...
        def _begin_block(self, block: OpenBlock) -> None: ...
        def _close_block(self, line: str) -> None: ...
        def _drop_block(self, code: ErrorCode, message: str) -> None: ...

    def _setup_inline(self, plan: SyntaxPlan) -> None:
        self._xml: Syntax | None = None
        self._xml_table = TypeTable({})
        self._xml_index = 0
        self._xml_open: XMLBlock | None = None
        self._prefilled: str | None = None
        self._held = ""  # a `<` that may still start a tag, or a backtick run, + what follows
        self._held_quote = ""  # the quote of the attribute value the held tag ends in
        self._tick = 0  # length of the backtick run that opened the current code span
        self._final = False  # end of stream: nothing is pending any more
        self._scan_fences = False
        self._quiet: tuple[str, str] | None = None  # characters that end the fast path
        self._find_stop: Callable[[str, int], re.Match[str] | None] = re.compile("<").search
        for index, (syntax, table) in enumerate(plan):
            if getattr(syntax, "inline", False):
                code_aware = bool(getattr(syntax, "code_aware", True))
                self._xml, self._xml_table, self._xml_index = syntax, table, index
                self._prefilled = getattr(syntax, "prefilled", None)
                self._scan_fences = not code_aware
                stops = "[<`]" if code_aware else "<"
                self._find_stop = re.compile(stops).search
                self._quiet = ("<", "`") if code_aware else ("<", "<")
                break

    def _visible(self, text: str) -> None:
        """Visible text outside blocks: scanned for inline tags when XML is active
        (inside a shown code fence only when XML is not code-aware)."""
        if self._xml is None or (self._parser is not None and not self._scan_fences):
            self._text(text)
        else:
            self._inline(text)

    def _shown(self, text: str) -> None:
        """Text of a code fence the model shows."""
        if self._scan_fences:
            self._inline(text)
        else:
            self._text(text)

    def _feed_inline(self, chunk: str) -> list[Event] | None:
        """``feed`` for a chunk that the line machine would hand to the scanner whole
        (no newline, in an inline block or the middle of a visible line): the same
        steps, without the line machine's. ``None`` when that is not the case."""
        if self._xml_open is None and (
            self._line is not None
            or self._flow is not Verdict.TEXT
            or (self._parser is not None and not self._scan_fences)
        ):
            return None
        if "\n" in chunk or not self._identity or self._chain is not None:
            return None
        held = self._held
        if held and self._still_pending(held, chunk):
            return []
        self._busy, self._fast = True, 0  # stays set if this call raises
        out = self._out = []
        self._line, self._flow = None, Verdict.TEXT
        self._inline(chunk)
        self._flush()
        self._update_fast()
        self._busy = False
        return out

    def _still_pending(self, held: str, chunk: str) -> bool:
        """Whether the held tag is still undecided with ``chunk`` added; then it is
        held, and that is all the scanner would do with it (no text, no events)."""
        quote = self._held_quote
        if quote:  # inside an attribute value: only its quote can end it
            if quote not in chunk and len(held) + len(chunk) < self._max_marker:
                self._held = held + chunk
                return True
            return False
        if held[0] != "<" or ">" in chunk:  # (a backtick run; a tag that may complete)
            return False
        text = held + chunk
        parser = self._xml_open
        if parser is None:
            what, _, quote = opening_tag(text, 0, self._max_marker, self._xml_table)
        else:
            what = inner_tag(text, 0, self._max_marker, parser.marker)[0]
        if what is Found.PENDING:
            self._held, self._held_quote = text, quote
            return True
        return False

    def _inline(self, text: str) -> None:
        """Run ``text`` (at most one line) through the inline scanner."""
        held = self._held
        if held:
            self._held = self._held_quote = ""
            text = held + text
        i, n = 0, len(text)
        while i < n:
            if self._xml_open is not None:
                i = self._scan_block(text, i)
            elif self._tick:
                i = self._scan_code(text, i)
            else:
                i = self._scan_text(text, i)

    def _scan_text(self, text: str, i: int) -> int:
        """Visible text: release it up to a possible tag (or backtick run)."""
        found = self._find_stop(text, i)
        if found is None:
            self._text(text[i:] if i else text)
            return len(text)
        at = found.start()
        if at > i:
            self._text(text[i:at])
        if text[at] == "`":
            run = _run_end(text, at)
            if run == len(text) and not self._final:
                self._held = text[at:]  # the run may go on in the next chunk
                return run
            self._text(text[at:run])
            self._tick = run - at
            return run
        limit = self._max_marker
        what, tag, quote = opening_tag(text, at, limit, self._xml_table)
        if what is Found.OPEN:
            assert tag is not None
            self._open_inline(tag, text[at : tag.end])
            return tag.end
        if what is Found.PENDING and not self._final:
            self._held, self._held_quote = text[at:], quote
            return len(text)
        if what is Found.TOO_LARGE:
            self._error(
                None,
                None,
                ErrorCode.MARKER_TOO_LARGE,
                f"an XML tag grew past max_marker_chars={limit} without completing",
                text[at : at + limit],
            )
            self._pos += limit
            return at + limit
        self._text("<")
        return at + 1

    def _scan_code(self, text: str, i: int) -> int:
        """Inside an inline code span: text up to the closing backtick run (same
        length) or the end of the line."""
        found = _TICK_OR_NEWLINE.search(text, i)
        if found is None:
            self._text(text[i:] if i else text)
            return len(text)
        at = found.start()
        if text[at] == "\n":
            self._tick = 0
            self._text(text[i : at + 1])
            return at + 1
        run = _run_end(text, at)
        if run == len(text) and not self._final:
            if at > i:
                self._text(text[i:at])
            self._held = text[at:]
            return run
        self._text(text[i:run])
        if run - at == self._tick:
            self._tick = 0
        return run

    def _scan_block(self, text: str, i: int) -> int:
        """Inside an inline block: content up to its closing tag (nesting counted)."""
        parser = self._xml_open
        assert parser is not None
        at = text.find("<", i)
        stop = len(text) if at < 0 else at
        if stop > i:
            taken = self._inline_content(text[i:stop] if i or at >= 0 else text)
            if self._xml_open is None:
                return i + taken
        if at < 0:
            return stop
        what, after = inner_tag(text, at, self._max_marker, parser.marker)
        if what is Found.CLOSE and not parser.depth:
            self._close_inline(text[at:after])
            return after
        if what is Found.PENDING:
            if not self._final:
                self._held = text[at:]
                return len(text)
            after = at + 1
        elif what is Found.CLOSE:
            parser.depth -= 1
        elif what is Found.OPEN:
            parser.depth += 1
        return at + self._inline_content(text[at:after])

    def _inline_content(self, piece: str) -> int:
        """Content of the open inline block, up to its size limit; returns what fitted
        (the block is dropped with ``TOO_LARGE`` when not all of it did)."""
        block = self._block
        assert block is not None
        room = self._limits.max_block_chars - block.raw_len
        if len(piece) <= room:
            self._to_block(piece, Verdict.CONTENT)
            return len(piece)
        room = max(room, 0)
        if room:
            self._to_block(piece[:room], Verdict.CONTENT)
        limit = f"max_block_chars={self._limits.max_block_chars}"
        self._drop_inline(ErrorCode.TOO_LARGE, f"{block.type_name} grew past {limit}")
        return room

    def _open_inline(self, tag: Tag, opener: str) -> None:
        """A complete opening tag (``opener``): announce the block, or, for ``<tag/>``,
        finish it at once."""
        parser = XMLBlock(xml_header(tag, self._xml_table), tag.name, tag.self_closing)
        assert self._xml is not None
        block = self._block = OpenBlock(parser, self._xml, self._xml_index, self._pos)
        self._xml_open = parser
        self._hold_unlimited(opener)
        self._begin_block(block)
        if tag.self_closing:
            self._close_inline("")

    def _close_inline(self, closer: str) -> None:
        outer = self._parser  # a shown fence the block opened in keeps going
        self._xml_open = None
        self._close_block(closer)
        self._parser = outer

    def _drop_inline(self, code: ErrorCode, message: str) -> None:
        outer = self._parser
        self._xml_open = None
        self._drop_block(code, message)
        self._parser = outer

    def _finish_inline(self) -> None:
        """End of stream: decide what the scanner holds, then report an open block."""
        self._final = True
        if self._held:
            self._inline("")
        parser = self._xml_open
        if parser is not None:
            block = self._block
            assert block is not None
            self._drop_inline(
                ErrorCode.UNCLOSED,
                f"the stream ended inside <{parser.marker}> opened at offset {block.start}",
            )


def _run_end(text: str, at: int) -> int:
    """The offset after the run of backticks starting at ``at``."""
    end, n = at + 1, len(text)
    while end < n and text[end] == "`":
        end += 1
    return end
