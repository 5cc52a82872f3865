"""A provider event whose fields hold odd types never crashes the stream.

The four cases first seen raising out of ``process()`` are replayed with the real SDK
objects; then hypothesis puts odd values (``None``, numbers, lists, dicts, nested shapes)
into any field of any event of every adapter's fixtures, in their wire form.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any

import pytest
from ag_ui import core
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from streamblocks import BlockRegistry, StreamBlockProcessor
from streamblocks.core.errors import AdapterWarning
from streamblocks.core.events import EventType
from streamblocks.ext.agui import AGUIInputAdapter, AGUIOutputAdapter
from streamblocks.ext.anthropic import AnthropicInputAdapter
from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter
from streamblocks.ext.openai import OpenAIInputAdapter

from . import fixtures, test_agui, test_anthropic, test_openai, transcripts
from .sse import REPLY, REPLY_PIECES


def registry() -> BlockRegistry:
    registry = BlockRegistry()
    registry.register("note")
    return registry


def run(adapter: Any, events: list[Any]) -> tuple[list[Any], list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = list(StreamBlockProcessor(registry(), input_adapter=adapter).process(events))
    messages = [str(w.message) for w in caught if issubclass(w.category, AdapterWarning)]
    return out, messages


def stream_text(out: list[Any]) -> str:
    """What the syntaxes were fed, rebuilt from the events (the conservation invariant)."""
    parts = []
    for event in out:
        if event.type is EventType.TEXT_DELTA:
            parts.append(event.text)
        elif event.type is EventType.BLOCK_END and event.block.syntax != "native":
            parts.append(event.block.raw)
        elif event.type is EventType.BLOCK_ERROR and event.block_type not in NATIVE_TYPES:
            parts.append(event.raw)
    return "".join(parts)


NATIVE_TYPES = {"thinking", "tool_call", "tool_result", "command", "code", "file_change", "todo"}
WITHOUT_FIRST = REPLY[len(REPLY_PIECES[0]) :]


# -- the reported cases, with the SDKs' own objects ----------------------------------------


def test_responses_text_delta_that_is_a_number() -> None:
    body = test_openai.responses_body().decode().replace('"delta": "Voil"', '"delta": 1', 1)
    events = fixtures.openai_responses(body.encode())
    bad = next(e for e in events if e.type == "response.output_text.delta")
    assert (type(bad).__name__, bad.delta) == ("ResponseTextDeltaEvent", 1)
    out, messages = run(OpenAIInputAdapter(), events)
    assert stream_text(out) == WITHOUT_FIRST
    assert len(messages) == 1 and "'response.output_text.delta'" in messages[0]
    assert out[-1].type is EventType.STREAM_FINISHED


@pytest.mark.parametrize(
    ("field", "original", "value"),
    [("text", '"text": "Voil"', 5), ("thinking", '"thinking": "Plan: write "', 7)],
)
def test_anthropic_deltas_that_are_numbers(field: str, original: str, value: int) -> None:
    body = test_anthropic.messages_body().decode().replace(original, f'"{field}": {value}', 1)
    events = fixtures.anthropic_messages(body.encode())
    out, messages = run(AnthropicInputAdapter(), events)
    expected = WITHOUT_FIRST if field == "text" else REPLY
    assert stream_text(out) == expected
    assert len(messages) == 1 and "'content_block_delta'" in messages[0]
    if field == "thinking":  # the rest of the thinking is kept
        thinking = next(e.block for e in out if e.type is EventType.BLOCK_END)
        assert thinking.content == "!!b9:note\nsecret\n!!end\n ✓"


def test_agui_text_message_content_that_is_a_number() -> None:
    events = test_agui.run_events()
    index = next(i for i, e in enumerate(events) if e.type == core.EventType.TEXT_MESSAGE_CONTENT)
    events[index] = core.TextMessageContentEvent.model_construct(
        type=core.EventType.TEXT_MESSAGE_CONTENT, message_id="m1", delta=1
    )
    wire = [e.model_dump(mode="json", by_alias=True) for e in test_agui.run_events()]
    wire[index]["delta"] = 1
    for stream in (events, wire):
        out, messages = run(AGUIInputAdapter(), stream)
        assert stream_text(out) == WITHOUT_FIRST
        assert len(messages) == 1 and "TEXT_MESSAGE_CONTENT" in messages[0]
        # and the AG-UI output of the same stream
        with pytest.warns(AdapterWarning):
            agui = list(
                StreamBlockProcessor(registry()).process(stream, output_adapter=AGUIOutputAdapter())
            )
        assert agui[-1].type == core.EventType.RUN_FINISHED


def test_claude_cli_stream_event_with_numeric_text() -> None:
    lines = transcripts.claude_partial_run()
    index, line = next(
        (i, line)
        for i, line in enumerate(lines)
        if line["type"] == "stream_event" and line["event"].get("delta", {}).get("text")
    )
    original = line["event"]["delta"]["text"]
    bad = copy.deepcopy(line)
    bad["event"]["delta"]["text"] = 3
    lines[index] = bad
    base, _ = run(ClaudeCLIInputAdapter(), transcripts.claude_partial_run())
    out, messages = run(ClaudeCLIInputAdapter(), lines)
    assert stream_text(out) == stream_text(base).replace(original, "", 1)
    assert len(messages) == 1 and "'stream_event'" in messages[0]
    # as raw transcript text too (what `streamblocks extract` reads)
    out, _ = run(ClaudeCLIInputAdapter(), [transcripts.jsonl(lines)])
    assert stream_text(out) == stream_text(base).replace(original, "", 1)


# -- any field, any odd value -------------------------------------------------------------


def plain(event: Any) -> Any:
    """An event in its wire form (plain JSON data)."""
    dump = getattr(event, "model_dump", None)
    if dump is not None:
        return dump(mode="json", by_alias=True, exclude_none=True)
    return copy.deepcopy(event)


ODD = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.just(""),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)


def replace_at(data: st.DataObject, event: Any, value: Any) -> tuple[Any, Any]:
    """``event`` with the value at a path drawn step by step replaced; returns the new
    event and the value that was there."""
    event = copy.deepcopy(event)
    holder, key = None, None
    node = event
    while isinstance(node, (dict, list)) and node:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = data.draw(st.sampled_from(keys))
        holder, node = node, node[key]
        if not data.draw(st.booleans()):
            break
    if holder is None:
        return value, event
    holder[key] = value
    return event, node


@pytest.mark.parametrize("name", fixtures.NAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=ODD)
def test_odd_values_in_any_field_never_crash_the_stream(
    name: str, data: st.DataObject, value: Any
) -> None:
    fixture = fixtures.fixture(name)
    events = [plain(event) for event in fixture.events]
    index = data.draw(st.integers(0, len(events) - 1))
    events[index], _ = replace_at(data, events[index], value)
    out, _ = run(fixture.adapter(), events)
    kinds = [event.type for event in out]
    assert kinds[0] is EventType.STREAM_STARTED
    assert kinds.count(EventType.STREAM_FINISHED) == 1 and kinds[-1] is EventType.STREAM_FINISHED
    assert len(stream_text(out)) == out[-1].counts.chars
    agui = AGUIOutputAdapter().for_stream()
    for event in out:
        if event.type is EventType.PASSTHROUGH:
            agui.passthrough(event.event)
        else:
            agui.to_protocol_event(event)


TEXT_FIELDS: dict[str, tuple[Any, ...]] = {
    "openai-chat": ("choices", 0, "delta", "content"),
    "openai-responses": ("delta",),
    "anthropic": ("delta", "text"),
    "gemini": ("candidates", 0, "content", "parts", 0, "text"),
    "agui": ("delta",),
    "claude-tools": ("message", "content", 0, "text"),
    "claude-partial": ("event", "delta", "text"),
    "claude-error": ("message", "content", 0, "text"),
    "codex": ("item", "text"),
    "codex-legacy": ("item", "text"),
}


def text_at(event: Any, path: tuple[Any, ...]) -> tuple[Any, Any] | None:
    node = event
    for key in path[:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return None
    if isinstance(node, (dict, list)):
        try:
            found = node[path[-1]]
        except (KeyError, IndexError, TypeError):
            return None
        return (node, found) if isinstance(found, str) and found else None
    return None


def lost_only_from(base: str, got: str, original: str) -> bool:
    """Whether ``got`` is ``base`` less one run of characters found in ``original``."""
    cut = len(base) - len(got)
    if cut < 0:
        return False
    for start in range(len(got) + 1):
        if base[:start] != got[:start]:
            break
        if base[start + cut :] == got[start:] and base[start : start + cut] in original:
            return True
    return False


@pytest.mark.parametrize("name", fixtures.NAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=ODD.filter(lambda v: not isinstance(v, str)))
def test_an_odd_text_field_loses_only_its_own_text(
    name: str, data: st.DataObject, value: Any
) -> None:
    fixture = fixtures.fixture(name)
    events = [plain(event) for event in fixture.events]
    path = TEXT_FIELDS[name]
    candidates = [i for i, event in enumerate(events) if text_at(event, path) is not None]
    assert candidates, name
    index = data.draw(st.sampled_from(candidates))
    base = stream_text(run(fixture.adapter(), events)[0])
    holder, original = text_at(events[index], path)  # type: ignore[misc]
    holder[path[-1]] = value
    out, _ = run(fixture.adapter(), events)
    got = stream_text(out)
    # Only (a part of) the odd value's own text may be missing: nothing else is lost.
    assert lost_only_from(base, got, original), (base, got, original)
    assert out[-1].type is EventType.STREAM_FINISHED
