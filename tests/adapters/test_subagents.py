"""Sub-agents: what an agent started by a call writes comes as blocks under that call
(``attrs["parent_id"]``), never as the run's text; ``collect()`` keeps them in
``step.sub_agents``. On a Claude Code transcript with sub-agents two levels deep (with and
without partial messages), on the Claude Agent SDK's own message objects, and on a real
OpenAI Agents SDK run whose agent-as-tool streams through ``on_stream``."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

import pytest
from agents import Agent, Runner
from claude_agent_sdk._internal.message_parser import parse_message
from hypothesis import given, settings
from hypothesis import strategies as st

from streamblocks import BlockRegistry, StreamBlockProcessor, SubAgent, collect
from streamblocks.adapters import detect_input_adapter
from streamblocks.ext.claude_agent_sdk import ClaudeAgentSDKInputAdapter
from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter
from streamblocks.ext.openai_agents import OpenAIAgentsInputAdapter
from streamblocks.testing import run_adapter

from . import subagent_transcripts as sub
from . import test_openai
from .sse import sse
from .test_openai_agents import OFFLINE, TURN_USAGE, Turns, answer_body
from .transcripts import jsonl

RUNS = {
    "snapshots": sub.claude_subagent_run,
    "partial": sub.claude_subagent_partial_run,
}


def processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    return StreamBlockProcessor(registry)


def ends(events: list[Any]) -> list[Any]:
    return [e.block for e in events if e.type == "BLOCK_END"]


def by_parent(blocks: list[Any]) -> dict[str | None, list[tuple[str, Any]]]:
    out: dict[str | None, list[tuple[str, Any]]] = {}
    for b in blocks:
        kind = getattr(b, "block_type", None) or b.type  # a run_adapter NativeBlock, or a Block
        out.setdefault(b.attrs.get("parent_id"), []).append((kind, b.attrs.get("name")))
    return out


CLAUDE_TREE = {
    None: [("tool_call", "Task"), ("tool_result", "Task")],
    sub.TASK_1: [
        ("thinking", None),
        ("text", None),
        ("tool_call", "Read"),
        ("tool_result", "Read"),
        ("code", None),
        ("tool_call", "Task"),
        ("tool_result", "Task"),
        ("text", None),
    ],
    sub.TASK_2: [
        ("text", None),
        ("tool_call", "Bash"),
        ("tool_result", "Bash"),
        ("command", None),
        ("text", None),
    ],
}


@pytest.mark.parametrize("name", RUNS)
def test_claude_cli_sub_agents_are_blocks_under_their_task(name: str) -> None:
    events = list(processor().process(RUNS[name]()))
    text = "".join(e.text for e in events if e.type == "TEXT_DELTA")
    assert text == "".join(sub.MAIN_TEXT)  # no sub-agent text in the run's reply
    assert not [e for e in events if e.type == "BLOCK_ERROR"]
    blocks = ends(events)
    assert by_parent(blocks) == CLAUDE_TREE
    texts = {
        parent: [b.content for b in blocks if b.type == "text" and b.attrs["parent_id"] == parent]
        for parent in (sub.TASK_1, sub.TASK_2)
    }
    assert texts == {sub.TASK_1: sub.SUB_TEXT, sub.TASK_2: sub.NESTED_TEXT}  # nothing lost
    thinking = [b for b in blocks if b.type == "thinking"]
    assert [(b.content, b.attrs["signature"]) for b in thinking] == [(sub.SUB_THINKING, "sig_s1")]
    # the inner Task call is the sub-agent's own call, under the outer one
    inner = next(b for b in blocks if b.type == "tool_call" and b.id == sub.TASK_2)
    assert inner.attrs["parent_id"] == sub.TASK_1
    # the sub-agents' stop reasons (tool_use, end_turn) are not the run's
    assert events[-1].stop_reason.value == "end_turn"
    assert events[-1].usage is not None and events[-1].usage.cost_usd == 0.0421


def test_partial_messages_give_the_same_blocks() -> None:
    whole = ends(list(processor().process(sub.claude_subagent_run())))
    partial = ends(list(processor().process(sub.claude_subagent_partial_run())))
    shape = [(b.type, dict(b.attrs), b.content) for b in whole]
    assert [(b.type, dict(b.attrs), b.content) for b in partial] == shape


def test_partial_text_streams_into_its_block() -> None:
    events = list(processor().process(sub.claude_subagent_partial_run()))
    starts = {e.block_id: e for e in events if e.type == "BLOCK_START"}
    deltas = Counter(e.block_id for e in events if e.type == "BLOCK_DELTA")
    sub_texts = [b for b in starts.values() if b.block_type == "text"]
    assert len(sub_texts) == 4
    for start in sub_texts:
        assert start.attrs["parent_id"] in (sub.TASK_1, sub.TASK_2)
        assert deltas[start.block_id] > 1  # streamed as it came, in pieces


def _walk(agents: list[SubAgent]) -> list[tuple[int, str, str | None]]:
    return [(d, a.id, a.name) for root in agents for d, a in root.walk()]


@pytest.mark.parametrize("name", RUNS)
def test_collect_keeps_the_run_own_apart(name: str) -> None:
    step = collect(RUNS[name](), processor=processor())
    assert step.text == "".join(sub.MAIN_TEXT)
    assert step.thinking == ""  # the sub-agent's thinking is its own
    assert {c.id for c in step.tool_calls} <= {sub.TASK_1}  # never a sub-agent's call
    assert [b.type for b in step.native_blocks] == ["tool_call", "tool_result"]
    message_text = step.message.text() if hasattr(step.message, "text") else ""
    assert "SUBAGENT" not in message_text and "NESTED" not in message_text
    assert _walk(step.sub_agents) == [(0, sub.TASK_1, "Task"), (1, sub.TASK_2, "Task")]
    outer = step.sub_agents[0]
    inner = outer.sub_agents[0]
    assert outer.text == "".join(sub.SUB_TEXT)
    assert inner.text == "".join(sub.NESTED_TEXT)
    assert [b.attrs["name"] for b in outer.tool_calls] == ["Read", "Task"]
    assert [b.attrs["name"] for b in inner.tool_calls] == ["Bash"]
    assert outer.call is not None and outer.call.content["prompt"] == "Find the bug in calc.py"
    assert outer.result is not None and outer.result.content == sub.SUB_TEXT[1]
    assert inner.result is not None and inner.result.content == sub.NESTED_TEXT[1]
    counted = sum(len(a.blocks) for _, a in outer.walk())
    assert counted == len(CLAUDE_TREE[sub.TASK_1]) + len(CLAUDE_TREE[sub.TASK_2])


@pytest.mark.parametrize("name", RUNS)
def test_agent_sdk_messages_give_the_same(name: str) -> None:
    lines = RUNS[name]()
    objects = [m for m in (parse_message(line) for line in lines) if m is not None]
    nested = [m for m in objects if getattr(m, "parent_tool_use_id", None)]
    assert {m.parent_tool_use_id for m in nested} == {sub.TASK_1, sub.TASK_2}
    assert isinstance(detect_input_adapter(objects[0]), ClaudeAgentSDKInputAdapter)
    from_sdk = list(processor().process(objects))
    from_cli = list(processor().process(lines))
    assert [(b.type, dict(b.attrs), b.content) for b in ends(from_sdk)] == [
        (b.type, dict(b.attrs), b.content) for b in ends(from_cli)
    ]
    step = collect(objects, processor=processor())
    assert step.text == "".join(sub.MAIN_TEXT)
    assert _walk(step.sub_agents) == [(0, sub.TASK_1, "Task"), (1, sub.TASK_2, "Task")]


def test_a_sub_agent_whose_call_is_missing_is_still_kept() -> None:
    """A transcript cut before the Task call: the sub-agent's blocks are a root."""
    lines = [line for line in sub.claude_subagent_run() if line["type"] != "system"][2:]
    step = collect(lines, processor=processor())
    assert [a.id for a in step.sub_agents] == [sub.TASK_1]
    assert step.sub_agents[0].call is None and step.sub_agents[0].name is None
    assert step.sub_agents[0].sub_agents[0].id == sub.TASK_2


# ------------------------------------------------------------ OpenAI Agents SDK


def _body(response_id: str, text: str | None, call: tuple[str, str, str] | None) -> bytes:
    """One model call: some text, then optionally a function call (id, name, arguments)."""
    response = {**test_openai.RESPONSE, "id": response_id}
    events: list[dict[str, Any]] = [{"type": "response.created", "response": response}]
    output: list[dict[str, Any]] = []
    if text is not None:
        message = {**test_openai.MESSAGE_ITEM, "id": f"msg_{response_id}"}
        part = {"type": "output_text", "text": text, "annotations": []}
        done = {**message, "status": "completed", "content": [part]}
        events += [
            {"type": "response.output_item.added", "output_index": 0, "item": message},
            *(
                {
                    "type": "response.output_text.delta",
                    "item_id": message["id"],
                    "output_index": 0,
                    "content_index": 0,
                    "delta": text[i : i + 5],
                    "logprobs": [],
                }
                for i in range(0, len(text), 5)
            ),
            {"type": "response.output_item.done", "output_index": 0, "item": done},
        ]
        output.append(done)
    if call is not None:
        call_id, name, arguments = call
        item = {
            **test_openai.CALL_ITEM,
            "id": f"fc_{call_id}",
            "call_id": call_id,
            "name": name,
        }
        done = {**item, "arguments": arguments, "status": "completed"}
        index = len(output)
        events += [
            {"type": "response.output_item.added", "output_index": index, "item": item},
            {
                "type": "response.function_call_arguments.delta",
                "item_id": item["id"],
                "output_index": index,
                "delta": arguments,
            },
            {"type": "response.output_item.done", "output_index": index, "item": done},
        ]
        output.append(done)
    completed = {**response, "status": "completed", "output": output, "usage": TURN_USAGE}
    events.append({"type": "response.completed", "response": completed})
    return sse([(e["type"], {**e, "sequence_number": i}) for i, e in enumerate(events)])


async def agents_run() -> list[Any]:
    """A manager whose tool ``research`` runs an agent that runs the agent ``deep`` as a
    tool; every ``on_stream`` event and the run's own events go into one list."""
    events: list[Any] = []
    deep_model = Turns(_body("d1", "DEEP says hi", None))
    deep = Agent(name="Deep", model=deep_model.model())
    researcher_model = Turns(
        _body("r1", "RESEARCH looking. ", ("call_deep", "deep", '{"input": "dig"}')),
        _body("r2", "RESEARCH done", None),
    )
    researcher = Agent(
        name="Researcher",
        model=researcher_model.model(),
        tools=[deep.as_tool(tool_name="deep", tool_description="Digs.", on_stream=events.append)],
    )
    manager_model = Turns(
        _body("m1", "Let me ask. ", ("call_research", "research", '{"input": "why?"}')),
        answer_body("Answer: 42"),
    )
    tool = researcher.as_tool(
        tool_name="research", tool_description="Researches.", on_stream=events.append
    )
    manager = Agent(name="Manager", model=manager_model.model(), tools=[tool])
    result = Runner.run_streamed(manager, "question", run_config=OFFLINE)
    async for event in result.stream_events():
        events.append(event)
    return events


async def test_openai_agents_as_tools_nest() -> None:
    events = await agents_run()
    nested = [e for e in events if isinstance(e, dict)]
    assert {e["tool_call"].call_id for e in nested} == {"call_research", "call_deep"}
    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, OpenAIAgentsInputAdapter)
    run = run_adapter(adapter, events)
    assert run.problems == []
    assert run.text == "Let me ask. Answer: 42"  # the manager's own text only
    tree = by_parent(list(run.natives))
    assert tree[None] == [("tool_call", "research"), ("tool_result", "research")]
    assert tree["call_research"] == [
        ("text", None),
        ("tool_call", "deep"),
        ("tool_result", "deep"),
        ("text", None),
    ]
    assert tree["call_deep"] == [("text", None)]
    texts = [(b.attrs.get("parent_id"), b.content) for b in run.natives if b.block_type == "text"]
    assert sorted(texts) == sorted(
        [
            ("call_research", "RESEARCH looking. "),
            ("call_research", "RESEARCH done"),
            ("call_deep", "DEEP says hi"),
        ]
    )
    step = collect(events, processor=processor())
    assert step.text == "Let me ask. Answer: 42"
    assert _walk(step.sub_agents) == [(0, "call_research", "research"), (1, "call_deep", "deep")]
    assert step.sub_agents[0].text == "RESEARCH looking. RESEARCH done"
    assert json.loads(json.dumps(step.sub_agents[0].sub_agents[0].text)) == "DEEP says hi"


# ------------------------------------------------------------ the command's renderers


def _indent_of(out: str, needle: str) -> int:
    line = next(line for line in out.splitlines() if needle in line)
    return len(line) - len(line.lstrip(" "))


@pytest.mark.parametrize("render", ["plain", "rich"])
@pytest.mark.parametrize("name", RUNS)
def test_renderers_indent_sub_agents(render: str, name: str, tmp_path: Any, capsys: Any) -> None:
    from cli_helpers import run

    path = tmp_path / "run.jsonl"
    path.write_text(jsonl(RUNS[name]()), encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(path), "--render", render, "--no-color")
    assert code == 0
    assert _indent_of(out, "tool_call toolu_task_1") == 0
    assert _indent_of(out, "tool_call toolu_s_read") == 2  # the sub-agent's call
    assert _indent_of(out, "tool_call toolu_task_2") == 2
    assert _indent_of(out, "tool_call toolu_n_bash") == 4  # the sub-agent's sub-agent's
    for text in sub.SUB_TEXT:
        assert _indent_of(out, text.strip()) >= 2
    for text in sub.NESTED_TEXT:
        assert _indent_of(out, text.strip()) >= 4
    for text in sub.MAIN_TEXT:  # the run's own text is not indented
        assert _indent_of(out, text.strip()) == 0


# ------------------------------------------------------------ invariants

PARTIAL_BYTES = jsonl(sub.claude_subagent_partial_run()).encode("utf-8")


def _outcome(chunks: list[bytes]) -> tuple[str, list[tuple[str, Any, Any]]]:
    registry = BlockRegistry()
    registry.register("note")
    events = list(
        StreamBlockProcessor(registry, input_adapter=ClaudeCLIInputAdapter()).process(chunks)
    )
    text = "".join(e.text for e in events if e.type == "TEXT_DELTA")
    return text, [(b.type, dict(b.attrs), b.content) for b in ends(events)]


WHOLE = _outcome([PARTIAL_BYTES])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, len(PARTIAL_BYTES)), max_size=40))
def test_any_cut_of_the_transcript_gives_the_same_sub_agent_blocks(cuts: list[int]) -> None:
    """Chunking invariance: raw bytes cut anywhere (inside lines, inside UTF-8 characters)
    give the same run text and the same blocks under the same parents."""
    points = [0, *sorted(set(cuts)), len(PARTIAL_BYTES)]
    chunks = [PARTIAL_BYTES[a:b] for a, b in itertools.pairwise(points) if b > a]
    assert _outcome(chunks) == WHOLE
    assert WHOLE[0] == "".join(sub.MAIN_TEXT)


def test_sub_agents_side_by_side_interleave_without_mixing() -> None:
    """Two ``Task`` calls run at once: their partial-message streams interleave line by
    line, each counting its content blocks from 0; each block stays with its own parent."""
    calls = [sub._task("toolu_a", "left"), sub._task("toolu_b", "right")]
    lines = [sub._system(), sub._assistant("msg_m", calls, None, "tool_use")]

    def streamed(parent: str, words: str) -> list[dict[str, Any]]:
        start = {"id": f"msg_{parent}", "role": "assistant", "content": [], "model": "m"}
        out = [sub._stream({"type": "message_start", "message": start}, parent)]
        out += sub._streamed_block(0, {"type": "text", "text": words}, parent)
        call = sub._call(f"{parent}_ls", "Bash", {"command": "ls"})
        out += sub._streamed_block(1, call, parent)
        out.append(sub._stream({"type": "message_stop"}, parent))
        return out

    left, right = streamed("toolu_a", "LEFT " * 9), streamed("toolu_b", "RIGHT " * 7)
    for pair in itertools.zip_longest(left, right):
        lines += [line for line in pair if line is not None]
    lines.append(sub._assistant("msg_end", [sub._text("Both done.\n")], None, "end_turn"))
    lines.append(sub._result())
    events = list(processor().process(lines))
    assert not [e for e in events if e.type == "BLOCK_ERROR"]
    assert "".join(e.text for e in events if e.type == "TEXT_DELTA") == "Both done.\n"
    blocks = ends(events)
    texts = {b.attrs["parent_id"]: b.content for b in blocks if b.type == "text"}
    assert texts == {"toolu_a": "LEFT " * 9, "toolu_b": "RIGHT " * 7}
    calls_under = {b.attrs.get("parent_id"): b.id for b in blocks if b.attrs.get("name") == "Bash"}
    assert calls_under == {"toolu_a": "toolu_a_ls", "toolu_b": "toolu_b_ls"}
