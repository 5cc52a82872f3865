"""Gemini input adapter: google-genai ``GenerateContentResponse`` stream chunks."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from typing import Any

from ...adapters.protocols import EventCategory, Native, NativeDelta, NativeEnd, NativeStart
from ...core.events import StopReason, Usage
from .._base import (
    NO_EVENT,
    SKIP,
    ProviderAdapter,
    Step,
    as_int,
    enum_value,
    field,
    field2,
    sdk_class,
    text_step,
    tool_call_start,
)
from .partial_args import ArgumentText
from .types import FINISH_REASONS

_THOUGHT_KEY = "thought"


def _usage(raw: Any) -> Usage | None:
    if raw is None:
        return None
    candidates = as_int(field2(raw, "candidates_token_count", "candidatesTokenCount"))
    thoughts = as_int(field2(raw, "thoughts_token_count", "thoughtsTokenCount"))
    output = None
    if candidates is not None or thoughts is not None:
        output = (candidates or 0) + (thoughts or 0)
    return Usage(
        input_tokens=as_int(field2(raw, "prompt_token_count", "promptTokenCount")),
        output_tokens=output,
        total_tokens=as_int(field2(raw, "total_token_count", "totalTokenCount")),
        cache_read_tokens=as_int(
            field2(raw, "cached_content_token_count", "cachedContentTokenCount")
        ),
        reasoning_tokens=thoughts,
    )


def _signature(part: Any) -> str | None:
    raw = field2(part, "thought_signature", "thoughtSignature")
    if isinstance(raw, bytes):
        return base64.b64encode(raw).decode("ascii")
    return raw if isinstance(raw, str) else None


def _gemini_shaped(obj: Any) -> bool:
    """An object with Gemini's response shape (``candidates[0].content.parts`` and a
    ``finish_reason``) from another SDK: Vertex AI's ``GenerationResponse``, the
    proto-plus ``GenerateContentResponse`` of google-generativeai."""
    candidates = getattr(obj, "candidates", None)
    if candidates is None or isinstance(candidates, (str, bytes, Mapping)):
        return False
    try:
        first = candidates[0]
    except (IndexError, KeyError, TypeError):
        return False
    parts = getattr(getattr(first, "content", None), "parts", None)
    if parts is None or isinstance(parts, (str, bytes)):
        return False
    return hasattr(first, "finish_reason")


_GEMINI_MODULES = ("google.genai", "google.ai.generativelanguage")
"""google-genai, and the proto-plus types of google-ai-generativelanguage (google-generativeai):
their ``GenerateContentResponse`` is Gemini's, whatever it holds (a usage-only chunk too)."""


def _text_and_candidates(obj: Any) -> bool:
    """Any object with a ``text`` and a ``candidates`` attribute (the response shape of
    Gemini's SDKs and their wrappers), looked up without evaluating a property."""

    def has(name: str) -> bool:
        return hasattr(type(obj), name) or name in getattr(obj, "__dict__", {})

    if not (has("text") and has("candidates")):
        return False
    candidates = getattr(obj, "candidates", None)
    return not isinstance(candidates, (str, bytes, Mapping))


def _reason(value: Any) -> str | None:
    """A finish reason's name: proto-plus enums are ints named like google-genai's."""
    if isinstance(value, int) and hasattr(value, "name"):
        return str(value.name)
    return enum_value(value)


def _plain(value: Any) -> Any:
    """Function-call arguments as plain dicts and lists (proto maps and lists are not)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return [_plain(v) for v in value]
    return value


def _dict_text(event: dict[str, Any]) -> str | None:
    """The text of a wire chunk whose first candidate is one plain text part and which
    reports no finish reason or prompt feedback (either key spelling), else ``None``."""
    candidates = event.get("candidates")
    if (
        candidates.__class__ is not list
        or not candidates
        or event.get("promptFeedback") is not None
        or event.get("prompt_feedback") is not None
    ):
        return None
    candidate = candidates[0]
    if (
        candidate.__class__ is not dict
        or candidate.get("finishReason") is not None
        or candidate.get("finish_reason") is not None
    ):
        return None
    content = candidate.get("content")
    parts = content.get("parts") if content.__class__ is dict else None
    if parts.__class__ is not list or len(parts) != 1:
        return None
    part = parts[0]
    if (
        part.__class__ is not dict
        or part.get("thought")
        or part.get("functionCall") is not None
        or part.get("function_call") is not None
    ):
        return None
    text = part.get("text")
    return text if text.__class__ is str and text else None


def _response_text(event: Any) -> str | None:
    """:func:`_dict_text` for the SDK's ``GenerateContentResponse``, read by attribute."""
    candidates = event.candidates
    if not candidates or event.prompt_feedback is not None:
        return None
    candidate = candidates[0]
    content = candidate.content
    if candidate.finish_reason is not None or content is None:
        return None
    parts = content.parts
    if parts is None or len(parts) != 1:
        return None
    part = parts[0]
    if part.thought or part.function_call is not None:
        return None
    text = part.text
    return text if text.__class__ is str and text else None


class GeminiInputAdapter(ProviderAdapter):
    """Reads google-genai ``generate_content_stream`` chunks, sync or async.

    Each chunk is a ``GenerateContentResponse``; the text parts of the first candidate
    are text. Parts marked ``thought`` are a ``thinking`` block, never text; each
    ``function_call`` part is a ``tool_call`` block whose arguments stream as JSON text:
    whole (``args``) in one delta, or, when the request asked for
    ``stream_function_call_arguments`` (Vertex AI), piece by piece from the calls'
    ``partial_args`` until a part without ``will_continue`` ends the call.
    The finish reason and the (cumulative) usage metadata come from the last chunks.
    Chunks carrying only other parts (images, code execution) pass through. Usage
    reports ``output_tokens`` as candidate plus thought tokens, as the other providers do.
    """

    _thinking_open: bool
    _calls: int
    _called: bool
    _thought_signature: str | None
    _streaming: tuple[Any, ArgumentText] | None

    def _reset(self) -> None:
        self._response_class = sdk_class("google.genai.types", "GenerateContentResponse")
        self._thinking_open = False
        self._thought_signature = None
        self._calls = 0
        self._called = False
        self._streaming = None  # the call whose arguments are streaming: key, text

    def matches(self, event: Any) -> bool:
        try:
            cls = type(event)
            if cls.__module__.startswith(_GEMINI_MODULES):
                return cls.__name__ == "GenerateContentResponse"
            if not isinstance(event, dict):
                return _gemini_shaped(event) or _text_and_candidates(event)
            if isinstance(event.get("candidates"), list):
                return True
            if "promptFeedback" in event or "prompt_feedback" in event:
                return True
            has_usage = "usageMetadata" in event or "usage_metadata" in event
            return has_usage and ("modelVersion" in event or "model_version" in event)
        except Exception:
            return False

    def _close_thinking(self, natives: list[Native]) -> None:
        if self._thinking_open:
            self._thinking_open = False
            signature, self._thought_signature = self._thought_signature, None
            attrs = {"signature": signature} if signature else None
            natives.append(NativeEnd(_THOUGHT_KEY, None, attrs))

    def text_delta(self, event: Any) -> str | None:
        """The text of a chunk that is a plain text delta and reports no usage, else
        ``None`` (a chunk with usage metadata is read by :meth:`_direct`)."""
        if self._thinking_open or self._streaming:
            return None
        cls = event.__class__
        if cls is dict:
            if event.get("usageMetadata") is not None or event.get("usage_metadata") is not None:
                return None
            text = _dict_text(event)
        elif cls is self._response_class:
            if event.usage_metadata is not None:
                return None
            text = _response_text(event)
        else:
            return None
        if text is not None:
            self._last_event = NO_EVENT
        return text

    def _direct(self, event: Any) -> Step | None:
        if self._thinking_open or self._streaming:
            return None
        cls = event.__class__
        if cls is dict:
            text = _dict_text(event)
        elif cls is self._response_class:
            text = _response_text(event)
        else:
            return None
        if text is None:
            return None
        return text_step(text, _usage(field2(event, "usage_metadata", "usageMetadata")))

    def _general(self, event: Any) -> Step:
        text = ""
        natives: list[Native] = []
        other = False
        stop: StopReason | None = None
        candidates = field(event, "candidates")
        candidate = candidates[0] if candidates else None
        if candidate is not None:
            content = field(candidate, "content")
            for part in (field(content, "parts") if content is not None else None) or ():
                piece = field(part, "text")
                call = field2(part, "function_call", "functionCall")
                if call is not None and self._streaming is not None:
                    natives.extend(self._more(call))
                elif call:  # before the text: a proto part's absent text reads ""
                    self._close_thinking(natives)
                    natives.extend(self._call(call, _signature(part)))
                elif isinstance(piece, str) and field(part, "thought"):
                    if not self._thinking_open:
                        self._thinking_open = True
                        natives.append(NativeStart(_THOUGHT_KEY, "thinking"))
                    if piece:
                        natives.append(NativeDelta(_THOUGHT_KEY, piece))
                    signature = _signature(part)
                    if signature:
                        self._thought_signature = signature
                elif isinstance(piece, str):
                    if piece:
                        self._close_thinking(natives)
                        text += piece
                else:
                    other = True
            reason = _reason(field2(candidate, "finish_reason", "finishReason"))
            if reason and reason != "FINISH_REASON_UNSPECIFIED":
                self._close_thinking(natives)
                stop = FINISH_REASONS.get(reason, StopReason.unknown)
                if stop is StopReason.end_turn and self._called:
                    stop = StopReason.tool_use
        feedback = field2(event, "prompt_feedback", "promptFeedback")
        if feedback is not None and field2(feedback, "block_reason", "blockReason"):
            stop = StopReason.content_filter
            other = True
        usage = _usage(field2(event, "usage_metadata", "usageMetadata"))
        if text:
            category = EventCategory.TEXT_CONTENT
        elif other:
            category = EventCategory.PASSTHROUGH
        else:
            category = EventCategory.SKIP
        if not natives and stop is None and usage is None and category is EventCategory.SKIP:
            return SKIP
        return Step(category, text, natives, stop, usage)

    def _call(self, call: Any, signature: str | None) -> list[Native]:
        self._called = True
        self._calls += 1
        key = ("function_call", self._calls)
        extra = {"thought_signature": signature} if signature else {}
        start = tool_call_start(key, field(call, "id"), field(call, "name"), **extra)
        if _continues(call) or field2(call, "partial_args", "partialArgs"):
            self._streaming = (key, ArgumentText())
            return [start, *self._more(call)]
        args = field(call, "args")
        content = _plain(args) if isinstance(args, Mapping) else {}
        text = json.dumps(content, ensure_ascii=False)
        return [start, NativeDelta(key, text), NativeEnd(key, content)]

    def _more(self, call: Any) -> list[Native]:
        """A part of the call whose arguments are streaming: its pieces of JSON text,
        and the call's end when the part does not continue it."""
        assert self._streaming is not None
        key, writer = self._streaming
        text = "".join(writer.add(arg) for arg in field2(call, "partial_args", "partialArgs") or ())
        natives: list[Native] = [NativeDelta(key, text)] if text else []
        if not _continues(call):
            self._streaming = None
            natives.append(NativeDelta(key, writer.close()))
            args = field(call, "args")  # a final part may repeat the whole arguments
            natives.append(NativeEnd(key, _plain(args) if isinstance(args, Mapping) else None))
        return natives


def _continues(call: Any) -> bool:
    return field2(call, "will_continue", "willContinue") is True
