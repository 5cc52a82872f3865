"""``StreamBlockProcessor(markup=…)``: blocks as the provider adapters make them, through
``collect()``, the accumulator and the AG-UI output; ``"auto"`` over real OpenAI
streams; markup beside registered blocks; the invariants over the whole session."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from adapters.sse import sse
from helpers import chunkings
from markup_cases import CASES
from streamblocks import (
    BlockRegistry,
    StreamBlockProcessor,
    XMLTagSyntax,
    collect,
)
from streamblocks.content import MessageAccumulator, ThinkingBlock, ToolCallBlock
from streamblocks.ext.agui import AGUIOutputAdapter
from streamblocks.markup import Markup
from streamblocks.testing import conserved, normalise, run_chunks
from test_markup_reader import read

QWEN = (
    "<think>\nThe user wants Paris weather.\n</think>\n\nLet me check.\n"
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
)


def test_no_markup_without_markup_option() -> None:
    step = collect([QWEN], processor=StreamBlockProcessor(BlockRegistry()))
    assert step.text == QWEN
    assert not step.tool_calls and not step.thinking


def test_collect_fills_thinking_text_and_tool_calls() -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup="qwen3")
    step = collect([QWEN[i : i + 3] for i in range(0, len(QWEN), 3)], processor=processor)
    assert step.text == "Let me check.\n"
    assert step.thinking == "The user wants Paris weather."
    [call] = step.tool_calls
    assert (call.name, call.arguments, call.source) == ("get_weather", {"city": "Paris"}, "native")
    assert call.id == call.block.id  # no id in the markup: the session's, per stream


def test_unknown_family_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"'acme4'.*'qwen3'"):
        StreamBlockProcessor(BlockRegistry(), markup="acme4")
    # (a name a model-id pattern knows is a model id: "qwen4" reads as the qwen3 family)
    assert StreamBlockProcessor(BlockRegistry(), markup="qwen4").markup.option[0].family == "qwen3"
    with pytest.raises(TypeError):
        StreamBlockProcessor(BlockRegistry(), markup=3)


def test_markup_ids_are_kept() -> None:
    text = (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.search:3"
        '<|tool_call_argument_begin|>{"q": "x"}<|tool_call_end|><|tool_calls_section_end|>'
    )
    step = collect([text], processor=StreamBlockProcessor(BlockRegistry(), markup="kimi"))
    assert [call.id for call in step.tool_calls] == ["functions.search:3"]


def test_accumulator_and_agui_show_the_blocks() -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup=Markup("qwen3"))
    events = list(processor.process([QWEN]))
    message = MessageAccumulator().add_all(events)
    kinds = [type(block) for block in message.content]
    assert ThinkingBlock in kinds and ToolCallBlock in kinds
    call = next(b for b in message.content if isinstance(b, ToolCallBlock))
    assert (call.name, call.arguments) == ("get_weather", {"city": "Paris"})
    out = AGUIOutputAdapter()
    names = [type(e).__name__ for event in events for e in out.to_protocol_event(event)]
    assert "ReasoningMessageContentEvent" in names
    start = names.index("ToolCallStartEvent")
    expected = ["ToolCallStartEvent", "ToolCallArgsEvent", "ToolCallEndEvent"]
    assert names[start : start + 3] == expected


class Note(BaseModel):
    text: str


def mixed_processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note", syntax=XMLTagSyntax())
    registry.register("memo")  # the default !!id:type delimiter syntax
    return StreamBlockProcessor(registry, markup=["qwen3", Markup("deepseek")])


MIXED = (
    "<think>plan <note>not a block in thinking</note></think>Intro <note>a real note</note>\n"
    "!!m1:memo\nmemo body\n!!end\n"
    '<tool_call>{"name": "f", "arguments": {"x": "<note>"}}</tool_call> and '
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>g<｜tool▁sep｜>{}<｜tool▁call▁end｜>"
    "<｜tool▁calls▁end｜> done\n"
)


def test_markup_beside_registered_blocks_at_every_chunking() -> None:
    processor = mixed_processor()
    first = None
    for chunks in chunkings(MIXED):
        events = run_chunks(processor, chunks)
        assert conserved(events) == MIXED
        found = normalise(events)
        first = found if first is None else first
        assert found == first
    step = collect([MIXED], processor=processor)
    assert [b.type for b in step.blocks] == ["note", "memo"]
    assert [c.name for c in step.tool_calls] == ["f", "g"]
    assert step.thinking == "plan <note>not a block in thinking</note>"


@pytest.mark.parametrize(("family", "text", "expected"), CASES)
def test_cases_through_the_processor(family: str, text: str, expected: dict[str, Any]) -> None:
    markup = Markup(
        family,
        starts_in_thinking=expected.get("starts_in_thinking", False),
        tools=expected.get("tools"),
    )
    processor = StreamBlockProcessor(BlockRegistry(), markup=markup)
    if expected.get("cut"):
        return  # the stop reason comes from provider objects: see test_cut_by_max_tokens
    kept = "".join(p[1] for p in read(markup, [text]) if p[0] in ("text", "marker", "content"))
    for chunks in chunkings(text):
        events = run_chunks(processor, chunks)
        assert conserved(events) == kept  # the input but for hidden framing
        step = collect(events)
        assert step.text == expected["text"]
        assert step.thinking == "".join(expected["thinking"])
        calls = [(c.name, c.arguments) for c in step.tool_calls if c.error is None]
        assert calls == [call[:2] for call in expected["calls"]]
        # a broken call is kept, with its reason, so an agent loop can tell the model
        broken = [c for c in step.tool_calls if c.error is not None]
        assert len(broken) == sum(1 for unclosed, _ in expected["errors"] if not unclosed)
        assert [e.raw for e in step.block_errors] == [raw for _, raw in expected["errors"]]


PIECES = [
    *'<>/{}[]":ab \n!',
    *("<think>", "</think>", "<tool_call>", "</tool_call>", "<note>", "</note>"),
    *('{"name": "f", "arguments": {}}', "\n!!m1:memo\n", "\n!!end\n", "<function=f>"),
]


@settings(max_examples=50, deadline=None)
@given(
    text=st.lists(st.sampled_from(PIECES), max_size=40).map("".join),
    cuts=st.lists(st.integers(0, 400), max_size=10),
)
def test_invariants_hold_with_markup(text: str, cuts: list[int]) -> None:
    """Any mix of markup, registered tags and delimiter lines: nothing lost, and the same
    events at any chunking."""
    processor = mixed_processor()
    points = sorted({c for c in cuts if 0 < c < len(text)})
    chunks = [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]
    whole = run_chunks(processor, [text])
    assert conserved(whole) == text
    assert normalise(run_chunks(processor, chunks)) == normalise(whole)


# -- real OpenAI streams ------------------------------------------------------------


def openai_stream(model: str, pieces: list[str], finish: str = "stop") -> Any:
    def chunk(delta: dict[str, Any], reason: str | None = None) -> tuple[None, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": reason}
        return None, {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": model,
            "choices": [choice],
        }

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": piece}) for piece in pieces]
    events.append(chunk({}, finish))
    body = sse(events, done=True)

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"})

    client = openai.OpenAI(
        api_key="test",
        base_url="https://openai.test/v1",
        http_client=httpx2.Client(transport=httpx2.MockTransport(handler)),
    )
    return client.chat.completions.create(model=model, messages=[], stream=True)


def test_auto_reads_the_model_the_chunks_name() -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup="auto")
    pieces = [QWEN[i : i + 4] for i in range(0, len(QWEN), 4)]
    step = collect(openai_stream("Qwen/Qwen3-8B", pieces), processor=processor)
    assert [c.name for c in step.tool_calls] == ["get_weather"]
    assert step.thinking == "The user wants Paris weather."
    other = collect(openai_stream("gpt-4o", pieces), processor=processor)
    assert other.text == QWEN and not other.tool_calls


def test_auto_with_prompt_opened_thinking_from_the_model_id() -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup="auto")
    stream = openai_stream("deepseek-ai/DeepSeek-R1", ["Think", "ing.</think>", "Answer."])
    step = collect(stream, processor=processor)
    assert (step.thinking, step.text) == ("Thinking.", "Answer.")


def test_cut_by_max_tokens() -> None:
    """gpt-oss's call ends with the stream (servers cut <|call|>), unless the stream
    stopped at max_tokens; a call open in another family is never a call."""
    call = '<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a": 1}'
    processor = StreamBlockProcessor(BlockRegistry(), markup="gpt-oss")
    done = collect(openai_stream("openai/gpt-oss-20b", [call]), processor=processor)
    assert [(c.name, c.arguments) for c in done.tool_calls] == [("f", {"a": 1})]
    cut = collect(openai_stream("openai/gpt-oss-20b", [call], "length"), processor=processor)
    assert not cut.tool_calls
    assert [e.code.value for e in cut.block_errors] == ["UNCLOSED"]
    assert json.loads(json.dumps(cut.block_errors[0].raw)) == call


# -- the command line -----------------------------------------------------------------


def test_extract_markup_option(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from cli_helpers import json_events, run

    reply = tmp_path / "reply.txt"
    reply.write_text(QWEN, encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(reply), "--json", "--markup", "hermes")
    assert code == 0
    ends = [e for e in json_events(out) if e["type"] == "BLOCK_END"]
    assert [e["block"]["type"] for e in ends] == ["thinking", "tool_call"]
    code, out, _ = run(capsys, "extract", str(reply), "--json")
    ends = [e for e in json_events(out) if e["type"] == "BLOCK_END"]
    assert code == 0 and not any(e["block"]["syntax"] == "native" for e in ends)
    recorded = tmp_path / "stream.jsonl"
    lines = [
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "Qwen/Qwen3-8B",
            "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
        }
        for piece in (QWEN[:40], QWEN[40:])
    ]
    recorded.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(recorded), "--json", "--markup", "auto")
    ends = [e for e in json_events(out) if e["type"] == "BLOCK_END"]
    assert code == 0 and [e["block"]["type"] for e in ends] == ["thinking", "tool_call"]
    code, _, err = run(capsys, "extract", str(reply), "--markup", "qwen9")
    assert code == 2 and "'qwen9'" in err


def test_auto_over_ollama_responses() -> None:
    """``ollama.Client().chat(..., stream=True)`` objects name the model too (a model
    served without Ollama's own parser for it writes the markup as content)."""
    import httpx
    import ollama

    lines = [
        {
            "model": "qwen3:8b",
            "created_at": "2025-06-01T10:00:00Z",
            "done": False,
            "message": {"role": "assistant", "content": QWEN[i : i + 9]},
        }
        for i in range(0, len(QWEN), 9)
    ]
    lines.append(
        {
            "model": "qwen3:8b",
            "created_at": "2025-06-01T10:00:01Z",
            "done": True,
            "done_reason": "stop",
            "message": {"role": "assistant", "content": ""},
        }
    )
    body = "".join(json.dumps(line) + "\n" for line in lines).encode()

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "application/x-ndjson"}, content=body)

    client = ollama.Client(host="http://ollama.test:11434", transport=httpx.MockTransport(handler))
    stream = client.chat(
        model="qwen3:8b", messages=[{"role": "user", "content": "hi"}], stream=True
    )
    step = collect(stream, processor=StreamBlockProcessor(BlockRegistry(), markup="auto"))
    assert [c.name for c in step.tool_calls] == ["get_weather"]
    assert (step.text, step.thinking) == ("Let me check.\n", "The user wants Paris weather.")


def test_the_documented_example_prints_its_output() -> None:
    import subprocess
    import sys
    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent / "examples"
    done = subprocess.run(
        [sys.executable, str(examples / "markup_qwen.py")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={"PYTHONIOENCODING": "utf-8", **__import__("os").environ},
    )
    assert done.stdout == (examples / "markup_qwen.out").read_text(encoding="utf-8")


def test_auto_in_a_sans_io_session_takes_the_model() -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup="auto", input_adapter=None)
    for model, calls in (("Qwen/Qwen3-8B", ["get_weather"]), (None, []), ("gpt-4o", [])):
        session = processor.session(model=model)
        events = session.feed(QWEN) + session.close()
        ends = [e.block for e in events if e.type == "BLOCK_END"]
        assert [b.attrs["name"] for b in ends if b.type == "tool_call"] == calls
