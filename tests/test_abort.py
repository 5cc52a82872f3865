"""Early abort: ``abort_on=`` stops the stream at once, closes the source, and ends with
STREAM_FINISHED(stop_reason=error, error=<cause>)."""

from __future__ import annotations

import pickle
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from streamblocks import (
    BlockRegistry,
    EventType,
    Limits,
    StopReason,
    StreamBlockProcessor,
    XMLTagSyntax,
)
from streamblocks.core.errors import ErrorCode


class Point(BaseModel):
    x: int


def _processor(abort_on: Any, **options: Any) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    registry.register("point", content=Point)
    registry.register("shell", syntax=XMLTagSyntax())
    return StreamBlockProcessor(registry, input_adapter=None, abort_on=abort_on, **options)


TEXT = "intro\n!!p1:point\nx: nope\n!!end\nNEVER SEEN\n!!b2:note\nz\n!!end\n"


class Source:
    def __init__(self, text: str, size: int = 4) -> None:
        self.chunks = [text[i : i + size] for i in range(0, len(text), size)]
        self.read = 0
        self.closed = False

    def sync(self) -> Iterator[str]:
        try:
            for chunk in self.chunks:
                self.read += 1
                yield chunk
        finally:
            self.closed = True

    async def asynchronous(self) -> AsyncIterator[str]:
        try:
            for chunk in self.chunks:
                self.read += 1
                yield chunk
        finally:
            self.closed = True


async def _drive(processor: StreamBlockProcessor, source: Source, mode: str) -> list[Any]:
    if mode == "sync":
        return list(processor.process(source.sync()))
    return [event async for event in processor.process_stream(source.asynchronous())]


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize(
    "abort_on",
    [ErrorCode.VALIDATION_FAILED, "VALIDATION_FAILED", [ErrorCode.TOO_LARGE, "VALIDATION_FAILED"]],
)
async def test_an_error_code_aborts_the_stream_and_closes_the_source(
    abort_on: Any, mode: str
) -> None:
    source = Source(TEXT)
    events = await _drive(_processor(abort_on), source, mode)
    assert source.closed
    closing = TEXT.index("!!end\n") + len("!!end\n")
    assert source.read == -(-closing // 4)  # not one chunk more than needed
    error, finish = events[-2:]
    assert error.type is EventType.BLOCK_ERROR and error.code is ErrorCode.VALIDATION_FAILED
    assert finish.type is EventType.STREAM_FINISHED
    assert finish.stop_reason is StopReason.error
    assert finish.error.startswith("VALIDATION_FAILED in point 'p1'")
    assert not any("NEVER" in getattr(e, "text", "") for e in events)


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_a_predicate_forbids_a_block_type_as_soon_as_it_starts(mode: str) -> None:
    def no_shell(event: Any) -> str | None:
        if event.type is EventType.BLOCK_START and event.block_type == "shell":
            return "the model tried to run a shell command"
        return None

    source = Source("fine text <shell>rm -rf /</shell> and more text after it" * 50, size=3)
    events = await _drive(_processor(no_shell), source, mode)
    assert source.closed and source.read < 10
    start, finish = events[-2:]
    assert start.type is EventType.BLOCK_START and start.block_type == "shell"
    assert finish.error == "the model tried to run a shell command"
    assert finish.stop_reason is StopReason.error


def test_a_limit_can_abort() -> None:
    processor = _processor([ErrorCode.TOO_LARGE], limits=Limits(max_block_chars=64))
    events = list(processor.process(iter(["!!b1:note\n", "y" * 100, "\n!!end\n", "more"])))
    assert events[-2].code is ErrorCode.TOO_LARGE
    assert events[-1].error.startswith("TOO_LARGE")


def test_sans_io_session_reports_aborted_and_ignores_later_input() -> None:
    session = _processor(ErrorCode.VALIDATION_FAILED).session()
    events = session.feed(TEXT)
    assert events[-1].type is EventType.BLOCK_ERROR  # the rest of the chunk is dropped
    assert session.aborted is not None and session.aborted.startswith("VALIDATION_FAILED")
    assert session.feed("more") == []
    (finish,) = session.close()
    assert finish.stop_reason is StopReason.error and finish.error == session.aborted
    assert finish.counts.errors == 1


def test_an_error_at_close_time_marks_the_finish() -> None:
    session = _processor(ErrorCode.UNCLOSED).session()
    session.feed("!!b1:note\nbody")
    error, finish = session.close()
    assert error.code is ErrorCode.UNCLOSED
    assert finish.stop_reason is StopReason.error and finish.error.startswith("UNCLOSED")


def test_without_a_match_the_stream_is_untouched() -> None:
    plain = list(_processor(None).process(["a\n!!b1:note\nx\n!!end\n"]))
    guarded = list(_processor(ErrorCode.TOO_LARGE).process(["a\n!!b1:note\nx\n!!end\n"]))
    assert [e for e in guarded if e.type is not EventType.STREAM_STARTED] == [
        e for e in plain if e.type is not EventType.STREAM_STARTED
    ]
    assert guarded[-1].stop_reason is StopReason.unknown and guarded[-1].error is None


def test_a_raising_predicate_aborts_with_the_reason() -> None:
    def broken(event: Any) -> bool:
        raise RuntimeError("predicate bug")

    events = list(_processor(broken).process(["hello"]))
    assert "predicate bug" in events[-1].error


@pytest.mark.parametrize("bad", ["NOT_A_CODE", 42, [None]])
def test_bad_policies_are_rejected_at_construction(bad: Any) -> None:
    with pytest.raises((ValueError, TypeError)):
        _processor(bad)


def test_an_aborting_session_snapshots_and_restores() -> None:
    processor = _processor(ErrorCode.VALIDATION_FAILED)
    session = processor.session()
    session.feed(TEXT[:20])
    restored = processor.restore(session.snapshot())
    events = restored.feed(TEXT[20:])
    assert restored.aborted is not None and events[-1].type is EventType.BLOCK_ERROR
    assert pickle.loads(pickle.dumps(ErrorCode.VALIDATION_FAILED)) is ErrorCode.VALIDATION_FAILED
