"""Line decisions: what the scanner does at a line start, with a line syntax's verdict.

At a line that may be a marker the scanner asks the line syntaxes (outside blocks) or
the open block's :class:`~.line_syntax.LineParser` (inside one) about the line, held
while it is ``PENDING``, and carries out the verdict here: visible text, block content,
a block's start or end, a rejected opener read again, a shown code fence. The protocol
is described in :mod:`.line_syntax`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import ErrorCode
from .line_syntax import (
    BODY,
    CLOSE,
    CONTENT,
    END_TEXT,
    HOLD,
    PENDING,
    REJECT,
    START,
    TEXT,
    VERBATIM,
    LineParser,
    Verdict,
    strip_line_end,
)
from .open_block import OpenBlock
from .syntax import BODY as WHOLE_BODY
from .syntax import COMPILED, settle_class_values

if TYPE_CHECKING:
    from .scanner import Scanner


class _NoLines(LineParser):
    """A visible region in which no line is a marker (for ``Scanner.shown``)."""

    visible = True
    marker_starts: str | None = ""

    def on_line(self, line: str, complete: bool) -> Verdict:
        return TEXT


NO_LINES = _NoLines()


def default_verdict(parser: LineParser) -> Verdict:
    """What a line that no marker can start is, inside ``parser``."""
    if parser.visible:
        return TEXT
    return CONTENT if parser.started else HOLD


def decide(sc: Scanner, line: str, complete: bool) -> None:
    """Classify the (partial or complete) line at the current line start."""
    body = line
    if complete and line[-1:] == "\n":  # (strip_line_end, inline)
        body = line[:-2] if line[-2:] == "\r\n" else line[:-1]
    max_marker = sc.max_marker
    if len(body) > max_marker and (complete or body[-1] != "\r" or len(body) > max_marker + 1):
        # (a partial line's trailing "\r" may be the start of its "\r\n")
        _decide_long(sc, line, body, complete)
        return
    sc.examined += len(line)
    parser = sc.parser
    if parser is None:
        verdict = _open(sc, line, body, complete, 0)
        if verdict is None:  # a syntax took the line
            sc.line = ""
            return
    elif parser.marker_starts is not None and body and body[0] not in parser.marker_starts:
        verdict = default_verdict(parser)
    else:
        verdict = parser.on_line(body, complete)
        sc.searched = None  # (the parser may have changed its marker starts)
        if verdict is PENDING and complete:
            verdict = default_verdict(parser)
    if verdict is PENDING:
        sc.line = line
        return
    apply(sc, verdict, line, complete)


def undecided(sc: Scanner, line: str) -> bool:
    """Whether ``line``, the partial line held at a line start outside blocks, may
    still open a block (counted as :func:`decide` counts it, when it may: else
    :func:`decide` reads it; what a syntax answers about a partial line changes nothing)."""
    if len(line) > sc.max_marker or _open(sc, line, line, False, 0) is not PENDING:
        return False
    sc.examined += len(line)
    return True


def _decide_long(sc: Scanner, line: str, body: str, complete: bool) -> None:
    """A line longer than ``max_marker_chars``: decided as its first
    ``max_marker_chars + 1`` characters would be when they arrive alone, so the
    outcome does not depend on how the line was chunked."""
    head = body[: sc.max_marker + 1]
    sc.examined += len(line)
    parser = sc.parser
    if parser is None:
        if _open(sc, line, head, False, 0) is PENDING:
            _marker_too_large(sc, line, complete)
            return
        verdict = TEXT
    elif parser.marker_starts is not None and head[0] not in parser.marker_starts:
        verdict = default_verdict(parser)
    else:
        verdict = parser.on_line(head, False)
        sc.searched = None
        if verdict is PENDING:
            verdict = default_verdict(parser)
    apply(sc, verdict, line, complete)


def _open(sc: Scanner, line: str, body: str, complete: bool, first: int) -> Verdict | None:
    """Offer a line outside any block to the line syntaxes from index ``first`` on;
    the first that takes the (complete) line opens its block or region on it.

    Returns ``None`` when a syntax took the line, ``PENDING`` when one may still take
    it, ``TEXT`` otherwise.
    """
    pending = False
    plan, prefilter = sc.plan, sc.prefilter
    for index in range(first, len(plan)):
        starts = prefilter[index]
        if starts is not None and (not body or body[0] not in starts):
            continue
        syntax, table = plan[index]
        answer = syntax.open(body, complete, table)
        if answer is REJECT:
            continue
        if answer is PENDING or not complete:
            pending = True
        elif not isinstance(answer, Verdict):  # a parser: the syntax took the line
            _engage(
                sc, settle_class_values(answer) if COMPILED else answer, syntax.name, index, line
            )
            return None
    return PENDING if pending else TEXT


def _marker_too_large(sc: Scanner, line: str, complete: bool) -> None:
    """A held line outside blocks outgrew ``max_marker_chars`` while undecided."""
    cut = sc.max_marker
    em = sc.em
    em.error(
        None,
        None,
        ErrorCode.MARKER_TOO_LARGE,
        f"an opening marker grew past max_marker_chars={cut} without completing",
        line[:cut],
    )
    em.pos += cut
    sc.visible(line[cut:], complete)


def apply(sc: Scanner, verdict: Verdict, line: str, complete: bool) -> None:
    """Carry out a decided verdict for the current line."""
    sc.line = "" if complete else None
    if verdict is TEXT:
        sc.visible(line, complete)
    elif verdict is CONTENT or verdict is BODY or verdict is HOLD:
        sc.flow = verdict
        to_block(sc, line, verdict)
    elif verdict is START:
        _start(sc, line, complete)
    elif verdict is CLOSE:
        close_block(sc, line)
    elif verdict is REJECT:
        _reject(sc, line)
    elif verdict is VERBATIM:
        sc.flow = TEXT
        _verbatim(sc, line)
    elif verdict is END_TEXT:
        sc.flow = TEXT
        sc.parser = None
        sc.em.text(line)
    else:
        raise AssertionError(f"unexpected verdict {verdict!r}")


def _engage(sc: Scanner, parser: LineParser, syntax_name: str, index: int, line: str) -> None:
    """A syntax claimed a complete line outside any block."""
    sc.parser = parser
    em = sc.em
    if parser.visible:
        em.text(line)
        return
    block = sc.block = OpenBlock(parser, syntax_name, index, em.pos)
    if parser.started:
        _begin(sc, block, parser, line)
    else:
        to_block(sc, line, HOLD)


def _begin(sc: Scanner, block: OpenBlock, parser: LineParser, line: str) -> None:
    """The block's header is complete with ``line``, which belongs to the block
    whatever its limit (it is bounded by ``max_marker_chars`` already)."""
    if line:
        block.raw.append(line)  # (OpenBlock.add: a line or two held, nothing to compact)
        block.raw_len += len(line)
        sc.em.pos += len(line)
    header = parser.header
    assert header is not None
    sc.em.begin(block, header)


def to_block(sc: Scanner, piece: str, verdict: Verdict) -> None:
    """A decided piece of a line inside the open line block, held up to the block's
    size limit (its metadata limit while its header is read)."""
    block = sc.block
    em = sc.em
    if block is None:  # the block was cut off by a limit: the rest is text
        em.text(piece)
        return
    limits = sc.limits
    room = (limits.max_block_chars if block.started else limits.max_metadata_chars) - block.raw_len
    if len(piece) <= room:
        raw = block.raw  # (OpenBlock.add, inline)
        raw.append(piece)
        block.raw_len += len(piece)
        if len(raw) > block.compact_at:
            block.compact()
        em.pos += len(piece)
        if verdict is CONTENT:
            if block.streamed:
                em.delta(block, piece)
        elif verdict is HOLD:
            assert block.parser is not None
            block.parser.held(piece)
        return
    taken = piece[: max(room, 0)]
    if taken:
        block.add(taken)
        em.pos += len(taken)
        if verdict is CONTENT and block.streamed:
            em.delta(block, taken)
        elif verdict is HOLD:
            assert block.parser is not None
            block.parser.held(taken)
    _overflow(sc, block, piece[len(taken) :])


def _overflow(sc: Scanner, block: OpenBlock, rest: str) -> None:
    """The open block crossed a size limit: report it; the rest of the line flows
    as text and the lines after it are read again from the top."""
    parser = block.parser
    assert parser is not None
    sc.flow = TEXT
    cut = rest.find("\n") + 1
    head, tail = (rest[:cut], rest[cut:]) if cut else (rest, "")
    if not parser.started and not parser.committed:
        if parser.on_overflow() is not VERBATIM:
            _reject(sc, rest)
            return
        _verbatim(sc, head)
    else:
        limits = sc.limits
        if parser.started:
            code = ErrorCode.TOO_LARGE
            limit = f"max_block_chars={limits.max_block_chars}"
        else:
            code = ErrorCode.METADATA_TOO_LARGE
            limit = f"max_metadata_chars={limits.max_metadata_chars}"
        _drop(sc, code, f"{block.type_name or 'the block'} grew past {limit}")
        sc.visible(head, head.endswith("\n"))
    sc.line = "" if head.endswith("\n") else None
    if tail:
        sc.examined -= len(tail)  # (counted when it was read: read again, not counted)
        sc.run(tail)


def _start(sc: Scanner, line: str, complete: bool) -> None:
    """``START`` from the block's parser on the current line."""
    block = sc.block
    assert block is not None and block.parser is not None
    parser = block.parser
    parser.started = True
    then = parser.then
    em = sc.em
    if then is None:
        _begin(sc, block, parser, line)
        return
    held = block.joined()
    cut = _line_offset(held, parser.opener_lines)
    block.reset(held[:cut])
    em.pos -= len(held) - cut
    _begin(sc, block, parser, "")
    if held[cut:]:
        to_block(sc, held[cut:], CONTENT)
    if sc.block is block:
        apply(sc, then, line, complete)
    else:
        sc.flow = TEXT
        em.text(line)


def close_block(sc: Scanner, line: str) -> None:
    """The open line block's closing ``line``: the block ends."""
    block = sc.block
    assert block is not None
    block.body_end = block.raw_len
    block.raw.append(line)  # (OpenBlock.add: the raw is joined next)
    block.raw_len += len(line)
    sc.em.pos += len(line)
    sc.block = None
    sc.parser = None
    sc.flow = TEXT
    sc.em.close(block, WHOLE_BODY)


def _reject(sc: Scanner, line: str) -> None:
    """The tentative block is not one: its first line goes to the next syntaxes or
    becomes text; what follows is read again from the top."""
    block = sc.block
    assert block is not None
    held = block.joined() + line
    sc.em.pos = block.start
    sc.block = None
    sc.parser = None
    sc.flow = TEXT
    first_end = held.find("\n") + 1 or len(held)
    first, rest = held[:first_end], held[first_end:]
    sc.line = ""
    if _open(sc, first, strip_line_end(first), True, block.index + 1) is not None:
        sc.visible(first, True)
    sc.line = ""
    if rest:
        sc.run(rest)


def _verbatim(sc: Scanner, line: str) -> None:
    """Not a block but a visible region: release everything held as text."""
    block = sc.block
    assert block is not None and block.parser is not None
    held = block.joined()
    sc.em.pos = block.start
    sc.block = None
    sc.parser = block.parser.continuation
    sc.shown(held)
    sc.shown(line)


def _drop(sc: Scanner, code: ErrorCode, message: str) -> None:
    block = sc.block
    assert block is not None
    sc.block = None
    sc.parser = None
    sc.em.drop(block, code, message)


def end_parser(sc: Scanner) -> None:
    """End of stream inside the open line parser."""
    parser = sc.parser
    assert parser is not None
    if parser.visible:
        sc.parser = None
        return
    block = sc.block
    assert block is not None
    verdict = parser.on_end()
    if verdict is REJECT:
        _reject(sc, "")
    elif verdict is VERBATIM:
        _verbatim(sc, "")
        sc.parser = None
    else:
        name = block.type_name or "block"
        _drop(
            sc, ErrorCode.UNCLOSED, f"the stream ended inside {name} opened at offset {block.start}"
        )


def _line_offset(text: str, count: int) -> int:
    """Offset just after the first ``count`` lines of ``text``."""
    pos = 0
    for _ in range(count):
        found = text.find("\n", pos)
        if found < 0:
            return len(text)
        pos = found + 1
    return pos
