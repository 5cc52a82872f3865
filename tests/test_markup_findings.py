"""Issue 22's reproducers, one test each: what a user meets with the model name only."""

from __future__ import annotations

import json
from typing import Any

import pytest

from helpers import chunkings
from streamblocks import BlockRegistry, StreamBlockProcessor, XMLTagSyntax, collect
from streamblocks.core.events import BlockEnd, BlockError, TextDelta
from streamblocks.markup import Markup, markup_for
from streamblocks.markup.families import TEMPLATE_THINKING
from streamblocks.testing import conserved, normalise, run_chunks


def registry() -> BlockRegistry:
    found = BlockRegistry()
    found.register("cite", syntax=XMLTagSyntax())
    found.register("note")  # the !!id:type delimiter syntax
    return found


def every_chunking(markup: Any, text: str, reg: BlockRegistry | None = None) -> list[Any]:
    """The events of ``text``, the same (and conserving it) at every chunking."""
    processor = StreamBlockProcessor(reg or BlockRegistry(), markup=markup)
    whole = run_chunks(processor, [text])
    for chunks in chunkings(text):
        events = run_chunks(processor, chunks)
        assert normalise(events) == normalise(whole), chunks
    return whole


def kinds(events: list[Any]) -> list[Any]:
    found: list[Any] = []
    for event in events:
        if isinstance(event, TextDelta):
            found.append(("text", event.text))
        elif isinstance(event, BlockEnd):
            found.append((event.block.type, event.block.content))
        elif isinstance(event, BlockError):
            found.append(("error", event.raw))
    return found


# -- 2: the initial region hands the scanner back the state it found --------------------


@pytest.mark.parametrize("family", ["llama", "gpt-oss"])
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<cite>x</cite>", [("cite", "x")]),
        ("\n!!b1:note\nx\n!!end\n", [("text", "\n"), ("note", "x\n")]),
        ("A!!b1:note\nx\n!!end\n", [("text", "A!!b1:note\nx\n!!end\n")]),
        ("  <cite>x</cite> y", [("text", "  "), ("cite", "x"), ("text", " y")]),
    ],
)
def test_a_reply_start_that_is_no_call_reads_as_without_markup(
    family: str, text: str, expected: list[Any]
) -> None:
    events = every_chunking(family, text, registry())
    assert conserved(events) == text
    found = kinds(normalise(events))
    assert [k for k in found if k[0] != "text"] == [k for k in expected if k[0] != "text"]
    assert "".join(k[1] for k in found if k[0] == "text") == "".join(
        k[1] for k in expected if k[0] == "text"
    )
    plain = run_chunks(StreamBlockProcessor(registry()), [text])
    assert kinds(normalise(plain)) == found  # exactly what the same text gives without markup


# -- 3: Llama 3.x calls separated by ";" -------------------------------------------------

CALL_A = '{"name": "a", "parameters": {"x": 1}}'
CALL_B = '{"name": "b", "parameters": {"s": "; {"}}'


@pytest.mark.parametrize("head", ["", "Hi<|python_tag|>", "<|python_tag|>"])
def test_semicolon_separated_llama_calls_are_all_read(head: str) -> None:
    text = f"{head}{CALL_A}; {CALL_B} ;{CALL_A}"
    events = every_chunking("llama", text)
    assert conserved(events) == text
    step = collect(events)
    assert step.text == head.removesuffix("<|python_tag|>")
    assert [(c.name, c.arguments) for c in step.tool_calls] == [
        ("a", {"x": 1}),
        ("b", {"s": "; {"}),
        ("a", {"x": 1}),
    ]


@pytest.mark.parametrize("tail", ["; and that is all", ";", " ;  ", "; [1, 2]", "; {not json}"])
def test_a_separator_without_a_call_after_it_is_text(tail: str) -> None:
    text = CALL_A + tail
    events = every_chunking("llama", text)
    assert conserved(events) == text
    step = collect(events)
    assert [c.name for c in step.tool_calls] == ["a"]
    assert step.text == tail


# -- 4: a leading opener when the reply already starts inside thinking ------------------


@pytest.mark.parametrize(
    ("family", "text", "thinking", "visible"),
    [
        ("qwen3", "\n<think>\nX\n</think>\n\nhi", "X", "hi"),
        ("qwen3", "<think>X</think>hi", "X", "hi"),
        ("qwen3", "A <think>X</think>hi", "A <think>X", "hi"),  # not leading: thinking text
        ("kimi", "<|open|>think<|sep|>X<|close|>think<|sep|>hi", "X", "hi"),
        ("mistral", " [THINK]X[/THINK]hi", "X", "hi"),
    ],
)
def test_a_leading_thinking_opener_is_dropped(
    family: str, text: str, thinking: str, visible: str
) -> None:
    events = every_chunking(Markup(family, starts_in_thinking=True), text)
    assert conserved(events) == text
    step = collect(events)
    assert (step.thinking, step.text) == (thinking, visible)


@pytest.mark.parametrize(
    ("family", "text"),
    [
        ("glm", "  <tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>"),
        (
            "qwen3",
            "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>",
        ),
        (
            "kimi",
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
            '<|tool_call_argument_begin|>{"a": "1"}<|tool_call_end|><|tool_calls_section_end|>',
        ),
    ],
)
def test_a_reply_that_starts_with_a_call_was_not_in_thinking(family: str, text: str) -> None:
    """The template opened thinking by default, the request turned it off: the first
    marker of the reply is a call's, so the reply is not thinking."""
    events = every_chunking(Markup(family, starts_in_thinking=True), text)
    step = collect(events)
    assert not step.thinking
    assert [(c.name, c.arguments) for c in step.tool_calls] == [("f", {"a": "1"})]


# -- 5: text inside a tool-call section that is no call ---------------------------------

SECTIONS = {
    "kimi": ("<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"),
    "deepseek": ("<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"),
    "dsml": ("<｜DSML｜function_calls>", "</｜DSML｜function_calls>"),
}
CALLS = {
    "kimi": '<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|>',
    "deepseek": '<｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a": 1}<｜tool▁call▁end｜>',
    "dsml": '<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="a" string="false">1'
    "</｜DSML｜parameter>\n</｜DSML｜invoke>",
}


@pytest.mark.parametrize("kind", sorted(SECTIONS))
@pytest.mark.parametrize("closed", [True, False])
def test_text_in_a_section_that_is_no_call_stays_visible(kind: str, closed: bool) -> None:
    family = "deepseek" if kind == "dsml" else kind
    opener, closer = SECTIONS[kind]
    text = f"{opener}hello world {CALLS[kind]}\n and more {CALLS[kind]}"
    text += f"{closer}x" if closed else " end \n"
    events = every_chunking(family, text)
    step = collect(events)
    assert [(c.name, c.arguments) for c in step.tool_calls] == [("f", {"a": 1})] * 2
    expected = "hello world\n and morex" if closed else "hello world\n and more end \n"
    assert step.text == expected
    # only the named marker is hidden (the closer is the last call's raw): every other
    # character is text or a block's raw
    assert conserved(events) == text.replace(opener, "")


@pytest.mark.parametrize("kind", sorted(SECTIONS))
def test_an_unclosed_section_of_text_keeps_its_text(kind: str) -> None:
    family = "deepseek" if kind == "dsml" else kind
    text = SECTIONS[kind][0] + "hello world"
    events = every_chunking(family, text)
    assert collect(events).text == "hello world"


# -- 6: pythonic values JSON cannot hold -------------------------------------------------


@pytest.mark.parametrize("value", ["...", "b'x'", "1j", "1e999", "{1: 2}", "[1, ...]", "-1j"])
def test_pythonic_values_json_cannot_hold_make_a_broken_call(value: str) -> None:
    text = f"[f(a={value}), g(b=1)]"
    events = every_chunking("llama", text)
    assert not [e for e in events if isinstance(e, BlockEnd)]
    [error] = [e for e in events if isinstance(e, BlockError)]
    assert error.raw == text and "JSON" in error.message
    json.dumps([e._asdict() if hasattr(e, "_asdict") else str(e) for e in events], default=str)


def test_pythonic_values_json_holds_are_read() -> None:
    text = "[f(a=(1, 2), b={'k': None}, c=-1.5, d=True)]"
    [call] = collect(every_chunking("llama", text)).tool_calls
    assert call.arguments == {"a": [1, 2], "b": {"k": None}, "c": -1.5, "d": True}
    json.dumps(call.arguments)


# -- calls_in_thinking -----------------------------------------------------------------

THOUGHT_CALL = (
    "<think>I will call f.\n"
    '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>\n'
    "Then answer.</think>Done."
)


def test_calls_in_thinking_are_thinking_by_default() -> None:
    step = collect(every_chunking("qwen3", THOUGHT_CALL))
    assert not step.tool_calls
    assert step.thinking.startswith("I will call f.\n<tool_call>")
    assert step.text == "Done."


def test_calls_in_thinking_opt_in() -> None:
    markup = Markup("qwen3", calls_in_thinking=True)
    events = every_chunking(markup, THOUGHT_CALL)
    assert conserved(events) == THOUGHT_CALL
    step = collect(events)
    assert [(c.name, c.arguments) for c in step.tool_calls] == [("f", {"a": 1})]
    assert step.text == "Done."
    order = [(type(e).__name__, getattr(e, "block_type", None)) for e in events]
    starts = [t for name, t in order if name == "BlockStart"]
    assert starts == ["thinking", "tool_call", "thinking"]  # thinking goes on after it
    assert repr(markup) == "Markup('qwen3', calls_in_thinking=True)"
    assert markup != Markup("qwen3")


def test_calls_in_thinking_in_a_section_and_unclosed_thinking() -> None:
    text = (
        "<think>x <|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
        "<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|> y"
    )
    step = collect(every_chunking(Markup("kimi", calls_in_thinking=True), text))
    assert [c.name for c in step.tool_calls] == ["f"]
    assert step.thinking == "xy"  # two thinking blocks, around the call
    assert step.text == ""


# -- the model name alone: the chat template's default -----------------------------------


@pytest.mark.parametrize(
    ("model", "opened"),
    [(model, opened) for _, opened, _, models in TEMPLATE_THINKING for model in models]
    + [
        ("Qwen/Qwen3-8B", False),
        ("qwen3:8b", False),
        ("meta-llama/Llama-3.3-70B-Instruct", False),
        ("deepseek-ai/DeepSeek-V3-0324", False),
        ("deepseek-ai/DeepSeek-R1-Distill-Llama-8B", True),
        ("google/gemma-4-31B-it", False),
        ("openai/gpt-oss-20b", False),
    ],
)
def test_markup_for_knows_the_template_default(model: str, opened: bool) -> None:
    found = markup_for(model)
    assert found is not None and found.starts_in_thinking is opened
    # a generation prompt, when given, still decides
    closed = markup_for(model, generation_prompt="<|assistant|><think></think>")
    assert closed is not None and not closed.starts_in_thinking


@pytest.mark.parametrize(
    ("model", "text", "thinking", "visible", "calls"),
    [
        ("zai-org/GLM-4.7", "Plan.</think>Hi", "Plan.", "Hi", 0),
        ("zai-org/GLM-5.3", "<tool_call>f</tool_call>", "", "", 1),
        ("moonshotai/Kimi-K2.6", "Plan.</think>Hi", "Plan.", "Hi", 0),
        ("moonshotai/Kimi-K3", "Plan.<|close|>think<|sep|>Hi", "Plan.", "Hi", 0),
        ("Qwen/Qwen3.5-9B", "\n<think>\nPlan.\n</think>\n\nHi", "Plan.", "Hi", 0),
        ("deepseek-ai/DeepSeek-R1", "Plan.</think>Hi", "Plan.", "Hi", 0),
        ("deepseek-ai/DeepSeek-V3.2", "Hi", "", "Hi", 0),
        ("zai-org/GLM-4.5", "<think>Plan.</think>Hi", "Plan.", "Hi", 0),
    ],
)
def test_the_model_name_alone_reads_the_reply(
    model: str, text: str, thinking: str, visible: str, calls: int
) -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup="auto")
    session = processor.session(model=model)
    events = [*session.feed(text), *session.close()]
    step = collect(events)
    assert (step.thinking, step.text, len(step.tool_calls)) == (thinking, visible, calls)


# -- 1: a body's parse is linear, and counted by Session.examined -------------------------

HOSTILE = {
    "qwen3": (
        "<tool_call>\n<function=f>",
        "\n<parameter=a>x</parameter>y",
        "\n</function>\n</tool_call>",
    ),
    "deepseek": (
        '<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">',
        '\n<｜DSML｜parameter name="a" string="true">x</｜DSML｜parameter>',
        "\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
    ),
    "glm": (
        "<tool_call>f",
        "<arg_key>a</arg_key><arg_value>x</parameter>y</arg_value>",
        "</tool_call>",
    ),
    "kimi": (
        '<|open|>tools<|sep|><|open|>call tool="f"<|sep|>',
        '<|open|>argument key="a"<|sep|>x<|close|>argument<|sep|>',
        "<|close|>call<|sep|><|close|>tools<|sep|>",
    ),
}


def examined(family: str, repeats: int, size: int) -> tuple[int, int]:
    head, item, tail = HOSTILE[family]
    text = head + item * repeats + tail
    session = StreamBlockProcessor(BlockRegistry(), markup=family).session()
    events = [e for at in range(0, len(text), size) for e in session.feed(text[at : at + size])]
    events += session.close()
    assert [type(e).__name__ for e in events if isinstance(e, (BlockEnd, BlockError))] == [
        "BlockEnd"
    ]
    return session.examined, len(text)


@pytest.mark.parametrize("family", sorted(HOSTILE))
@pytest.mark.parametrize("size", [1 << 30, 1024])
def test_a_body_of_many_rejected_closers_parses_in_linear_work(family: str, size: int) -> None:
    small, _ = examined(family, 500, size)
    large, large_len = examined(family, 2000, size)
    assert large <= 4.6 * small
    assert large <= 6 * large_len  # one pass to find the end, about one more to parse
    assert large >= 1.9 * large_len  # the parse's pass is counted too
