"""A broken input adapter never ends a stream: the event passes through with one
AdapterWarning naming the adapter, and the stream goes on."""

from __future__ import annotations

from typing import Any

import pytest

from streamblocks import AdapterWarning, BlockRegistry, EventType, StreamBlockProcessor
from streamblocks.adapters import EventCategory


class Flaky:
    """Text events are dicts; ``{"bad": method}`` makes ``method`` raise."""

    def categorize(self, event: Any) -> EventCategory:
        if event.get("bad") == "categorize":
            raise KeyError("categorize exploded")
        return EventCategory.TEXT_CONTENT if "text" in event else EventCategory.SKIP

    def extract_text(self, event: Any) -> str:
        if event.get("bad") == "extract_text":
            raise TypeError("extract_text exploded")
        return str(event["text"])

    def stop_reason(self, event: Any) -> Any:
        if event.get("bad") == "stop_reason":
            raise ValueError("stop_reason exploded")
        return None

    def usage(self, event: Any) -> Any:
        if event.get("bad") == "usage":
            raise ValueError("usage exploded")
        return None

    def native_events(self, event: Any) -> Any:
        if event.get("bad") == "native_events":
            raise ValueError("native_events exploded")
        return ()


def _processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    return StreamBlockProcessor(registry, input_adapter=Flaky())


@pytest.mark.parametrize("method", ["categorize", "extract_text"])
def test_an_event_the_adapter_cannot_read_passes_through(method: str) -> None:
    bad = {"text": "lost?", "bad": method}
    source = [{"text": "a\n!!b1:"}, bad, {"text": "note\nx\n!!end\n"}, dict(bad), {"text": "z"}]
    message = r"test_broken_adapters\.Flaky raised .*exploded"
    with pytest.warns(AdapterWarning, match=message) as seen:
        events = list(_processor().process(source))
    assert len(seen) == 1  # once per stream, not once per event
    passed = [e.event for e in events if e.type is EventType.PASSTHROUGH]
    assert passed == [bad, bad]
    assert [e.block.content for e in events if e.type is EventType.BLOCK_END] == ["x\n"]
    assert events[-1].type is EventType.STREAM_FINISHED


@pytest.mark.parametrize("method", ["stop_reason", "usage", "native_events"])
def test_a_raising_optional_method_is_skipped(method: str) -> None:
    source = [{"text": "a "}, {"text": "b", "bad": method}, {"text": " c"}]
    with pytest.warns(AdapterWarning, match=method):
        events = list(_processor().process(source))
    text = "".join(e.text for e in events if e.type is EventType.TEXT_DELTA)
    assert text == "a b c"
