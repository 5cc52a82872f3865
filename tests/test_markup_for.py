"""``markup_for``: the family of a model id (the families of issue 38 too) and the
request's thinking switch."""

from __future__ import annotations

import pytest

from streamblocks import BlockRegistry, StreamBlockProcessor, collect
from streamblocks.markup import FAMILIES, markup_for, thinking_of
from streamblocks.markup.families import TEMPLATE_THINKING


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("MiniMaxAI/MiniMax-M2", "minimax"),
        ("MiniMaxAI/MiniMax-M2.5", "minimax"),
        ("MiniMaxAI/MiniMax-M3", "minimax-m3"),
        ("MiniMaxAI/MiniMax-M3-MXFP8", "minimax-m3"),
        ("ByteDance-Seed/Seed-OSS-36B-Instruct", "seed"),
        ("tencent/Hunyuan-A13B-Instruct", "hunyuan"),
        ("CohereLabs/command-a-reasoning-08-2025", "command"),
        ("CohereLabs/c4ai-command-r7b-12-2024", "command"),
        ("nvidia/NVIDIA-Nemotron-Nano-9B-v2", "nemotron"),
        ("nvidia/Llama-3.3-Nemotron-Super-49B-v1.5", "nemotron"),
        ("nvidia/Llama-3.1-Nemotron-Nano-8B-v1", "nemotron"),
        ("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B", "qwen3"),
        ("microsoft/Phi-4-mini-instruct", "phi4"),
        ("LiquidAI/LFM2-1.2B-Tool", "lfm2"),
        ("LiquidAI/LFM2.5-1.2B-Thinking", "lfm2"),
        ("ibm-granite/granite-4.0-h-small", "qwen3"),
        ("stepfun-ai/Step-3.5-Flash", "qwen3"),
        ("meta-llama/Llama-3.1-8B-Instruct", "llama"),
        ("acme/Unknown-7B", None),
    ],
)
def test_model_ids_name_their_family(model: str, family: str | None) -> None:
    found = markup_for(model)
    assert (found.family if found is not None else None) == family


def test_every_family_has_a_grammar_and_a_model() -> None:
    from streamblocks.markup.formats import GRAMMARS

    assert set(GRAMMARS) == set(FAMILIES)


@pytest.mark.parametrize(
    ("model", "default", "on"),
    [(model, default, on) for _, default, on, models in TEMPLATE_THINKING for model in models]
    + [("Qwen/Qwen3-8B", False, False), ("ByteDance-Seed/Seed-OSS-36B-Instruct", False, False)],
)
def test_the_thinking_switch_decides_where_the_template_says(
    model: str, default: bool, on: bool
) -> None:
    def opened(thinking: bool | None) -> bool:
        found = markup_for(model, thinking=thinking)
        assert found is not None
        return found.starts_in_thinking

    assert (opened(None), opened(True), opened(False)) == (default, on, False)


def test_a_generation_prompt_still_wins_over_the_switch() -> None:
    found = markup_for("deepseek-ai/DeepSeek-V3.2", thinking=False, generation_prompt="<think>")
    assert found is not None and found.starts_in_thinking


def test_deepseek_with_thinking_on_reads_the_reply_as_thinking_first() -> None:
    text = "The user wants 4.</think>4"
    for thinking, expected in ((True, ("The user wants 4.", "4")), (None, ("", text))):
        markup = markup_for("deepseek-ai/DeepSeek-V3.2", thinking=thinking)
        processor = StreamBlockProcessor(BlockRegistry(), markup=markup)
        step = collect([text], processor=processor)
        assert (step.thinking, step.text) == expected


@pytest.mark.parametrize(
    ("kwargs", "switch"),
    [
        ({}, None),
        ({"extra_body": {"chat_template_kwargs": {"thinking": True}}}, True),
        ({"extra_body": {"chat_template_kwargs": {"enable_thinking": False}}}, False),
        ({"chat_template_kwargs": {"enable_thinking": True}}, True),
        ({"reasoning_effort": "high"}, True),
        ({"reasoning_effort": "none"}, False),
        ({"extra_body": {"reasoning_effort": "low"}}, True),
        ({"think": False}, False),
        ({"think": "medium"}, True),
        ({"extra_body": {"chat_template_kwargs": {"other": 1}}}, None),
    ],
)
def test_thinking_of_reads_the_request_switch(
    kwargs: dict[str, object], switch: bool | None
) -> None:
    assert thinking_of(kwargs) is switch


def test_the_switch_is_stated_once() -> None:
    kwargs = {"extra_body": {"chat_template_kwargs": {"thinking": True}}}
    markup = markup_for("deepseek-ai/DeepSeek-V3.2", thinking=thinking_of(kwargs))
    assert markup is not None and markup.starts_in_thinking
