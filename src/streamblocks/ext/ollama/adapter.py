"""Ollama input adapter: ``ChatResponse`` / ``GenerateResponse`` stream chunks."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ...adapters.protocols import EventCategory, Native, NativeDelta, NativeEnd, NativeStart
from ...core.events import StopReason, Usage
from .._base import (
    NO_EVENT,
    SKIP,
    ProviderAdapter,
    Step,
    as_int,
    direct_step,
    field,
    sdk_class,
    tool_call_start,
)
from .types import DONE_REASONS, RESPONSE_TYPES

_THINKING_KEY = "thinking"


def _usage(event: Any) -> Usage | None:
    prompt = as_int(field(event, "prompt_eval_count"))
    output = as_int(field(event, "eval_count"))
    if prompt is None and output is None:
        return None
    total = (prompt or 0) + (output or 0)
    return Usage(input_tokens=prompt, output_tokens=output, total_tokens=total)


def _is_wire_chunk(event: Any) -> bool:
    """A chunk of Ollama's REST API as JSON: ``model``, ``created_at``, ``done`` and a
    ``message`` (``/api/chat``) or a ``response`` (``/api/generate``)."""
    if not isinstance(event, Mapping):
        return False
    if not ("model" in event and "created_at" in event and "done" in event):
        return False
    return isinstance(event.get("message"), Mapping) or isinstance(event.get("response"), str)


def _direct_text(event: Any, chat: type | None, generate: type | None) -> str | None:
    """The text of a chunk that carries only text (a wire dict of ``/api/chat`` or
    ``/api/generate``, or the SDK's ``ChatResponse``/``GenerateResponse``), else ``None``:
    the general reader's."""
    cls = event.__class__
    if cls is dict:
        if event.get("done") is True:
            return None
        message = event.get("message")
        if message is None:
            source, key = event, "response"
        elif message.__class__ is dict:
            source, key = message, "content"
            if message.get("tool_calls"):
                return None
        else:
            return None
        if source.get("thinking"):
            return None
        text = source.get(key)
    elif cls is chat:
        message = event.message
        if event.done is True or message.thinking or message.tool_calls:
            return None
        text = message.content
    elif cls is generate:
        if event.done is True or event.thinking:
            return None
        text = event.response
    else:
        return None
    return text if text.__class__ is str and text else None


class OllamaInputAdapter(ProviderAdapter):
    """Reads ``ollama.Client``/``AsyncClient`` streams of ``chat()`` and ``generate()``.

    ``message.content`` (chat) or ``response`` (generate) is text; ``thinking`` (with
    ``think=True``) is a ``thinking`` block, never text; each of ``message.tool_calls``
    arrives whole: a ``tool_call`` block with one delta, its ``arguments`` as JSON text
    (the object itself is the content).
    The last chunk (``done``) carries ``done_reason`` and the token counts:
    ``prompt_eval_count`` is ``input_tokens``, ``eval_count`` is ``output_tokens``.
    """

    _thinking_open: bool
    _calls: int

    def _reset(self) -> None:
        self._chat_class = sdk_class("ollama._types", "ChatResponse")
        self._generate_class = sdk_class("ollama._types", "GenerateResponse")
        self._thinking_open = False
        self._calls = 0

    def matches(self, event: Any) -> bool:
        try:
            cls = type(event)
            if cls.__module__.startswith("ollama"):
                return cls.__name__ in RESPONSE_TYPES
            return _is_wire_chunk(event)
        except Exception:
            return False

    def _close_thinking(self, natives: list[Native]) -> None:
        if self._thinking_open:
            self._thinking_open = False
            natives.append(NativeEnd(_THINKING_KEY))

    def text_delta(self, event: Any) -> str | None:
        """The text of a chunk that carries only text, else ``None``."""
        if self._thinking_open:
            return None
        text = _direct_text(event, self._chat_class, self._generate_class)
        if text is not None:
            self._last_event = NO_EVENT
        return text

    def _direct(self, event: Any) -> Step | None:
        return direct_step(self.text_delta(event))

    def _general(self, event: Any) -> Step:
        natives: list[Native] = []
        message = field(event, "message")
        source = message if message is not None else event
        thinking = field(source, "thinking")
        if isinstance(thinking, str) and thinking:
            if not self._thinking_open:
                self._thinking_open = True
                natives.append(NativeStart(_THINKING_KEY, "thinking"))
            natives.append(NativeDelta(_THINKING_KEY, thinking))
        text = field(source, "content" if message is not None else "response")
        if not isinstance(text, str):
            text = ""
        if text:
            self._close_thinking(natives)
        for call in (field(message, "tool_calls") if message is not None else None) or ():
            self._close_thinking(natives)
            natives.extend(self._call(call))
        stop: StopReason | None = None
        usage: Usage | None = None
        if field(event, "done") is True:
            self._close_thinking(natives)
            reason = field(event, "done_reason")
            stop = DONE_REASONS.get(str(reason), StopReason.unknown)
            if stop is StopReason.end_turn and self._calls:
                stop = StopReason.tool_use
            usage = _usage(event)
        category = EventCategory.TEXT_CONTENT if text else EventCategory.SKIP
        if not natives and stop is None and not text:
            return SKIP
        return Step(category, text, natives, stop, usage)

    def _call(self, call: Any) -> list[Native]:
        self._calls += 1
        key = ("tool_call", self._calls)
        function = field(call, "function")
        name = field(function, "name") if function is not None else None
        args = field(function, "arguments") if function is not None else None
        start = tool_call_start(key, field(call, "id"), name)
        if isinstance(args, str):  # an OpenAI-style JSON string: parsed like a delta
            return [start, NativeDelta(key, args), NativeEnd(key)]
        content = dict(args) if isinstance(args, Mapping) else {}
        # The arguments as JSON text too, so they stream like every provider's
        # (``BlockDelta.partial``, AG-UI ``TOOL_CALL_ARGS``); the object stays the content.
        text = json.dumps(content, ensure_ascii=False, default=str)
        return [start, NativeDelta(key, text), NativeEnd(key, content)]
