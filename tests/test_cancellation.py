"""Cancellation, source errors and early exits: the source is always closed, nothing is
left behind, a source's exception comes out unchanged."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import pytest

from helpers import conserved, normalise, run
from streamblocks import (
    BlockRegistry,
    EventType,
    SessionClosedError,
    StopReason,
    StreamBlockProcessor,
    TextDelta,
)
from streamblocks.core.registry import BlockType
from streamblocks.syntaxes.base import LineParser, Syntax, TypeTable, Verdict

TEXT = "hello\n!!b1:note\nbody\n!!end\nafter\n"
CHUNKS = [TEXT[i : i + 3] for i in range(0, len(TEXT), 3)]


def _processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    return StreamBlockProcessor(registry, input_adapter=None)


class Boom(Exception):
    pass


class Recorder:
    """A source that records how far it was read and whether it was closed."""

    def __init__(self, chunks: list[str], fail_at: int | None = None, hang_at: int | None = None):
        self.chunks = chunks
        self.fail_at = fail_at
        self.hang_at = hang_at
        self.read = 0
        self.closed = False
        self.finished = False

    def sync(self) -> Iterator[str]:
        try:
            for index, chunk in enumerate(self.chunks):
                if index == self.fail_at:
                    raise Boom("source failed")
                self.read += 1
                yield chunk
            self.finished = True
        finally:
            self.closed = True

    async def asynchronous(self) -> AsyncIterator[str]:
        try:
            for index, chunk in enumerate(self.chunks):
                if index == self.fail_at:
                    raise Boom("source failed")
                if index == self.hang_at:
                    await asyncio.sleep(3600)
                await asyncio.sleep(0)
                self.read += 1
                yield chunk
            self.finished = True
        finally:
            self.closed = True


# ------------------------------------------------------------------ sync


def test_breaking_out_of_process_closes_the_source() -> None:
    source = Recorder(CHUNKS)
    events = _processor().process(source.sync())
    for event in events:
        if event.type is EventType.BLOCK_START:
            break
    events.close()  # what leaving a `for` over it does once the generator is dropped
    assert source.closed and not source.finished


def test_dropping_the_generator_closes_the_source() -> None:
    source = Recorder(CHUNKS)
    for event in _processor().process(source.sync()):
        if event.type is EventType.BLOCK_START:
            break
    gc.collect()
    assert source.closed


def test_a_source_exception_comes_out_unchanged_after_the_decided_events() -> None:
    source = Recorder(CHUNKS, fail_at=5)
    seen: list[Any] = []
    with pytest.raises(Boom, match="source failed"):
        seen.extend(_processor().process(source.sync()))
    decided = run(_processor(), CHUNKS[:5])[:-1]  # everything but the close
    solo = [e for e in decided if e.type is not EventType.STREAM_STARTED]
    got = [e for e in seen if e.type is not EventType.STREAM_STARTED]
    assert "".join(e.text for e in got if isinstance(e, TextDelta)) == "".join(
        e.text for e in solo if isinstance(e, TextDelta)
    )
    assert normalise(got) == normalise(solo)[: len(normalise(got))]
    assert source.closed


def test_an_iterator_with_close_is_closed() -> None:
    class Closable:
        closed = 0

        def __iter__(self) -> Closable:
            return self

        def __next__(self) -> str:
            return "x"

        def close(self) -> None:
            self.closed += 1

    source = Closable()
    for _ in _processor().process(source):
        break
    gc.collect()
    assert source.closed == 1


# ------------------------------------------------------------------ async


async def test_aclose_closes_the_source() -> None:
    source = Recorder(CHUNKS)
    stream = _processor().process_stream(source.asynchronous())
    async for event in stream:
        if event.type is EventType.BLOCK_START:
            break
    await stream.aclose()
    assert source.closed and not source.finished


async def test_aclosing_closes_the_source() -> None:
    source = Recorder(CHUNKS)
    async with contextlib.aclosing(_processor().process_stream(source.asynchronous())) as events:
        async for event in events:
            if event.type is EventType.BLOCK_START:
                break
    assert source.closed


async def test_task_cancellation_closes_the_source() -> None:
    source = Recorder(CHUNKS, hang_at=4)
    got: list[Any] = []

    async def consume() -> None:
        async for event in _processor().process_stream(source.asynchronous()):
            got.append(event)

    task = asyncio.create_task(consume())
    while source.read < 4:
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert source.closed and not source.finished
    assert got[0].type is EventType.STREAM_STARTED


@pytest.mark.parametrize("how", ["wait_for", "timeout"])
async def test_a_timeout_closes_the_source(how: str) -> None:
    source = Recorder(CHUNKS, hang_at=4)

    async def consume() -> None:
        async for _ in _processor().process_stream(source.asynchronous()):
            pass

    if how == "wait_for":
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(consume(), 0.05)
    else:
        timeout = getattr(asyncio, "timeout", None)
        if timeout is None:
            pytest.skip("asyncio.timeout is new in Python 3.11")
        with pytest.raises(TimeoutError):
            async with timeout(0.05):
                await consume()
    assert source.closed and not source.finished
    assert not [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]


async def test_an_async_source_exception_comes_out_unchanged() -> None:
    source = Recorder(CHUNKS, fail_at=5)
    seen: list[Any] = []
    with pytest.raises(Boom, match="source failed"):
        async for event in _processor().process_stream(source.asynchronous()):
            seen.append(event)
    assert source.closed
    assert conserved(seen) == "".join(CHUNKS[:5])[: len(conserved(seen))]
    assert conserved(seen) == "hello\n"  # the open block is not decided yet


async def test_a_plain_iterable_given_to_process_stream_is_closed_too() -> None:
    source = Recorder(CHUNKS)
    stream = _processor().process_stream(source.sync())
    async for event in stream:
        if event.type is EventType.BLOCK_START:
            break
    await stream.aclose()
    assert source.closed


# ------------------------------------------------------------------ session after an error


class BuggySyntax(Syntax):
    """A custom syntax with a bug: it raises on a line starting with ``?crash``."""

    name = "buggy"
    starts_with = "?"

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        if line.startswith("?crash"):
            raise ZeroDivisionError("bug in a custom syntax")
        if not complete and "?crash".startswith(line):
            return Verdict.PENDING
        return Verdict.REJECT

    def describe(self, types: Sequence[BlockType]) -> str:
        return "buggy"


def _buggy() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    registry.register("bug", syntax=BuggySyntax())
    return StreamBlockProcessor(registry, input_adapter=None)


@pytest.mark.parametrize("held", ["", "?cra"])
def test_close_after_a_feed_that_raised_is_safe(held: str) -> None:
    """ "After an error" means a ``feed`` that raised (a bug in a custom syntax, a
    MemoryError...): the session's state is not trusted any more, so it reads nothing
    else; ``close()`` ends the stream with ``stop_reason=error``. Also when the syntax
    raises about a held line start that a token extends (feed's shortcut)."""
    session = _buggy().session()
    session.feed("hello\n!!b1:note\nx\n!!end\n")
    for char in held:
        assert session.feed(char) == []
    with pytest.raises(ZeroDivisionError):
        session.feed("?crash"[len(held) :] + ("" if held else "\n"))
    assert session.broken
    with pytest.raises(SessionClosedError, match="raised"):
        session.feed("more text\n")
    (finish,) = session.close()
    assert finish.type is EventType.STREAM_FINISHED
    assert finish.stop_reason is StopReason.error
    assert finish.error is not None and "raised" in finish.error
    assert session.closed
    with pytest.raises(SessionClosedError):
        session.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_a_driver_lets_a_session_error_out_and_closes_the_source(mode: str) -> None:
    source = Recorder(["a\n", "?crash\n", "b\n", "c\n"])
    seen: list[Any] = []
    with pytest.raises(ZeroDivisionError):
        if mode == "sync":
            seen.extend(_buggy().process(source.sync()))
        else:
            async for event in _buggy().process_stream(source.asynchronous()):
                seen.append(event)
    assert source.closed and source.read == 2
    assert conserved(seen) == "a\n"
