"""The optional adapter hooks added for framed input and error messages, and per-stream
output adapters."""

from __future__ import annotations

from typing import Any

from streamblocks import BlockRegistry, StopReason, StreamBlockProcessor, StreamFinished
from streamblocks.adapters import EventCategory


class Pipes:
    """Reads "a|b|" text: each ``|``-terminated piece is one event; ``!x`` is an error."""

    def __init__(self) -> None:
        self.held = ""

    def for_stream(self) -> Pipes:
        return Pipes()

    def frames(self, item: str) -> list[str]:
        *done, self.held = (self.held + item).split("|")
        return done

    def end_frames(self) -> list[str]:
        held, self.held = self.held, ""
        return [held] if held else []

    def categorize(self, event: str) -> EventCategory:
        return EventCategory.SKIP if event.startswith("!") else EventCategory.TEXT_CONTENT

    def extract_text(self, event: str) -> str:
        return event

    def stop_reason(self, event: str) -> StopReason | None:
        if event.startswith("!"):
            return StopReason.error
        return StopReason.end_turn if event == "." else None

    def error(self, event: str) -> str | None:
        return event[1:] if event.startswith("!") else None


def processor(**kwargs: Any) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    return StreamBlockProcessor(registry, input_adapter=Pipes(), **kwargs)


def text(events: list[Any]) -> str:
    return "".join(e.text for e in events if e.type == "TEXT_DELTA")


def test_frames_cut_raw_input_into_events() -> None:
    events = list(processor().process(["he", "llo|\n!!n1:no", "te\nx\n!!end\n|.|ta", "il"]))
    assert text(events) == "hello\n.tail"
    assert [e.block.content for e in events if e.type == "BLOCK_END"] == ["x\n"]
    assert events[-1].stop_reason is StopReason.end_turn


def test_error_message_lands_in_stream_finished() -> None:
    events = list(processor().process(["hi|!model overloaded|"]))
    finished = events[-1]
    assert isinstance(finished, StreamFinished)
    assert (finished.stop_reason, finished.error) == (StopReason.error, "model overloaded")
    # A later success clears it: the message belongs to the error that ended the stream.
    events = list(processor().process(["!retrying|ok|.|"]))
    assert (events[-1].stop_reason, events[-1].error) == (StopReason.end_turn, None)


class Counting:
    """An output adapter counting the streams it was made for."""

    made = 0

    def __init__(self, stream: int = 0) -> None:
        self.stream = stream

    def for_stream(self) -> Counting:
        Counting.made += 1
        return Counting(Counting.made)

    def to_protocol_event(self, event: Any) -> list[Any]:
        return [(self.stream, event.type.value)]

    def passthrough(self, event: Any) -> list[Any]:
        return []


async def test_output_adapter_for_stream_per_stream_and_per_call() -> None:
    Counting.made = 0
    shared = processor(output_adapter=Counting())
    first = list(shared.process(["a|"]))
    second = [e async for e in shared.process_stream(_items(["b|"]))]
    assert {s for s, _ in first} == {1} and {s for s, _ in second} == {2}
    other = list(shared.process(["c|"], output_adapter=Counting()))
    assert {s for s, _ in other} == {3}
    assert [kind for _, kind in other] == ["STREAM_STARTED", "TEXT_DELTA", "STREAM_FINISHED"]


async def _items(items: list[str]) -> Any:
    for item in items:
        yield item
