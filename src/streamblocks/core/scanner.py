"""The scanner: the one place where the session decides what text is. It reads the stream's
text once, left to right, in one of four states:

* **visible** — mid-line, outside blocks (or in a code fence the model shows): one
  compiled search finds the next inline opener of any active inline syntax, or the next
  line start that a line syntax's marker can begin with; the text before it goes out in
  one piece, and a chunk's last characters are held only while they are a proper prefix
  of an opener;
* **line start** — the start of a line that may be a marker: the line syntaxes (or the
  open block's line parser) classify it (:mod:`.lines`); a line still undecided at a
  chunk's end is held, bounded by ``max_marker_chars``;
* **block** — mid-line inside a line block: one search finds the next line that may be
  the block's marker; everything before it is the block's, in one piece;
* **region** — an inline syntax's reader (:mod:`.region`) takes every character once, to its end.

Token-sized and long chunks run this same code. :attr:`Scanner.examined` counts the characters
looked at (searched, handed to a syntax, offered as a line): tests check that it is linear.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from . import closing, lines, whole
from .emitter import Emitter
from .events import StopReason
from .limits import Limits
from .line_syntax import CONTENT, NO_LINE, TEXT, LineParser, Verdict
from .open_block import OpenBlock
from .region import Region, open_region
from .scan_plan import ScanPlan
from .searches import Search, Stop, nothing, parser_searches
from .syntax import SyntaxPlan
from .table import SLOW


@mypyc_attr(allow_interpreted_subclasses=True)
class Scanner:
    """One stream's reading state (see the module docstring)."""

    __slots__ = (
        "block", "block_search", "content_stop", "em", "examined", "fence_search", "final",
        "flow", "lean", "lean_flow", "lean_from", "lean_limit", "lean_ok", "lean_path",
        "limits", "line", "marker_line", "max_marker", "mode", "nl_lean", "nl_only", "opener_also",
        "opener_first", "opener_prefixes", "outside_search", "outside_starts", "parser", "plan",
        "prefilter", "readers", "reference", "region", "rejoined", "room", "scan_fences",
        "scanning", "searched", "shown_spans", "shown_stop", "starts", "tail", "tail_span",
        "tails", "to_closing", "visible_stop", "whole",
    )  # fmt: skip

    def __init__(
        self, plan: SyntaxPlan, limits: Limits, emitter: Emitter, scanning: ScanPlan | None = None
    ) -> None:
        self.em = emitter
        scanning = self.scanning = ScanPlan(plan) if scanning is None else scanning
        """What the syntaxes say before any text is read (built once per processor);
        the slots below copy what the steps read most."""
        self.plan = plan
        self.limits = limits
        self.max_marker = limits.max_marker_chars
        self.marker_line = limits.max_marker_chars + 1
        r"""The longest complete line, its newline included, that may be a marker: the one
        bound a step that reads lines at once checks (a ``"
"`` line of
        ``max_marker_chars`` is declined: the line step reads it)."""
        self.room = min(limits.max_marker_chars, limits.max_block_chars)
        """What an inline region may take in one step while no block of it is open."""
        self.prefilter = scanning.prefilter
        self.outside_starts = scanning.outside_starts
        self.shown_spans = scanning.shown_spans  # (see _shown_span; {}: none read so)
        self.tails = scanning.tails
        self.tail_span = scanning.tail_span
        self.outside_search = scanning.outside_search
        self.visible_stop = scanning.outside_stop
        """The lean visible step's search: anything that ends plain visible text (outside
        blocks, or in a code fence the model shows)."""
        self.starts = self.outside_starts
        """The characters a marker line may start with, for the lean visible step."""
        self.nl_only = not scanning.all_openers
        """Whether the lean visible step has no inline opener to look for: its search then
        stops only at a newline."""
        self.opener_first = scanning.opener_first
        self.opener_also = scanning.opener_also
        self.opener_prefixes = scanning.opener_prefixes
        self.nl_lean = scanning.nl_lean
        self.scan_fences = scanning.scan_fences
        self.readers = scanning.readers
        self.searched: LineParser | None = None
        """The parser the next three searches were made for (see :meth:`prepare`)."""
        self.block_search: Search = nothing
        self.fence_search: Search = nothing
        self.content_stop: Stop = nothing
        self.shown_stop: Stop = nothing
        self.line: str | None = ""
        """The held start of the current line (``""``: at a line start, nothing held;
        ``None``: mid-line, the line is decided)."""
        self.flow: Verdict = TEXT
        """What the rest of a decided line is (``TEXT``, ``CONTENT``, ``BODY``, ``HOLD``)."""
        self.parser: LineParser | None = None
        self.block: OpenBlock | None = None
        self.region: Region | None = None
        self.tail = ""
        """Visible text held at a chunk's end: a proper prefix of an inline opener."""
        self.final = False
        self.examined = 0
        self.rejoined = 0
        """Characters of a region's held text copied again (:attr:`.region.Region.pend`):
        tests check that this stays linear too."""
        self.lean = False
        self.lean_ok = True
        """Whether the session takes the lean steps at all (text in, no transforms)."""
        self.whole = True
        """Whether a block whose closing line is in the text is read at once (:mod:`.whole`)."""
        self.to_closing = True
        """Whether a block's content is read up to its closing line in one search."""
        self.reference = False
        """Whether inline readers take no shortcut (:attr:`.syntax.InlineOut.reference`)."""
        self.mode = SLOW
        """The lean step the next chunk may take (see :func:`.lean.settle`)."""
        self.lean_from = 0
        self.lean_flow: Verdict = CONTENT
        """In a line block's lean step: what its lines are (``CONTENT``, or ``HOLD`` while
        its header is read), up to what size, and the path of its deltas."""
        self.lean_limit = 0
        self.lean_path: str | None = None
        """The stream offset where the lean steps began (see :func:`.lean.count_lean`)."""

    # ------------------------------------------------------------------ the loop

    def start(self) -> None:
        """The stream begins: open a region that starts with it, if a syntax has one."""
        for index, syntax, table in self.scanning.inline:
            reader = syntax.initial(table)
            if reader is not None:
                self.region = Region(self, reader, syntax, table, index, -1)
                self.region.step("", 0)
                return

    def run(self, text: str) -> None:
        """Read ``text``, the next piece of the stream.

        The visible state is read here, in the loop itself (it is where most text
        goes); the other states are steps that return where they stopped.
        """
        if self.tail:
            text, self.tail = self.tail + text, ""
        i, n = 0, len(text)
        em = self.em
        while i < n:
            if self.region is not None:
                text, i = self.region.step(text, i)
                n = len(text)
                continue
            if self.line is not None:
                i = self._line_start(text, i)
                continue
            if self.flow is not TEXT:
                i = self._in_block(text, i)
                continue
            # visible: out in bulk up to the next opener or marker line start
            parser = self.parser
            if parser is None:
                scan_inline = True
                found = self.outside_search(text, i)
            else:
                scan_inline = self.scan_fences
                if parser is not self.searched:
                    self.prepare(parser)
                found = self.fence_search(text, i)
            if found is not None:
                at = found.start()
                self.examined += at + 1 - i
                if text[at] == "\n":
                    em.text(text[i : at + 1])
                    self.line = ""
                    i = at + 1
                    if i < n:  # (the search found a line a marker may begin)
                        i = self._line_start(text, i, False)
                else:
                    end = self._shown_span(text, at) if text[at] in self.shown_spans else -1
                    if end > at:  # (a region all visible, in hand: no reader)
                        em.text(text[i:end])
                        i = end
                        continue
                    em.text(text[i:at])
                    i = open_region(self, text, at, 0)
                continue
            self.examined += n - i
            cut = n
            tails = self.tails
            if tails is not None and scan_inline and not self.final:
                held = tails(text, max(i, n - self.tail_span))
                if held is not None:
                    cut = held.start()
                    self.tail = text[cut:]
            if em.deltas:
                em.flush_deltas()
            if cut > i:
                em.texts.append(text[i:cut] if i or cut < n else text)
                em.pos += cut - i
            if cut == n and text[n - 1] == "\n":
                self.line = ""  # the next chunk starts a line
            return

    def _shown_span(self, text: str, at: int) -> int:
        """Where a region whose opener (one of ``shown_spans``) is at ``text[at]`` ends
        when its syntax reads it as all visible text in hand (``InlineSyntax.read_shown``,
        given what the region's reader would be given), counted as examined; else ``-1``
        (a region reads it)."""
        syntax = self.shown_spans[text[at]]
        n = len(text)
        end = syntax.read_shown(text[at], text, at, n if n - at <= self.room else at + self.room)
        if end > at:
            self.examined += end - at
        return end

    def visible(self, text: str, complete: bool) -> None:
        """``text`` (a decided line, or held text released) read as visible text;
        ``complete``: it ends its line, so a line starts after it. (Counted once, when
        the line was decided: reading it again for inline openers is not counted.)"""
        self.line, self.flow = NO_LINE, TEXT
        self.examined -= len(text)
        self.run(text)
        if complete and self.region is None and self.line is None:
            self.line = ""

    def shown(self, text: str) -> None:
        """Text of a code fence the model shows: visible, and read for inline openers
        only when an inline syntax is not code-aware (no line is decided in it)."""
        if not self.scan_fences or not text:
            self.em.text(text)
            return
        parser, line, flow = self.parser, self.line, self.flow
        self.parser, self.line, self.flow = lines.NO_LINES, None, TEXT
        self.run(text)
        self.parser = parser
        if self.region is None:
            self.line, self.flow = line, flow

    def _in_block(self, text: str, i: int) -> int:
        """The rest of a line inside a line block, and the lines after it that no
        marker of the block can start, in one piece."""
        parser = self.parser
        n = len(text)
        if parser is None or parser.marker_starts is None:
            nl = text.find("\n", i)
            end = n if nl < 0 else nl + 1
        else:
            if parser is not self.searched:
                self.prepare(parser)
            block = self.block
            if (
                self.flow is CONTENT
                and parser.closing_line is not None
                and parser.started
                and self.to_closing
                and block is not None
            ):
                return closing.content(self, block, text, i, i)
            found = self.block_search(text, i)
            end = n if found is None else found.start() + 1
        self.examined += end - i
        if text[end - 1] == "\n":
            self.line = ""
        lines.to_block(self, text[i:end], self.flow)
        return end

    def _line_start(self, text: str, i: int, check: bool = True) -> int:
        """A line start: decide the line if it may be a marker. ``check``: unless its
        first character decides it (:func:`.closing.decided_at`); the visible loop's
        search found its line starts at characters a marker may begin, so it asks no
        more (once per chunk, not per line)."""
        line = self.line
        assert line is not None
        parser = self.parser
        if check and not line and closing.decided_at(self, text, i):
            return i
        nl = text.find("\n", i)
        if (
            not line
            and parser is None
            and self.readers is not None
            and nl >= 0
            and nl + 1 - i <= self.marker_line  # (a complete line that may be an opener)
            and self.whole
        ):
            end = whole.block(self, text, i, nl)
            if end > i:
                return end
        end = len(text) if nl < 0 else nl + 1
        before = self.block
        self.line = NO_LINE  # (not None: mypyc would hold the narrowed type across decide)
        lines.decide(self, line + text[i:end], nl >= 0)
        block = self.block
        if (
            block is not None
            and (before is None or not before.started)  # (a block opened, or its header read)
            and self.line == ""
            and end < len(text)
            and self.whole
        ):
            return whole.read(self, block, text, end)
        return end

    def prepare(self, parser: LineParser) -> None:
        """Compile (or find compiled) the searches of ``parser``'s lines, once per
        parser rather than once per step."""
        self.searched = parser
        starts = parser.marker_starts
        openers = self.scanning.all_openers if self.scan_fences else ()
        found = parser_searches(starts, openers)
        self.fence_search, self.block_search, self.content_stop, self.shown_stop = found

    # ------------------------------------------------------------------ the end

    def finish(self, stop_reason: StopReason | None) -> None:
        """End of stream: decide everything still held, then report what is open."""
        self.final = True
        while True:
            if self.tail:
                tail, self.tail = self.tail, ""
                self.run(tail)
            elif self.region is not None:
                self.region.close(stop_reason)
            elif self.line:
                line, self.line = self.line, None
                lines.decide(self, line, True)
            elif self.parser is not None:
                lines.end_parser(self)
            else:
                return
