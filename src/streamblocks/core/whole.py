"""Whole blocks: a block read at once when the text in hand holds it.

The line step reads a block a line at a time: a line start, a verdict, a step per
line. When a block opens (or its header completes) and the text the scanner holds
goes on, :func:`read` takes what follows in one function: the header lines its parser
holds, one question each, and, once the block has started and its parser names its
closing line (:attr:`LineParser.closing_line <.line_syntax.LineParser.closing_line>`:
every complete line before it is content), the content up to that line with one search
(:func:`.closing.content`), and the block closes. The events, offsets, limits and
``raw`` are the line step's; the rest (a partial line that may be a marker, a long
line, any other verdict in the header) is left to the line step where it stands.

A syntax may also read its whole block itself (:meth:`LineSyntax.read_whole
<.line_syntax.LineSyntax.read_whole>`): at a line start outside blocks, :func:`block`
asks it where the block's opener, content and closing line are, and
:meth:`Emitter.whole <.emitter.Emitter.whole>` begins, streams and closes the block as
the line step would (metadata, hooks, validators), with no parser, no line step and no
``OpenBlock`` — the same events,
offsets and ``raw``, for a known type with no transform or content model within its
limits; anything else is left to the line step. A block whose header is in hand but
whose closing line is not starts from its syntax's reader too (:mod:`.cut_blocks`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import closing, lines
from .cut_blocks import opened
from .line_syntax import (
    HOLD,
    PENDING,
    REJECT,
    TEXT,
    LineParser,
    OpenedBlock,
    WholeBlock,
)
from .open_block import OpenBlock

if TYPE_CHECKING:
    from .scanner import Scanner


def read(sc: Scanner, block: OpenBlock, text: str, i: int) -> int:
    """Read on in ``text`` from ``i``, a line start in ``block`` that has just opened or
    started; return where the line step goes on."""
    if not block.started:
        i = _header(sc, block, text, i)
        if sc.block is not block or not block.started or sc.line != "" or i == len(text):
            parser = sc.parser
            if sc.block is None and parser is not None and parser.visible and sc.line == "":
                return _shown(sc, parser, text, i)
            return i
    return _rest(sc, block, text, i)


def _header(sc: Scanner, block: OpenBlock, text: str, i: int) -> int:
    """The header lines of ``block`` complete in ``text``, held and handed to its
    parser while it holds them; the first other verdict is carried out as the line
    step would (``START`` starts the block)."""
    parser = block.parser
    assert parser is not None
    room = sc.limits.max_metadata_chars
    n = len(text)
    while i < n:
        starts = parser.marker_starts
        if starts is not None and text[i] not in starts and text[i] not in "\r\n":
            # Lines no marker can start are held (lines.default_verdict of a parser not
            # started): up to the next line that may be one, in one piece.
            if parser is not sc.searched:
                sc.prepare(parser)
            found = sc.block_search(text, i)
            end = found.start() + 1 if found is not None else text.rfind("\n") + 1
            if end <= i or end - i > room - block.raw_len:
                return i  # (a partial line, or a header over its limit: the line step)
            sc.examined += end - i
            line = text[i:end]
        else:
            nl = text.find("\n", i)
            if nl < 0:
                return i
            end = nl + 1
            if end - i > sc.marker_line or end - i > room - block.raw_len:
                return i  # (a long line, or a header over its limit: the line step)
            line = text[i:end]
            body = line[:-2] if line[-2:] == "\r\n" else line[:-1]
            sc.examined += end - i
            verdict = parser.on_line(body, True)
            sc.searched = None  # (the parser may have changed its marker starts)
            if verdict is PENDING:
                verdict = lines.default_verdict(parser)
            if verdict is not HOLD:
                sc.line = None
                lines.apply(sc, verdict, line, True)
                return end
        raw = block.raw  # (OpenBlock.add, inline)
        raw.append(line)
        block.raw_len += end - i
        if len(raw) > block.compact_at:
            block.compact()
        sc.em.pos += end - i
        parser.held(line)
        i = end
    return i


def _rest(sc: Scanner, block: OpenBlock, text: str, i: int) -> int:
    """The content of the started ``block`` from the line start ``i`` up to its closing
    line (:func:`.closing.content`), when its parser names that line."""
    parser = block.parser
    if parser is None or parser.marker_starts is None or parser.closing_line is None:
        return i
    return closing.content(sc, block, text, i, i - 1)


def _shown(sc: Scanner, parser: LineParser, text: str, i: int) -> int:
    """A code fence the model shows (``parser``, visible, took over at the line start
    ``i``), read to its closing line when ``text`` holds that line and no inline syntax
    reads inside fences: all of it is visible text, the closing line ends it
    (``END_TEXT``)."""
    closing_line = parser.closing_line
    if closing_line is None or sc.scan_fences or i == len(text):
        return i
    found = closing_line.search(text, i - 1)  # (it starts with the "\n" ending line i-1)
    if found is None or found.end() - found.start() - 1 > sc.marker_line:
        return i  # (no closing line, or one too long to be a marker: the line step)
    end = found.end()
    sc.examined += end - i
    sc.em.text(text[i:end])
    sc.parser = None
    sc.flow = TEXT
    return end


def _shown_whole(sc: Scanner, text: str, i: int, body: int, closer: int, end: int) -> int:
    """A code fence the model shows, from its opening line at ``i`` to its closing line
    (``found`` by a reader whose header is ``None``), out as visible text in one step,
    when no inline syntax reads inside fences; else ``i`` (the line step: its opener
    held within ``max_metadata_chars``, the closing line no longer than a marker, as
    :func:`_shown` requires)."""
    if sc.scan_fences or body - i > sc.limits.max_metadata_chars or end - closer > sc.marker_line:
        return i
    sc.examined += end - i
    sc.em.text(text[i:end])
    closing.decided_at(sc, text, end)
    return end


def block(sc: Scanner, text: str, i: int, nl: int) -> int:
    """A block opening at the line start ``i`` (outside blocks, nothing held; its line
    ends at ``nl``, within ``max_marker_chars``) and closing in ``text``, read by its
    syntax's reader and reported here in one step; return where the scanner goes on
    (``i``: the line step decides the line)."""
    first = text[i]
    assert sc.readers is not None
    for starts, syntax, table, index in sc.readers:  # (lines._open's order and prefilter)
        if starts is not None and first not in starts:
            continue
        if syntax is None:
            return i
        found = syntax.read_whole(text, i, nl, table)
        if found is REJECT:
            continue
        if isinstance(found, WholeBlock):
            return _report(sc, syntax.name, found, text, i)
        if isinstance(found, OpenedBlock):
            return opened(sc, syntax.name, index, found, text, i)
        return i
    return i


def _report(sc: Scanner, syntax_name: str, found: WholeBlock, text: str, i: int) -> int:
    """The whole ``found`` at ``i`` begun, its content given and closed by
    ``Emitter.whole``, as the line step would (metadata, hooks and validators
    included), in one step; else ``i`` (the line step): a type the line step must read
    (unknown, with a transform or a content model) or a limit crossed."""
    header, body, closer, end = found
    if header is None:
        return _shown_whole(sc, text, i, body, closer, end)
    block_type = header.block_type
    limits = sc.limits
    if (
        block_type is None
        or block_type.transform is not None
        or block_type.content is not None
        or body - i > sc.marker_line  # (an opener line too long to be a marker)
        or body - i > limits.max_metadata_chars  # (a header over its limit)
        or closer - i > limits.max_block_chars  # (a block over its limit)
        or end - closer > sc.marker_line  # (a closing line too long to be a marker)
    ):
        return i
    sc.em.whole(syntax_name, header, text[i:end], text[body:closer])
    sc.examined += end - i
    closing.decided_at(sc, text, end)
    return end
