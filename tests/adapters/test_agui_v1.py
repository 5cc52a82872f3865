"""AG-UI 1.0, both ways: ``protocol_version``, sub-agents as ``SUBAGENT_*`` events,
thinking signatures and redacted thinking as ``REASONING_ENCRYPTED_VALUE``, the run's
outcome — built with the SDK's own models, verified by the official ``@ag-ui/client``, read
back by the input adapter, and kept through a round trip out → in → out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ag_ui import core
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from streamblocks import BlockRegistry, GadgetSyntax, StreamBlockProcessor, collect
from streamblocks.content import ThinkingBlock
from streamblocks.ext.agui import AGUIInputAdapter, AGUIOutputAdapter, sse_body
from streamblocks.testing import run_adapter

from . import subagent_transcripts as sub
from .test_agui_output import agui_client, check_framing, client_run  # noqa: F401

EVENT = TypeAdapter(core.Event)
V1 = hasattr(core, "SubagentStartedEvent")  # ag-ui-protocol 1.0 or newer
needs_1_0 = pytest.mark.skipif(not V1, reason="AG-UI 1.0 events need ag-ui-protocol 1.0")


def processor(**kwargs: Any) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    registry.register("Search", syntax=GadgetSyntax())
    return StreamBlockProcessor(registry, **kwargs)


def out(source: list[Any], **options: Any) -> list[Any]:
    """``source`` processed, as AG-UI events (real ``ag_ui.core`` models)."""
    return list(processor(output_adapter=AGUIOutputAdapter(**options)).process(source))


def wire(events: list[Any]) -> list[dict[str, Any]]:
    """The events as a client receives them: each one's JSON, parsed."""
    return [json.loads(e.model_dump_json(by_alias=True)) for e in events]


def kinds(events: list[Any]) -> list[str]:
    return [e.type.value for e in events]


def subagent_view(events: list[Any]) -> list[tuple[Any, ...]]:
    """What the events say about sub-agents: starts, ends and each one's events."""
    seen: list[tuple[Any, ...]] = []
    for e in events:
        kind = e.type.value
        if kind == "SUBAGENT_STARTED":
            seen.append(
                (kind, e.subagent_run_id, e.name, e.parent_tool_call_id, e.parent_subagent_run_id)
            )
        elif "CONTENT" not in kind and getattr(e, "subagent_run_id", None) is not None:
            seen.append((kind, e.subagent_run_id))
    return seen


# ---------------------------------------------------------------------------- out


@needs_1_0
def test_a_claude_sub_agent_run_goes_out_as_1_0_events() -> None:
    events = out(sub.claude_subagent_run())
    check_framing(events)
    assert events[0].protocol_version == core.PROTOCOL_VERSION == "1.0"
    starts = [e for e in events if e.type == core.EventType.SUBAGENT_STARTED]
    assert [
        (e.subagent_run_id, e.parent_tool_call_id, e.parent_subagent_run_id) for e in starts
    ] == [
        (sub.TASK_1, sub.TASK_1, None),
        (sub.TASK_2, sub.TASK_2, sub.TASK_1),  # started by a call the first one made
    ]
    ends = [e for e in events if e.type == core.EventType.SUBAGENT_FINISHED]
    assert [e.subagent_run_id for e in ends] == [sub.TASK_2, sub.TASK_1]
    # each one's events, and nothing of it as the run's own
    active: set[str] = set()
    for e in events:
        if e.type == core.EventType.SUBAGENT_STARTED:
            active.add(e.subagent_run_id)
        elif e.type == core.EventType.SUBAGENT_FINISHED:
            active.discard(e.subagent_run_id)
        elif getattr(e, "subagent_run_id", None) is not None:
            assert e.subagent_run_id in active
    run_text = "".join(
        e.delta
        for e in events
        if e.type == core.EventType.TEXT_MESSAGE_CONTENT and e.subagent_run_id is None
    )
    assert run_text == "".join(sub.MAIN_TEXT)
    sub_text = [
        e.delta
        for e in events
        if e.type == core.EventType.TEXT_MESSAGE_CONTENT and e.subagent_run_id == sub.TASK_1
    ]
    assert sub_text == sub.SUB_TEXT
    signed = [e for e in events if e.type == core.EventType.REASONING_ENCRYPTED_VALUE]
    assert [(e.subtype, e.encrypted_value, e.subagent_run_id) for e in signed] == [
        ("message", "sig_s1", sub.TASK_1)
    ]
    assert not any(kind.startswith("THINKING") for kind in kinds(events))
    finished = events[-1]
    assert finished.outcome == core.RunFinishedSuccessOutcome()  # every call answered


@needs_1_0
def test_the_official_client_verifies_sub_agents(agui_client: Path, tmp_path: Path) -> None:  # noqa: F811
    body = b"".join(sse_body(processor(), sub.claude_subagent_partial_run(), binary=True))
    got = client_run(agui_client, body, tmp_path, chunk=3)
    assert "verifyError" not in got and "agentError" not in got, got
    assert "SUBAGENT_STARTED" in got["agentEvents"]
    owners = {m["id"]: m.get("subagentRunId") for m in got["newMessages"]}
    reasoning = [m for m in got["newMessages"] if m["role"] == "reasoning"]
    assert [(m["content"], m["encryptedValue"], m["subagentRunId"]) for m in reasoning] == [
        (sub.SUB_THINKING, "sig_s1", sub.TASK_1)
    ]
    texts = {m["content"]: owners[m["id"]] for m in got["newMessages"] if m["role"] == "assistant"}
    assert texts[sub.SUB_TEXT[0]] == sub.TASK_1
    assert texts[sub.NESTED_TEXT[0]] == sub.TASK_2
    assert texts[sub.MAIN_TEXT[1]] is None


@needs_1_0
def test_outcome_names_the_calls_left_to_run() -> None:
    call = "Looking.\n!!!GADGET_START:Search\n!!!ARG:query\ncats\n!!!GADGET_END\n"
    finished = out([call])[-1]
    pending = finished.outcome.pending_tool_call_ids
    assert pending is not None and len(pending) == 1
    started = next(e for e in out([call]) if e.type == core.EventType.TOOL_CALL_START)
    assert pending == [started.tool_call_id]
    assert out(["no calls"])[-1].outcome.pending_tool_call_ids is None
    # answered in the stream (Claude Code ran it): nothing left
    assert out(sub.claude_subagent_run())[-1].outcome.pending_tool_call_ids is None


@needs_1_0
def test_redacted_thinking_is_an_encrypted_value() -> None:
    redacted = {"type": "content_block_start", "index": 0}
    redacted["content_block"] = {"type": "redacted_thinking", "data": "ENCRYPTED=="}
    stream = [
        {"type": "message_start", "message": {"id": "m", "role": "assistant", "content": []}},
        redacted,
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {}},
        {"type": "message_stop"},
    ]
    events = out(stream)
    check_framing(events)
    value = next(e for e in events if e.type == core.EventType.REASONING_ENCRYPTED_VALUE)
    assert (value.subtype, value.encrypted_value) == ("message", "ENCRYPTED==")
    assert value.metadata == {"streamblocks": {"redacted": True}}
    # read back: redacted thinking again, to go back to Anthropic unchanged
    step = collect(wire(events), processor=processor())
    thinking = [b for b in step.message.content if isinstance(b, ThinkingBlock)]
    assert [(b.text, b.redacted, b.signature) for b in thinking] == [("", "ENCRYPTED==", None)]


def test_the_older_shape_when_asked() -> None:
    events = out(sub.claude_subagent_run(), protocol="0.1")
    check_framing(events)
    got = kinds(events)
    assert getattr(events[0], "protocol_version", None) is None
    assert events[-1].outcome is None
    assert not any(k.startswith("SUBAGENT") or k == "REASONING_ENCRYPTED_VALUE" for k in got)
    assert all(getattr(e, "subagent_run_id", None) is None for e in events)
    starts = [e.value for e in events if getattr(e, "name", "") == "streamblocks.block_start"]
    assert {v["attrs"].get("parent_id") for v in starts if v["block_type"] == "text"} == {
        sub.TASK_1,
        sub.TASK_2,
    }
    with pytest.raises(ValueError, match="unknown AG-UI protocol"):
        AGUIOutputAdapter(protocol="2.0")
    assert AGUIOutputAdapter().protocol == ("1.0" if V1 else "0.1")  # the SDK's newest
    if not V1:
        with pytest.raises(ValueError, match=r"needs ag-ui-protocol 1\.0"):
            AGUIOutputAdapter(protocol="1.0")


# ----------------------------------------------------------------------------- in


@needs_1_0
def test_1_0_events_in_become_nested_blocks_and_signatures() -> None:
    events = [
        core.RunStartedEvent(thread_id="t", run_id="r", protocol_version="1.0"),
        core.ToolCallStartEvent(tool_call_id="call_a", tool_call_name="research"),
        core.ToolCallArgsEvent(tool_call_id="call_a", delta='{"topic": "bees"}'),
        core.ToolCallEndEvent(tool_call_id="call_a"),
        core.SubagentStartedEvent(
            subagent_run_id="run_a", name="researcher", parent_tool_call_id="call_a"
        ),
        core.ReasoningStartEvent(message_id="r1", subagent_run_id="run_a"),
        core.ReasoningMessageStartEvent(message_id="r1", role="reasoning", subagent_run_id="run_a"),
        core.ReasoningMessageContentEvent(message_id="r1", delta="hm", subagent_run_id="run_a"),
        core.ReasoningMessageEndEvent(message_id="r1", subagent_run_id="run_a"),
        core.ReasoningEncryptedValueEvent(  # after the message's end, inside its span
            subtype="message", entity_id="r1", encrypted_value="SIG", subagent_run_id="run_a"
        ),
        core.ReasoningEndEvent(message_id="r1", subagent_run_id="run_a"),
        core.TextMessageStartEvent(message_id="t1", subagent_run_id="run_a"),
        core.TextMessageContentEvent(message_id="t1", delta="bees ", subagent_run_id="run_a"),
        core.TextMessageContentEvent(message_id="t1", delta="dance", subagent_run_id="run_a"),
        core.TextMessageEndEvent(message_id="t1", subagent_run_id="run_a"),
        core.ToolCallStartEvent(tool_call_id="c2", tool_call_name="fetch", subagent_run_id="run_a"),
        core.ToolCallEndEvent(tool_call_id="c2", subagent_run_id="run_a"),
        core.ToolCallResultEvent(
            message_id="m9", tool_call_id="c2", content="ok", subagent_run_id="run_a"
        ),
        core.SubagentFinishedEvent(subagent_run_id="run_a", result="they dance"),
        core.ToolCallResultEvent(message_id="m10", tool_call_id="call_a", content="they dance"),
        core.TextMessageChunkEvent(message_id="t2", delta="Bees dance."),
        core.RunFinishedEvent(thread_id="t", run_id="r"),
    ]
    run = run_adapter(AGUIInputAdapter(), events)
    assert run.problems == []
    assert run.text == "Bees dance."  # the sub-agent's text is not the run's
    blocks = [(b.block_type, b.attrs.get("parent_id"), b.content) for b in run.natives]
    assert blocks == [
        ("tool_call", None, {"topic": "bees"}),
        ("thinking", "call_a", "hm"),
        ("text", "call_a", "bees dance"),
        ("tool_call", "call_a", {}),
        ("tool_result", "call_a", "ok"),
        ("tool_result", None, "they dance"),
    ]
    assert run.natives[1].attrs["signature"] == "SIG"
    assert run.stop_reason.value == "end_turn"  # the sub-agent's call is not left to run
    step = collect(wire(events), processor=processor())
    assert step.text == "Bees dance." and step.tool_calls == []
    [agent] = step.sub_agents
    assert (agent.id, agent.name, agent.text) == ("call_a", "research", "bees dance")


@needs_1_0
def test_an_encrypted_value_for_a_call_is_its_thought_signature() -> None:
    events = [
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{}"},
        {"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool-call", "entityId": "c1",
         "encryptedValue": "TS"},
        {"type": "TOOL_CALL_END", "toolCallId": "c1"},
        {"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool-call", "entityId": "gone",
         "encryptedValue": "late"},
    ]  # fmt: skip
    run = run_adapter(AGUIInputAdapter(), events)
    assert run.natives[0].attrs["thought_signature"] == "TS"
    assert [e["entityId"] for e in run.passthrough] == ["gone"]  # no open block to sign


# ----------------------------------------------------------------------- round trip


def _facts(events: list[Any]) -> dict[str, Any]:
    """What a round trip must keep: sub-agents, signatures, calls, results, outcome."""
    return {
        "subagents": subagent_view(events),
        "signatures": [
            (e.subtype, e.encrypted_value, e.subagent_run_id)
            for e in events
            if e.type == core.EventType.REASONING_ENCRYPTED_VALUE
        ],
        "calls": [
            (e.tool_call_id, e.tool_call_name, e.subagent_run_id)
            for e in events
            if e.type == core.EventType.TOOL_CALL_START
        ],
        "results": [
            (e.tool_call_id, e.content, e.subagent_run_id)
            for e in events
            if e.type == core.EventType.TOOL_CALL_RESULT
        ],
        "text": [
            (e.delta, e.subagent_run_id)
            for e in events
            if e.type == core.EventType.TEXT_MESSAGE_CONTENT
        ],
        "outcome": events[-1].outcome,
        "result": events[-1].result["stop_reason"],
    }


@needs_1_0
@pytest.mark.parametrize("name", ["snapshots", "partial"])
def test_a_round_trip_keeps_sub_agents_signatures_and_outcome(name: str) -> None:
    source = {"snapshots": sub.claude_subagent_run, "partial": sub.claude_subagent_partial_run}
    first = out(source[name]())
    again = out(wire(first))  # the JSON a client got, read back and sent out again
    check_framing(again)
    assert _facts(again) == _facts(first)
    assert again[0].protocol_version == "1.0"
    assert _facts(out(wire(again))) == _facts(first)


@needs_1_0
@settings(max_examples=30, deadline=None)
@given(
    calls=st.lists(st.sampled_from(["answered", "pending", "sub-agent"]), max_size=5),
    text=st.text(alphabet="ab \n", max_size=8),
)
def test_the_calls_left_to_run_round_trip(calls: list[str], text: str) -> None:
    """Whatever mix of answered, pending and sub-agents' calls a run has, the run's own
    pending ones are named on the way out, and read back as ``tool_use``."""
    events: list[Any] = [core.TextMessageChunkEvent(message_id="m", delta=text)] if text else []
    if "sub-agent" in calls:
        events.append(core.SubagentStartedEvent(subagent_run_id="s", name="x"))
    for n, kind in enumerate(calls):
        by = {"subagent_run_id": "s"} if kind == "sub-agent" else {}
        events += [
            core.ToolCallStartEvent(tool_call_id=f"c{n}", tool_call_name="f", **by),
            core.ToolCallEndEvent(tool_call_id=f"c{n}", **by),
        ]
        if kind == "answered":
            events.append(
                core.ToolCallResultEvent(message_id=f"r{n}", tool_call_id=f"c{n}", content="1")
            )
    if "sub-agent" in calls:
        events.append(core.SubagentFinishedEvent(subagent_run_id="s"))
    pending = [f"c{n}" for n, kind in enumerate(calls) if kind == "pending"]
    sent = out(events)
    check_framing(sent)
    assert (sent[-1].outcome.pending_tool_call_ids or []) == pending
    finished = wire(sent)[-1]
    del finished["result"]  # as another producer sends it: the outcome alone tells
    back = run_adapter(AGUIInputAdapter(), [*wire(sent)[:-1], finished])
    assert back.stop_reason.value == ("tool_use" if pending else "end_turn")
    calls_back = [b for b in back.natives if b.block_type == "tool_call"]
    assert len(calls_back) == len(calls)
    assert [b.attrs.get("parent_id") is not None for b in calls_back] == [
        kind == "sub-agent" for kind in calls
    ]
