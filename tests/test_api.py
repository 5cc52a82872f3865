"""The public surface: processor drivers, sessions, registry, events."""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from pydantic import BaseModel

import streamblocks
from helpers import blocks, normalise, visible_text
from streamblocks import (
    Block,
    BlockEnd,
    BlockRegistry,
    BlockStart,
    DelimiterPreambleSyntax,
    EventType,
    Limits,
    MarkdownFrontmatterSyntax,
    Passthrough,
    RegistryError,
    SessionClosedError,
    StopReason,
    StreamBlockProcessor,
    StreamFinished,
    StreamStarted,
    TextDelta,
)

TEXT = "a\n!!b1:note\nx\n!!end\nz"


def processor(**options: Any) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    return StreamBlockProcessor(registry, **options)


def test_process_frames_the_stream() -> None:
    events = list(processor().process(["a\n!!b1:no", "te\nx\n!!e", "nd\nz"]))
    assert isinstance(events[0], StreamStarted)
    assert isinstance(events[-1], StreamFinished)
    assert events[-1].counts.blocks == 1
    assert events[-1].counts.chars == len(TEXT)
    assert events[-1].stop_reason is StopReason.unknown
    assert visible_text(events) == "a\nz"


async def test_process_stream_matches_process() -> None:
    async def source() -> AsyncIterator[str]:
        for char in TEXT:
            await asyncio.sleep(0)
            yield char

    got = [e async for e in processor().process_stream(source())]
    assert normalise(got) == normalise(list(processor().process([TEXT])))
    also_sync_iterable = [e async for e in processor().process_stream(list(TEXT))]
    assert normalise(also_sync_iterable) == normalise(got)


def test_one_processor_many_interleaved_sessions() -> None:
    proc = processor()
    first, second = proc.session(), proc.session()
    assert first.stream_id != second.stream_id
    out_a: list[Any] = []
    out_b: list[Any] = []
    for char_a, char_b in zip(TEXT, TEXT.replace("b1", "b2"), strict=True):
        out_a += first.feed(char_a)
        out_b += second.feed(char_b)
    out_a += first.close()
    out_b += second.close()
    assert [b.id for b in blocks(out_a)] == ["b1"]
    assert [b.id for b in blocks(out_b)] == ["b2"]


def test_session_misuse_raises() -> None:
    session = processor().session("s-1")
    assert session.stream_id == "s-1"
    session.close()
    with pytest.raises(SessionClosedError):
        session.feed("x")
    with pytest.raises(SessionClosedError):
        session.close()


def test_close_without_feed_still_frames() -> None:
    events = processor().session().close()
    assert [type(e) for e in events] == [StreamStarted, StreamFinished]


def test_breaking_out_closes_the_source() -> None:
    closed: list[bool] = []

    def source() -> Iterator[str]:
        try:
            yield from ["a\n", "b\n", "c\n"]
        finally:
            closed.append(True)

    for event in processor().process(source()):
        if isinstance(event, TextDelta):
            break
    assert closed == [True]


def test_source_errors_propagate_after_decided_events() -> None:
    def source() -> Iterator[str]:
        yield "hello\n"
        raise ConnectionError("dropped")

    seen: list[Any] = []
    with pytest.raises(ConnectionError):
        for event in processor().process(source()):
            seen.append(event)
    assert visible_text(seen) == "hello\n"


def test_events_are_immutable_typed_and_picklable() -> None:
    event = TextDelta("x")
    assert event.type is EventType.TEXT_DELTA
    with pytest.raises(AttributeError):
        event.text = "y"  # type: ignore[misc]
    assert event == TextDelta("x")
    assert event != StreamStarted("x")
    assert len({event, TextDelta("x")}) == 1
    end = next(e for e in processor().process([TEXT]) if isinstance(e, BlockEnd))
    assert end.block_id == "b1" and end.block_type == "note"
    assert pickle.loads(pickle.dumps(end)) == end
    with pytest.raises(AttributeError):
        end.block.id = "other"  # type: ignore[misc]


def test_every_event_type_has_a_class() -> None:
    names = {cls.__name__ for cls in streamblocks.core.events.EVENT_CLASSES}
    assert len(names) == len(EventType)


def test_identity_adapter_passes_non_text_through() -> None:
    marker = object()
    events = list(processor(input_adapter=None).process(["a", marker, "b"]))
    passthrough = [e for e in events if isinstance(e, Passthrough)]
    assert passthrough == [Passthrough(marker)]
    assert visible_text(events) == "ab"


def test_output_adapter_converts_every_event() -> None:
    class Names:
        def to_protocol_event(self, event: Any) -> list[str]:
            return [event.type.value]

        def passthrough(self, event: Any) -> list[str]:
            return ["raw"]

    out = list(processor(output_adapter=Names(), input_adapter=None).process([TEXT, 1]))
    assert out[0] == "STREAM_STARTED" and out[-1] == "STREAM_FINISHED"
    assert "BLOCK_END" in out and "raw" in out


def test_registry_rejects_bad_declarations() -> None:
    registry = BlockRegistry()
    registry.register("note")
    with pytest.raises(RegistryError):
        registry.register("note")
    with pytest.raises(RegistryError):
        registry.register("")
    with pytest.raises(RegistryError):
        registry.register("x", metadata=dict)  # type: ignore[arg-type]
    with pytest.raises(RegistryError):
        registry.register("y", syntax="preamble")  # type: ignore[arg-type]
    with pytest.raises(RegistryError):
        registry.register("z", transform=42)  # type: ignore[arg-type]
    with pytest.raises(RegistryError):
        StreamBlockProcessor({})  # type: ignore[arg-type]
    assert "note" in registry and len(registry) == 1
    assert registry["note"].marker == "note"


def test_registry_changes_apply_to_later_sessions() -> None:
    registry = BlockRegistry()
    proc = StreamBlockProcessor(registry, input_adapter=None)
    assert not blocks(proc.process([TEXT]))
    registry.register("note")
    assert blocks(proc.process([TEXT]))


def test_equal_syntax_instances_are_one_syntax() -> None:
    registry = BlockRegistry()
    registry.register("a", syntax=DelimiterPreambleSyntax())
    registry.register("b", syntax=DelimiterPreambleSyntax())
    registry.register("c", syntax=MarkdownFrontmatterSyntax())
    plan = registry.syntax_plan(DelimiterPreambleSyntax())
    assert [len(markers) for _, markers in plan] == [2, 1]


def test_limits_are_validated() -> None:
    with pytest.raises(ValueError, match="max_block_chars"):
        Limits(max_block_chars=0)
    assert Limits().max_block_chars == 1_048_576


def test_block_is_frozen_and_carries_offsets() -> None:
    (block,) = blocks(processor().process([TEXT]))
    assert isinstance(block, Block)
    assert TEXT[block.start : block.end] == block.raw


class Meta(BaseModel):
    title: str


def test_system_prompt_lists_types_in_order_with_fields() -> None:
    registry = BlockRegistry()
    registry.register("note", description="A short note.", instructions="Keep it brief.")
    registry.register("silent")
    registry.register("memo", description="A memo.", metadata=Meta)
    prompt = registry.system_prompt()
    assert "`!!<id>:<type>`" in prompt
    assert prompt.index("- note: A short note.\n  Keep it brief.") < prompt.index("- memo: A memo.")
    assert "silent" not in prompt
    assert "title (str)" in prompt


def test_inject_system_prompt_does_not_mutate() -> None:
    registry = BlockRegistry()
    registry.register("note", description="A note.")
    messages = [{"role": "system", "content": "Be nice."}, {"role": "user", "content": "hi"}]
    injected = registry.inject_system_prompt(messages)
    assert messages[0]["content"] == "Be nice."
    assert injected[0]["content"].startswith("Be nice.\n\n")
    assert registry.system_prompt() in injected[0]["content"]
    fresh = registry.inject_system_prompt([{"role": "user", "content": "hi"}])
    assert fresh[0] == {"role": "system", "content": registry.system_prompt()}


def test_block_start_precedes_deltas_in_process_stream() -> None:
    async def collect() -> list[Any]:
        return [e async for e in processor().process_stream(list(TEXT))]

    events = asyncio.run(collect())
    kinds = [e.type for e in events]
    assert kinds.index(EventType.BLOCK_START) < kinds.index(EventType.BLOCK_DELTA)
    assert isinstance(events[kinds.index(EventType.BLOCK_START)], BlockStart)
