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

Inline layer: when an :class:`~streamblocks.syntaxes.xml.XMLTagSyntax` is active, the
visible text outside blocks (once the line syntaxes have decided a line is text) runs
through a small scanner that holds only a ``<`` that may still start a registered tag
(or a backtick run, with code awareness) and opens an inline block on a complete
opening tag. An open inline block takes all text, newlines included, up to its closing
tag; then the line goes on as visible text. See :mod:`streamblocks.syntaxes.xml`.
"""

from __future__ import annotations

import functools
import json
import re
import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from ..adapters.detection import detect_input_adapter
from ..adapters.protocols import EventCategory, InputAdapter, NativeDelta, NativeEnd, NativeStart
from ..syntaxes.base import LineParser, ParseFailure, Syntax, TypeTable, Verdict, strip_line_end
from ..syntaxes.xml import Found, Tag, XMLBlock, inner_tag, opening_tag, xml_header
from ..transforms import DeltaTransform, compose_transforms
from .blocks import Block
from .errors import AdapterWarning, ErrorCode, SessionClosedError
from .events import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockStart,
    Counts,
    Event,
    Passthrough,
    StopReason,
    StreamFinished,
    StreamStarted,
    TextDelta,
    Usage,
)
from .limits import Limits
from .registry import BlockType

_new = tuple.__new__  # builds an event without the keyword-handling constructor
_FAST_TEXT, _FAST_CONTENT = 1, 2
_COMPACT_EVERY = 256
_CONTENT = "content"

SyntaxPlan = Sequence[tuple[Syntax, TypeTable]]
_TICK_OR_NEWLINE = re.compile("[`\n]")


class _OpenBlock:
    """A block being read: its parser, its held raw text and what its header said."""

    __slots__ = (
        "block_id",
        "block_type",
        "compact_at",
        "compacted",
        "error",
        "index",
        "metadata",
        "opener_len",
        "parser",
        "raw",
        "raw_len",
        "start",
        "streamed",
        "syntax",
        "type_name",
    )

    def __init__(self, parser: LineParser, syntax: Syntax, index: int, start: int) -> None:
        self.parser = parser
        self.syntax = syntax
        self.index = index
        self.start = start
        self.raw: list[str] = []
        self.raw_len = 0
        self.compacted = 0
        self.compact_at = _COMPACT_EVERY
        self.opener_len = 0
        self.block_id = ""
        self.type_name = ""
        self.block_type: BlockType | None = None
        self.metadata: Any = None
        self.streamed = False
        self.error: tuple[ErrorCode, str] | None = None

    def compact(self) -> None:
        """Join the small pieces held since the last compaction into one, so a block
        fed a character at a time holds about one string per kilobyte, not millions."""
        raw = self.raw
        raw[self.compacted :] = ["".join(raw[self.compacted :])]
        self.compacted = len(raw)
        self.compact_at = self.compacted + _COMPACT_EVERY


class _NativeBlock:
    __slots__ = ("attrs", "block_id", "block_type", "parse", "parts")

    def __init__(self, start: NativeStart, block_id: str) -> None:
        self.block_id = block_id
        self.block_type = start.block_type
        self.attrs = dict(start.attrs)
        self.parse = start.parse
        self.parts: list[str] = []


class Session:
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
        self._adapter: InputAdapter | None = None
        self._adapter_spec = input_adapter
        self._identity = input_adapter is None
        self._started = False
        self._closed = False
        self._busy = False
        self._aborted: str | None = None
        self._adapter_failures: set[str] = set()
        self._out: list[Event] = []
        self._texts: list[str] = []
        self._deltas: list[str] = []
        self._pos = 0
        self._line: str | None = ""
        self._flow = Verdict.TEXT
        self._delta_key: tuple[str, str, str | None] = ("", "", None)
        self._fast = 0
        self._fast_stops = ""
        self._fast_search: Callable[[str], object] = _ANY_LINE
        self._parser: LineParser | None = None
        self._block: _OpenBlock | None = None
        self._natives: dict[Hashable, _NativeBlock] = {}
        self._next_id = 0
        self._blocks = 0
        self._errors = 0
        self._stop_reason: StopReason | None = None
        self._usage: Usage | None = None
        self._error_message: str | None = None
        self._frames: Callable[[Any], Any] | None = None
        self._error_of: Callable[[Any], str | None] | None = None
        self._transforms = tuple(transforms)
        self._chain = compose_transforms(*transforms).for_stream() if transforms else None
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
            self._pos += len(chunk)
            if fast == _FAST_TEXT:
                return [_new(TextDelta, (chunk,))]
            block = self._block
            assert block is not None
            raw = block.raw
            if block.raw_len + len(chunk) <= self._limits.max_block_chars:
                raw.append(chunk)
                block.raw_len += len(chunk)
                if len(raw) > block.compact_at:
                    block.compact()
                fields = (block.block_id, block.type_name, _CONTENT, chunk, block.parser.path)
                return [_new(BlockDelta, fields)]
            self._pos -= len(chunk)
            self._line = None
        if self._closed:
            raise SessionClosedError("feed() after close()")
        if self._busy:
            raise SessionClosedError("feed() after a feed() that raised: close() the session")
        self._busy, self._fast = True, 0  # stays set if this call raises (see close())
        out = self._out = []
        if not self._started:
            self._begin()
        if self._identity and chunk.__class__ is str:
            self._consume(chunk)
        else:
            self._feed_event(chunk)
        self._flush()
        self._update_fast()
        self._busy = False
        if self._chain is not None:
            return self._chain.process_all(out)
        return out

    def close(self) -> list[Event]:
        """End the stream: report what is still open and emit ``STREAM_FINISHED``."""
        if self._closed:
            raise SessionClosedError("close() called twice")
        if self._busy:
            return self._close_broken()
        self._busy = True
        out = self._out = []
        if not self._started:
            self._begin()
        self._fast = 0
        self._end_frames()
        self._finish_text()
        if self._xml is not None:
            self._finish_inline()
        self._close_natives()
        self._flush()
        self._closed = True
        if self._chain is not None:
            out = self._chain.process_all(out)
            out.extend(self._chain.flush())
        stop = self._stop_reason or StopReason.unknown
        out.append(
            StreamFinished(
                stop,
                self._usage,
                Counts(self._pos, self._blocks, self._errors),
                self._error_message if stop is StopReason.error else None,
            )
        )
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
        return [StreamFinished(StopReason.error, self._usage, counts, cause)]

    def _close_broken(self) -> list[Event]:
        return self._finish_early("a feed() call raised; the rest of the stream was not read")

    # ------------------------------------------------------------------ provider events

    def _begin(self) -> None:
        self._started = True
        self._out.append(StreamStarted(self.stream_id))
        if self._prefilled is not None:
            self._open_inline(Tag(self._prefilled, {}, False, 0), "")

    def _feed_event(self, item: Any) -> None:
        adapter = self._adapter
        if adapter is None:
            adapter = self._adapter = self._choose_adapter(item)
            self._frames = getattr(adapter, "frames", None)
            self._error_of = getattr(adapter, "error", None)
        frames = self._frames
        if frames is None:
            self._analyze_event(adapter, item)
            return
        try:  # the item is raw input (NDJSON text): the adapter cuts it into events
            events = list(frames(item))
        except Exception as exc:
            self._adapter_failed(adapter, "frames", exc)
            return
        for event in events:
            self._analyze_event(adapter, event)

    def _end_frames(self) -> None:
        """At close: the events an adapter with ``frames`` still holds (a last line
        without its newline)."""
        adapter = self._adapter
        end_frames = getattr(adapter, "end_frames", None)
        if adapter is None or end_frames is None:
            return
        try:
            events = list(end_frames())
        except Exception as exc:
            self._adapter_failed(adapter, "end_frames", exc)
            return
        for event in events:
            self._analyze_event(adapter, event)

    def _analyze_event(self, adapter: InputAdapter, event: Any) -> None:
        text = ""
        try:
            category = adapter.categorize(event)
            if category is EventCategory.TEXT_CONTENT:
                text = adapter.extract_text(event)
        except Exception as exc:  # a broken adapter: pass the event on, keep going
            self._adapter_failed(adapter, "categorize/extract_text", exc)
            category = EventCategory.PASSTHROUGH
        try:
            error_of = self._error_of
            if error_of is not None:
                message = error_of(event)
                if message is not None:
                    self._error_message = message
            stop_reason = getattr(adapter, "stop_reason", None)
            if stop_reason is not None:
                reason = stop_reason(event)
                if reason is not None:
                    self._stop_reason = reason
            usage = getattr(adapter, "usage", None)
            if usage is not None:
                found = usage(event)
                if found is not None:
                    self._usage = _merge_usage(self._usage, found)
            natives = getattr(adapter, "native_events", None)
            if natives is not None:
                for piece in natives(event) or ():
                    self._native(piece)
        except Exception as exc:
            self._adapter_failed(adapter, "error/stop_reason/usage/native_events", exc)
        if category is EventCategory.TEXT_CONTENT:
            if text:
                self._consume(text)
        elif category is EventCategory.PASSTHROUGH:
            self._emit(Passthrough(event))

    def _adapter_failed(self, adapter: InputAdapter, methods: str, exc: Exception) -> None:
        """Warn (once per stream and group of methods) that ``adapter`` raised."""
        if methods in self._adapter_failures:
            return
        self._adapter_failures.add(methods)
        name = f"{type(adapter).__module__}.{type(adapter).__qualname__}"
        warnings.warn(
            f"input adapter {name} raised {exc!r} in {methods}; the stream goes on "
            "(events it cannot read are passed through)",
            AdapterWarning,
            stacklevel=4,
        )

    def _choose_adapter(self, first: Any) -> InputAdapter:
        spec = self._adapter_spec
        if spec is None:
            from ..adapters.identity import IdentityInputAdapter

            return IdentityInputAdapter()
        adapter = detect_input_adapter(first) if isinstance(spec, str) else spec
        for_stream = getattr(adapter, "for_stream", None)
        return for_stream() if for_stream is not None else adapter

    def _native(self, piece: Any) -> None:
        if isinstance(piece, NativeStart):
            block_id = piece.block_id or self._new_id()
            native = self._natives[piece.key] = _NativeBlock(piece, block_id)
            self._emit(BlockStart(block_id, native.block_type, "native", native.attrs))
        elif isinstance(piece, NativeDelta):
            open_native = self._natives.get(piece.key)
            if open_native is not None and piece.text:
                open_native.parts.append(piece.text)
                self._emit(
                    BlockDelta(open_native.block_id, open_native.block_type, _CONTENT, piece.text)
                )
        elif isinstance(piece, NativeEnd):
            keys = list(self._natives) if piece.key is None else [piece.key]
            for key in keys:
                ended = self._natives.pop(key, None)
                if ended is not None:
                    self._end_native(ended, piece)

    def _end_native(self, native: _NativeBlock, end: NativeEnd | None) -> None:
        text = "".join(native.parts)
        if end is not None and end.attrs:
            native.attrs.update(end.attrs)
        if end is not None and end.content is not None:
            content: Any = end.content
        elif native.parse == "json":
            try:
                content = json.loads(text) if text.strip() else {}
            except (ValueError, RecursionError) as exc:
                self._error(
                    native.block_id,
                    native.block_type,
                    ErrorCode.PARSE_FAILED,
                    f"arguments of {native.block_type} {native.block_id!r} are not valid "
                    f"JSON ({exc}): {text}",
                    "",
                )
                return
        else:
            content = text
        self._blocks += 1
        block = Block(
            native.block_id, native.block_type, "native", None, content, native.attrs, "",
            self._pos, self._pos,
        )  # fmt: skip
        self._emit(BlockEnd(block))

    def _close_natives(self) -> None:
        for key in list(self._natives):
            native = self._natives.pop(key)
            self._error(
                native.block_id,
                native.block_type,
                ErrorCode.UNCLOSED,
                f"the stream ended inside {native.block_type} {native.block_id!r}",
                "",
            )

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
                self._flow = Verdict.TEXT
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
                self._flow = Verdict.TEXT if parser is None else _default_verdict(parser)
                self._flow_out(text[i:end])
            else:
                nl = text.find("\n", i)
                end = n if nl < 0 else nl + 1
                self._line = None
                self._decide(line + text[i:end], nl >= 0)
            i = end

    def _plain_run(self) -> tuple[str, re.Pattern[str]] | None:
        """The current context's marker characters and the search for the next line
        starting with one; ``None`` when any line may be a marker."""
        parser = self._parser
        if self._xml is not None and (parser is None or (parser.visible and self._scan_fences)):
            return None  # visible text is scanned for inline tags, line by line
        starts = self._outside_starts if parser is None else parser.marker_starts
        return None if starts is None else _marker_line_search(starts)

    def _flow_out(self, piece: str) -> None:
        """Send the rest of an already classified line where its class says."""
        if self._flow is Verdict.TEXT:
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
        if verdict is Verdict.PENDING:
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
            if self._open(head, head, False, 0) is Verdict.PENDING:
                self._marker_too_large(line, complete)
                return
            verdict = Verdict.TEXT
        else:
            verdict = self._ask(parser, head, False)
            if verdict is Verdict.PENDING:
                verdict = _default_verdict(parser)
        self._apply(verdict, line, complete)

    def _ask(self, parser: LineParser, body: str, complete: bool) -> Verdict:
        starts = parser.marker_starts
        if starts is not None and body and body[0] not in starts:
            return _default_verdict(parser)
        verdict = parser.on_line(body, complete)
        if verdict is Verdict.PENDING and complete:
            return _default_verdict(parser)
        return verdict

    def _open(self, line: str, body: str, complete: bool, first: int) -> Verdict | None:
        """Offer a line outside any block to the syntaxes from index ``first`` on.

        Returns ``None`` when a syntax took the (complete) line, ``PENDING`` when one
        may still take it, ``TEXT`` otherwise.
        """
        pending = False
        for index in range(first, len(self._plan)):
            starts = self._prefilter[index]
            if starts is not None and (not body or body[0] not in starts):
                continue
            syntax, table = self._plan[index]
            answer = syntax.open(body, complete, table)
            if isinstance(answer, LineParser):
                if complete:
                    self._engage(answer, syntax, index, line)
                    return None
                pending = True
            elif answer is Verdict.PENDING and not complete:
                pending = True
        return Verdict.PENDING if pending else Verdict.TEXT

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
        self._flow = Verdict.TEXT
        self._line = "" if complete else None
        self._visible(line[cut:])

    def _apply(self, verdict: Verdict, line: str, complete: bool) -> None:
        """Carry out a decided verdict for the current line."""
        self._line = "" if complete else None
        if verdict is Verdict.TEXT:
            self._flow = Verdict.TEXT
            self._visible(line)
        elif verdict is Verdict.CONTENT or verdict is Verdict.BODY or verdict is Verdict.HOLD:
            self._flow = verdict
            self._to_block(line, verdict)
        elif verdict is Verdict.START:
            self._start(line, complete)
        elif verdict is Verdict.CLOSE:
            self._flow = Verdict.TEXT
            self._close_block(line)
        elif verdict is Verdict.REJECT:
            self._reject(line)
        elif verdict is Verdict.VERBATIM:
            self._flow = Verdict.TEXT
            self._verbatim(line)
        elif verdict is Verdict.END_TEXT:
            self._flow = Verdict.TEXT
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
        block = self._block = _OpenBlock(parser, syntax, index, self._pos)
        if parser.started:
            self._hold_unlimited(line)
            self._begin_block(block)
        else:
            self._to_block(line, Verdict.HOLD)

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
        if verdict is Verdict.CONTENT and block.streamed and taken:
            self._delta(piece[:taken])
        elif verdict is Verdict.HOLD and taken:
            block.parser.held(piece[:taken])
        if taken < len(piece):
            self._overflow(piece[taken:])

    def _overflow(self, rest: str) -> None:
        """The open block crossed a size limit: report it; the rest of the line flows
        as text and the lines after it are read again from the top."""
        block = self._block
        assert block is not None
        parser = block.parser
        self._flow = Verdict.TEXT
        cut = rest.find("\n") + 1
        head, tail = (rest[:cut], rest[cut:]) if cut else (rest, "")
        if not parser.started and not parser.committed:
            if parser.on_overflow() is not Verdict.VERBATIM:
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

    def _begin_block(self, block: _OpenBlock) -> None:
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
            block.streamed = block_type.streamed
            if block.error is None:
                block.metadata, block.error = _validate_metadata(block_type, header.metadata)
        if block.streamed:
            self._emit(BlockStart(block.block_id, block.type_name, block.syntax.name, header.attrs))
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
            self._emit(BlockMetadata(block.block_id, block.type_name, block.metadata))

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
            self._to_block(held[cut:], Verdict.CONTENT)
        if self._block is block:
            self._apply(then, line, complete)
        else:
            self._flow = Verdict.TEXT
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

    def _finish_block(self, block: _OpenBlock, raw: str, body: str) -> None:
        block_type = block.block_type
        assert block_type is not None
        fail = block.block_id, block.type_name
        try:
            content = block.parser.parse(body)
            if block_type.content is not None:
                content = _validate_content(block_type.content, content)
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
        problem = _run_validators(block_type, finished)
        if problem is not None:
            self._error(*fail, ErrorCode.VALIDATION_FAILED, problem, raw)
        elif block_type.transform is None:
            self._blocks += 1
            self._emit(BlockEnd(finished))
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
        self._flow = Verdict.TEXT
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

    # ------------------------------------------------------------------ inline (XML) blocks

    def _setup_inline(self, plan: SyntaxPlan) -> None:
        self._xml: Syntax | None = None
        self._xml_table = TypeTable({})
        self._xml_index = 0
        self._xml_open: XMLBlock | None = None
        self._prefilled: str | None = None
        self._held = ""  # a `<` that may still start a tag, or a backtick run, + what follows
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

    def _inline(self, text: str) -> None:
        """Run ``text`` (at most one line) through the inline scanner."""
        held = self._held
        if held:
            self._held = ""
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
        what, tag = opening_tag(text, at, limit, self._xml_table)
        if what is Found.OPEN:
            assert tag is not None
            self._open_inline(tag, text[at : tag.end])
            return tag.end
        if what is Found.PENDING and not self._final:
            self._held = text[at:]
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
        block = self._block = _OpenBlock(parser, self._xml, self._xml_index, self._pos)
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
            if verdict is Verdict.REJECT:
                self._reject("")
            elif verdict is Verdict.VERBATIM:
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
            return
        if line:
            return
        parser = self._parser
        block = self._block
        if parser is None or parser.visible:
            mode, default = _FAST_TEXT, Verdict.TEXT
        elif block is not None and block.streamed and parser.started:
            mode, default = _FAST_CONTENT, Verdict.CONTENT
        else:
            return
        run = self._plain_run()
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


@functools.lru_cache(maxsize=64)
def _marker_line_search(starts: str) -> tuple[str, re.Pattern[str]]:
    return starts, re.compile("\n[" + re.escape(starts) + "]")


def _run_end(text: str, at: int) -> int:
    """The offset after the run of backticks starting at ``at``."""
    end, n = at + 1, len(text)
    while end < n and text[end] == "`":
        end += 1
    return end


def _default_verdict(parser: LineParser) -> Verdict:
    if parser.visible:
        return Verdict.TEXT
    return Verdict.CONTENT if parser.started else Verdict.HOLD


def _line_offset(text: str, lines: int) -> int:
    """Offset just after the first ``lines`` lines of ``text``."""
    pos = 0
    for _ in range(lines):
        found = text.find("\n", pos)
        if found < 0:
            return len(text)
        pos = found + 1
    return pos


def _validate_metadata(
    block_type: BlockType, metadata: Mapping[str, Any] | None
) -> tuple[Any, tuple[ErrorCode, str] | None]:
    mapping = dict(metadata or {})
    if block_type.metadata is None:
        return mapping, None
    try:
        return block_type.metadata.model_validate(mapping), None
    except ValidationError as exc:
        return None, (ErrorCode.VALIDATION_FAILED, f"metadata of {block_type.name!r}: {exc}")
    except Exception as exc:  # a model validator raising something pydantic does not wrap
        return None, (ErrorCode.VALIDATION_FAILED, f"metadata of {block_type.name!r}: {exc!r}")


def _validate_content(model: type[BaseModel], content: Any) -> Any:
    """Validate a block's content against its content model.

    Structured content (a gadget's argument object) is validated as it is. Text goes
    to the model's ``parse_content(text)`` classmethod when it has one; otherwise it
    is read as YAML (which includes JSON) and the mapping validated.
    """
    if not isinstance(content, str):
        return model.model_validate(content)
    parse_content = getattr(model, "parse_content", None)
    if parse_content is not None:
        return parse_content(content)
    from ..syntaxes.frontmatter import load_yaml_mapping

    return model.model_validate(load_yaml_mapping(content, "content"))


def _run_validators(block_type: BlockType, block: Block) -> str | None:
    for check in block_type.validators:
        label = getattr(check, "__name__", repr(check))
        try:
            verdict = check(block)
        except Exception as exc:
            return f"validator {label} rejected the block: {exc}"
        if verdict is False:
            return f"validator {label} rejected the block"
        if isinstance(verdict, str):
            return verdict
    return None


def _merge_usage(old: Usage | None, new: Usage) -> Usage:
    """Fields reported later replace earlier ones; unreported fields are kept."""
    if old is None:
        return new
    fields = {
        name: getattr(new, name) if getattr(new, name) is not None else getattr(old, name)
        for name in Usage.__slots__
    }
    return Usage(**fields)
