"""The OpenAI events most of a reply is made of — a plain text delta — read directly.

:class:`DirectText` (the adapter's ``text_delta``) answers the text of an event of one
shape (a wire dict, the SDK's ``ChatCompletionChunk``, the SDK's
``ResponseTextDeltaEvent``) when the event is a plain text delta and nothing else the
general reader (:mod:`.adapter`) acts on: one choice, no finish reason, usage, refusal,
reasoning or tool call. ``None`` otherwise: the
general reader takes it. The fields are read as the general reader reads them, so both
answer the same (``tests/adapters/test_direct.py`` holds them to it).
"""

from __future__ import annotations

from typing import Any

from .._base import NO_EVENT
from .types import CHAT_CHUNK_OBJECT

TEXT_DELTA = "response.output_text.delta"


class DirectText:
    """The OpenAI adapter's ``text_delta``: the text of a plain text delta, read
    directly — a wire dict (a Chat Completions chunk whose one choice carries
    ``content`` and nothing the general reader acts on, or a Responses
    ``response.output_text.delta``), the SDK's ``ChatCompletionChunk`` or its
    ``ResponseTextDeltaEvent`` — else ``None`` (the general reader's)."""

    _thinking_open: bool
    _chunk_class: type | None
    _delta_class: type | None
    _last_event: Any

    def text_delta(self, event: Any) -> str | None:
        if self._thinking_open:  # (text closes the thinking block: the general reader's)
            return None
        cls = event.__class__
        if cls is dict:  # (the wire dicts, read here: one call less per delta)
            if event.get("object") == CHAT_CHUNK_OBJECT:
                choices = event.get("choices")
                if (
                    choices.__class__ is not list
                    or len(choices) != 1
                    or event.get("usage") is not None
                    or event.get("moderation") is not None
                ):
                    return None
                choice = choices[0]
                if choice.__class__ is not dict or choice.get("finish_reason"):
                    return None
                delta = choice.get("delta")
                if (
                    choice.get("index") not in (0, None)
                    or delta.__class__ is not dict
                    or not (
                        (len(delta) == 1 and "content" in delta)  # (OpenAI's own, mostly)
                        or delta.keys() <= _PLAIN_DELTA_KEYS
                        or _plain_delta(delta)
                    )
                ):
                    return None
                text = delta.get("content")
            elif event.get("type") == TEXT_DELTA:
                text = event.get("delta")
            else:
                return None
            if text.__class__ is not str or not text:
                return None
        elif cls is self._chunk_class:
            text = chunk_text(event)
        elif cls is self._delta_class:
            text = delta_event_text(event)
        else:
            return None
        if text is not None:
            self._last_event = NO_EVENT
        return text


_PLAIN_DELTA_KEYS = frozenset({"content", "role"})
"""A chat delta with these keys only is plain text (OpenAI's own after the first)."""


def _plain_delta(delta: dict[str, Any]) -> bool:
    """A chat delta whose other keys say nothing: no reasoning, refusal or tool call."""
    return not (
        delta.get("reasoning_content")
        or delta.get("reasoning")
        or delta.get("refusal")
        or delta.get("tool_calls")
        or delta.get("function_call") is not None
    )


def chunk_text(chunk: Any) -> str | None:
    """The text of an SDK ``ChatCompletionChunk`` that is a plain text delta, else ``None``."""
    choices = chunk.choices
    if (
        len(choices) != 1
        or chunk.object != CHAT_CHUNK_OBJECT
        or chunk.usage is not None
        or getattr(chunk, "moderation", None) is not None  # (a field of newer SDKs only)
    ):
        return None
    choice = choices[0]
    if choice.finish_reason or choice.index not in (0, None):
        return None
    delta = choice.delta
    extra = delta.__pydantic_extra__  # (reasoning, from OpenAI-compatible servers)
    if (
        delta.refusal
        or delta.tool_calls
        or delta.function_call is not None
        or (extra and (extra.get("reasoning_content") or extra.get("reasoning")))
    ):
        return None
    text = delta.content
    return text if text.__class__ is str and text else None


def delta_event_text(event: Any) -> str | None:
    """The text of an SDK ``ResponseTextDeltaEvent``, else ``None``."""
    extra = event.__pydantic_extra__
    if event.type != TEXT_DELTA or (extra and "object" in extra):
        return None
    text = event.delta
    return text if text.__class__ is str and text else None
