"""The lean steps of the table's text rows (:mod:`.table`), and :func:`settle`, which
writes the row after each full step.

In a row — visible text, a line block's content or held header, a held line start, an
inline region's content — :meth:`Session.feed <streamblocks.core.session.Session.feed>`
takes a chunk with one search and at most one event, without entering the scanner's
loop; anything it must stop for goes through :meth:`Scanner.run
<.scanner.Scanner.run>`, and :func:`settle` names the row again. The region rows' steps
are in :mod:`.lean_regions`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from . import lines
from .events import Event, TextDelta, new_event
from .line_syntax import CONTENT, HOLD, TEXT
from .table import (
    BLOCK_LINE,
    CONTENT_MODE,
    LINE_START,
    OPENING,
    PENDING_LINE,
    REGION,
    SLOW,
    THOUGHT,
    VISIBLE,
)

if TYPE_CHECKING:
    from .region import Region
    from .scanner import Scanner


def settle(sc: Scanner) -> None:
    """After a full step: write the row of :data:`.table.ROWS` the next chunk is read
    in (``Scanner.mode``), from the scanner's state, and what that row's lean step
    needs (its search, its limit); ``SLOW`` when the state is no row's."""
    mode = SLOW
    if sc.lean and not sc.tail:
        region, parser, line = sc.region, sc.parser, sc.line
        if region is not None:
            if region.lean_ready():
                if region.thought:
                    mode = THOUGHT
                    arm(sc, region)
                else:
                    mode = REGION
        elif parser is None or (parser.visible and parser.marker_starts is not None):
            if parser is None:
                sc.visible_stop, sc.starts = sc.scanning.outside_stop, sc.outside_starts
                sc.nl_only = not sc.scanning.all_openers
            else:
                if parser is not sc.searched:
                    sc.prepare(parser)
                sc.visible_stop, sc.starts = sc.shown_stop, parser.marker_starts
                sc.nl_only = not (sc.scanning.all_openers and sc.scan_fences)
            if line is None:
                if sc.flow is TEXT:
                    mode = VISIBLE
            elif line:
                if parser is None:
                    mode = PENDING_LINE
            elif sc.starts is not None:
                mode = LINE_START
        elif parser.marker_starts is not None:
            block = sc.block
            started = parser.started
            if block is not None and block.parser is parser and (block.streamed or not started):
                if parser is not sc.searched:
                    sc.prepare(parser)
                flow = CONTENT if started else HOLD
                if line is None:
                    if sc.flow is flow:
                        mode = CONTENT_MODE
                elif not line:
                    mode = BLOCK_LINE
                if mode:  # (what the lean step needs, read once here)
                    limits = sc.limits
                    sc.lean_limit = limits.max_block_chars if started else limits.max_metadata_chars
                    sc.lean_flow, sc.lean_path, sc.starts = flow, parser.path, parser.marker_starts
                    sc.mode = mode
                    sc.lean_from = sc.em.pos - block.raw_len  # (see count_lean)
                    return
    elif sc.lean and sc.tail in sc.opener_prefixes and sc.region is None and sc.parser is None:
        # (visible text held at the chunk's end, mid-line: see opening)
        mode = OPENING if sc.line is None and sc.flow is TEXT else SLOW
    sc.mode = mode
    sc.lean_from = sc.em.pos


def still_pending(sc: Scanner, chunk: str) -> bool:
    """A lean step at a pending line start outside blocks: whether the line with
    ``chunk`` (which holds no newline) may still be a marker; it is then kept as
    ``line`` (the line so far)."""
    line = sc.line
    assert line is not None
    line += chunk
    if not lines.undecided(sc, line):
        return False
    sc.line = line
    return True


def pending_line(sc: Scanner, chunk: str, at: int) -> list[Event] | None:
    """A lean visible step outside blocks whose chunk has a line start at ``at`` that
    a marker may begin (after the last newline, where its search stopped, or ``0`` in
    mode ``LINE_START`` for a chunk with no newline), taken as the full step takes it:
    the text before it, and the rest of the chunk pending while it may still be a marker
    (mode ``PENDING_LINE``, see :func:`still_pending`). ``None``, nothing changed, when
    the full step must decide the line."""
    rest = chunk[at:]
    if not rest:
        return None
    line = sc.line
    em = sc.em
    em.pos += at
    sc.line = ""
    if not still_pending(sc, rest):
        sc.line = line
        em.pos -= at
        return None
    sc.mode = PENDING_LINE
    return [new_event(TextDelta, (chunk[:at],))] if at else []


def count_lean(sc: Scanner) -> None:
    """Count in :attr:`examined` what the lean steps took since :meth:`settle`.
    Outside a region (whose lean steps count their own chunks) a lean step searches
    its chunk once and takes it whole, so it adds to the stream offset only, and this
    brings the count up to date (before a full step, at the end, when the count is
    read). In a line block it adds to the block only: the stream offset is brought up
    to date here too (one addition a chunk less)."""
    mode = sc.mode
    if mode and mode != REGION:
        if mode == THOUGHT:
            region = sc.region
            assert region is not None
            thought_sync(sc, region)
        elif mode in (CONTENT_MODE, BLOCK_LINE):
            # (a line block's lean steps add to the block only, not to the stream
            # offset: ``lean_from`` is where the block's raw text begins)
            em = sc.em
            pos = sc.lean_from + sc.block.raw_len  # type: ignore[union-attr]  # (open in these modes)
            sc.examined += pos - em.pos
            em.pos = pos
        else:
            pos = sc.em.pos
            sc.examined += pos - sc.lean_from
            sc.lean_from = pos


def line_ends(sc: Scanner, stop: re.Match[str], chunk: str) -> bool:
    """In a lean visible step: whether ``stop``, what the visible search found in
    ``chunk``, is only the newline ending it; then the next chunk is read at the line
    start (:data:`LINE_START`), whose first character decides."""
    if sc.nl_lean and stop.start() == len(chunk) - 1 and chunk[-1] == "\n":
        sc.line = ""
        sc.mode = LINE_START
        return True
    return False


def opening(sc: Scanner, chunk: str, stop: re.Match[str] | None) -> list[Event] | None:
    """An inline opener arriving in pieces, taken as :meth:`Scanner.run
    <.scanner.Scanner.run>` takes it: a lean visible step (or one at a line start that
    no line marker begins) whose ``stop`` is such a beginning ending the chunk
    (``s.\\n<``) gives the text before it and holds it as the scanner's tail; in mode
    ``OPENING`` (``stop`` ``None``), each next piece that leaves it a beginning
    (``tool``, ``_cal``) is held with it. ``None``, nothing changed, when the chunk
    needs the full step (the opener completed, or it is no opener after all)."""
    if stop is None:
        text = sc.tail + chunk
        if text not in sc.opener_prefixes:
            return None
        sc.examined += len(text)
        sc.tail = text
        return []
    tail = stop.group()
    if tail not in sc.opener_prefixes or sc.parser is not None:  # (not in a code fence)
        return None
    em = sc.em
    cut = stop.start()
    sc.examined += em.pos - sc.lean_from + len(chunk)  # (the lean chunks before, and this)
    sc.tail = tail
    sc.line, sc.flow = None, TEXT  # (at a line start: decided by its first character)
    sc.mode = OPENING
    em.pos += cut
    sc.lean_from = em.pos
    return [new_event(TextDelta, (chunk[:cut],))] if cut else []


THOUGHT_RUN: Final = 1024
"""In mode ``THOUGHT``, how many characters ``Session.feed`` appends to the block inline
before :func:`.lean_regions.thought_step` brings it up to date (and compacts its pieces)."""

THOUGHT_BLANKS: Final = 64
"""In mode ``THOUGHT``, how many blanks :func:`.lean_regions.thought_step` holds itself (more go to
:func:`.lean_regions.region_step`): ``lean_limit`` leaves them room below the block's limit."""


def arm(sc: Scanner, region: Region) -> None:
    """Mode ``THOUGHT`` begins: ``Session.feed`` appends each chunk of thinking to the
    block's ``raw`` alone (and its length); :func:`thought_sync` does the rest later.
    ``lean_limit`` keeps the block, with the blanks the region holds, within its limit
    and the pieces appended since the last compaction few."""
    block = region.block
    assert block is not None
    at = region.synced = block.raw_len
    room = region.limit - max(len(region.blanks), THOUGHT_BLANKS)
    sc.lean_limit = min(room, at + THOUGHT_RUN)


def thought_sync(sc: Scanner, region: Region) -> None:
    """Bring up to date what the chunks of thinking taken in mode ``THOUGHT`` leave for
    later: each is the block's content, so its ``raw`` that grew since the last sync is
    one content span, moves the stream offset and was examined (blanks held and counted
    before a chunk are joined to it, and their count taken back there)."""
    block = region.block
    assert block is not None
    at, end = region.synced, block.raw_len
    if end > at:
        sc.examined += end - at
        sc.em.pos += end - at
        spans = block.spans  # (OpenBlock.add_content)
        if spans and spans[-1] == at:
            spans[-1] = end
        else:
            spans += (at, end)
        region.last = block.raw[-1][-1]
        region.synced = end
