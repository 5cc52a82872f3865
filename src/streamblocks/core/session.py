"""The sans-IO session: text (or provider events) in, events out.

A session reads one stream with three parts, each a plain object with one idea: the
:class:`~.scanner.Scanner` decides what each piece of text is (see :mod:`.scanner`),
the :class:`~.emitter.Emitter` turns that into events and keeps the offset and the
counters, :class:`~.provider.ProviderEvents` turns provider events into text and native
blocks. This module wires them, runs the delta transforms, and guards the session's
life cycle: ``feed`` after ``close``, a ``feed`` that raised, snapshots.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from ..adapters.protocols import InputAdapter
from ..transforms import DeltaTransform, compose_transforms
from . import fast, lean, lean_regions
from .emitter import Emitter
from .errors import SessionClosedError
from .events import (
    CONTENT_SECTION,
    BlockDelta,
    Counts,
    Event,
    StreamStarted,
    TextDelta,
    new_event,
)
from .limits import Limits
from .line_syntax import CONTENT, HOLD
from .open_block import OpenBlock
from .provider import ProviderEvents
from .region import Region
from .scan_plan import ScanPlan
from .scanner import Scanner
from .syntax import SyntaxPlan
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

_BOM = "\ufeff"


@mypyc_attr(allow_interpreted_subclasses=True)
class Session:
    """One stream's state. ``feed`` each chunk, then ``close``; both return events.

    Made by :meth:`StreamBlockProcessor.session`; does no I/O, starts no threads and needs no
    event loop. ``feed`` takes text (``str``) or, with an input adapter, provider events.
    """

    __slots__ = (
        "_aborted", "_busy", "_chain", "_closed", "_em", "_identity", "_limits", "_plan",
        "_provider", "_scan", "_started", "_transforms", "stream_id",
    )  # fmt: skip

    def __init__(
        self,
        plan: SyntaxPlan,
        *,
        stream_id: str,
        limits: Limits,
        input_adapter: InputAdapter | str | None,
        transforms: Sequence[DeltaTransform] = (),
        reference: bool = False,
        scanning: ScanPlan | None = None,
    ) -> None:
        self.stream_id = stream_id
        self._plan = plan
        self._limits = limits
        self._identity = input_adapter is None
        self._started = False
        self._closed = False
        self._busy = False
        self._aborted: str | None = None
        self._em = Emitter()
        self._scan = Scanner(plan, limits, self._em, scanning)
        self._provider = ProviderEvents(self._em, limits, self._consume, input_adapter)
        self._transforms = tuple(transforms)
        self.use(() if reference else fast.FAST_PATHS)
        self._chain = compose_transforms(*transforms).for_stream() if transforms else None

    def use(self, paths: Collection[str]) -> None:
        """Take only the fast paths named in ``paths`` (:data:`.fast.FAST_PATHS`)."""
        fast.use(self._scan, paths, lean=not self._transforms)

    # ------------------------------------------------------------------ public API

    def feed(self, chunk: Any) -> list[Event]:
        """Process one chunk of text (or one provider event): the events it made decidable."""
        scan = self._scan
        mode = scan.mode
        if chunk.__class__ is not str or not self._identity:
            if not (mode and chunk):
                return self._feed(chunk)
            text = self._provider.text_of(chunk)  # (a provider's text delta: its text, a str)
            if text is None:
                return self._feed(chunk)
            if not text:
                return []
            chunk = text  # (read as a str chunk is: one path, one frame)
        if mode and chunk:
            # The lean steps: in a bulk state a chunk that holds nothing the state must
            # stop for is one search and one event (see lean.settle).
            if mode == VISIBLE:
                # (a chunk without a newline has no stop when no inline opener is looked
                # for, or when it lacks the one or two characters openers begin with)
                if "\n" not in chunk and (scan.nl_only or (scan.opener_first not in chunk and (
                    not scan.opener_also or scan.opener_also not in chunk
                ))):  # fmt: skip
                    self._em.pos += len(chunk)
                    return [new_event(TextDelta, (chunk,))]
                stop = scan.visible_stop(chunk)
                if stop is None or lean.line_ends(scan, stop, chunk):
                    self._em.pos += len(chunk)
                    return [new_event(TextDelta, (chunk,))]
                if scan.parser is None and chunk.rfind("\n") == stop.start():  # (a line start)
                    self._busy = True  # (a syntax's answer may raise: see _feed)
                    events = lean.pending_line(scan, chunk, stop.start() + 1)
                    self._busy = False
                    if events is not None:
                        return events
                if scan.opener_prefixes:  # (it may end in an opener's beginning)
                    events = lean.opening(scan, chunk, stop)
                    if events is not None:
                        return events
            elif mode == CONTENT_MODE and "\n" not in chunk and scan.lean_flow is CONTENT:
                # (mid-line streamed content, the bulk of a block: the branch below, cut
                # to what a chunk with no newline needs; no state of the scanner changes)
                into: OpenBlock = scan.block  # type: ignore[assignment]  # (set in this mode)
                size = into.raw_len + len(chunk)
                if size <= scan.lean_limit:  # (the stream offset follows: see lean.count_lean)
                    into.raw.append(chunk)  # (OpenBlock.add, inline)
                    into.raw_len = size
                    if len(into.raw) > into.compact_at:
                        into.compact()
                    # (Emitter.delta, inline; no local names: each costs every chunk's frame)
                    return [new_event(BlockDelta, (
                        into.block_id, into.type_name, CONTENT_SECTION, chunk, scan.lean_path,
                        None if into.partial is None else into.partial.add(chunk, scan.lean_path),
                    ))]  # fmt: skip
            elif mode == THOUGHT:
                # (thinking, lean_regions.region_step's common case inline: a chunk without its
                # closer's first character is content, blanks at its end held; only the
                # block's raw is kept, lean.thought_sync adds the rest (lean.settle). Not
                # handed to thought_step: that call on every chunk cost think-qwen3-4 +9 %.)
                region: Region = scan.region  # type: ignore[assignment]  # (set in this mode)
                if region.thought not in chunk:
                    into = region.block  # type: ignore[assignment]  # (open in this mode)
                    if not chunk[-1].isspace():
                        size = into.raw_len + len(chunk)
                        if size > scan.lean_limit:  # (the limit, and the run: see lean.arm)
                            size = 0  # (not taken here)
                        elif region.blanks:  # (held before it, counted when held: first)
                            scan.examined -= len(region.blanks)
                            chunk, region.blanks = region.blanks + chunk, ""
                            size = into.raw_len + len(chunk)
                    else:  # (blanks at its end: held as lean_regions.split_blanks says)
                        text, held = lean_regions.split_blanks(region.blanks, chunk)
                        size = into.raw_len + len(text)
                        if text and size <= scan.lean_limit and len(held) <= lean.THOUGHT_BLANKS:
                            scan.examined += len(held) - len(region.blanks)
                            chunk, region.blanks = text, held
                        else:
                            size = 0
                    if size:
                        into.raw.append(chunk)
                        into.raw_len = size
                        return [new_event(BlockDelta, (
                            into.block_id, into.type_name, CONTENT_SECTION, chunk, None, None
                        ))]  # fmt: skip
                events = lean_regions.thought_step(scan, region, chunk)
                if events is not None:
                    return events
            elif mode == REGION:
                region = scan.region  # type: ignore[assignment]  # (set in this mode)
                events = lean_regions.region_step(region, chunk)
                if events is not None:
                    return events
            elif mode <= BLOCK_LINE:  # a line block's content, or its header lines
                into = scan.block  # type: ignore[assignment]  # (set in this mode)
                size = len(chunk)
                # (its stops are at newlines: a chunk without one has none)
                stop = scan.content_stop(chunk) if "\n" in chunk else None
                if (
                    (stop is None or stop.start() == size - 1)  # (or the newline ending it)
                    and into.raw_len + size <= scan.lean_limit
                    and (mode == CONTENT_MODE or chunk[0] not in scan.starts)  # type: ignore[operator]
                ):
                    if mode == BLOCK_LINE:  # (a line start: the line is the block's)
                        scan.flow = scan.lean_flow
                        if stop is None:
                            scan.line = None
                            scan.mode = CONTENT_MODE
                    elif stop is not None:  # (the next line: its first character decides)
                        scan.line = ""
                        scan.mode = BLOCK_LINE
                    into.raw.append(chunk)  # (OpenBlock.add, inline; the offset: lean.count_lean)
                    into.raw_len += size
                    if len(into.raw) > into.compact_at:
                        into.compact()
                    if scan.lean_flow is HOLD:  # (a header line: its parser reads it)
                        assert into.parser is not None
                        self._busy = True  # (a parser's hook may raise: see _feed)
                        into.parser.held(chunk)
                        self._busy = False
                        return []
                    return [new_event(BlockDelta, (  # (as above)
                        into.block_id, into.type_name, CONTENT_SECTION, chunk, scan.lean_path,
                        None if into.partial is None else into.partial.add(chunk, scan.lean_path),
                    ))]  # fmt: skip
            elif mode == LINE_START:
                if chunk[0] not in scan.starts:  # type: ignore[operator]
                    stop = scan.visible_stop(chunk)
                    if stop is None:
                        scan.line = None  # (the line is decided: no marker starts with it)
                        scan.mode = VISIBLE
                    elif not lean.line_ends(scan, stop, chunk):
                        events = lean.opening(scan, chunk, stop) if scan.opener_prefixes else None
                        return events if events is not None else self._feed(chunk, True)
                    self._em.pos += len(chunk)
                    return [new_event(TextDelta, (chunk,))]
                if scan.parser is None and "\n" not in chunk:  # (a marker may begin the line)
                    self._busy = True
                    events = lean.pending_line(scan, chunk, 0)
                    self._busy = False
                    if events is not None:
                        return events
            elif mode == PENDING_LINE and "\n" not in chunk:
                self._busy = True  # (a syntax's answer may raise: see _feed)
                events = [] if lean.still_pending(scan, chunk) else None
                self._busy = False
                if events is not None:
                    return events
            elif mode == OPENING:  # (an inline opener arriving in pieces)
                events = lean.opening(scan, chunk, None)
                if events is not None:
                    return events
        return self._feed(chunk, True)

    def _feed(self, chunk: Any, text: bool = False) -> list[Event]:
        """``feed`` by the full step (``text``: ``chunk`` is reply text), then settled (lean)."""
        scan = self._scan
        lean.count_lean(scan)
        if self._closed:
            raise SessionClosedError("feed() after close()")
        if self._busy:
            raise SessionClosedError("feed() after a feed() that raised: close() the session")
        provider = self._provider
        if provider._ended:  # the provider's stream ended (STREAM_END): nothing more is read
            provider._after_end([chunk])
            return []
        self._busy = True  # stays set if this call raises (see close())
        scan.mode = SLOW
        em = self._em
        out = em.out = []
        if not self._started:
            self._begin()
        if not self._identity and provider._adapter is None and chunk.__class__ is str:
            self._identity = fast.settle_text(scan, provider, chunk, bool(self._transforms))
        if not text and (not self._identity or chunk.__class__ is not str):
            provider._feed_event(chunk)
            if provider._ended:
                out = self._finish(out)
                self._busy = False
                return out
        elif em.pos:
            scan.run(chunk)
        else:
            self._consume(chunk)
        if em.texts:
            em.flush_texts()
        if em.deltas:
            em.flush_deltas()
        self._busy = False
        if self._chain is not None:
            return self._chain.process_all(out)
        if em.pos:  # (until text came, a byte-order mark may open it: see _consume)
            lean.settle(scan)
        return out

    def close(self) -> list[Event]:
        """End the stream: report what is still open and emit ``STREAM_FINISHED``."""
        lean.count_lean(self._scan)
        self._scan.mode = SLOW
        if self._closed:
            raise SessionClosedError("close() called twice")
        if self._busy:
            return self._finish_early("a feed() call raised; the rest of the stream was not read")
        provider = self._provider
        if provider._ended:  # STREAM_END already finished the stream and reported it all
            self._closed = True
            return []
        self._busy = True
        out = self._em.out = []
        if not self._started:
            self._begin()
        provider._end_frames()
        out = self._finish(out)
        self._closed = True
        return out

    def _finish(self, out: list[Event]) -> list[Event]:
        """Report what is still open, then ``STREAM_FINISHED``: at ``close()``, or when
        the input adapter reports the provider's ``STREAM_END``."""
        provider, em = self._provider, self._em
        self._scan.finish(provider._stop_reason)
        provider._close_natives()
        em.flush()
        if self._chain is not None:
            out = self._chain.process_all(out)
            out.extend(self._chain.flush())
        out.append(provider._finished_event(Counts(em.pos, em.blocks, em.errors)))
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
        """A ``feed`` (or ``close``) call raised part-way, so the state is not trusted: ``feed``
        raises :class:`SessionClosedError`, :meth:`close` emits only ``STREAM_FINISHED``."""
        return self._busy

    @property
    def examined(self) -> int:
        """Characters read, and read again when held (:mod:`streamblocks.testing.differential`)."""
        lean.count_lean(self._scan)
        return self._scan.examined

    def snapshot(self) -> bytes:
        """This stream's state as bytes, to resume it later, in another process too,
        with :meth:`StreamBlockProcessor.restore` (see :mod:`streamblocks.core.snapshot`)."""
        from .snapshot import dump_session

        return dump_session(self)

    def __getstate__(self) -> tuple[Any, ...]:
        """The session's state, explicitly (snapshots pickle it)."""
        lean.count_lean(self._scan)
        return (
            self.stream_id, self._plan, self._limits, self._identity, self._started,
            self._closed, self._busy, self._aborted, self._em, self._scan, self._provider,
            self._transforms, self._chain,
        )  # fmt: skip

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        (
            self.stream_id, self._plan, self._limits, self._identity, self._started,
            self._closed, self._busy, self._aborted, self._em, self._scan, self._provider,
            self._transforms, self._chain,
        ) = state  # fmt: skip

    # ------------------------------------------------------------------ the parts' wiring

    def _finish_early(self, cause: str) -> list[Event]:
        """``close()`` for a stream that did not end normally: nothing more is read or
        reported, only ``STREAM_FINISHED`` with ``stop_reason=error`` and ``cause``."""
        self._closed = True
        lean.count_lean(self._scan)
        self._scan.mode = SLOW
        em = self._em
        em.out = []
        return [self._provider._finished_event(Counts(em.pos, em.blocks, em.errors), cause)]

    def _begin(self) -> None:
        self._started = True
        self._em.out.append(StreamStarted(self.stream_id))
        self._scan.start()

    def _consume(self, text: str) -> None:
        """Reply text, for the scanner. A byte-order mark opening the stream is text,
        and the first line still starts after it."""
        scan = self._scan
        at_start = self._em.pos == 0 and scan.line == "" and scan.region is None
        if at_start and text.startswith(_BOM) and not scan.tail:
            self._em.text(_BOM)
            text = text[1:]
        scan.run(text)
