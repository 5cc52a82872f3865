"""Blocks that a chunk boundary cuts: the in-block line step in fewer steps.

A block whose header is in hand and whose closing line is not starts from its
syntax's reader (an :class:`~.line_syntax.OpenedBlock`: the parser the line step would
hold once the block started), and the content in hand goes with it (:func:`opened`);
the chunk that holds its closing line ends it in one step (:func:`close_at`). From
there the line step reads on as it always does: partial lines, limits, snapshots and
the end of the stream are its own, so the events and feeds are the line step's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import lines
from .events import CONTENT_SECTION, BlockDelta, Event, new_event
from .line_syntax import CONTENT, LineParser, OpenedBlock
from .open_block import OpenBlock

if TYPE_CHECKING:
    from .scanner import Scanner


def opened(sc: Scanner, syntax_name: str, index: int, found: OpenedBlock, text: str, i: int) -> int:
    """A block whose header is in hand from ``i`` and whose content runs past
    ``text``, started as the line step starts it (its opener held, ``Emitter.begin``),
    with the parser its syntax gave; the line step reads on from the content's first
    line. Else ``i`` (the line step reads the opener too): when the header may be
    over a limit or hold a line too long to be a marker, or when the parser starts the
    block on the line after it (``then``: a fence's first line decides whether it has
    a frontmatter) and that line is not in hand, complete and no longer than a
    marker."""
    parser, body = found
    header = parser.header
    if (
        header is None
        or not parser.started
        or body - i > sc.max_marker + 1
        or body - i > sc.limits.max_metadata_chars
    ):
        return i
    if parser.then is not None:
        nl = text.find("\n", body)
        if nl < 0 or nl - body > sc.max_marker:
            return i
    em = sc.em
    block = sc.block = OpenBlock(parser, syntax_name, index, em.pos)
    sc.parser = parser
    block.raw.append(text[i:body])  # (OpenBlock.add: the opener, nothing to compact)
    block.raw_len = body - i
    em.pos += body - i
    sc.examined += body - i
    sc.line = ""
    em.begin(block, header)
    return _content(sc, block, parser, text, body)


def _content(sc: Scanner, block: OpenBlock, parser: LineParser, text: str, i: int) -> int:
    """The content of the just opened ``block`` from ``i`` on, whose closing line is
    not in ``text``: every complete line is content (the parser names its closing
    line), and the last line too when no marker can begin it (``Scanner._to_closing``
    without a closing line, and ``lines.to_block``, inline). A last line that may still
    be a marker, or content over the block's limit, is left to the line step."""
    starts = parser.marker_starts
    n = len(text)
    end = n
    if text[n - 1] != "\n":
        last = text.rfind("\n", i - 1) + 1  # (text[i - 1] ends the header)
        if starts is not None and text[last] in starts:
            end = last
    if (
        end == i
        or starts is None
        or parser.closing_line is None
        or end - i > sc.limits.max_block_chars - block.raw_len
    ):
        return i
    content = text[i:end]
    block.raw.append(content)
    block.raw_len += end - i
    em = sc.em
    em.pos += end - i
    sc.examined += end - i
    sc.flow = CONTENT
    if end < n or text[n - 1] == "\n":
        if block.streamed:  # (what the line step reads next may join this delta)
            em.delta(block, content)
        return end
    sc.line = None  # (mid-line in the content)
    if block.streamed:  # (Emitter.begin flushed what was held: nothing joins it)
        delta_out(em.out, block, content)
    return end


def delta_out(out: list[Event], block: OpenBlock, content: str) -> None:
    """``Emitter.delta`` and ``flush_deltas`` of ``content``, inline, where no text or
    delta is held and nothing can join it."""
    parser = block.parser
    source, path = block.partial, parser.path if parser is not None else None
    at = source.add(content, path) if source is not None else None
    out.append(
        new_event(BlockDelta, (block.block_id, block.type_name, CONTENT_SECTION, content, path, at))
    )


def close_at(sc: Scanner, block: OpenBlock, text: str, i: int, at: int, end: int) -> int:
    """``lines.to_block`` of the content ``text[i:at]`` and ``lines.close_block`` of
    the closing line ``text[at:end]`` in one step, for the started ``block`` whose
    content fits its limit; return ``end``."""
    em = sc.em
    raw = block.raw
    if at > i:
        content = text[i:at]
        raw.append(content)
        block.raw_len += at - i
        em.pos += at - i
        if block.streamed:
            if em.deltas:  # (deltas of this block or another held: they may join)
                em.delta(block, content)
            else:  # (the block closes next: nothing joins this delta)
                if em.texts:
                    em.flush_texts()
                delta_out(em.out, block, content)
    lines.close_block(sc, text[at:end])
    sc.line = ""
    starts = sc.outside_starts
    if end < len(text) and starts is not None and text[end] not in starts:
        sc.line = None  # (a line start no marker can begin: Scanner._line_start, inline)
    return end
