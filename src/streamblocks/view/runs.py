"""One run shown by the viewer: its input processed once, its AG-UI messages kept.

A reader thread feeds the input through the processor; each of our events is turned
into AG-UI events by the project's :class:`~streamblocks.ext.agui.AGUIOutputAdapter`,
made as wire dicts rather than SDK models (:mod:`streamblocks.view.wire`: the same
JSON, a fraction of the work), encoded once and appended to :attr:`Run.events` in
batches (whatever one read of the input made). Every page that connects gets the events
from the start and then the new ones as they come, so reloading the page loses nothing.

Consecutive deltas of the same text, thinking, tool call or block part are merged into
one event before they are converted while the reader has them in hand (until reading
would wait, see :class:`~streamblocks.view.source.Waits`; :class:`_Converter`): a text
read a line at a time is one ``TEXT_MESSAGE_CONTENT`` per run of text between blocks, not
one per line. Likewise a block shown as a card (every block but thinking, tool calls
and tool results) that starts and ends while the reader has it in hand is sent as its
``streamblocks.block_end`` alone: the page makes the card's row from it, as it does for
a block whose start it did not see, and the end carries what the row shows (the
viewer's lean end, :func:`~streamblocks.view.wire.lean_payload`: no raw text or
offsets). A run of text, a thinking block or a provider's tool call whose end is in
hand is one ``*_CHUNK`` event (:meth:`~streamblocks.view.wire.WireAdapter.text_chunk`,
:meth:`~streamblocks.view.wire.WireAdapter.whole_end`), except the last event published
before the reader waits, sent as its message's events
(:func:`~streamblocks.view.wire.opened`): a chunk's message ends with the next event. A
dense markdown file is 2 AG-UI events a section instead of 7, a Claude transcript's turn
8 instead of 21. Published events never change, so an event's number (the SSE ``id``)
is the same for every page and a reconnecting page resumes exactly; the text is the
same.

*Export JSON* folds the run into a :class:`~streamblocks.content.Message` only when it is
asked for: the reader keeps the events the fold needs (visible text and ended blocks)
and :attr:`Run.message` folds those that came since the last export.

What the AG-UI events do not carry is added as ``CUSTOM`` events named
``streamblocks.view.*``: ``warning`` (input the viewer could not read, a warning the
library raised; also printed on stderr), ``tool_error`` (``TOOL_CALL_RESULT`` has no
error flag), ``parent`` (with an AG-UI SDK older than 1.0 only: the next row belongs to
the sub-agent started by the tool call ``parent_id``; in 1.0 the events carry the
sub-agent's ``subagent_run_id`` and ``SUBAGENT_STARTED`` names its call),
``partial`` (a tool call's arguments as far as written, ``BlockDelta.partial``, so the
card fills while they stream: sent on every delta up to 2 KB of arguments, then each
time they grew by a quarter, so a long call costs a few times its size, not its square;
not for a call read whole, whose card fills at once)
and ``stopped`` (the run will not finish: the viewer was stopped, or reading the input
failed).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import threading
import uuid
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .. import (
    AdapterWarning,
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockStart,
    Passthrough,
    StopReason,
    StreamBlockProcessor,
    StreamFinished,
    StreamStarted,
    TextDelta,
)
from ..content import Message, MessageAccumulator
from ..ext.agui.payloads import jsonable
from .message import finished, message_events
from .source import BadInput, Document
from .wire import CHUNKS, WireAdapter, custom_event, encode, opened

VIEW_PREFIX = "streamblocks.view."
_PARTIAL_EVERY = 2048  # argument characters up to which every delta's partial is sent
_PUBLISH_EVERY = 1024  # events a reader holds back at most before publishing them
_ENDS_TEXT = frozenset({BlockStart, BlockEnd, BlockError, StreamFinished})  # the adapter's


class Run:
    """The encoded events of one run (each AG-UI event's JSON), shared by every page
    that watches it."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.done = False
        self.stopping = False
        self.kept: list[Any] = []  # the events Export folds, not folded yet
        self._export = MessageAccumulator()
        self._folding = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._wake_pending = False
        self._lock = threading.Lock()

    # -- the reader thread's side ------------------------------------------------------

    def extend(self, events: Iterable[str]) -> None:
        self.events.extend(events)
        self._wake()

    def finish(self) -> None:
        self.done = True
        self._wake()

    def stop(self) -> None:
        """End every page's stream now (the server is shutting down); a run still under
        way tells its pages that it was stopped."""
        if not self.done:
            self.stopped("the viewer was stopped (Ctrl-C) before the input ended")
        self.stopping = True
        self._wake()

    def stopped(self, reason: str) -> None:
        self.extend([encode(_viewer_event("stopped", {"reason": reason}))])

    def _wake(self) -> None:
        with self._lock:
            if self._loop is None or self._wake_pending:
                return
            self._wake_pending = True
        self._loop.call_soon_threadsafe(self._notify)

    # -- the event loop's side ---------------------------------------------------------

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Wake waiters on ``loop`` (the server's) from now on."""
        with self._lock:
            self._loop = loop
            self._changed = asyncio.Event()

    def _notify(self) -> None:
        with self._lock:
            self._wake_pending = False
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    async def follow(
        self,
        start: int = 0,
        *,
        batched: bool = False,
        batch: int = 5000,
        first: int = 200,
        pause: float = 0.03,
    ) -> Any:
        """The SSE body from event ``start`` on, in chunks of what has accumulated, at
        most one per ``pause`` seconds: a run read fast reaches the page in a few
        hundred large writes rather than one per event, and a live run is at most
        ``pause`` late. Each message has an ``id``, the number of events sent up to and
        with it, so a reconnecting page resumes with ``Last-Event-ID``. A message is one
        AG-UI event, or with ``batched`` a JSON array of all the events of the chunk:
        one message for the browser to dispatch and one ``JSON.parse`` instead of
        thousands. The first chunk is at most ``first`` events (a screenful), so the
        page draws it before it reads the backlog. Ends when the run has ended and
        everything was sent."""
        index = start
        events = self.events
        while True:
            available = len(events)
            if index < available:
                stop = min(available, index + (first if index == start else batch))
                if batched:
                    yield f"id: {stop}\ndata: [{','.join(events[index:stop])}]\n\n"
                else:
                    yield "".join(
                        f"id: {number + 1}\ndata: {events[number]}\n\n"
                        for number in range(index, stop)
                    )
                index = stop
                if not (self.done or self.stopping):
                    await asyncio.sleep(pause)
                continue
            if self.done or self.stopping:
                return
            changed = self._changed
            if changed is None:
                await asyncio.sleep(0.05)
            else:
                await changed.wait()

    @property
    def message(self) -> Message:
        """The run so far as the content model (what *Export* saves): the events kept
        since the last call folded now, and dropped."""
        with self._folding:
            kept = self.kept
            count = len(kept)  # the reader may append meanwhile: those wait for next time
            add = self._export.add
            for event in kept[:count]:
                add(event)
            del kept[:count]
            return self._export.message


def _viewer_event(name: str, value: dict[str, Any]) -> dict[str, Any]:
    return custom_event(VIEW_PREFIX + name, value)


def _merges(held: Any, event: Any) -> bool:
    """Whether ``event`` continues the delta ``held`` (the same text, or the same part
    of the same block)."""
    kind = type(event)
    if kind is not type(held):
        return False
    if kind is TextDelta:
        return True
    return (
        kind is BlockDelta
        and event.block_id == held.block_id
        and event.section == held.section
        and event.path == held.path
    )


def _held(start: BlockStart) -> bool:
    """Whether the block is held from its start, to be sent as one event when it ends
    in hand: a card (its ``block_end``), thinking or a provider's tool call (a chunk);
    not a tool result (its one event comes at its end) nor a gadget call."""
    if start.syntax == "native":
        return start.block_type != "tool_result"
    return start.syntax != "gadget"


def _whole(block: list[Any], end: BlockEnd) -> bool:
    """Whether ``end``'s ``block_end`` alone gives the page the row its held events
    would: the page makes a card's row from a ``block_end`` whose start it did not see,
    and a card's end sets its metadata and content from the block, except a native code
    or text row, which shows its deltas when the content is not text or (text) not
    their text."""
    ended = end.block
    if ended.syntax != "native" or ended.type not in ("code", "text"):
        return True
    content = ended.content
    if not isinstance(content, str) or ended.type == "code":
        return isinstance(content, str)
    text = "".join([event.text for event in block if type(event) is BlockDelta])
    return not text or text == content  # a text row without deltas shows the content


class _Converter:
    """Our events → AG-UI events (+ the viewer's own), encoded, for one run."""

    def __init__(self, run: Run, on_warning: Callable[[str], None] | None = None) -> None:
        self.run = run
        self.output = WireAdapter(lean=True)  # fresh: this stream's own
        self.to_agui = self.output.to_protocol_event  # (a new list each call)
        self.on_warning = on_warning
        self.nested: set[str] = set()  # sub-agent blocks whose row was announced
        self.calls: dict[str, list[Any]] = {}  # open calls: [call id, chars, chars sent]
        self.pending: list[Any] = []  # converted, not yet folded, encoded and published
        self.held: list[Any] = []  # consecutive deltas to merge, not converted yet
        self.block: list[Any] = []  # a card's start, metadata and deltas, not converted yet

    def take(self, event: Any) -> None:
        """One of our events, in order: a block that becomes a card is held from its
        start while its own events follow, and sent as its ``block_end`` alone when it
        ends in hand (:meth:`_whole`); a delta is held while the next ones continue it,
        and converted merged (see the module's docstring)."""
        block = self.block
        if block:
            kind, opened = type(event), block[0].block_id
            if (kind is BlockDelta or kind is BlockMetadata) and event.block_id == opened:
                block.append(event)
                return
            if kind is BlockEnd and event.block.id == opened and _whole(block, event):
                self.block = []
                if self.held:
                    self.release(ends_text=True)
                self.publish(self._end(event, block))
                return
            self.release_block()
        if type(event) is BlockStart and _held(event):
            self.block = [event]
            return
        self._take(event)

    def release_block(self) -> None:
        """Convert the block in hand event by event (something else came, or the
        reader is about to wait: a live page sees the block as it grows)."""
        block = self.block
        self.block = []
        for event in block:
            self._take(event)

    def _take(self, event: Any) -> None:
        held = self.held
        if type(event) is TextDelta or type(event) is BlockDelta:
            if held and not _merges(held[0], event):
                self.release()
                held = self.held
            held.append(event)
            return
        if held:
            self.release(type(event) in _ENDS_TEXT)
        self.publish(self.convert(event))

    def release(self, ends_text: bool = False) -> None:
        """Convert the held deltas as one; ``ends_text``: the event in hand ends the
        text, so a text not begun before is whole, one ``TEXT_MESSAGE_CHUNK``."""
        held = self.held
        if not held:
            return
        self.held = []
        event = held[0]
        if len(held) > 1:
            text = "".join([delta.text for delta in held])
            if type(event) is TextDelta:
                event = TextDelta(text)
            else:
                event = event._replace(text=text, partial_at=held[-1].partial_at)
        if ends_text and type(event) is TextDelta and event.text:
            chunk = self.output.text_chunk(event.text)
            if chunk is not None:
                self.run.kept.append(event)
                self.publish(chunk)
                return
        self.publish(self.convert(event))

    def convert(self, event: Any, whole: list[Any] | None = None) -> list[Any]:
        """The AG-UI events for ``event``; ``whole``: the start, metadata and deltas of
        the block ``event`` ends, held back (:meth:`WireAdapter.whole_end`)."""
        kind = type(event)
        if kind is TextDelta:  # the common cases first: nothing of the viewer's own to add
            if event.text:
                self.run.kept.append(event)
            return self.to_agui(event)
        if (kind is BlockDelta and event.block_id not in self.calls) or kind is BlockMetadata:
            return self.to_agui(event)
        if kind is BlockEnd:
            return self._end(event, whole)
        if kind is BlockStart:
            return self._start(event)
        if kind is BlockDelta:
            return self._call_delta(event)
        if isinstance(event, Passthrough):
            return list(self.output.passthrough(event.event))
        out = self.to_agui(event)
        if isinstance(event, BlockError):
            self.calls.pop(event.block_id or "", None)
        elif type(event) is StreamStarted:
            self.output.shorten_ids()
        elif (
            isinstance(event, StreamFinished)
            and event.stop_reason is StopReason.error
            and self.on_warning is not None
        ):
            self.on_warning(f"the run failed: {event.error or 'the stream stopped with an error'}")
        return out

    def _call_delta(self, event: BlockDelta) -> list[Any]:
        """A tool call's arguments, with the ``partial`` value as far as written: on
        every delta up to :data:`_PARTIAL_EVERY` characters, then as they grow by a
        quarter."""
        out = self.to_agui(event)
        call = self.calls[event.block_id]
        call[1] += len(event.text)
        if call[1] <= _PARTIAL_EVERY or call[1] >= call[2] * 5 // 4:
            call[2] = call[1]
            value = {"tool_call_id": call[0], "value": jsonable(event.partial)}
            out.append(_viewer_event("partial", value))
        return out

    def _start(self, event: BlockStart) -> list[Any]:
        """A block's start: the ``parent`` before a sub-agent's row (not a tool
        result's: its row is made at its end); a tool call's arguments followed."""
        out = self.to_agui(event)
        native = event.syntax == "native"
        parent = event.attrs.get("parent_id") if self.output.protocol == "0.1" else None
        if parent not in (None, "") and not (native and event.block_type == "tool_result"):
            self.nested.add(event.block_id)
            if out:
                out.insert(0, _viewer_event("parent", {"parent_id": str(parent)}))
        if (native and event.block_type == "tool_call") or event.syntax == "gadget":
            call_id = (event.attrs.get("id") if native else None) or event.block_id
            self.calls[event.block_id] = [str(call_id), 0, 0]
        return out

    def _end(self, event: BlockEnd, whole: list[Any] | None) -> list[Any]:
        """A block's end (kept for the export): the ``parent`` before a sub-agent's
        row made now (its start was not announced), ``tool_error`` after a failed
        tool result."""
        self.run.kept.append(event)
        out = self.to_agui(event) if whole is None else self.output.whole_end(event, whole)
        block = event.block
        attrs = block.attrs
        parent = attrs.get("parent_id") if self.output.protocol == "0.1" else None
        if parent not in (None, ""):
            if block.id in self.nested:
                self.nested.discard(block.id)
            elif out:
                out.insert(0, _viewer_event("parent", {"parent_id": str(parent)}))
        self.calls.pop(block.id, None)
        if block.syntax == "native" and block.type == "tool_result" and attrs.get("is_error"):
            call_id = str(attrs.get("tool_call_id") or block.id)
            out.append(_viewer_event("tool_error", {"tool_call_id": call_id}))
        return out

    def publish(self, agui: list[Any]) -> None:
        """Encode ``agui`` now (after the deltas held before it); hand it to the pages
        with what is held back when :data:`_PUBLISH_EVERY` events are, or at the next
        :meth:`flush`."""
        if self.block:
            self.release_block()
        if self.held:
            self.release()
        pending = self.pending
        pending.extend(agui)
        if len(pending) >= _PUBLISH_EVERY:
            self.flush()

    def flush(self) -> None:
        """Publish what is held back (before the reader waits for more input), encoded;
        a chunk that would end it as the events of its message (:func:`opened`)."""
        if self.block:
            self.release_block()
        if self.held:
            self.release()
        pending = self.pending
        if pending:
            last = pending[-1]
            if type(last) is dict and last["type"] in CHUNKS:
                pending[-1:] = opened(last)
            self.run.extend(map(encode, pending))
            self.pending = []

    def warn(self, message: str) -> None:
        """A warning row on the page, and the same line on stderr."""
        self.publish([_viewer_event("warning", {"message": message})])
        self.flush()
        if self.on_warning is not None:
            self.on_warning(message)


def _events(
    processor: StreamBlockProcessor, items: Iterator[Any], converter: _Converter
) -> Iterator[Any]:
    """Our events for the input; its warnings and an exported run handled on the way.

    What was made so far is published before the reader waits for input (a pipe with
    nothing to read yet, a paced pause): the source says when (``items.waits``, see
    :class:`~streamblocks.view.source.Waits`); an iterator that cannot say is published
    before each of its items."""
    waits = getattr(items, "waits", None)
    if waits is not None:
        waits.hook = converter.flush
    items = getattr(items, "items", items)  # (read directly: see source.Items)
    first = next(items, None)
    if isinstance(first, Document):
        return _document(first, converter)

    def inputs() -> Iterator[Any]:
        if first is not None:
            yield from _input(first, converter)
        if waits is None:  # published before each item: reading it may wait
            while True:
                converter.flush()
                item = next(items, None)
                if item is None:
                    return
                yield from _input(item, converter)
        for item in items:
            if item.__class__ is dict or item.__class__ is str:  # (what is read: no call)
                yield item
            else:
                yield from _input(item, converter)

    return processor.process(inputs())  # (returned, not wrapped: one frame less per event)


def _input(item: Any, converter: _Converter) -> Iterator[Any]:
    if isinstance(item, BadInput):
        converter.warn(item.message)
    elif isinstance(item, Document):
        converter.warn("an exported run in the middle of a stream is left out")
    else:
        yield item


def _document(document: Document, converter: _Converter) -> Iterator[Any]:
    yield StreamStarted(uuid.uuid4().hex)
    blocks = 0
    try:
        for event in message_events(document.message):
            blocks += event.type.value == "BLOCK_END"
            yield event
    except ValueError as exc:
        converter.warn(f"the exported run does not validate: {exc}")
    yield finished(blocks)


def _said(warning: warnings.WarningMessage) -> str:
    """A warning's message, with what to do about it in the viewer."""
    message = str(warning.message)
    if issubclass(warning.category, AdapterWarning):
        message += (
            " In the viewer: choose the adapter with --adapter NAME (`streamblocks adapters`"
            " lists them); events it passes through are under Raw events."
        )
    return message


def produce(
    run: Run,
    processor: StreamBlockProcessor,
    items: Iterator[Any],
    on_error: Callable[[BaseException], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> None:
    """Read the whole input into ``run`` (the reader thread's body). ``on_warning`` gets
    each warning the page shows (the command prints them on stderr)."""
    converter = _Converter(run, on_warning)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for event in _events(processor, items, converter):
                converter.take(event)
                while caught:
                    converter.warn(_said(caught.pop(0)))
    except Exception as exc:  # the page shows it; the server keeps serving what it has
        message = f"reading the input failed: {type(exc).__name__}: {exc}"
        converter.warn(message)
        run.stopped(message)
        if on_error is not None:
            on_error(exc)
    finally:
        converter.flush()
        run.finish()


def start(
    run: Run,
    processor: StreamBlockProcessor,
    items: Iterator[Any],
    on_warning: Callable[[str], None] | None = None,
    *,
    without_gc: bool = False,
) -> threading.Thread:
    """Run :func:`produce` in a daemon thread (a blocked stdin read never holds up exit);
    ``without_gc``: read through :func:`without_gc_while` (the viewer's own process)."""
    target: Callable[..., None] = produce
    if without_gc:
        target = functools.partial(without_gc_while, produce)
        waits = getattr(items, "waits", None)
        if waits is not None:  # (the collector back on while the reader waits)
            waits.collector_paused = True
    thread = threading.Thread(
        target=target,
        args=(run, processor, items),
        kwargs={"on_warning": on_warning},
        name="streamblocks-view",
        daemon=True,
    )
    thread.start()
    return thread


def without_gc_while(read: Callable[..., None], *args: Any, **kwargs: Any) -> None:
    """``read(*args, **kwargs)`` with the garbage collector off, what it made frozen after.

    Reading a run keeps what every page and the export need: hundreds of thousands of
    objects per 10 MB, which the collector would each examine once as they come (a
    tenth of the reader's time on dense markdown, 0.8 s at 50 MB) and would find
    nothing to free in (a read makes almost no reference cycles: a few dozen for 10 MB
    of markdown; a transcript adapter's own state at its end). Frozen at the end, they
    are never examined; the few cycles among them stay, in a process that serves one
    run. While a live run's reader waits for input, the collector is on
    (:attr:`~streamblocks.view.source.Waits.collector_paused`), so the server's own
    garbage is collected however long the run stays open. Process-wide: for the
    viewer's own process only, never in a library call."""
    gc.disable()
    try:
        read(*args, **kwargs)
    finally:
        gc.freeze()
        gc.enable()
