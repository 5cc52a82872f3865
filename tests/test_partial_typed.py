"""Typed partials: ``partial_model``, ``partial_view``, ``Tools.partial`` and
``collect(..., output=Model, on_partial=fn)``."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field, ValidationError

from streamblocks import (
    FINISH_TOOL,
    BlockDelta,
    BlockRegistry,
    StreamBlockProcessor,
    Tools,
    acollect,
    collect,
)
from streamblocks.partial import partial_model, partial_view
from streamblocks.testing import MockProvider, MockReply, MockToolCall


class Stop(BaseModel):
    name: str = Field(min_length=4)
    unit: Literal["celsius", "fahrenheit"]


class Trip(BaseModel):
    title: str
    days: int
    stops: list[Stop]
    by_day: dict[str, Stop] = {}


def deltas(arguments: Any, name: str = "f", chunk_size: int = 1) -> list[BlockDelta]:
    call = MockToolCall(name, arguments)
    mock = MockProvider([MockReply(tool_calls=[call])], provider="openai", chunk_size=chunk_size)
    events = StreamBlockProcessor(BlockRegistry()).process(mock.stream())
    return [e for e in events if isinstance(e, BlockDelta)]


def test_partial_model_makes_every_field_optional_nested_too() -> None:
    partial = partial_model(Trip)
    assert partial is partial_model(Trip)  # cached
    empty = partial.model_validate({})
    assert empty.model_dump() == {"title": None, "days": None, "stops": None, "by_day": None}
    one = partial.model_validate({"stops": [{"name": "Lyon"}], "by_day": {"1": {}}})
    assert one.stops[0].unit is None and one.by_day["1"].name is None  # type: ignore[attr-defined]
    assert type(one.stops[0]).__name__ == "PartialStop"  # type: ignore[attr-defined]


GOOD = {
    "title": "Tour",
    "days": 3,
    "stops": [{"name": "Lyon", "unit": "celsius"}, {"name": "Nice", "unit": "fahrenheit"}],
}


def test_unfinished_values_never_fail() -> None:
    views = [partial_view(Trip, d) for d in deltas(GOOD)]
    # 'celsius' half written is not a Literal yet, 'Ly' is shorter than min_length:
    # both are merely unfinished, and left out while they are
    assert all(v is not None for v in views)
    assert views[-1] == partial_model(Trip).model_validate(GOOD)
    names = [v.stops[0].name for v in views if v.stops]  # type: ignore[attr-defined]
    assert names[0] is None and "Lyon" in names


def test_a_complete_wrong_value_is_a_validation_error() -> None:
    wrong = {"title": "Tour", "days": "three", "stops": []}
    views = []
    with pytest.raises(ValidationError) as caught:
        for delta in deltas(wrong):
            views.append(partial_view(Trip, delta))
    assert caught.value.errors()[0]["loc"] == ("days",)
    assert views[-1].title == "Tour"  # type: ignore[union-attr]  # fine up to then
    # a bare value says not which part is unfinished: the last member is forgiven
    assert partial_view(Trip, {"title": "Tour", "days": "thr"}).days is None  # type: ignore[union-attr]
    with pytest.raises(ValidationError):
        partial_view(Trip, {"days": "three", "title": "T"})


def test_tools_partial_types_a_call_by_its_signature() -> None:
    def write_file(path: str, content: str, mode: int = 0o644) -> str:
        """Write a file."""
        return path

    tools = Tools([write_file])
    arguments = {"path": "notes/today.md", "content": "x" * 40, "mode": 420}
    views = [tools.partial("write_file", d) for d in deltas(arguments, "write_file", 3)]
    known = next(v for v in views if v is not None and v.path == "notes/today.md")  # type: ignore[attr-defined]
    assert known.content is None or len(known.content) < 40  # type: ignore[attr-defined]
    assert views[-1].model_dump() == arguments  # type: ignore[union-attr]


@pytest.mark.parametrize("provider", ["openai", "anthropic", "openai-responses", "agui"])
def test_collect_on_partial_sees_the_output_grow(provider: str) -> None:
    reply = MockReply(tool_calls=[MockToolCall(FINISH_TOOL, GOOD)])
    seen: list[Any] = []
    stream = MockProvider([reply], provider=provider, chunk_size=5).stream()
    step = collect(stream, output=Trip, on_partial=seen.append)
    assert step.output == Trip.model_validate(GOOD)
    assert len(seen) > 3 and type(seen[0]).__name__ == "PartialTrip"
    assert seen[-1].model_dump() == GOOD | {"by_day": None}
    assert len({repr(v) for v in seen}) == len(seen)  # called when it grew, not per delta


async def test_acollect_on_partial_and_a_wrong_output() -> None:
    seen: list[Any] = []

    async def on_partial(view: Any) -> None:
        seen.append(view)

    wrong = {"title": "Tour", "days": "three", "stops": []}
    reply = MockReply(tool_calls=[MockToolCall(FINISH_TOOL, wrong)])
    stream = MockProvider([reply], provider="anthropic", chunk_size=4).stream()
    step = await acollect(stream, output=Trip, on_partial=on_partial)
    assert step.output is None and step.output_error is not None
    assert seen and all(v.days is None for v in seen)  # stopped once found wrong


def test_other_calls_do_not_reach_on_partial() -> None:
    reply = MockReply(tool_calls=[MockToolCall("search", {"q": "x"})])
    seen: list[Any] = []
    collect(MockProvider([reply]).stream(), output=Trip, on_partial=seen.append)
    assert seen == []


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "gemini"])
def test_collect_on_partial_in_native_json_mode(provider: str) -> None:
    # The provider's JSON mode (request(..., native_output=True)): the output is the
    # reply's text, and it grows in on_partial as a finish call's arguments do.
    import json

    from streamblocks import request
    from streamblocks.content import Message

    seen: list[Any] = []
    mock = MockProvider(["\n" + json.dumps(GOOD)], provider=provider, chunk_size=4)
    kw = request([Message.user("plan")], provider=provider, output=Trip, native_output=True)
    step = collect(mock.stream(**kw), output=Trip, on_partial=seen.append)
    assert step.output == Trip.model_validate(GOOD)
    assert len(seen) > 3 and type(seen[0]).__name__ == "PartialTrip"
    assert seen[-1].model_dump() == GOOD | {"by_day": None}
    assert len({repr(v) for v in seen}) == len(seen)
    titles = [v.title for v in seen]
    assert titles[0] != "Tour" and "Tour" in titles  # seen while it was written


def test_native_json_mode_partials_stop_at_what_is_not_the_output() -> None:
    seen: list[Any] = []
    prose = MockProvider(["The trip: {not json"], provider="openai", chunk_size=3)
    step = collect(prose.stream(), output=Trip, on_partial=seen.append)
    assert seen == [] and step.output is None
    wrong = MockProvider(['{"title": "T", "days": "three", "stops": []}'], provider="openai")
    step = collect(wrong.stream(), output=Trip, on_partial=seen.append)
    assert [v.title for v in seen][-1] == "T" and all(v.days is None for v in seen)
    assert step.output_error is not None
