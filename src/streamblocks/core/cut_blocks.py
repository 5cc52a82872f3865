"""Blocks that a chunk boundary cuts: the in-block line step in fewer steps.

A block whose header is in hand and whose closing line is not starts from its
syntax's reader (an :class:`~.line_syntax.OpenedBlock`: the parser the line step would
hold once the block started), and the content in hand goes with it (:func:`opened`);
the chunk that holds its closing line ends it in one step (:func:`.closing.content`). From
there the line step reads on as it always does: partial lines, limits, snapshots and
the end of the stream are its own, so the events and feeds are the line step's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import closing
from .line_syntax import LineParser, OpenedBlock
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
        or body - i > sc.marker_line
        or body - i > sc.limits.max_metadata_chars
    ):
        return i
    if parser.then is not None:
        nl = text.find("\n", body)
        if nl < 0 or nl + 1 - body > sc.marker_line:
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
    """The content of the just opened ``block`` from the line start ``i`` on, whose
    closing line is not in ``text`` (:func:`.closing.content`); ``i`` when the parser
    names no closing line."""
    if parser.marker_starts is None or parser.closing_line is None:
        return i
    return closing.content(sc, block, text, i, i - 1)
