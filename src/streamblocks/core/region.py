"""Inline regions: the scanner's side of the inline-syntax protocol.

When the scanner finds an opener in visible text, a :class:`Region` hands the text to
the syntax's reader, one ``read`` call per step, and carries out what the reader
attributes (see :mod:`.syntax` for the protocol): it is the reader's
:class:`~.syntax.InlineOut`. It also enforces the limits, and gives back to the
scanner what the reader leaves unattributed when the region ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from .errors import ErrorCode
from .events import StopReason
from .line_syntax import TEXT
from .open_block import COMPACT_EVERY, OpenBlock, compact_pieces
from .registry import TypeTable
from .syntax import BODY, GO_ON, NOT_MINE, Header, InlineOut, InlineReader, InlineSyntax

if TYPE_CHECKING:
    from .scanner import Scanner


@mypyc_attr(allow_interpreted_subclasses=True)
class Region(InlineOut):
    """One inline region: its reader, what it consumed and what it decided."""

    __slots__ = (
        *("attributed", "blanks", "block", "buf", "cur", "has_bulk", "has_bulk_held", "index"),
        *("has_bulk_start", "has_bulk_raw", "last", "lead", "lead_len", "limit", "pend"),
        *("pend_at", "pend_cut", "pend_len", "rank", "reader", "sc", "stop", "synced"),
        *("syntax", "table", "thought"),
    )

    def __init__(
        self,
        sc: Scanner,
        reader: InlineReader,
        syntax: InlineSyntax,
        table: TypeTable,
        index: int,
        rank: int,
    ) -> None:
        self.sc = sc
        self.reader = reader
        self.syntax = syntax
        self.table = table
        self.index = index
        self.rank = rank  # how many openers matching at its start were turned down
        self.pend: list[str] = []  # consumed in earlier steps, not attributed yet: pieces
        self.pend_len, self.pend_at, self.pend_cut = 0, 0, COMPACT_EVERY  # (see hold)
        self.buf = ""  # the text of the current step, and the attribution cursor in it
        self.cur = 0
        self.lead: list[str] = []  # marker characters before the next block starts
        self.lead_len = 0
        self.block: OpenBlock | None = None
        self.attributed = False
        self.last = ""  # the last character attributed
        self.has_bulk = type(reader).bulk is not InlineReader.bulk
        self.has_bulk_raw = type(reader).bulk_raw is not InlineReader.bulk_raw
        self.has_bulk_held = type(reader).bulk_held is not InlineReader.bulk_held
        self.has_bulk_start = type(reader).bulk_start is not InlineReader.bulk_start
        self.stop: str | None = None  # the reader's content_stop
        self.blanks = ""  # blanks after content that the reader was not shown (see lean)
        self.limit = 0  # max_block_chars, read for the lean step
        self.thought = ""  # the stop of Session.feed's inline content step, or ""
        self.synced = 0  # the block's raw length when its inline steps were last synced

    # ------------------------------------------------------------------ scanner side

    def step(self, text: str, i: int) -> tuple[str, int]:
        """Hand ``text[i:]`` (as much as the limits allow) to the reader; returns the
        text and offset the scanner reads on from."""
        sc = self.sc
        if self.blanks:  # (counted when held: read again, not counted)
            sc.examined -= len(self.blanks)
            text, i, self.blanks = self.blanks + text[i:], 0, ""
        n = len(text)
        block = self.block
        if block is not None:
            room = sc.limits.max_block_chars - block.raw_len - self.pend_len
            # (the block may close in this step and a marker begin after it, from what
            # is held: the step reads no more than that marker may hold, and the next
            # counts its limit from its own start, wherever the chunks were cut)
            step = min(room, max(1, sc.room - self.pend_len))
        else:  # (a block opened during this step holds at most what it is given)
            room = step = sc.room - self.lead_len - self.pend_len
        if room <= 0 and i < n:
            return self._overflow(text, i)
        stop = n if n - i <= step else i + step
        self.buf, self.cur = text, i
        end = self.reader.read(text, i, stop, self)
        # (what the reader consumed; a rejected opener's characters are counted again
        # when the scanner reads them as visible text)
        sc.examined += stop - i if end == GO_ON else 1 if end == NOT_MINE else end - i
        if end == GO_ON:
            if self.cur < stop:  # (hold, inline)
                pend = self.pend
                pend.append(text[self.cur : stop])
                self.pend_len += stop - self.cur
                if len(pend) > self.pend_cut:
                    self.compact()
            self.buf = ""
            return text, stop
        if end == NOT_MINE:
            return self._not_mine(text, i)
        return self._end(text, end)

    def lean_start(self, text: str) -> bool:
        """:meth:`step` for a chunk that the reader's ``bulk_start`` takes whole (see
        :func:`.lean_regions.region_step`): the block starts, the region goes on."""
        self.buf, self.cur = text, 0
        if not self.reader.bulk_start(text, self):
            self.buf = ""
            return False
        self.sc.examined += len(text)
        if self.cur < len(text):
            self.hold(text[self.cur :])
        self.buf = ""
        return True

    def lean_ready(self) -> bool:
        """Whether the next chunk may take :meth:`lean` (a bulk step of the reader's)."""
        block = self.block
        if block is None:
            self.stop, self.thought = None, ""
            return self.has_bulk_held
        stop = self.stop = self.reader.content_stop()
        # (Session.feed's inline step for it: a block with no partial object, and the
        # region's first character attributed)
        self.thought = (
            stop if stop is not None and block.partial is None and self.attributed else ""
        )
        self.limit = self.sc.limits.max_block_chars
        return (self.has_bulk or self.has_bulk_raw) and block.streamed

    def close(self, stop_reason: StopReason | None) -> None:
        """The stream ended inside the region."""
        sc = self.sc
        if self.blanks:  # (shown to the reader first: the scanner reads them, then closes)
            sc.examined -= len(self.blanks)  # (counted when held)
            sc.tail, self.blanks = self.blanks, ""
            return
        self.buf, self.cur = "", 0
        self.reader.close(self, stop_reason)
        sc.region = None
        block = self.block
        if block is not None:
            self.block = None
            pend = self.held()
            block.add(pend)  # (what the reader still held is the block's)
            sc.em.pos += len(pend)
            sc.em.drop(
                block,
                ErrorCode.UNCLOSED,
                f"the stream ended inside {block.type_name} opened at offset {block.start}",
            )
        self._release_lead()
        rest = self.held()
        if rest:
            if self.rank >= 0 or self.attributed:
                if not self.attributed:  # (the reader decided nothing: its opener is text)
                    sc.em.text(rest[0])
                    rest = rest[1:]
                sc.line, sc.flow = None, TEXT
            sc.run(rest)  # (an initial region that decided nothing: as if it never was)

    def _not_mine(self, text: str, i: int) -> tuple[str, int]:
        self.sc.region = None
        self._release_lead()
        if self.pend_len:
            text, i = self.held() + text[i:], 0
        if self.rank < 0:  # the initial region: the scanner reads on in the state it left
            return text, i
        return text, open_region(self.sc, text, i, self.rank + 1)

    def _end(self, text: str, end: int) -> tuple[str, int]:
        """The reader ended the region at ``end``: what it left unattributed is read
        again as visible text."""
        sc = self.sc
        sc.region = None
        block = self.block
        if block is not None:
            self.fail(ErrorCode.PARSE_FAILED, f"{self.syntax.name} ended its region inside a block")
        self._release_lead()
        cur = self.cur
        if self.pend_len:
            pend = self.held()
            text, cur = pend + text[cur:], 0
            end = end - self.cur + len(pend)
        sc.line, sc.flow = None, TEXT
        if self.last == "\n":  # (re-read from cur: the character before it is last)
            sc.line = ""
        if not self.attributed and cur < end:
            sc.em.text(text[cur])  # (nothing decided: the opener is text)
            cur += 1
        return text, cur

    def _overflow(self, text: str, i: int) -> tuple[str, int]:
        """The region may take no more characters: drop it at the limit."""
        sc = self.sc
        sc.region = None
        em = sc.em
        pend = self.held()
        block = self.block
        if block is not None:
            self.block = None
            block.add(pend)
            em.pos += len(pend)
            limit = f"max_block_chars={sc.limits.max_block_chars}"
            em.drop(block, ErrorCode.TOO_LARGE, f"{block.type_name} grew past {limit}")
        else:
            raw = "".join(self.lead) + pend
            self.lead, self.lead_len = [], 0
            em.pos += len(raw)
            em.error(
                None,
                None,
                ErrorCode.MARKER_TOO_LARGE,
                f"an opening marker of {self.syntax.name} grew past "
                f"max_marker_chars={sc.max_marker} without completing",
                raw,
            )
        sc.line, sc.flow = None, TEXT
        return text, i

    # -------------------------------------------------------------- held text (pend)

    def hold(self, text: str) -> None:
        """In pieces, joined once when taken (the first ``pend_at`` characters are taken
        already): a long held head (a Mistral array item's before its name) is linear."""
        pend = self.pend
        pend.append(text)
        self.pend_len += len(text)
        if len(pend) > self.pend_cut:
            self.compact()

    def compact(self) -> None:
        """The newest :data:`COMPACT_EVERY` pieces joined into one (as ``OpenBlock.add``)."""
        joined, self.pend_cut = compact_pieces(self.pend, self.pend_cut)
        self.sc.rejoined += joined

    def held(self) -> str:
        """All the held text, taken."""
        pend, at = self.pend, self.pend_at
        if len(pend) == 1:
            text = pend[0][at:] if at else pend[0]
        else:
            text = "".join([pend[0][at:], *pend[1:]] if at else pend)
            self.sc.rejoined += len(text)
        pend.clear()
        self.pend_len = self.pend_at = 0
        return text

    def unhold(self, n: int) -> str:
        """The first ``n`` of more characters held, taken (from one piece, joined once)."""
        pend, at = self.pend, self.pend_at
        if len(pend) > 1:
            joined = "".join([pend[0][at:], *pend[1:]] if at else pend)
            self.sc.rejoined += len(joined)
            self.pend, self.pend_cut, at = [joined], 1 + COMPACT_EVERY, 0
        self.pend_at, self.pend_len = at + n, self.pend_len - n
        return self.pend[0][at : at + n]

    def _release_lead(self) -> None:
        """Marker characters no block took: they are visible text after all."""
        if self.lead:
            self.sc.em.text("".join(self.lead))
            self.lead, self.lead_len = [], 0

    # ------------------------------------------------------------------ InlineOut

    def _take(self, n: int) -> str:
        if n <= 0:
            return ""
        self.attributed = True
        held = self.pend_len
        if held:
            pend = self.pend
            if n < held:
                piece = self.unhold(n)
            elif len(pend) == 1 and not self.pend_at:  # (held(), inline: one piece)
                piece = pend[0]
                pend.clear()
                self.pend_len = 0
            else:
                piece = self.held()
            if n > held:
                more = n - held
                piece += self.buf[self.cur : self.cur + more]
                self.cur += more
        else:
            cur = self.cur
            piece = self.buf[cur : cur + n]
            self.cur = cur + n
        self.last = piece[-1:]
        return piece

    def text(self, n: int) -> None:
        piece = self._take(n)
        if piece:
            self._release_lead()
            self.sc.em.text(piece)

    def marker(self, n: int) -> None:
        piece = self._take(n)
        if not piece:
            return
        block = self.block
        if block is not None:
            block.add(piece)
            self.sc.em.pos += len(piece)
        else:
            self.lead.append(piece)
            self.lead_len += len(piece)

    def content(self, n: int) -> None:
        piece = self._take(n)
        if not piece:
            return
        block = self.block
        if block is None:  # (content with no block open: visible text)
            self._release_lead()
            self.sc.em.text(piece)
            return
        block.add_content(piece)
        em = self.sc.em
        em.pos += len(piece)
        if block.streamed:
            em.delta(block, piece)

    def hide(self, n: int) -> None:
        piece = self._take(n)
        self.sc.em.pos += len(piece)

    def start(self, header: Header, *, empty: bool = False) -> None:
        em = self.sc.em
        if self.block is not None:  # (a reader starting a block inside a block)
            self.end()
        block = self.block = OpenBlock(None, self.syntax.name, self.index, em.pos)
        for piece in self.lead:
            block.add(piece)
        em.pos += self.lead_len
        self.lead, self.lead_len = [], 0
        em.begin(block, header, hooks=not empty)

    def end(self, content: Any = BODY, attrs: Mapping[str, Any] | None = None) -> None:
        block = self.block
        if block is not None:
            self.block = None
            self.sc.em.close(block, content, attrs)

    def fail(self, code: ErrorCode, message: str) -> None:
        block = self.block
        if block is not None:
            self.block = None
            self.sc.em.drop(block, code, message)

    @property
    def block_open(self) -> bool:
        return self.block is not None

    @property
    def reference(self) -> bool:
        return self.sc.reference

    def stream(self, text: str) -> None:
        block = self.block
        if block is not None and block.streamed:
            self.sc.em.delta(block, text)

    def work(self, n: int) -> None:
        self.sc.examined += n


def open_region(sc: Scanner, text: str, at: int, rank: int) -> int:
    """Begin a region at ``text[at]`` with the ``rank``-th inline opener that matches
    there (in priority order); the first character is text when none is left. Returns
    where the scanner goes on."""
    if at >= len(text):
        return at
    found = 0
    for index, opener, syntax, table in sc.scanning.openers:
        if text.startswith(opener, at):
            if found == rank:
                sc.region = Region(sc, syntax.reader(opener, table), syntax, table, index, rank)
                return at
            found += 1
        elif not sc.final and len(text) - at < len(opener) and opener.startswith(text[at:]):
            sc.tail = text[at:]  # a more important opener may still complete
            return len(text)
    sc.em.text(text[at])
    return at + 1
