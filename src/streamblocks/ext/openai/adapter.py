"""OpenAI input adapter: Chat Completions chunks and Responses API events."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ...adapters.protocols import EventCategory, Native, NativeDelta, NativeEnd, NativeStart
from ...core.events import StopReason, Usage
from .._base import (
    END,
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
from .direct import TEXT_DELTA, DirectText
from .types import (
    CHAT_CHUNK_OBJECT,
    CHAT_FINISH_REASONS,
    CHAT_HELPER_TYPES,
    NATIVE_ITEM_TYPES,
    RESPONSES_INCOMPLETE_REASONS,
    SERVER_TOOL_ITEMS,
)

_REASONING_KEY = "reasoning"
_DONE = ("[DONE]", b"[DONE]")

# Responses events whose content is already carried by another event we read.
_RESPONSES_SKIP = frozenset(
    {
        "response.in_progress",
        "response.queued",
        "response.output_text.done",
        "response.content_part.added",
        "response.content_part.done",
        "response.refusal.done",
        "response.reasoning_summary_part.done",
        "response.reasoning_summary_text.done",
        "response.reasoning_text.done",
        "response.function_call_arguments.done",
        "response.custom_tool_call_input.done",
    }
)
_RESPONSES_NATIVE_DELTAS = frozenset(
    {
        "response.reasoning_summary_text.delta",
        "response.reasoning_text.delta",
        "response.function_call_arguments.delta",
        "response.custom_tool_call_input.delta",
    }
)


def _kind(event: Any) -> str | None:
    """``"chat"``, ``"helper"`` or ``"responses"``: which OpenAI stream ``event`` is from."""
    if field(event, "object") == CHAT_CHUNK_OBJECT:
        return "chat"
    kind = field(event, "type")
    if not isinstance(kind, str):
        return None
    if kind.startswith("response."):
        return "responses"
    if kind in CHAT_HELPER_TYPES:
        return "helper"
    if kind == "error" and isinstance(field(event, "message"), str):
        # Responses' error event; Anthropic's nests its message under "error".
        return "responses"
    return None


def _chat_usage(raw: Any) -> Usage | None:
    if raw is None:
        return None
    prompt = field(raw, "prompt_tokens_details")
    completion = field(raw, "completion_tokens_details")
    return Usage(
        input_tokens=as_int(field(raw, "prompt_tokens")),
        output_tokens=as_int(field(raw, "completion_tokens")),
        total_tokens=as_int(field(raw, "total_tokens")),
        cache_read_tokens=as_int(field(prompt, "cached_tokens")) if prompt else None,
        cache_write_tokens=as_int(field(prompt, "cache_write_tokens")) if prompt else None,
        reasoning_tokens=as_int(field(completion, "reasoning_tokens")) if completion else None,
    )


def _responses_usage(raw: Any) -> Usage | None:
    if raw is None:
        return None
    inp = field(raw, "input_tokens_details")
    out = field(raw, "output_tokens_details")
    return Usage(
        input_tokens=as_int(field(raw, "input_tokens")),
        output_tokens=as_int(field(raw, "output_tokens")),
        total_tokens=as_int(field(raw, "total_tokens")),
        cache_read_tokens=as_int(field(inp, "cached_tokens")) if inp else None,
        reasoning_tokens=as_int(field(out, "reasoning_tokens")) if out else None,
    )


def _server_result(item: Any, item_type: str) -> list[Native]:
    """The ``tool_result`` block of a tool OpenAI ran (web search, code interpreter...)."""
    name, fields = SERVER_TOOL_ITEMS[item_type]
    if item_type == "mcp_call":
        name = field(item, "name") or name
    error = field(item, "error")
    content = {key: field(item, key) for key in fields if field(item, key) is not None}
    if error is not None:
        content["error"] = error
    failed = error is not None or field(item, "status") in ("failed", "incomplete")
    return tool_result(field(item, "id"), field(item, "id"), name, content, failed)


class OpenAIInputAdapter(DirectText, ProviderAdapter):
    """Reads OpenAI streams: Chat Completions and the Responses API, sync or async.

    - Chat Completions: ``choices[0].delta.content`` is text. Tool-call argument deltas
      become ``tool_call`` blocks; ``reasoning_content``/``reasoning`` deltas (sent by
      OpenAI-compatible servers) become a ``thinking`` block; refusals and moderation
      chunks pass through. The usage-only last chunk reports usage. Of the
      ``chat.completions.stream()`` helper events only ``chunk`` is read: the others
      repeat it.
    - Responses: ``response.output_text.delta`` is text. Reasoning (summary or raw text)
      becomes ``thinking`` blocks and function/custom tool calls ``tool_call`` blocks,
      one per output item. ``*.done`` events and ``response.completed`` repeat text
      already read and are skipped; ``response.created`` starts the stream,
      ``response.completed``/``response.incomplete`` end it; a built-in tool's item
      (web search, file search, code interpreter, image generation, MCP) becomes a
      ``tool_result`` block when it is done; errors, refusals, annotations and the
      progress events of built-in tools pass through.

    Only the first choice (``index == 0``) of a Chat Completions stream is read.
    """

    _thinking_open: bool
    _open_tools: dict[Hashable, None]
    _refused: bool
    _calls: dict[Any, tuple[Any, int]]

    def _reset(self) -> None:
        self._chunk_class = sdk_class(
            "openai.types.chat.chat_completion_chunk", "ChatCompletionChunk"
        )
        self._delta_class = sdk_class(
            "openai.types.responses.response_text_delta_event", "ResponseTextDeltaEvent"
        )
        self._thinking_open = False
        self._open_tools = {}
        self._refused = False
        self._calls = {}  # a tool call's index → its id and how many calls it had

    def _call_key(self, index: Any, call_id: Any) -> Hashable:
        """The key of the call a piece at ``index`` belongs to: a new call when the id
        changes at the same index (Groq and some compatible servers send parallel calls
        all at index 0, each with its own id)."""
        known = self._calls.get(index)
        if known is None:
            known = self._calls[index] = (call_id, 0)
        elif call_id and call_id != known[0]:
            known = self._calls[index] = (call_id, known[1] + 1 if known[0] else known[1])
        return ("tool_call", index, known[1])

    def matches(self, event: Any) -> bool:
        try:
            return _kind(event) is not None
        except Exception:
            return False

    def _direct(self, event: Any) -> Step | None:
        return direct_step(self.text_delta(event))

    def _general(self, event: Any) -> Step:
        kind = _kind(event)
        if kind == "responses":
            return self._responses(event)
        if kind == "chat":
            return self._chat(event)
        if kind == "helper":
            if field(event, "type") == "chunk":
                return self._chat(field(event, "chunk"))
            return SKIP
        if event.__class__ in (str, bytes) and event.strip() in _DONE:
            return END  # the SSE stream's sentinel, when a raw data line is fed
        return PASSTHROUGH

    # -- Chat Completions ------------------------------------------------------------

    def _close_thinking(self, natives: list[Native]) -> None:
        if self._thinking_open:
            self._thinking_open = False
            natives.append(NativeEnd(_REASONING_KEY))

    def _close_tools(self, natives: list[Native]) -> None:
        for key in self._open_tools:
            natives.append(NativeEnd(key))
        self._open_tools.clear()

    def _tool_piece(
        self, natives: list[Native], key: Hashable, call_id: Any, name: Any, args: Any
    ) -> None:
        if key not in self._open_tools:
            self._close_thinking(natives)
            self._close_tools(natives)  # calls stream one after another
            self._open_tools[key] = None
            natives.append(tool_call_start(key, call_id, name))
        if isinstance(args, str) and args:
            natives.append(NativeDelta(key, args))

    def _chat(self, chunk: Any) -> Step:
        text = ""
        natives: list[Native] = []
        stop: StopReason | None = None
        passthrough = field(chunk, "moderation") is not None
        for choice in field(chunk, "choices") or ():
            if field(choice, "index") not in (0, None):
                continue
            delta = field(choice, "delta")
            if delta is not None:
                reasoning = field(delta, "reasoning_content") or field(delta, "reasoning")
                if isinstance(reasoning, str) and reasoning:
                    if not self._thinking_open:
                        self._thinking_open = True
                        natives.append(NativeStart(_REASONING_KEY, "thinking"))
                    natives.append(NativeDelta(_REASONING_KEY, reasoning))
                content = field(delta, "content")
                if isinstance(content, str) and content:
                    self._close_thinking(natives)
                    text += content
                if field(delta, "refusal"):
                    self._refused = True
                    passthrough = True
                for call in field(delta, "tool_calls") or ():
                    function = field(call, "function")
                    call_id = field(call, "id")
                    self._tool_piece(
                        natives,
                        self._call_key(field(call, "index") or 0, call_id),
                        call_id,
                        field(function, "name") if function is not None else None,
                        field(function, "arguments") if function is not None else None,
                    )
                legacy = field(delta, "function_call")
                if legacy is not None:
                    self._tool_piece(
                        natives,
                        ("function_call",),
                        None,
                        field(legacy, "name"),
                        field(legacy, "arguments"),
                    )
            reason = field(choice, "finish_reason")
            if reason:
                self._close_thinking(natives)
                self._close_tools(natives)
                stop = CHAT_FINISH_REASONS.get(str(reason), StopReason.unknown)
                if stop is StopReason.end_turn and self._refused:
                    stop = StopReason.refusal
        if text:
            category = EventCategory.TEXT_CONTENT
        elif passthrough:
            category = EventCategory.PASSTHROUGH
        else:
            category = EventCategory.SKIP
        usage = _chat_usage(field(chunk, "usage"))
        if not natives and stop is None and usage is None:
            return Step(category, text) if category is not EventCategory.SKIP else SKIP
        return Step(category, text, natives, stop, usage)

    # -- Responses -------------------------------------------------------------------

    def _responses(self, event: Any) -> Step:
        kind: str = field(event, "type")
        if kind == TEXT_DELTA:
            delta = field(event, "delta")
            return Step(EventCategory.TEXT_CONTENT, delta) if delta else SKIP
        if kind in _RESPONSES_NATIVE_DELTAS:
            delta = field(event, "delta")
            if not delta:
                return SKIP
            return Step(EventCategory.SKIP, natives=(NativeDelta(field(event, "item_id"), delta),))
        if kind in _RESPONSES_SKIP:
            return SKIP
        if kind == "response.reasoning_summary_part.added":
            if (field(event, "summary_index") or 0) > 0:
                # Separate the summary's paragraphs as the API's own rendering does.
                return Step(
                    EventCategory.SKIP, natives=(NativeDelta(field(event, "item_id"), "\n\n"),)
                )
            return SKIP
        if kind == "response.output_item.added":
            return self._item_added(field(event, "item"))
        if kind == "response.output_item.done":
            item = field(event, "item")
            item_type = field(item, "type")
            if item_type in NATIVE_ITEM_TYPES:
                return Step(EventCategory.SKIP, natives=(NativeEnd(field(item, "id")),))
            if item_type in SERVER_TOOL_ITEMS:
                return Step(EventCategory.SKIP, natives=_server_result(item, item_type))
            return SKIP if item_type == "message" else PASSTHROUGH
        if kind == "response.created":
            return START
        if kind in ("response.completed", "response.incomplete"):
            response = field(event, "response")
            return Step(
                EventCategory.STREAM_END,
                natives=(NativeEnd(None),),
                stop=self._final_stop(kind, response),
                usage=_responses_usage(field(response, "usage")),
            )
        if kind == "response.refusal.delta":
            self._refused = True
            return PASSTHROUGH
        if kind in ("response.failed", "error"):
            response = field(event, "response")
            usage = _responses_usage(field(response, "usage")) if response is not None else None
            return Step(
                EventCategory.PASSTHROUGH,
                natives=(NativeEnd(None),),
                stop=StopReason.error,
                usage=usage,
            )
        return PASSTHROUGH

    def _item_added(self, item: Any) -> Step:
        item_type = field(item, "type")
        block_type = NATIVE_ITEM_TYPES.get(item_type) if isinstance(item_type, str) else None
        if block_type is None:
            return SKIP if item_type == "message" else PASSTHROUGH
        item_id = field(item, "id")
        if block_type == "thinking":
            start = NativeStart(item_id, "thinking", item_id if isinstance(item_id, str) else None)
        else:
            call_id = field(item, "call_id")
            start = NativeStart(
                item_id,
                "tool_call",
                call_id if isinstance(call_id, str) else None,
                {"name": field(item, "name"), "id": call_id},
                "json" if item_type == "function_call" else "text",
            )
        return Step(EventCategory.SKIP, natives=(start,))

    def _final_stop(self, kind: str, response: Any) -> StopReason:
        if kind == "response.incomplete":
            details = field(response, "incomplete_details")
            reason = field(details, "reason") if details is not None else None
            return RESPONSES_INCOMPLETE_REASONS.get(str(reason), StopReason.unknown)
        if self._refused:
            return StopReason.refusal
        for item in field(response, "output") or ():
            if field(item, "type") in ("function_call", "custom_tool_call"):
                return StopReason.tool_use
        return StopReason.end_turn
