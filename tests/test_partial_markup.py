"""``BlockDelta.partial`` of model-markup calls: the JSON families with closers inside
their strings, and a tagged family (GLM), at every split.

Markup calls stream their arguments as ``BLOCK_DELTA`` text (DESIGN.md, "Model
markup"); the partial reader attaches to every ``native`` ``tool_call`` block the
session reads, so these hold as soon as the markup reader emits those deltas. Until it
does, the tests skip, saying so.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partial_helpers import ARGUMENTS, assert_monotone
from streamblocks import BlockDelta, BlockEnd, BlockRegistry, StreamBlockProcessor


def qwen3(arguments: dict[str, Any]) -> str:
    call = json.dumps({"name": "f", "arguments": arguments}, ensure_ascii=False)
    return f"Hi <tool_call>\n{call}\n</tool_call> bye"


def mistral(arguments: dict[str, Any]) -> str:
    return f"Hi [TOOL_CALLS]f[ARGS]{json.dumps(arguments)}"


def kimi(arguments: dict[str, Any]) -> str:
    return (
        "Hi <|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
        f"<|tool_call_argument_begin|>{json.dumps(arguments, ensure_ascii=False)}"
        "<|tool_call_end|><|tool_calls_section_end|> bye"
    )


def gpt_oss(arguments: dict[str, Any]) -> str:
    body = json.dumps(arguments, ensure_ascii=False)
    return f"<|channel|>commentary to=functions.f <|constrain|>json<|message|>{body}<|call|>"


JSON_FAMILIES = {"qwen3": qwen3, "mistral": mistral, "kimi": kimi, "gpt-oss": gpt_oss}


def run(family: str, text: str, size: int) -> list[Any]:
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    return list(StreamBlockProcessor(BlockRegistry(), markup=family).process(chunks))


def check_call(events: list[Any], arguments: dict[str, Any]) -> None:
    ends = [e.block for e in events if isinstance(e, BlockEnd) and e.block.type == "tool_call"]
    assert [b.content for b in ends] == [arguments]
    values = [e.partial for e in events if isinstance(e, BlockDelta) and e.block_id == ends[0].id]
    if not values:
        pytest.skip("the markup reader does not stream argument deltas yet (markup branch)")
    assert_monotone(values, arguments)


@pytest.mark.parametrize("family", JSON_FAMILIES)
@settings(max_examples=20, deadline=None)
@given(arguments=ARGUMENTS, size=st.integers(2, 9))
def test_json_families_with_closers_inside_strings(
    family: str, arguments: dict[str, Any], size: int
) -> None:
    text = JSON_FAMILIES[family](arguments)
    for chunk in (1, size):
        check_call(run(family, text, chunk), arguments)


@settings(max_examples=20, deadline=None)
@given(
    arguments=st.dictionaries(
        st.text("abcxyz_", min_size=1, max_size=6),
        st.text(max_size=10).filter(lambda s: "<" not in s).map(lambda s: s + "</tool_call>x"),
        min_size=1,
        max_size=3,
    )
)
def test_a_tagged_family_streams_the_json_it_amounts_to(arguments: dict[str, str]) -> None:
    pairs = "".join(
        f"<arg_key>{k}</arg_key><arg_value>{v}</arg_value>" for k, v in arguments.items()
    )
    text = f"Hi <tool_call>f{pairs}</tool_call> bye"
    check_call(run("glm", text, 1), arguments)
