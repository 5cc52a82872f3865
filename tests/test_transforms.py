"""Delta transforms: order, flush cascade, per-stream instances, failures."""

from __future__ import annotations

from typing import Any

import pytest

from helpers import run
from streamblocks import (
    BlockRegistry,
    DeltaTransform,
    HookWarning,
    StreamBlockProcessor,
    StreamFinished,
    TextDelta,
    XMLTagSyntax,
    compose_transforms,
)


class Tag:
    """Appends its mark to every text delta; on flush emits one delta with its mark."""

    def __init__(self, mark: str, log: list[str]) -> None:
        self.mark = mark
        self.log = log

    def process(self, event: Any) -> list[Any]:
        if isinstance(event, TextDelta):
            self.log.append(f"{self.mark}.process({event.text})")
            return [TextDelta(event.text + self.mark)]
        return [event]

    def flush(self) -> list[Any]:
        self.log.append(f"{self.mark}.flush")
        return [TextDelta(f"<{self.mark}>")]


class Buffer:
    """Holds all text until the end (stateful: one instance per stream)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def for_stream(self) -> Buffer:
        return Buffer()

    def process(self, event: Any) -> list[Any]:
        if isinstance(event, TextDelta):
            self.parts.append(event.text)
            return []
        return [event]

    def flush(self) -> list[Any]:
        return [TextDelta("".join(self.parts).upper())] if self.parts else []


def texts(events: list[Any]) -> list[str]:
    return [e.text for e in events if isinstance(e, TextDelta)]


def make(*transforms: Any) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note", syntax=XMLTagSyntax())
    return StreamBlockProcessor(registry, input_adapter=None, transforms=transforms)


def test_protocol() -> None:
    assert isinstance(Buffer(), DeltaTransform)
    assert isinstance(compose_transforms(Buffer()), DeltaTransform)


def test_applied_in_order_after_extraction() -> None:
    log: list[str] = []
    events = run(make(Tag("a", log), Tag("b", log)), ["x<note>n</note>y"])
    assert texts(events) == ["xab", "yab", "<a>b", "<b>"]
    assert log == [
        "a.process(x)",
        "b.process(xa)",
        "a.process(y)",
        "b.process(ya)",
        "a.flush",
        "b.process(<a>)",
        "b.flush",
    ]
    assert isinstance(events[-1], StreamFinished)


def test_flush_cascades_through_downstream_process() -> None:
    log: list[str] = []
    events = run(make(Buffer(), Tag("t", log)), ["he", "llo"])
    assert texts(events) == ["HELLOt", "<t>"]
    assert log == ["t.process(HELLO)", "t.flush"]


def test_compose_is_the_same_as_a_list_and_flattens() -> None:
    log1: list[str] = []
    log2: list[str] = []
    one = run(make(compose_transforms(Tag("a", log1), compose_transforms(Tag("b", log1)))), ["x"])
    two = run(make(Tag("a", log2), Tag("b", log2)), ["x"])
    assert texts(one) == texts(two)
    assert log1 == log2
    assert len(compose_transforms(Tag("a", []), compose_transforms(Tag("b", []))).stages) == 2


def test_state_is_per_stream() -> None:
    proc = make(Buffer())
    first, second = proc.session(), proc.session()
    first.feed("one ")
    second.feed("two ")
    assert texts(first.close()) == ["ONE "]
    assert texts(second.close()) == ["TWO "]


def test_blocks_pass_through() -> None:
    events = run(make(Buffer()), ["a<note>n</note>b"])
    assert [e.type.value for e in events] == [
        "STREAM_STARTED",
        "BLOCK_START",
        "BLOCK_DELTA",
        "BLOCK_END",
        "TEXT_DELTA",
        "STREAM_FINISHED",
    ]


def test_not_a_transform() -> None:
    with pytest.raises(TypeError):
        compose_transforms(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        make(object())


class Broken:
    def process(self, event: Any) -> list[Any]:
        raise RuntimeError("boom")

    def flush(self) -> list[Any]:
        raise RuntimeError("boom")


def test_a_raising_transform_warns_and_passes_events_on() -> None:
    with pytest.warns(HookWarning, match="boom"):
        events = run(make(Broken()), ["abc"])
    assert texts(events) == ["abc"]
    assert isinstance(events[-1], StreamFinished)


async def test_async_driver_applies_transforms() -> None:
    async def source() -> Any:
        for chunk in ["ab", "c"]:
            yield chunk

    events = [e async for e in make(Buffer()).process_stream(source())]
    assert texts(events) == ["ABC"]
