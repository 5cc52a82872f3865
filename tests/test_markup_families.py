"""Family names, Markup, markup_for, and typing values by the tools' schemas."""

from __future__ import annotations

from typing import Any

import pytest

from streamblocks.markup import FAMILIES, Markup, markup_for
from streamblocks.markup.schema import python_literal, tool_schemas, typed


def test_families_and_aliases() -> None:
    names = ("qwen3", "deepseek", "kimi", "glm", "llama", "mistral", "gemma4", "gpt-oss")
    names += ("minimax", "minimax-m3", "seed", "hunyuan", "command", "nemotron", "phi4", "lfm2")
    assert names == FAMILIES
    assert Markup("hermes").family == "qwen3"
    assert Markup("Harmony").family == "gpt-oss"
    assert Markup("glm", starts_in_thinking=True) == Markup("glm", starts_in_thinking=True)


def test_unknown_family_names_it_and_lists_the_families() -> None:
    with pytest.raises(ValueError, match="'qwen2'") as info:
        Markup("qwen2")
    for family in FAMILIES:
        assert repr(family) in str(info.value)


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("Qwen/Qwen3-8B", "qwen3"),
        ("qwen3:8b", "qwen3"),
        ("NousResearch/Hermes-3-Llama-3.1-8B", "qwen3"),
        ("Qwen/Qwen2.5-7B-Instruct", "qwen3"),
        ("Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen3"),
        ("deepseek-ai/DeepSeek-R1", "deepseek"),
        ("deepseek-ai/DeepSeek-V3.2", "deepseek"),
        ("moonshotai/Kimi-K2-Instruct", "kimi"),
        ("zai-org/GLM-4.7", "glm"),
        ("meta-llama/Llama-3.1-8B-Instruct", "llama"),
        ("meta-llama/Llama-4-Scout-17B-16E-Instruct", "llama"),
        ("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistral"),
        ("mistralai/Magistral-Small-2509", "mistral"),
        ("mistralai/Devstral-Small-2507", "mistral"),
        ("mistralai/Ministral-8B-Instruct-2410", "mistral"),
        ("google/gemma-4-31B-it", "gemma4"),
        ("openai/gpt-oss-20b", "gpt-oss"),
        ("gpt-oss:20b", "gpt-oss"),
    ],
)
def test_markup_for_known_models(model: str, family: str) -> None:
    found = markup_for(model)
    assert found is not None and found.family == family


@pytest.mark.parametrize("model", ["gpt-4o", "claude-sonnet-4", "google/gemma-3-27b-it", "phi-4"])
def test_markup_for_other_models_is_none(model: str) -> None:
    assert markup_for(model) is None


@pytest.mark.parametrize(
    ("model", "prompt", "opened"),
    [
        ("deepseek-ai/DeepSeek-R1", None, True),
        ("Qwen/QwQ-32B", None, True),
        ("Qwen/Qwen3-4B-Thinking-2507", None, True),
        ("Qwen/Qwen3-8B", None, False),
        ("Qwen/Qwen3-8B", "<|im_start|>assistant\n<think>\n", True),
        ("Qwen/Qwen3-8B", "<|im_start|>assistant\n<think>\n\n</think>\n\n", False),
        ("zai-org/GLM-4.7", "<|assistant|><think>", True),
        ("moonshotai/Kimi-K3", '<|open|>message role="assistant"<|sep|><|open|>think<|sep|>', True),
        ("mistralai/Magistral-Small-2509", "[/INST][THINK]", True),
        ("deepseek-ai/DeepSeek-R1", "<｜Assistant｜></think>", False),
    ],
)
def test_starts_in_thinking(model: str, prompt: str | None, opened: bool) -> None:
    found = markup_for(model, generation_prompt=prompt)
    assert found is not None and found.starts_in_thinking is opened


class _Tools:
    """Anything with ``schemas("openai")`` (the request helper's ``Tools``)."""

    def schemas(self, dialect: str) -> list[dict[str, Any]]:
        assert dialect == "openai"
        return [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]


def test_tools_from_dicts_and_objects() -> None:
    assert tool_schemas(_Tools()) == {"f": {"type": "object"}}
    assert tool_schemas([{"name": "g"}]) == {"g": {}}
    assert Markup("glm", tools=_Tools()).schemas == {"f": {"type": "object"}}
    with pytest.raises(TypeError):
        tool_schemas(["f"])


@pytest.mark.parametrize(
    ("text", "schema", "value"),
    [
        ("7", {"type": "integer"}, 7),
        ("7", {"type": "string"}, "7"),
        ("7", None, "7"),
        ("02139", {"type": "integer"}, "02139"),
        ("1e20", {"type": "number"}, 1e20),
        ("True", {"type": "boolean"}, True),
        ("false", {"type": "boolean"}, False),
        ("null", {"type": ["string", "null"]}, None),
        ("hello", {"anyOf": [{"type": "integer"}, {"type": "string"}]}, "hello"),
        ("5", {"anyOf": [{"type": "string"}, {"type": "integer"}]}, 5),
        ('{"a": [1]}', {"type": "object"}, {"a": [1]}),
        ("{'a': (1, True)}", {"type": "object"}, {"a": [1, True]}),
        ("[1, 2", {"type": "array"}, "[1, 2"),
        ("x", {"type": "integer"}, "x"),
    ],
)
def test_typed_by_schema(text: str, schema: dict[str, Any] | None, value: Any) -> None:
    assert typed(text, schema) == value


@pytest.mark.parametrize("text", ["__import__('os')", "(lambda: 1)()", "a.b", "[x for x in y]"])
def test_python_literal_evaluates_nothing_else(text: str) -> None:
    with pytest.raises(ValueError, match="literal"):
        python_literal(text)


def test_a_tools_object_types_the_values() -> None:
    from streamblocks.tools import Tools

    def get_weather(city: str, days: int, metric: bool = True) -> str:
        """The weather."""
        return city

    markup = Markup("glm", tools=Tools([get_weather]))
    assert typed("3", markup.schemas["get_weather"]["properties"]["days"]) == 3
    assert typed("3", markup.schemas["get_weather"]["properties"]["city"]) == "3"
