"""The viewer's AG-UI events made as wire dicts: the bytes the SDK's models give."""

from __future__ import annotations

import json
from typing import Any

import pytest
from ag_ui import core
from ag_ui.encoder import EventEncoder
from hypothesis import assume, given
from hypothesis import strategies as st

from adapters import test_agui
from adapters import transcripts as t
from adapters.rollout_lines import codex_rollout_run
from adapters.test_agui_output import TEXT, chunks, registry
from streamblocks import StreamBlockProcessor
from streamblocks.cli import default_registry
from streamblocks.ext.agui import AGUIOutputAdapter, agui_events
from streamblocks.ext.agui.sse import event_json
from streamblocks.view.wire import WireAdapter, custom_event, encode, wire_core

from . import fixtures


def _ours(name: str) -> list[Any]:
    """Our events for one input of every kind the viewer shows."""
    blocks = StreamBlockProcessor(registry())
    transcripts = StreamBlockProcessor(default_registry(), unknown="block")
    inputs: dict[str, Any] = {
        "text, blocks, gadgets and a rejected block": lambda: blocks.process(chunks(TEXT)),
        "custom blocks with metadata": lambda: transcripts.process([fixtures.CUSTOM_TEXT]),
        "Claude, streamed: thinking, tools, raw events, usage": lambda: transcripts.process(
            t.claude_partial_run()
        ),
        "Claude: tools and a failed result": lambda: transcripts.process(t.claude_tool_run()),
        "Claude: the run failed": lambda: transcripts.process(t.claude_error_run()),
        "Codex: commands, file changes, todos": lambda: transcripts.process(t.codex_run()),
        "Codex session file: patches, plans, interrupted": lambda: transcripts.process(
            codex_rollout_run()
        ),
        "AG-UI input passed through": lambda: transcripts.process(test_agui.run_events()),
        "sub-agents, two levels": fixtures.subagent_events,
    }
    return list(inputs[name]())


NAMES = [
    "text, blocks, gadgets and a rejected block",
    "custom blocks with metadata",
    "Claude, streamed: thinking, tools, raw events, usage",
    "Claude: tools and a failed result",
    "Claude: the run failed",
    "Codex: commands, file changes, todos",
    "Codex session file: patches, plans, interrupted",
    "AG-UI input passed through",
    "sub-agents, two levels",
]


@pytest.mark.parametrize("name", NAMES)
def test_the_wire_events_are_the_sdk_s_bytes(name: str) -> None:
    ours = _ours(name)
    sdk = agui_events(ours, AGUIOutputAdapter())
    wire = agui_events(ours, WireAdapter())
    assert [encode(event) for event in wire] == [event_json(event) for event in sdk]
    assert [EventEncoder().encode(event)[len("data: ") : -2] for event in sdk] == [
        event_json(event) for event in sdk
    ]  # what the SDK's EventEncoder writes
    # made without the SDK's models, except what an AG-UI input passed through
    made = [event for event in wire if not isinstance(event, core.BaseEvent)]
    assert all(type(event) is dict for event in made)
    if name != "AG-UI input passed through":
        assert len(made) == len(wire)


def test_every_kind_of_event_is_compared() -> None:
    kinds = set()
    for name in NAMES:
        for event in agui_events(_ours(name), WireAdapter()):
            wired = event if type(event) is dict else event.model_dump(by_alias=True)
            kinds.add(str(wired.get("name") or wired["type"]).removeprefix("EventType."))
    assert {
        "RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "RAW",
        "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
        "REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END", "REASONING_END",
        "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT",
        "streamblocks.block_start", "streamblocks.block_metadata",
        "streamblocks.block_delta", "streamblocks.block_end", "streamblocks.block_error",
    } <= kinds  # fmt: skip


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(text=st.text(min_size=1), ident=st.text(), value=JSON, source=st.none() | st.text())
def test_any_text_and_value_is_written_as_the_sdk_writes_it(
    text: str, ident: str, value: Any, source: str | None
) -> None:
    # (an SDK before 1.0 leaves out even a required field that is null: RAW's `event`)
    assume(value is not None or hasattr(core, "PROTOCOL_VERSION"))
    wire = wire_core()
    made = [
        ("TextMessageContentEvent", {"message_id": ident, "delta": text}),
        ("ReasoningMessageContentEvent", {"message_id": ident, "delta": text}),
        ("ToolCallArgsEvent", {"tool_call_id": ident, "delta": text}),
        ("ToolCallResultEvent", {"message_id": ident, "tool_call_id": ident, "content": text}),
        ("ToolCallStartEvent", {"tool_call_id": ident, "tool_call_name": text}),
        ("RawEvent", {"event": value, "source": source}),
        ("CustomEvent", {"name": text, "value": value}),
        ("RunErrorEvent", {"message": text, "code": source}),
        ("TextMessageChunkEvent", {"message_id": ident, "role": "assistant", "delta": text}),
        ("ReasoningMessageChunkEvent", {"message_id": ident, "delta": text}),
        (
            "ToolCallChunkEvent",
            {
                "tool_call_id": ident,
                "tool_call_name": text,
                "parent_message_id": source,
                "delta": source,
            },
        ),
    ]
    for cls, fields in made:
        assert encode(getattr(wire, cls)(**fields)) == event_json(getattr(core, cls)(**fields))
    assert encode(custom_event(text, value)) == event_json(core.CustomEvent(name=text, value=value))


def test_a_field_the_event_does_not_have_is_an_error_not_written() -> None:
    with pytest.raises(TypeError, match="mesage"):
        wire_core().TextMessageEndEvent(message_id="m", mesage="typo")


@pytest.mark.parametrize("name", NAMES)
def test_the_viewer_s_block_end_is_the_block_less_its_raw_text_and_offsets(name: str) -> None:
    ours = _ours(name)
    full = [encode(event) for event in agui_events(ours, WireAdapter())]
    lean = [encode(event) for event in agui_events(ours, WireAdapter(lean=True))]
    # and without the signatures (REASONING_ENCRYPTED_VALUE): nothing a page shows
    full = [sent for sent in full if '"REASONING_ENCRYPTED_VALUE"' not in sent]
    assert not any('"REASONING_ENCRYPTED_VALUE"' in sent for sent in lean)
    assert len(lean) == len(full)
    for sent, whole in zip(lean, full, strict=True):
        sent_event, whole_event = json.loads(sent), json.loads(whole)
        if whole_event.get("name") != "streamblocks.block_end":
            assert sent == whole
            continue
        block, value = whole_event["value"], sent_event["value"]
        said = block["metadata"] not in (None, {}) and any(
            key not in ("id", "block_type") and not (key == "params" and item == [])
            for key, item in block["metadata"].items()
        )
        kept = ["id", "type", "syntax", *(["metadata"] if said else []), "content", "attrs"]
        assert value == {key: block[key] for key in kept}
        assert list(value) == kept


def test_metadata_that_says_more_than_the_id_and_type_is_sent() -> None:
    events = _ours("custom blocks with metadata")
    ends = [
        json.loads(encode(event))["value"]
        for event in agui_events(events, WireAdapter(lean=True))
        if "block_end" in encode(event)
    ]
    assert any(value.get("metadata", {}).get("owner") == "ana" for value in ends)
    assert any("metadata" not in value for value in ends)
