"""One run shown by the viewer: its input processed once, its AG-UI messages kept.

A reader thread feeds the input through the processor; each of our events is turned
into AG-UI events by the project's :class:`~streamblocks.ext.agui.AGUIOutputAdapter`,
made as wire dicts rather than SDK models (:mod:`streamblocks.view.wire`: the same
JSON, a fraction of the work), encoded once and appended to :attr:`Run.events` in
batches (whatever one read of the input made). Every page that connects gets the events
from the start and then the new ones as they come, so reloading the page loses nothing.

*Export JSON* folds the run into a :class:`~streamblocks.content.Message` only when it is
asked for: the reader keeps the events the fold needs (visible text and ended blocks)
and :attr:`Run.message` folds those that came since the last export.

The events are made by :class:`~streamblocks.view.convert.Converter`, which says how
deltas are merged and what the viewer's own ``CUSTOM`` events are.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import threading
import uuid
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .. import AdapterWarning, StreamBlockProcessor, StreamStarted
from ..content import Message, MessageAccumulator
from ..runs.live import BadInput, Document
from ..runs.redact import Redactor, redact_events
from ..runs.usage import metered
from .convert import Converter, viewer_event
from .message import finished, message_events
from .wire import encode

FIRST_BYTES = 65_536  # the first message's events stop past this size (a screenful)


def screenful(events: Sequence[str], start: int, stop: int) -> int:
    """Where the first message of ``events[start:stop]`` ends: at ``stop``, or sooner
    once it holds :data:`FIRST_BYTES` (a long text's first event can be megabytes; the
    page draws the first screen before it reads them)."""
    size = 0
    for index in range(start, stop):
        size += len(events[index])
        if size >= FIRST_BYTES:
            return index + 1
    return stop


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
        self.extend([encode(viewer_event("stopped", {"reason": reason}))])

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
                if index == start:
                    stop = screenful(events, index, stop)
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


def _events(
    processor: StreamBlockProcessor, items: Iterator[Any], converter: Converter
) -> Iterator[Any]:
    """Our events for the input; its warnings and an exported run handled on the way.

    What was made so far is published before the reader waits for input (a pipe with
    nothing to read yet, a paced pause): the source says when (``items.waits``, see
    :class:`~streamblocks.runs.live.Waits`); an iterator that cannot say is published
    before each of its items."""
    waits = getattr(items, "waits", None)
    if waits is not None:
        waits.hook = converter.flush
    items = getattr(items, "items", items)  # (read directly: see runs.live.Items)
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

    if first.__class__ is dict:  # records that may say each turn's usage
        return metered(processor.process, inputs())
    return processor.process(inputs())  # (returned, not wrapped: one frame less per event)


def _input(item: Any, converter: Converter) -> Iterator[Any]:
    if isinstance(item, BadInput):
        converter.warn(item.message)
    elif isinstance(item, Document):
        converter.warn("an exported run in the middle of a stream is left out")
    else:
        yield item


def _document(document: Document, converter: Converter) -> Iterator[Any]:
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
    redactor: Redactor | None = None,
) -> None:
    """Read the whole input into ``run`` (the reader thread's body). ``on_warning`` gets
    each warning the page shows (the command prints them on stderr); ``redactor``
    masks secrets in every event (``--redact``) and its counts end the run."""
    converter = Converter(run, on_warning)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            events = _events(processor, items, converter)
            if redactor is not None:
                events = redact_events(events, redactor)
            for event in events:
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
        if redactor is not None:
            converter.publish([viewer_event("redacted", {"counts": redactor.counts})])
        converter.flush()
        run.finish()


def start(
    run: Run,
    processor: StreamBlockProcessor,
    items: Iterator[Any],
    on_warning: Callable[[str], None] | None = None,
    *,
    without_gc: bool = False,
    redactor: Redactor | None = None,
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
        kwargs={"on_warning": on_warning, "redactor": redactor},
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
    (:attr:`~streamblocks.runs.live.Waits.collector_paused`), so the server's own
    garbage is collected however long the run stays open. Process-wide: for the
    viewer's own process only, never in a library call."""
    gc.disable()
    try:
        read(*args, **kwargs)
    finally:
        gc.freeze()
        gc.enable()
