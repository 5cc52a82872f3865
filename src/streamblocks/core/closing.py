"""A line block's content up to its closing line, in one piece.

A started parser that names its closing line (:attr:`LineParser.closing_line
<.line_syntax.LineParser.closing_line>`) says that every complete line before that line is
content. So the scanner needs no question per line: one search finds the closing line,
the content before it goes to the block in one piece and the closing line closes it.
:func:`content` is that one reading, whoever asks: the block step mid-line
(:meth:`Scanner._in_block <.scanner.Scanner._in_block>`), a block just started at a line
start (:mod:`.whole`), a block whose opener a syntax read itself (:mod:`.cut_blocks`).

Two small decisions every such reading makes are here too, once: whether a line is short
enough to be a marker (``Scanner.marker_line``), and whether a line start is decided by its
first character because no marker can begin with it (:func:`decided_at`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import lines
from .line_syntax import CONTENT, TEXT
from .open_block import OpenBlock

if TYPE_CHECKING:
    from .scanner import Scanner


def decided_at(sc: Scanner, text: str, i: int) -> bool:
    """Whether the line start at ``i`` is decided by its first character: no marker can
    begin with it (of the open parser's, or outside blocks of any line syntax). The line
    is then the parser's default (visible text outside blocks), mid-line from ``i``."""
    parser = sc.parser
    starts = sc.outside_starts if parser is None else parser.marker_starts
    if starts is None or i == len(text) or text[i] in starts:
        return False
    sc.line = None
    sc.flow = TEXT if parser is None else lines.default_verdict(parser)
    return True


def content(sc: Scanner, block: OpenBlock, text: str, i: int, start: int) -> int:
    """The content of the started ``block`` from ``i`` (mid-line, ``start == i``, or a
    line start, ``start == i - 1``, the newline before it) up to its closing line, in
    one piece; a closing line no longer than a marker closes the block. Without one in
    ``text``, the content runs to the last line, which is left to the line start when a
    marker may begin it (it may still become the closing line). Return where the
    scanner goes on (``i``: nothing taken)."""
    parser = block.parser
    assert parser is not None and parser.closing_line is not None
    found = parser.closing_line.search(text, start)  # (it starts with the "\n" before it)
    if found is not None:
        at = found.start() + 1
        end = found.end()
        if end - at <= sc.marker_line:
            sc.examined += at - i
            if at - i <= sc.limits.max_block_chars - block.raw_len:
                sc.examined += end - at
                return close_at(sc, block, text, i, at, end)  # (in one step)
            sc.line = ""
            sc.flow = CONTENT
            lines.to_block(sc, text[i:at], CONTENT)  # (over the limit: the block is dropped)
            return at
        end = at  # (too long to be a marker: content, decided at its line start)
    else:
        end = len(text)
        if text[end - 1] != "\n":
            last = text.rfind("\n", start) + 1
            if last and text[last] in parser.marker_starts:  # type: ignore[operator]
                end = last
    if end == i:
        return i
    sc.examined += end - i
    sc.line = "" if text[end - 1] == "\n" else None  # (a line start next, or mid-line)
    sc.flow = CONTENT
    lines.to_block(sc, text[i:end], CONTENT)
    return end


def close_at(sc: Scanner, block: OpenBlock, text: str, i: int, at: int, end: int) -> int:
    """``lines.to_block`` of the content ``text[i:at]`` and ``lines.close_block`` of
    the closing line ``text[at:end]`` in one step, for the started ``block`` whose
    content fits its limit; return ``end``."""
    if at > i:
        piece = text[i:at]
        block.raw.append(piece)  # (OpenBlock.add: the raw is joined next)
        block.raw_len += at - i
        sc.em.pos += at - i
        if block.streamed:
            if sc.em.deltas:  # (deltas of this block or another held: they may join)
                sc.em.delta(block, piece)
            else:
                sc.em.last_delta(block, piece)
    lines.close_block(sc, text[at:end])
    sc.line = ""
    decided_at(sc, text, end)
    return end
