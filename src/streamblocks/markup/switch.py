"""The request's thinking switch, read from the keyword arguments a client sends: what
:func:`~streamblocks.markup.families.markup_for` takes as ``thinking``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_KEYS = ("thinking", "enable_thinking")
"""The ``chat_template_kwargs`` keys the chat templates read (DeepSeek, Kimi, GLM use
``thinking``; Qwen3, Hunyuan, Nemotron ``enable_thinking``)."""
_MODES = {"enabled": True, "disabled": False}
"""MiniMax M3's ``thinking_mode`` (``"adaptive"``, its default, leaves it to the model)."""


def thinking_of(kwargs: Mapping[str, Any]) -> bool | None:
    """The thinking switch of a request's keyword arguments: ``chat_template_kwargs``
    (at the top or inside ``extra_body``, as the OpenAI SDK sends it) with ``thinking``
    or ``enable_thinking``, or MiniMax M3's ``thinking_mode`` (``"enabled"``,
    ``"disabled"``); else ``reasoning_effort`` (``"none"``: off, any other
    value: on); else Ollama's ``think``. ``None`` when the request says nothing: the
    template's default."""
    for place in (kwargs, kwargs.get("extra_body")):
        if not isinstance(place, Mapping):
            continue
        template = place.get("chat_template_kwargs")
        if isinstance(template, Mapping):
            for key in _KEYS:
                if isinstance(template.get(key), bool):
                    return bool(template[key])
            mode = template.get("thinking_mode")
            if isinstance(mode, str) and mode.strip().lower() in _MODES:
                return _MODES[mode.strip().lower()]
        effort = place.get("reasoning_effort")
        if isinstance(effort, str) and effort:
            return effort.strip().lower() != "none"
        think = place.get("think")
        if isinstance(think, bool):
            return think
        if isinstance(think, str) and think:  # (Ollama's gpt-oss levels: "low"...)
            return True
    return None
