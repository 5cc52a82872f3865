"""The model families, :class:`Markup` and :func:`markup_for`.

A family names the markup one group of open-weight models writes into its reply text
(thinking, tool calls). :class:`Markup` is a family configured for one request: whether
the prompt already opened thinking, and which tools were offered (their JSON schemas
type the argument values that some formats write as bare text).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .schema import ToolSchemas, tool_schemas

FAMILIES: tuple[str, ...] = (
    "qwen3",
    "deepseek",
    "kimi",
    "glm",
    "llama",
    "mistral",
    "gemma4",
    "gpt-oss",
    "minimax",
    "minimax-m3",
    "seed",
    "hunyuan",
    "command",
    "nemotron",
    "phi4",
    "lfm2",
)
"""The family names ``markup=`` and :class:`Markup` accept (besides the aliases)."""

ALIASES: Mapping[str, str] = {"hermes": "qwen3", "harmony": "gpt-oss"}
"""Other names of a family."""


def family_name(name: str) -> str:
    """The family ``name`` stands for (an alias resolved); ``ValueError`` otherwise."""
    if not isinstance(name, str):
        raise TypeError(f"a markup family is a str, got {type(name).__name__}")
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in FAMILIES:
        raise ValueError(unknown(name))
    return key


def unknown(name: str) -> str:
    """The message for a ``markup=`` value that is neither a family nor a known model."""
    aliases = ", ".join(f"{alias!r} (= {to!r})" for alias, to in ALIASES.items())
    return (
        f"unknown markup family or model {name!r}: use one of "
        f"{', '.join(map(repr, FAMILIES))} or an alias ({aliases}); for a model id, "
        "markup_for(model_id, thinking=...) or markup='auto' (the model the stream names)"
    )


MARKERS: tuple[tuple[str, str], ...] = (
    ("]<]minimax[>[<tool_call>", "minimax-m3"),
    ("<mm:think>", "minimax-m3"),
    ("<arg_key>", "glm"),
    ("<tool_call>", "qwen3"),
    ("<function=", "qwen3"),
    ("<\uff5ctool\u2581calls\u2581begin\uff5c>", "deepseek"),
    ("<\uff5cDSML\uff5c", "deepseek"),
    ("<|tool_calls_section_begin|>", "kimi"),
    ("<|open|>think", "kimi"),
    ("[TOOL_CALLS]", "mistral"),
    ("[THINK]", "mistral"),
    ("<|tool_call>call:", "gemma4"),
    ("<|channel>thought", "gemma4"),
    ("<|channel|>analysis", "gpt-oss"),
    ("<|channel|>commentary", "gpt-oss"),
    ("<minimax:tool_call>", "minimax"),
    ("<seed:tool_call>", "seed"),
    ("<seed:think>", "seed"),
    ("<tool_sep>", "hunyuan"),
    ("<tool_calls>", "hunyuan"),
    ("<|START_ACTION|>", "command"),
    ("<|START_THINKING|>", "command"),
    ("<TOOLCALL>", "nemotron"),
    ("functools[", "phi4"),
    ("<|tool_call_start|>", "lfm2"),
    ("<|python_tag|>", "llama"),
    ("<|python_start|>", "llama"),
    ("<think>", "qwen3"),
    ("</think>", "qwen3"),
)
"""Text that only a family's markup writes, most telling first (``<think>`` is written by
several families: qwen3 stands for them)."""


def sniff_family(text: str) -> tuple[str, str] | None:
    """``(family, marker)`` of the first entry of :data:`MARKERS` found in ``text``: a
    reply read without ``markup=`` that holds model markup. A hint, not a parse."""
    for marker, family in MARKERS:
        if marker in text:
            return family, marker
    return None


class MarkupHint:
    """Watches a stream's visible text for model markup, across chunk boundaries;
    :meth:`feed` answers a one-line hint once, then nothing."""

    __slots__ = ("done", "tail")

    KEEP = max(len(marker) for marker, _ in MARKERS) - 1

    def __init__(self) -> None:
        self.tail = ""
        self.done = False

    def feed(self, text: str) -> str | None:
        if self.done or not text:
            return None
        window = self.tail + text
        found = sniff_family(window)
        self.tail = window[-self.KEEP :]
        if found is None:
            return None
        self.done = True
        family, marker = found
        return (
            f"looks like {family} markup ({marker}); try --markup auto, or --markup {family} "
            "when the stream names no model"
        )


class Markup:
    """One family's markup, configured for a request.

    ``starts_in_thinking``: the chat template opened thinking in the prompt, so the reply
    begins inside it (only the closer appears). ``tools``: the tools offered, as
    OpenAI-format tool dicts or an object with ``schemas("openai")``; their JSON schemas
    type the values that a format writes as text. ``calls_in_thinking``: a tool call
    written inside thinking is a call (by default it is thinking text: models draft
    calls while they think).
    """

    __slots__ = ("calls_in_thinking", "family", "schemas", "starts_in_thinking", "tools")

    def __init__(
        self,
        family: str,
        *,
        starts_in_thinking: bool = False,
        tools: Any = None,
        calls_in_thinking: bool = False,
    ):
        self.family = family_name(family)
        self.starts_in_thinking = bool(starts_in_thinking)
        self.calls_in_thinking = bool(calls_in_thinking)
        self.tools = tools
        self.schemas: ToolSchemas = tool_schemas(tools)

    def __repr__(self) -> str:
        extra = ", starts_in_thinking=True" if self.starts_in_thinking else ""
        extra += ", calls_in_thinking=True" if self.calls_in_thinking else ""
        tools = f", tools=[{len(self.schemas)} tools]" if self.schemas else ""
        return f"Markup({self.family!r}{extra}{tools})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Markup):
            return NotImplemented
        return (self.family, self.starts_in_thinking, self.calls_in_thinking, self.schemas) == (
            other.family,
            other.starts_in_thinking,
            other.calls_in_thinking,
            other.schemas,
        )

    def __hash__(self) -> int:
        return hash((self.family, self.starts_in_thinking))


# Model ids → family: the first pattern that matches the lower-cased id (the part after
# the last "/" of a hub id, or an Ollama name like "qwen3:8b") wins.
_MODEL_FAMILIES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), family)
    for pattern, family in (
        (r"gpt-oss", "gpt-oss"),
        (r"minimax-m[3-9]", "minimax-m3"),
        (r"minimax-m2", "minimax"),
        (r"seed-oss", "seed"),
        (r"hunyuan|(?:^|[/-])hy-?3", "hunyuan"),
        (r"command-(?:a|r7b)", "command"),
        (r"nemotron-3|nemotron-nano-3", "qwen3"),
        (r"nemotron", "nemotron"),
        (r"phi-?4-mini", "phi4"),
        (r"lfm-?2", "lfm2"),
        (r"granite|step-?3\.5|step3p5", "qwen3"),
        (r"deepseek", "deepseek"),
        (r"kimi", "kimi"),
        (r"glm", "glm"),
        (r"gemma-?4", "gemma4"),
        (r"mistral|magistral|devstral|ministral|mixtral|codestral|pixtral", "mistral"),
        (r"hermes|qwen|qwq", "qwen3"),
        (r"llama", "llama"),
    )
)

TEMPLATE_THINKING: tuple[tuple[str, bool, bool, tuple[str, ...]], ...] = (
    (r"deepseek-r1", True, True, ("deepseek-ai/DeepSeek-R1", "deepseek-ai/DeepSeek-R1-0528")),
    (
        r"deepseek-v(?:3\.[1-9]|[4-9])",
        False,
        True,
        ("deepseek-ai/DeepSeek-V3.1", "deepseek-ai/DeepSeek-V3.2", "deepseek-ai/DeepSeek-V4-Flash"),
    ),
    (r"qwq", True, True, ("Qwen/QwQ-32B",)),
    (
        r"qwen3-.*thinking",
        True,
        True,
        (
            "Qwen/Qwen3-4B-Thinking-2507",
            "Qwen/Qwen3-235B-A22B-Thinking-2507",
            "Qwen/Qwen3-Next-80B-A3B-Thinking",
            "Qwen/Qwen3-VL-8B-Thinking",
        ),
    ),
    (r"qwen3-coder", False, False, ("Qwen/Qwen3-Coder-30B-A3B-Instruct", "Qwen/Qwen3-Coder-Next")),
    (
        r"qwen-?(?:3\.[5-9]|[4-9])",
        True,
        True,
        ("Qwen/Qwen3.5-9B", "Qwen/Qwen3.8-27B", "qwen3.5:9b"),
    ),
    (r"glm-?4\.[0-6]", False, False, ("zai-org/GLM-4.5", "zai-org/GLM-4.6")),
    (r"glm-?(?:4\.[7-9]|[5-9])", True, True, ("zai-org/GLM-4.7", "zai-org/GLM-5.3")),
    (
        r"kimi-k2-instruct",
        False,
        False,
        ("moonshotai/Kimi-K2-Instruct", "moonshotai/Kimi-K2-Instruct-0905"),
    ),
    (r"kimi-k(?:2\.[6-9]|[3-9])", True, True, ("moonshotai/Kimi-K2.6", "moonshotai/Kimi-K3")),
    (r"minimax-m2", True, True, ("MiniMaxAI/MiniMax-M2", "MiniMaxAI/MiniMax-M2.5")),
    (r"minimax-m[3-9]", False, True, ("MiniMaxAI/MiniMax-M3",)),
    (
        r"nemotron-(?:nano-(?:9b|12b)-v2|3|nano-3)",
        True,
        True,
        ("nvidia/NVIDIA-Nemotron-Nano-9B-v2", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B"),
    ),
)
"""Chat-template defaults: ``(pattern, opens thinking by default, opens it when the
request turns thinking on, model ids)``. The first pattern found in the lower-cased model
id says whether that model's chat template opens thinking in the prompt when the request
says nothing, and when it asks for thinking; a request that turns thinking off never
leaves it open. A model no pattern matches opens none (a hybrid model such as Qwen3-8B
writes its own ``<think>``)."""

_TEMPLATE = re.compile("|".join(f"({row[0]})" for row in TEMPLATE_THINKING))


def template_opens_thinking(model_id: str, thinking: bool | None = None) -> bool:
    """Whether the chat template of ``model_id`` opens thinking in the prompt, for a
    request whose thinking switch is ``thinking`` (``None``: the template's default)."""
    if thinking is False:
        return False
    found = _TEMPLATE.search(model_id.strip().lower())
    if found is None:
        return False
    row = TEMPLATE_THINKING[found.lastindex - 1]  # type: ignore[operator]
    return row[1] if thinking is None else row[2]


# The opening and closing thinking markers each family's templates write.
_THINKING_MARKERS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "mistral": (("[THINK]",), ("[/THINK]",)),
    "gemma4": (("<|channel>thought",), ("<channel|>",)),
    "kimi": (("<think>", "<|open|>think<|sep|>"), ("</think>", "<|close|>think<|sep|>")),
    "gpt-oss": (("<|channel|>analysis<|message|>",), ("<|end|>",)),
    "seed": (("<seed:think>",), ("</seed:think>",)),
    "minimax-m3": (("<mm:think>",), ("</mm:think>",)),
    "command": (("<|START_THINKING|>",), ("<|END_THINKING|>",)),
}
_THINK = (("<think>",), ("</think>",))


def model_family(model_id: str) -> str | None:
    """The family of a hub or Ollama model id, or ``None``."""
    name = model_id.strip().lower()
    for pattern, family in _MODEL_FAMILIES:
        if pattern.search(name):
            return family
    return None


def thinking_is_open(family: str, generation_prompt: str) -> bool:
    """Whether ``generation_prompt`` (the text the chat template appended) leaves thinking
    open: its last thinking marker is an opener."""
    openers, closers = _THINKING_MARKERS.get(family, _THINK)
    last_open = max(generation_prompt.rfind(marker) for marker in openers)
    last_close = max(generation_prompt.rfind(marker) for marker in closers)
    return last_open > last_close


def markup_for(
    model_id: str,
    *,
    thinking: bool | None = None,
    generation_prompt: str | None = None,
    tools: Any = None,
) -> Markup | None:
    """The :class:`Markup` of the model ``model_id`` (a hub id such as
    ``"Qwen/Qwen3-8B"`` or an Ollama name such as ``"qwen3:8b"``), or ``None`` when no
    family is known for it.

    ``starts_in_thinking`` is read from ``generation_prompt`` when given, else from the
    model's chat template (:data:`TEMPLATE_THINKING`) for the request's thinking switch
    ``thinking`` (``True`` / ``False``; ``None``: the template's default): a client
    usually knows only the model's name and whether it asked for thinking.
    """
    family = model_family(model_id)
    if family is None:
        return None
    if generation_prompt is not None:
        opened = thinking_is_open(family, generation_prompt)
    else:
        opened = template_opens_thinking(model_id, thinking)
    return Markup(family, starts_in_thinking=opened, tools=tools)
