"""The drivers' streams: what :meth:`StreamBlockProcessor.process` and
:meth:`~StreamBlockProcessor.process_stream` return, and closing a source once. Both
are thin: per chunk one read of the source and one ``feed``."""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import (
    AsyncIterable,
    Awaitable,
    Callable,
    Generator,
    Iterable,
    Iterator,
    Mapping,
)
from typing import TYPE_CHECKING, Any

from ..adapters.protocols import OutputAdapter
from .abort import AbortingSession
from .session import Session

if TYPE_CHECKING:
    from .processor import StreamBlockProcessor

_END = object()


class Events:
    """The events of one synchronous stream (what :meth:`~StreamBlockProcessor.process`
    returns): its generator, closed when the consumer drops it (a compiled one is not)."""

    def __init__(self, events: Generator[Any, None, None]) -> None:
        self._events = events

    def __iter__(self) -> Events:
        return self

    def __next__(self) -> Any:
        return next(self._events)

    def close(self) -> None:
        self._events.close()

    def __del__(self) -> None:
        self._events.close()


class AsyncEvents:
    """The events of one asynchronous stream (what :meth:`~StreamBlockProcessor.process_stream`
    returns): an async iterator that reads the source as the consumer asks for events.

    A class, not an async generator, because mypyc compiles async methods but not async
    generators; kept as lean as one: a chunk that makes one event (most do) is one read
    of the source, one ``feed`` and that event returned. Like an async generator it
    closes the source when it ends, when it is closed, and when an exception
    (cancellation, a timeout, the source's own error) passes through it.
    """

    def __init__(
        self,
        processor: StreamBlockProcessor,
        source: AsyncIterable[Any] | Iterable[Any],
        output_adapter: OutputAdapter | None,
        request: Mapping[str, Any] | None = None,
    ) -> None:
        self._processor = processor
        self._source = source
        self._adapter = output_adapter
        self._request = request
        self._out: OutputAdapter | None = None
        self._sync: Iterator[Any] | None = None  # the sync driver, for a plain iterable
        self._iterator: Any = None
        self._next: Callable[[], Awaitable[Any]] | None = None
        """The source's ``__anext__`` while it is read (``None``: not started, a plain
        iterable, or the end)."""
        self._session: Session | None = None
        self._feed: Callable[[Any], list[Any]] = _no_feed
        self._aborts = False  # (the session has an abort_on policy)
        self._plain = False  # (no abort_on policy, no output adapter)
        self._ready: deque[Any] = deque()
        self._ended = False  # the source is read to its end (or abort_on fired)
        self._closed = False

    def __aiter__(self) -> AsyncEvents:
        return self

    async def __anext__(self) -> Any:
        ready = self._ready
        try:
            while not ready:
                read = self._next
                if read is None:
                    await self._other()
                    continue
                try:
                    item = await read()
                except StopAsyncIteration:
                    await self._end(False)
                    continue
                events = self._feed(item)
                if self._plain:  # (no output adapter, no abort_on: most streams)
                    if len(events) == 1:
                        return events[0]
                    ready.extend(events)
                elif self._aborts and self._session.aborted is not None:  # type: ignore[union-attr]
                    ready.extend(outgoing(self._out, events))
                    await self._end(True)
                else:
                    ready.extend(outgoing(self._out, events))
        except BaseException:
            await self.aclose()
            raise
        return ready.popleft()

    async def _end(self, aborted: bool) -> None:
        """The source ended (``aborted``: abort_on stopped it; it is closed): the
        session's last events."""
        session = self._session
        assert session is not None
        self._next = None
        self._ended = True
        if aborted:
            await _aclose_source(self._iterator)
        self._ready.extend(outgoing(self._out, session.close()))

    async def _other(self) -> None:
        """All but the next item of an async source: the start, the end, the next
        event of a plain iterable (the sync driver)."""
        if self._ended or self._closed:
            await self.aclose()
            raise StopAsyncIteration
        if self._sync is not None:
            event = next(self._sync, _END)
            if event is _END:
                self._ended = True
            else:
                self._ready.append(event)
            return
        processor, source = self._processor, self._source
        if not isinstance(source, AsyncIterable):
            self._sync = processor.process(
                source, output_adapter=self._adapter, request=self._request
            )
            return
        self._iterator = aiter(source)
        first = [await anext(self._iterator, _END)] if processor._auto else []
        first = [item for item in first if item is not _END]
        model = processor._model_of(first)
        self._session = session = processor.session(model=model, request=self._request)
        self._feed = session.feed
        self._aborts = isinstance(session, AbortingSession)
        self._out = processor._output_for_stream(self._adapter)
        self._plain = self._out is None and not self._aborts
        self._next = self._iterator.__anext__
        for item in first:
            self._ready.extend(outgoing(self._out, session.feed(item)))

    async def aclose(self) -> None:
        """Stop: the session is released and the source closed (once)."""
        if self._closed:
            return
        self._closed = True
        self._next = None
        self._ready.clear()
        if self._sync is not None:
            close_source(self._sync)
        if self._session is not None:
            close_quietly(self._session)
        if self._iterator is not None:
            await _aclose_source(self._iterator)


def _no_feed(item: Any) -> list[Any]:  # pragma: no cover - (never called: see _next)
    raise AssertionError("no session")


def outgoing(adapter: OutputAdapter | None, events: list[Any]) -> Iterable[Any]:
    """``events`` as the output adapter gives them out (unchanged without one)."""
    if adapter is None:
        return events
    converted: list[Any] = []
    for event in events:
        if getattr(event, "type", None) == "PASSTHROUGH":
            converted.extend(adapter.passthrough(event.event))
        else:
            converted.extend(adapter.to_protocol_event(event))
    return converted


def close_source(iterator: Any) -> None:
    """Close a source iterator once (a generator ignores a second ``close``)."""
    close = getattr(iterator, "close", None)
    if close is not None:
        close()


async def _aclose_source(iterator: Any) -> None:
    aclose = getattr(iterator, "aclose", None)
    if aclose is not None:
        await aclose()


def close_quietly(session: Session) -> None:
    """Release a session whose consumer stopped early; its last events are dropped."""
    if not session.closed:
        with contextlib.suppress(Exception):
            session.close()
