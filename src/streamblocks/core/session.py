"""The sans-IO session: text (or provider events) in, events out.

A session reads one stream. It holds back only the start of a line that may still be a
marker (bounded by ``Limits.max_marker_chars``) and the block being read (bounded by
``max_block_chars``, for its ``raw`` and final parse); everything else streams out in the
``feed`` call that brought it. Each piece of text is looked at a bounded number of times,
so the cost is linear in the input whatever the chunking.

Lines are the unit of decision: at the start of each line the active syntaxes (outside a
block) or the open block's parser (inside one) classify the line; once a line is
classified its remainder streams without further questions. See
:mod:`streamblocks.syntaxes.base` for the contract.

The session is assembled from parts, one idea each: this module is the line machine
and the block lifecycle; :mod:`.inline` scans visible text for inline (XML) tags;
:mod:`.provider` turns provider events into text and native blocks; :mod:`.validation`
checks finished blocks; :mod:`.open_block` holds a block while it is read.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError

from ..adapters.protocols import InputAdapter
from ..syntaxes.xml import Tag
from ..transforms import DeltaTransform, compose_transforms
from .blocks import Block
from .errors import ErrorCode, SessionClosedError
from .events import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockStart,
    Counts,
    Event,
    StopReason,
    StreamFinished,
    StreamStarted,
    TextDelta,
)
from .inline import InlineBlocks
from .limits import Limits
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
from .provider import ProviderEvents
from .registry import BlockType
from .syntax import ParseFailure, Syntax, SyntaxPlan
from .validation import run_validators, validate_content, validate_metadata

_new = tuple.__new__  # builds an event without the keyword-handling constructor
_FAST_TEXT, _FAST_CONTENT, _FAST_HEADER = 1, 2, 3  # feed's shortcut: where a chunk goes
_CONTENT = "content"


class Session(InlineBlocks, ProviderEvents):
    """One stream's state. ``feed`` each chunk, then ``close``; both return events.

    Made by :meth:`StreamBlockProcessor.session`; does no I/O, starts no threads and
    needs no event loop. ``feed`` takes text (``str``) or, with an input adapter,
    provider events.
    """

    def __init__(
        self,
        plan: SyntaxPlan,
        *,
        stream_id: str,
        limits: Limits,
        input_adapter: InputAdapter | str | None,
        transforms: Sequence[DeltaTransform] = (),
    ) -> None:
        self.stream_id = stream_id
        self._plan = plan
        self._limits = limits
        self._max_marker = limits.max_marker_chars
        self._prefilter = tuple(getattr(syntax, "starts_with", None) for syntax, _ in plan)
        self._outside_starts: str | None = (
            None if None in self._prefilter else "".join(sorted(set("".join(self._prefilter))))  # type: ignore[arg-type]
        )
        self._identity = input_adapter is None
        self._started = False
        self._closed = False
        self._busy = False
        self._aborted: str | None = None
        self._out: list[Event] = []
        self._texts: list[str] = []
        self._deltas: list[str] = []
        self._pos = 0
        self._line: str | None = ""
        self._flow = TEXT
        self._delta_key: tuple[str, str, str | None] = ("", "", None)
        self._fast = 0
        self._fast_stops = ""
        self._fast_search: Callable[[str], object] = _ANY_LINE
        self._fast_room = 0  # characters the open block may still take in the shortcut
        self._parser: LineParser | None = None
        self._block: OpenBlock | None = None
        self._next_id = 0
        self._blocks = 0
        self._errors = 0
        self._transforms = tuple(transforms)
        self._chain = compose_transforms(*transforms).for_stream() if transforms else None
        self._setup_provider(input_adapter)
        self._setup_inline(plan)

    # ------------------------------------------------------------------ public API

    def feed(self, chunk: Any) -> list[Event]:
        """Process one chunk of text (or one provider event) and return the events it
        made decidable."""
        fast = self._fast
        if (
            fast
            and chunk.__class__ is str
            and chunk
            and (self._quiet is None or not (self._quiet[0] in chunk or self._quiet[1] in chunk))
            and (self._line is None or chunk[0] not in self._fast_stops)
            and ("\n" not in chunk or self._fast_search(chunk) is None)
        ):
            # The chunk cannot change the state: no line in it can start a marker.
            self._line = "" if chunk[-1] == "\n" else None
            size = len(chunk)
            if fast == _FAST_TEXT:
                self._pos += size
                return [_new(TextDelta, (chunk,))]
            if size <= self._fast_room:  # the open block has room for it
                self._fast_room -= size
                self._pos += size
                block = self._block
                assert block is not None
                raw = block.raw
                raw.append(chunk)
                block.raw_len += size
                if len(raw) > block.compact_at:
                    block.compact()
                if fast == _FAST_HEADER:
                    self._busy = True  # (a parser raising breaks the session)
                    block.parser.held(chunk)
                    self._busy = False
                    return []
                fields = (block.block_id, block.type_name, _CONTENT, chunk, block.parser.path)
                return [_new(BlockDelta, fields)]
            self._line = None  # (the limit is crossed: the slow path reports it)
        if self._closed:
            raise SessionClosedError("feed() after close()")
        if self._busy:
            raise SessionClosedError("feed() after a feed() that raised: close() the session")
        if self._ended:  # the provider's stream ended (STREAM_END): nothing more is read
            self._after_end([chunk])
            return []
        if self._xml is not None and chunk.__class__ is str:
            events = self._feed_inline(chunk)  # the rest of a line, for the inline scanner
            if events is not None:
                return events
        verdict = None
        if self._line:
            self._busy = True  # (a syntax raising here breaks the session, as below)
            verdict = self._held_verdict(chunk)
            if verdict is PENDING:
                self._busy = False
                return []
        self._busy, self._fast = True, 0  # stays set if this call raises (see close())
        out = self._out = []
        if not self._started:
            self._begin()
        if verdict is not None:  # the held line start, grown by chunk, is decided
            line = self._line + chunk
            self._line = None
            self._apply(verdict, line, False)
        elif self._identity and chunk.__class__ is str:
            self._consume(chunk)
        else:
            self._feed_event(chunk)
            if self._ended:
                out = self._finish(out)
                self._busy = False
                return out
        self._flush()
        self._update_fast()
        self._busy = False
        if self._chain is not None:
            return self._chain.process_all(out)
        return out

    def _held_verdict(self, chunk: Any) -> Verdict | None:
        """The shortcut for a held line start that ``chunk`` (text, no newline)
        extends, as markers arrive a few characters at a time: the verdict on the
        longer line, asked as :meth:`_decide` would ask it. ``PENDING``: the longer line
        is held and that is all; ``None``: not a case for the shortcut."""
        if chunk.__class__ is not str or not self._identity or "\n" in chunk:
            return None
        grown = self._line + chunk  # type: ignore[operator]
        if len(grown) > self._max_marker or self._xml_open is not None:
            return None  # (a long line is decided on its start alone)
        parser = self._parser
        if parser is None:
            answer = self._offer(grown, False, 0)
            verdict = answer if isinstance(answer, Verdict) else None  # (never a parser)
        else:
            verdict = self._ask(parser, grown, False)
        if verdict is PENDING:
            self._line = grown
        return verdict

    def close(self) -> list[Event]:
        """End the stream: report what is still open and emit ``STREAM_FINISHED``."""
        if self._closed:
            raise SessionClosedError("close() called twice")
        if self._busy:
            return self._close_broken()
        if self._ended:  # STREAM_END already finished the stream and reported it all
            self._closed = True
            return []
        self._busy = True
        out = self._out = []
        if not self._started:
            self._begin()
        self._fast = 0
        self._end_frames()
        out = self._finish(out)
        self._closed = True
        return out

    def _finish(self, out: list[Event]) -> list[Event]:
        """Report what is still open, then ``STREAM_FINISHED``: at ``close()``, or when
        the input adapter reports the provider's ``STREAM_END``."""
        self._fast = 0
        self._finish_text()
        if self._xml is not None:
            self._finish_inline()
        self._close_natives()
        self._flush()
        if self._chain is not None:
            out = self._chain.process_all(out)
            out.extend(self._chain.flush())
        out.append(self._finished_event(Counts(self._pos, self._blocks, self._errors)))
        return out

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def aborted(self) -> str | None:
        """Why the processor's ``abort_on`` policy stopped this stream (``None`` while it
        has not): drivers stop reading and call :meth:`close`, which then emits only
        ``STREAM_FINISHED`` with ``stop_reason=error`` and this cause."""
        return self._aborted

    @property
    def broken(self) -> bool:
        """A ``feed`` (or ``close``) call raised part-way: the session's state is not
        trusted any more. ``feed`` raises :class:`SessionClosedError`; :meth:`close`
        emits only ``STREAM_FINISHED`` with ``stop_reason=error``."""
        return self._busy

    def snapshot(self) -> bytes:
        """This stream's state as bytes, to resume it later, in another process too,
        with :meth:`StreamBlockProcessor.restore` (see :mod:`streamblocks.core.snapshot`)."""
        from .snapshot import dump_session

        return dump_session(self)

    def _finish_early(self, cause: str) -> list[Event]:
        """``close()`` for a stream that did not end normally: nothing more is read or
        reported, only ``STREAM_FINISHED`` with ``stop_reason=error`` and ``cause``."""
        self._closed, self._fast = True, 0
        self._out = []
        counts = Counts(self._pos, self._blocks, self._errors)
        ids = (self._session_id, self._run_id)
        return [StreamFinished(StopReason.error, self._usage, counts, cause, *ids)]

    def _close_broken(self) -> list[Event]:
        return self._finish_early("a feed() call raised; the rest of the stream was not read")

    # ------------------------------------------------------------------ provider events

    def _begin(self) -> None:
        self._started = True
        self._out.append(StreamStarted(self.stream_id))
        if self._prefilled is not None:
            self._open_inline(Tag(self._prefilled, {}, False, 0), "")

    # ------------------------------------------------------------------ text

    def _consume(self, text: str) -> None:
        """Route ``text`` line by line: decide line starts, stream line remainders.

        Runs of lines that no marker of the current context can start (their first
        character is not in the context's marker characters) go out in one piece,
        found by one regular-expression search, so long chunks cost little per line.
        """
        if (
            self._pos == 0
            and self._line == ""
            and self._xml_open is None
            and text.startswith("\ufeff")
        ):
            self._text("\ufeff")  # a BOM is text, and the line still starts after it
            text = text[1:]
        i, n = 0, len(text)
        while i < n:
            line = self._line
            if self._xml_open is not None:  # an inline block takes every line
                nl = text.find("\n", i)
                end = n if nl < 0 else nl + 1
                self._inline(text[i:end])
                self._line = "" if nl >= 0 else None
                self._flow = TEXT
            elif line is None:  # the rest of a classified line
                nl = text.find("\n", i)
                end = n if nl < 0 else nl + 1
                if nl >= 0:
                    self._line = ""
                self._flow_out(text[i:end])
            elif not line and (run := self._plain_run()) is not None and text[i] not in run[0]:
                found = run[1].search(text, i)
                end = n if found is None else found.start() + 1
                self._line = "" if text[end - 1] == "\n" else None
                parser = self._parser
                self._flow = TEXT if parser is None else _default_verdict(parser)
                self._flow_out(text[i:end])
            elif (
                not line
                and self._parser is None
                and self._xml is None
                and (reached := self._read_whole(text, i))
            ):
                end = reached
            else:
                nl = text.find("\n", i)
                end = n if nl < 0 else nl + 1
                self._line = None
                self._decide(line + text[i:end], nl >= 0)
            i = end

    def _plain_run(self, quiet: bool = False) -> tuple[str, re.Pattern[str]] | None:
        """The current context's marker characters and the search for the next line
        starting with one; ``None`` when any line may be a marker. ``quiet``: for text
        the inline scanner would pass through whole (no ``<`` or backtick: ``_quiet``)."""
        parser = self._parser
        if (
            self._xml is not None
            and (parser is None or (parser.visible and self._scan_fences))
            and (not quiet or self._tick)  # (a newline ends a code span)
        ):
            return None  # visible text is scanned for inline tags, line by line
        starts = self._outside_starts if parser is None else parser.marker_starts
        return None if starts is None else _marker_line_search(starts)

    def _flow_out(self, piece: str) -> None:
        """Send the rest of an already classified line where its class says."""
        if self._flow is TEXT:
            self._visible(piece)
        else:
            self._to_block(piece, self._flow)

    def _decide(self, line: str, complete: bool) -> None:
        """Classify the (partial or complete) line at the current line start."""
        body = strip_line_end(line) if complete else line
        parser = self._parser
        if len(body) > self._max_marker and (
            complete or body[-1] != "\r" or len(body) > self._max_marker + 1
        ):
            # (a partial line's trailing "\r" may be the start of its "\r\n")
            self._decide_long(line, body, complete)
            return
        if parser is None:
            verdict = self._open(line, body, complete, 0)
            if verdict is None:  # a syntax took the line
                self._line = ""
                return
        else:
            verdict = self._ask(parser, body, complete)
        if verdict is PENDING:
            self._line = line
            return
        self._apply(verdict, line, complete)

    def _decide_long(self, line: str, body: str, complete: bool) -> None:
        """A line longer than ``max_marker_chars``: decided as its first
        ``max_marker_chars + 1`` characters would be when they arrive alone, so the
        outcome does not depend on how the line was chunked."""
        head = body[: self._max_marker + 1]
        parser = self._parser
        if parser is None:
            if self._open(head, head, False, 0) is PENDING:
                self._marker_too_large(line, complete)
                return
            verdict = TEXT
        else:
            verdict = self._ask(parser, head, False)
            if verdict is PENDING:
                verdict = _default_verdict(parser)
        self._apply(verdict, line, complete)

    def _ask(self, parser: LineParser, body: str, complete: bool) -> Verdict:
        starts = parser.marker_starts
        if starts is not None and body and body[0] not in starts:
            return _default_verdict(parser)
        verdict = parser.on_line(body, complete)
        if verdict is PENDING and complete:
            return _default_verdict(parser)
        return verdict

    def _open(self, line: str, body: str, complete: bool, first: int) -> Verdict | None:
        """Offer a line outside any block to the syntaxes from index ``first`` on.

        Returns ``None`` when a syntax took the (complete) line, ``PENDING`` when one
        may still take it, ``TEXT`` otherwise.
        """
        answer = self._offer(body, complete, first)
        if not isinstance(answer, tuple):
            return answer
        index, parser = answer
        self._engage(parser, self._plan[index][0], index, line)
        return None

    def _offer(self, body: str, complete: bool, first: int) -> tuple[int, LineParser] | Verdict:
        """The first syntax (from index ``first`` on) that takes the line, with its
        parser; else ``PENDING`` when one may still take it, ``TEXT`` otherwise."""
        pending = False
        for index in range(first, len(self._plan)):
            starts = self._prefilter[index]
            if starts is not None and (not body or body[0] not in starts):
                continue
            syntax, table = self._plan[index]
            answer = syntax.open(body, complete, table)
            if answer is REJECT:
                continue
            if answer is PENDING or not complete:
                pending = True
            elif answer.__class__ is not Verdict:  # a parser: the syntax took the line
                assert isinstance(answer, LineParser)
                return index, answer
        return PENDING if pending else TEXT

    def _read_whole(self, text: str, i: int) -> int:
        """Decide the complete line at line start ``i`` outside blocks, reading a
        block's whole header at once, and the whole block when ``text`` holds its
        closing line (one search of the parser's ``closing_line``).

        The shortcut for long chunks: the verdicts are those of the line-by-line
        reading (the same syntax and parser calls, fewer steps between them). Returns
        the offset reached (a line start), or 0 having changed nothing when the header
        is not all there or something is unusual (a long line, a limit within reach, a
        rejected header): the line is then decided the usual way.
        """
        stop = min(len(text), i + min(self._max_marker, self._limits.max_metadata_chars))
        nl = text.find("\n", i, stop)
        if nl < 0:
            return 0
        pos = nl + 1
        claimed = self._offer(strip_line_end(text[i:pos]), True, 0)
        if claimed is TEXT:
            self._apply(TEXT, text[i:pos], True)
            return pos
        if not isinstance(claimed, tuple):
            return 0
        index, parser = claimed
        if not parser.started and not parser.visible:
            parser.held(text[i:pos])
            header = self._read_header(parser, text, pos, stop)
            if header is None:
                return 0
            reader, pos = header
            if reader is None:  # a shown code fence closed within the header: text
                self._flow = TEXT
                self._text(text[i:pos])
                return pos
            parser = reader
        closing = parser.closing_line
        if closing is None:
            return 0
        found = closing.search(text, pos - 1)
        if found is not None and found.end() - found.start() - 1 > self._max_marker + 1:
            return 0  # a long line is decided on its start alone: leave it to _decide
        if parser.visible:
            self._flow = TEXT
            if found is None:  # the region goes on, line by line
                self._parser = parser
                self._text(text[i:pos])
                return pos
            self._text(text[i : found.end()])
            return found.end()
        if found is None:
            if parser.then is not None:
                return 0
            body_end = end = pos  # the block starts; its body comes line by line
        else:
            body_end, end = found.start() + 1, found.end()
            if body_end - i > self._limits.max_block_chars or (
                parser.then is CLOSE and body_end != pos
            ):
                return 0
        block = self._block = OpenBlock(parser, self._plan[index][0], index, self._pos)
        self._parser = parser
        self._hold_unlimited(text[i:pos])
        self._begin_block(block)
        if body_end > pos:
            self._to_block(text[pos:body_end], CONTENT)
        if end > body_end:
            self._flow = TEXT
            self._close_block(text[body_end:end])
        return end

    def _read_header(
        self, parser: LineParser, text: str, pos: int, stop: int
    ) -> tuple[LineParser | None, int] | None:
        """For :meth:`_read_whole`: the header lines of a block whose opener line was
        read, from ``pos`` on, as :meth:`_consume` and :meth:`_decide` would read them.

        Returns the parser that reads on (itself once started, or the visible region of
        a shown code fence, or ``None`` when that fence closed) and where its lines
        begin; ``None`` when the header is not all there or ends unusually.
        """
        lines = 1
        while True:
            starts = parser.marker_starts
            if starts is not None and pos < stop and text[pos] not in starts:
                # lines no marker can start: held as one run (one search)
                found = _marker_line_search(starts)[1].search(text, pos, stop)
                if found is None:
                    return None
                run_end = found.start() + 1
                parser.held(text[pos:run_end])
                lines += text.count("\n", pos, run_end)
                pos = run_end
            nl = text.find("\n", pos, stop)
            if nl < 0:
                return None
            line = text[pos : nl + 1]
            verdict = self._ask(parser, strip_line_end(line), True)
            if verdict is HOLD:
                parser.held(line)
                pos, lines = nl + 1, lines + 1
            elif verdict is VERBATIM:  # a shown code fence: visible text
                return parser.continuation, nl + 1
            elif verdict is not START:
                return None
            elif parser.then is None:
                return parser, nl + 1  # the line ends the opener
            elif parser.then in _OPENER_THEN and parser.opener_lines == lines:
                return parser, pos  # the line is the body's first, or the closer
            else:
                return None

    def _marker_too_large(self, line: str, complete: bool) -> None:
        """A held line outside blocks outgrew ``max_marker_chars`` while undecided."""
        cut = self._max_marker
        self._error(
            None,
            None,
            ErrorCode.MARKER_TOO_LARGE,
            f"an opening marker grew past max_marker_chars={cut} without completing",
            line[:cut],
        )
        self._pos += cut
        self._flow = TEXT
        self._line = "" if complete else None
        self._visible(line[cut:])

    def _apply(self, verdict: Verdict, line: str, complete: bool) -> None:
        """Carry out a decided verdict for the current line."""
        self._line = "" if complete else None
        if verdict is TEXT:
            self._flow = TEXT
            self._visible(line)
        elif verdict is CONTENT or verdict is BODY or verdict is HOLD:
            self._flow = verdict
            self._to_block(line, verdict)
        elif verdict is START:
            self._start(line, complete)
        elif verdict is CLOSE:
            self._flow = TEXT
            self._close_block(line)
        elif verdict is REJECT:
            self._reject(line)
        elif verdict is VERBATIM:
            self._flow = TEXT
            self._verbatim(line)
        elif verdict is END_TEXT:
            self._flow = TEXT
            self._parser = None
            self._text(line)
        else:
            raise AssertionError(f"unexpected verdict {verdict!r}")

    # ------------------------------------------------------------------ blocks

    def _engage(self, parser: LineParser, syntax: Syntax, index: int, line: str) -> None:
        """A syntax claimed a complete line outside any block."""
        self._parser = parser
        if parser.visible:
            self._text(line)
            return
        block = self._block = OpenBlock(parser, syntax, index, self._pos)
        if parser.started:
            self._hold_unlimited(line)
            self._begin_block(block)
        else:
            self._to_block(line, HOLD)

    def _hold(self, piece: str) -> int:
        """Add text to the open block, up to its size limit; returns what fitted."""
        block = self._block
        assert block is not None
        limits = self._limits
        limit = limits.max_block_chars if block.parser.started else limits.max_metadata_chars
        room = limit - block.raw_len
        taken = piece if len(piece) <= room else piece[: max(room, 0)]
        if taken:
            block.raw.append(taken)
            block.raw_len += len(taken)
            self._pos += len(taken)
            if len(block.raw) > block.compact_at:
                block.compact()
        return len(taken)

    def _hold_unlimited(self, line: str) -> None:
        """Opener and closing lines always belong to the block (they are bounded by
        ``max_marker_chars`` already)."""
        block = self._block
        assert block is not None
        block.raw.append(line)
        block.raw_len += len(line)
        self._pos += len(line)

    def _to_block(self, piece: str, verdict: Verdict) -> None:
        block = self._block
        if block is None:  # the block was cut off by a limit: the rest is text
            self._text(piece)
            return
        taken = self._hold(piece)
        if verdict is CONTENT and block.streamed and taken:
            self._delta(piece[:taken])
        elif verdict is HOLD and taken:
            block.parser.held(piece[:taken])
        if taken < len(piece):
            self._overflow(piece[taken:])

    def _overflow(self, rest: str) -> None:
        """The open block crossed a size limit: report it; the rest of the line flows
        as text and the lines after it are read again from the top."""
        block = self._block
        assert block is not None
        parser = block.parser
        self._flow = TEXT
        cut = rest.find("\n") + 1
        head, tail = (rest[:cut], rest[cut:]) if cut else (rest, "")
        if not parser.started and not parser.committed:
            if parser.on_overflow() is not VERBATIM:
                self._reject(rest)
                return
            self._verbatim(head)
        else:
            if parser.started:
                code = ErrorCode.TOO_LARGE
                limit = f"max_block_chars={self._limits.max_block_chars}"
            else:
                code = ErrorCode.METADATA_TOO_LARGE
                limit = f"max_metadata_chars={self._limits.max_metadata_chars}"
            self._drop_block(code, f"{block.type_name or 'the block'} grew past {limit}")
            self._visible(head)
        self._line = "" if head.endswith("\n") else None
        if tail:
            self._consume(tail)

    def _begin_block(self, block: OpenBlock) -> None:
        """The header is complete: resolve the type, validate metadata, announce."""
        parser = block.parser
        parser.started = True
        header = parser.header
        assert header is not None
        block.type_name = header.name
        block.block_id = header.block_id or self._new_id()
        block.opener_len = block.raw_len
        block.error = header.error
        block_type = block.block_type = header.block_type
        if block_type is None:
            block.streamed = bool(header.name)  # a block with no type is not announced
            if block.error is None:
                block.error = (ErrorCode.UNKNOWN_TYPE, f"unknown block type {header.name!r}")
        else:
            block.type_name = block_type.name
            block.streamed = block_type.transform is None  # (BlockType.streamed)
            if block.error is None:
                block.metadata, block.error = validate_metadata(block_type, header.metadata)
        if block.streamed:
            fields = (block.block_id, block.type_name, block.syntax.name, header.attrs)
            self._emit(_new(BlockStart, fields))
        if block_type is not None and block_type.on_start is not None:
            try:
                block_type.on_start(header.attrs)
            except Exception as exc:
                if block.error is None:
                    block.error = (
                        ErrorCode.HOOK_FAILED,
                        f"on_start of {block_type.name!r}: {exc!r}",
                    )
        if block.streamed and block.error is None and header.metadata is not None:
            self._emit(_new(BlockMetadata, (block.block_id, block.type_name, block.metadata)))

    def _start(self, line: str, complete: bool) -> None:
        """``START`` from the block's parser on the current line."""
        block = self._block
        assert block is not None
        parser = block.parser
        then = parser.then
        if then is None:
            self._hold_unlimited(line)
            self._begin_block(block)
            return
        held = "".join(block.raw)
        cut = _line_offset(held, parser.opener_lines)
        block.raw = [held[:cut]]
        block.raw_len = cut
        self._pos -= len(held) - cut
        self._begin_block(block)
        if held[cut:]:
            self._to_block(held[cut:], CONTENT)
        if self._block is block:
            self._apply(then, line, complete)
        else:
            self._flow = TEXT
            self._text(line)

    def _close_block(self, line: str) -> None:
        block = self._block
        assert block is not None
        body_end = block.raw_len
        self._hold_unlimited(line)
        raw = "".join(block.raw)
        self._block = None
        self._parser = None
        if not block.parser.started:
            self._error(None, None, ErrorCode.PARSE_FAILED, block.parser.error, raw)
        elif block.error is not None:
            self._error(block.block_id, block.type_name or None, *block.error, raw)
        else:
            self._finish_block(block, raw, raw[block.opener_len : body_end])

    def _finish_block(self, block: OpenBlock, raw: str, body: str) -> None:
        block_type = block.block_type
        assert block_type is not None
        fail = block.block_id, block.type_name
        try:
            content = block.parser.parse(body)
            if block_type.content is not None:
                content = validate_content(block_type.content, content)
        except ParseFailure as exc:
            self._error(*fail, ErrorCode.PARSE_FAILED, str(exc), raw)
            return
        except ValidationError as exc:
            self._error(*fail, ErrorCode.VALIDATION_FAILED, str(exc), raw)
            return
        except Exception as exc:  # a user parse_content, or a parser's own bug
            message = f"reading the content of {block.type_name!r} failed: {exc!r}"
            self._error(*fail, ErrorCode.PARSE_FAILED, message, raw)
            return
        header = block.parser.header
        attrs = header.attrs if header is not None else {}
        finished = Block(
            block.block_id, block.type_name, block.syntax.name, block.metadata, content,
            attrs, raw, block.start, block.start + len(raw),
        )  # fmt: skip
        problem = run_validators(block_type, finished) if block_type.validators else None
        if problem is not None:
            self._error(*fail, ErrorCode.VALIDATION_FAILED, problem, raw)
        elif block_type.transform is None:
            self._blocks += 1
            self._emit(_new(BlockEnd, (finished,)))
        else:
            self._transform(block_type, finished)

    def _transform(self, block_type: BlockType, block: Block) -> None:
        """A held block of a type with a transform: emit only the transform's verdict."""
        assert block_type.transform is not None
        try:
            verdict = block_type.transform(block)
            replacement = None if verdict is None else list(verdict)
        except Exception as exc:
            message = f"transform of {block_type.name!r}: {exc!r}"
            self._error(block.id, block.type, ErrorCode.HOOK_FAILED, message, block.raw)
            return
        if replacement is None:
            self._blocks += 1
            self._emit(BlockStart(block.id, block.type, block.syntax, block.attrs))
            self._emit(BlockEnd(block))
            return
        for item in replacement:
            if isinstance(item, str):
                if item:
                    self._flush_deltas()
                    self._texts.append(item)
            else:
                self._emit(item)

    def _reject(self, line: str) -> None:
        """The tentative block is not one: its first line goes to the next syntaxes or
        becomes text; what follows is read again from the top."""
        block = self._block
        assert block is not None
        held = "".join(block.raw) + line
        self._pos = block.start
        self._block = None
        self._parser = None
        self._flow = TEXT
        first_end = held.find("\n") + 1 or len(held)
        first, rest = held[:first_end], held[first_end:]
        self._line = ""
        if self._open(first, strip_line_end(first), True, block.index + 1) is not None:
            self._visible(first)
        self._line = ""
        if rest:
            self._consume(rest)

    def _verbatim(self, line: str) -> None:
        """Not a block but a visible region: release everything held as text."""
        block = self._block
        assert block is not None
        held = "".join(block.raw)
        self._pos = block.start
        self._block = None
        self._parser = block.parser.continuation
        self._shown(held)
        self._shown(line)

    def _drop_block(self, code: ErrorCode, message: str) -> None:
        block = self._block
        assert block is not None
        self._flush_deltas()
        self._block = None
        self._parser = None
        raw = "".join(block.raw)
        self._error(block.block_id or None, block.type_name or None, code, message, raw)

    def _finish_text(self) -> None:
        """End of stream: decide the held line, then whatever is still open."""
        while True:
            line = self._line
            if line:
                self._line = None
                self._decide(line, True)
                continue
            parser = self._parser
            if parser is None:
                return
            if parser.visible:
                self._parser = None
                return
            block = self._block
            assert block is not None
            verdict = parser.on_end()
            if verdict is REJECT:
                self._reject("")
            elif verdict is VERBATIM:
                self._verbatim("")
                self._parser = None
            else:
                name = block.type_name or "block"
                self._drop_block(
                    ErrorCode.UNCLOSED,
                    f"the stream ended inside {name} opened at offset {block.start}",
                )

    # ------------------------------------------------------------------ emitting

    def _new_id(self) -> str:
        self._next_id += 1
        return f"block-{self._next_id}"

    def _text(self, text: str) -> None:
        """Visible stream text (advances the stream offset)."""
        if text:
            if self._deltas:
                self._flush_deltas()
            self._texts.append(text)
            self._pos += len(text)

    def _delta(self, text: str) -> None:
        block = self._block
        assert block is not None
        key = (block.block_id, block.type_name, block.parser.path)
        if self._texts:
            self._flush_texts()
        elif self._deltas and key != self._delta_key:
            self._flush_deltas()
        self._delta_key = key
        self._deltas.append(text)

    def _emit(self, event: Event) -> None:
        if self._texts:
            self._flush_texts()
        if self._deltas:
            self._flush_deltas()
        self._out.append(event)

    def _error(
        self, block_id: str | None, type_name: str | None, code: ErrorCode, message: str, raw: str
    ) -> None:
        self._errors += 1
        self._emit(BlockError(block_id, type_name, code, message, raw))

    def _flush_texts(self) -> None:
        self._out.append(_new(TextDelta, ("".join(self._texts),)))
        self._texts.clear()

    def _flush_deltas(self) -> None:
        if self._deltas:
            block_id, type_name, path = self._delta_key
            text = "".join(self._deltas)
            self._deltas.clear()
            self._out.append(_new(BlockDelta, (block_id, type_name, _CONTENT, text, path)))

    def _flush(self) -> None:
        if self._texts:
            self._flush_texts()
        if self._deltas:
            self._flush_deltas()

    def _update_fast(self) -> None:
        """Enable ``feed``'s shortcut: plain text (or plain block content) in a context
        whose marker lines can be recognised by their first character."""
        self._fast = 0
        line = self._line
        if not self._identity or self._held or self._chain is not None:
            return
        if self._xml_open is not None:
            block = self._block
            if block is not None and block.streamed:
                self._fast, self._fast_stops, self._fast_search = _FAST_CONTENT, "", _ANY_LINE
                self._fast_room = self._limits.max_block_chars - block.raw_len
            return
        if line:
            return
        parser = self._parser
        block = self._block
        if parser is None or parser.visible:
            mode, default = _FAST_TEXT, TEXT
        elif block is None:
            return
        elif not parser.started:
            mode, default = _FAST_HEADER, HOLD
        elif block.streamed:
            mode, default = _FAST_CONTENT, CONTENT
        else:
            return
        if block is not None:
            limits = self._limits
            room = limits.max_block_chars if mode == _FAST_CONTENT else limits.max_metadata_chars
            self._fast_room = room - block.raw_len
        run = self._plain_run(quiet=True)
        if line is None:
            if self._flow is not default:
                return
            if run is None:  # only chunks without a newline take the shortcut
                self._fast, self._fast_stops, self._fast_search = mode, "", _ANY_LINE
                return
        if run is not None:
            self._flow = default
            self._fast, self._fast_stops, self._fast_search = mode, run[0], run[1].search


_ANY_LINE = re.compile("\n").search
_OPENER_THEN = (CONTENT, CLOSE)


@functools.lru_cache(maxsize=64)
def _marker_line_search(starts: str) -> tuple[str, re.Pattern[str]]:
    return starts, re.compile("\n[" + re.escape(starts) + "]")


def _default_verdict(parser: LineParser) -> Verdict:
    if parser.visible:
        return TEXT
    return CONTENT if parser.started else HOLD


def _line_offset(text: str, lines: int) -> int:
    """Offset just after the first ``lines`` lines of ``text``."""
    pos = 0
    for _ in range(lines):
        found = text.find("\n", pos)
        if found < 0:
            return len(text)
        pos = found + 1
    return pos
