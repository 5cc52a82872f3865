"""Anthropic input adapter: Messages API stream events."""

from __future__ import annotations

from typing import Any

from ...adapters.protocols import EventCategory, Native, NativeDelta, NativeEnd, NativeStart
from ...core.events import StopReason, Usage
from .._base import (
    END,
    NO_EVENT,
    PASSTHROUGH,
    SKIP,
    START,
    ProviderAdapter,
    Step,
    as_int,
    direct_step,
    field,
    sdk_class,
    tool_call_start,
    tool_result,
)
from .types import HELPER_EVENT_TYPES, RAW_EVENT_TYPES, STOP_REASONS, TOOL_BLOCK_TYPES


def _usage(raw: Any) -> Usage | None:
    if raw is None:
        return None
    details = field(raw, "output_tokens_details")
    return Usage(
        input_tokens=as_int(field(raw, "input_tokens")),
        output_tokens=as_int(field(raw, "output_tokens")),
        cache_read_tokens=as_int(field(raw, "cache_read_input_tokens")),
        cache_write_tokens=as_int(field(raw, "cache_creation_input_tokens")),
        reasoning_tokens=as_int(field(details, "thinking_tokens")) if details else None,
    )


class AnthropicInputAdapter(ProviderAdapter):
    """Reads Anthropic Messages streams: ``messages.create(stream=True)`` and
    ``messages.stream()``, sync or async.

    ``text_delta`` is text. ``thinking`` content blocks become ``thinking`` blocks (their
    signature in the block's ``attrs``), ``tool_use``/``server_tool_use`` blocks become
    ``tool_call`` blocks built from their ``input_json_delta`` pieces, and a server
    tool's result (``web_search_tool_result``, ``code_execution_tool_result``,
    ``mcp_tool_result``...) a ``tool_result`` block naming its tool and call.
    ``message_start`` starts the stream and ``message_stop`` ends it; ``message_delta``
    carries the stop reason and usage; ``ping`` is dropped. Citations, redacted thinking
    and ``error`` pass through. The events ``messages.stream()`` adds (``text``,
    ``thinking``, ``input_json``, ``signature``, ``citation``) repeat a raw delta and are
    skipped.
    """

    _open: dict[int, str]
    _signatures: dict[int, str]
    _calls: dict[str, Any]

    def _reset(self) -> None:
        self._delta_class = sdk_class(
            "anthropic.types.raw_content_block_delta_event", "RawContentBlockDeltaEvent"
        )
        self._open = {}
        self._signatures = {}
        self._calls = {}  # tool-use id -> tool name, to name server tool results

    def matches(self, event: Any) -> bool:
        try:
            kind = field(event, "type")
            if not isinstance(kind, str):
                return False
            if kind in RAW_EVENT_TYPES:
                return True
            module = type(event).__module__
            if module.startswith("anthropic."):
                return kind in HELPER_EVENT_TYPES or kind == "error"
            # A wire-format error event nests its details under "error".
            return kind == "error" and isinstance(field(event, "error"), dict)
        except Exception:
            return False

    def text_delta(self, event: Any) -> str | None:
        """The text of a ``text_delta`` event (a wire dict, or the SDK's
        ``RawContentBlockDeltaEvent`` read by attribute), else ``None``: the general
        reader's."""
        cls = event.__class__
        if cls is dict:
            if event.get("type") != "content_block_delta":
                return None
            delta = event.get("delta")
            if delta.__class__ is not dict or delta.get("type") != "text_delta":
                return None
            text = delta.get("text")
        elif cls is self._delta_class:
            delta = event.delta
            if event.type != "content_block_delta" or delta.type != "text_delta":
                return None
            text = delta.text
        else:
            return None
        if text.__class__ is not str or not text:
            return None
        self._last_event = NO_EVENT
        return text

    def _direct(self, event: Any) -> Step | None:
        return direct_step(self.text_delta(event))

    def _general(self, event: Any) -> Step:
        kind = field(event, "type")
        if kind == "content_block_delta":
            return self._delta(event)
        if kind == "content_block_start":
            return self._block_start(event)
        if kind == "content_block_stop":
            index = field(event, "index")
            if index in self._open:
                del self._open[index]
                signature = self._signatures.pop(index, None)
                attrs = {"signature": signature} if signature else None
                return Step(EventCategory.SKIP, natives=(NativeEnd(index, None, attrs),))
            return SKIP
        if kind in HELPER_EVENT_TYPES or kind == "ping":
            return SKIP
        if kind == "message_start":
            message = field(event, "message")
            usage = _usage(field(message, "usage")) if message is not None else None
            return Step(EventCategory.STREAM_START, usage=usage) if usage else START
        if kind == "message_delta":
            delta = field(event, "delta")
            reason = field(delta, "stop_reason") if delta is not None else None
            stop = STOP_REASONS.get(str(reason), StopReason.unknown) if reason else None
            return Step(EventCategory.SKIP, stop=stop, usage=_usage(field(event, "usage")))
        if kind == "message_stop":
            return Step(EventCategory.STREAM_END, natives=(NativeEnd(None),)) if self._open else END
        if kind == "error":
            self._open.clear()
            return Step(
                EventCategory.PASSTHROUGH, natives=(NativeEnd(None),), stop=StopReason.error
            )
        return PASSTHROUGH

    def _delta(self, event: Any) -> Step:
        delta = field(event, "delta")
        delta_type = field(delta, "type")
        if delta_type == "text_delta":
            text = field(delta, "text")
            return Step(EventCategory.TEXT_CONTENT, text) if text else SKIP
        index = field(event, "index")
        if delta_type == "thinking_delta":
            piece = field(delta, "thinking")
        elif delta_type == "input_json_delta":
            piece = field(delta, "partial_json")
        elif delta_type == "signature_delta":
            signature = field(delta, "signature")
            if isinstance(signature, str):
                self._signatures[index] = self._signatures.get(index, "") + signature
            return SKIP
        else:  # citations_delta and anything newer
            return PASSTHROUGH
        if not piece or index not in self._open:
            return SKIP
        return Step(EventCategory.SKIP, natives=(NativeDelta(index, piece),))

    def _block_start(self, event: Any) -> Step:
        index = field(event, "index")
        block = field(event, "content_block")
        block_type = field(block, "type")
        if block_type == "text":
            text = field(block, "text")
            return Step(EventCategory.TEXT_CONTENT, text) if text else SKIP
        natives: list[Native] = []
        if block_type == "thinking":
            self._open[index] = "thinking"
            natives.append(NativeStart(index, "thinking"))
            text = field(block, "thinking")
            if text:
                natives.append(NativeDelta(index, text))
            signature = field(block, "signature")
            if signature:
                self._signatures[index] = signature
        elif block_type in TOOL_BLOCK_TYPES:
            self._open[index] = "tool_call"
            server = {} if block_type == "tool_use" else {"server": True}
            call_id, name = field(block, "id"), field(block, "name")
            if isinstance(call_id, str):
                self._calls[call_id] = name
            natives.append(tool_call_start(index, call_id, name, **server))
        elif isinstance(block_type, str) and block_type.endswith("_tool_result"):
            # A server tool's result (web search, code execution, MCP) arrives whole.
            call_id = field(block, "tool_use_id")
            content = field(block, "content")
            error_type = field(content, "type") if content is not None else None
            failed = bool(field(block, "is_error")) or (
                isinstance(error_type, str) and error_type.endswith("_error")
            )
            name = self._calls.get(call_id) if isinstance(call_id, str) else None
            name = name or block_type[: -len("_tool_result")]
            return Step(
                EventCategory.SKIP, natives=tool_result(index, call_id, name, content, failed)
            )
        else:  # redacted_thinking and anything newer
            return PASSTHROUGH
        return Step(EventCategory.SKIP, natives=natives)
