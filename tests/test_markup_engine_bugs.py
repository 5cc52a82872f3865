"""Issue 38's bugs, one test each, as a user meets them with the model id only: cases
that the engines' own parser tests (vLLM, SGLang, llama.cpp) hold, read through
``markup=`` at every chunking."""

from __future__ import annotations

import json
from typing import Any

import pytest

from streamblocks import BlockRegistry, StreamBlockProcessor, collect
from streamblocks.core.events import BlockDelta, BlockEnd
from streamblocks.markup import FAMILIES, markup_for
from test_markup_findings import every_chunking

# -- gpt-oss: a final message with a content type shows no header ------------------------


@pytest.mark.parametrize(
    "header",
    [
        "<|channel|>final<|constrain|>json<|message|>",
        "<|channel|>final <|constrain|>json<|message|>",
        "<|channel|>final json<|message|>",
    ],
)
def test_gpt_oss_final_message_with_a_content_type_hides_its_header(header: str) -> None:
    text = f'<|channel|>analysis<|message|>JSON it is.<|end|><|start|>assistant{header}{{"a": 1}}'
    step = collect(every_chunking("gpt-oss", text))
    assert step.thinking == "JSON it is."
    assert step.text == '{"a": 1}'


# -- Qwen3 Thinking models whose template opens thinking -----------------------------------


@pytest.mark.parametrize(
    "model",
    [
        "Qwen/Qwen3-Next-80B-A3B-Thinking",
        "Qwen/Qwen3-VL-8B-Thinking",
        "Qwen/Qwen3-VL-235B-A22B-Thinking",
        "Qwen/Qwen3-4B-Thinking-2507",
    ],
)
def test_qwen3_thinking_models_open_thinking_by_template_default(model: str) -> None:
    found = markup_for(model)
    assert found is not None and found.starts_in_thinking
    step = collect(every_chunking(found, "Work it out.\n</think>\n\nThe answer is 4."))
    assert (step.thinking, step.text) == ("Work it out.", "The answer is 4.")


def test_qwen3_instruct_and_hybrid_models_do_not() -> None:
    for model in ("Qwen/Qwen3-Next-80B-A3B-Instruct", "Qwen/Qwen3-VL-8B-Instruct", "Qwen/Qwen3-8B"):
        found = markup_for(model)
        assert found is not None and not found.starts_in_thinking, model


# -- Llama 3.1's built-in tools ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "arguments"),
    [
        (
            '<|python_tag|>brave_search.call(query="weather in Paris")<|eom_id|>',
            "brave_search",
            {"query": "weather in Paris"},
        ),
        (
            '<|python_tag|>wolfram_alpha.call(query="solve x^2 + 2x = 0")',
            "wolfram_alpha",
            {"query": "solve x^2 + 2x = 0"},
        ),
        (
            '<|python_tag|>code_interpreter.call(code="print(\\"a, b)\\")")<|eom_id|>',
            "code_interpreter",
            {"code": 'print("a, b)")'},
        ),
        (
            "<|python_tag|>brave_search.call(query='x', count=3)",
            "brave_search",
            {"query": "x", "count": 3},
        ),
    ],
)
def test_llama_built_in_tool_calls_are_calls(
    text: str, name: str, arguments: dict[str, Any]
) -> None:
    events = every_chunking("llama", text)
    step = collect(events)
    assert [(c.name, c.arguments) for c in step.tool_calls] == [(name, arguments)]
    assert step.text == ""
    deltas = "".join(e.text for e in events if isinstance(e, BlockDelta))
    assert json.loads(deltas) == arguments
    [end] = [e for e in events if isinstance(e, BlockEnd)]
    assert end.block.content == arguments


def test_a_llama_json_call_after_the_python_tag_still_reads() -> None:
    text = '<|python_tag|>{"name": "f", "parameters": {"a": 1}}<|eom_id|>'
    step = collect(every_chunking("llama", text))
    assert [(c.name, c.arguments) for c in step.tool_calls] == [("f", {"a": 1})]


# -- markup= takes a model id ---------------------------------------------------------------


def test_markup_takes_a_model_id() -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup="Qwen/Qwen3-4B-Thinking-2507")
    session = processor.session()
    events = [*session.feed("Plan.</think>Hi"), *session.close()]
    step = collect(events)
    assert (step.thinking, step.text) == ("Plan.", "Hi")
    processor = StreamBlockProcessor(BlockRegistry(), markup="Qwen/Qwen3-8B")
    session = processor.session()
    events = [*session.feed('<tool_call>{"name": "f", "arguments": {}}</tool_call>')]
    assert [c.name for c in collect([*events, *session.close()]).tool_calls] == ["f"]


def test_an_unknown_markup_names_both_ways_and_the_families() -> None:
    with pytest.raises(ValueError, match="unknown") as raised:
        StreamBlockProcessor(BlockRegistry(), markup="acme/NoSuchModel-7B")
    message = str(raised.value)
    assert "markup_for" in message and "'auto'" in message
    assert all(repr(family) in message for family in FAMILIES)
