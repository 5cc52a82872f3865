"""LangChain input adapter: ``AIMessageChunk`` streams and ``astream_events`` events."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from ...adapters.protocols import EventCategory, Native, NativeDelta, NativeEnd, NativeStart
from ...core.events import StopReason, Usage
from .._base import PASSTHROUGH, SKIP, ProviderAdapter, Step, as_int, field, tool_call_start
from .._usage import add_usage
from .types import (
    CHUNK_TYPE,
    END_EVENTS,
    FINISH_KEYS,
    FINISH_REASONS,
    STREAM_EVENTS,
    THINKING_BLOCKS,
    TOOL_BLOCKS,
)

_THINKING_KEY = "thinking"


def _is_chunk(obj: Any) -> bool:
    cls = type(obj)
    if cls.__name__ == CHUNK_TYPE and cls.__module__.startswith("langchain"):
        return True
    return isinstance(obj, Mapping) and obj.get("type") == CHUNK_TYPE and "content" in obj


def _is_stream_event(obj: Any) -> bool:
    if not isinstance(obj, Mapping):
        return False
    name = obj.get("event")
    return isinstance(name, str) and name.startswith("on_") and "run_id" in obj


def _usage(raw: Any) -> Usage:
    """A chunk's ``usage_metadata`` (an increment) as a :class:`Usage`."""
    inp = field(raw, "input_token_details") or {}
    out = field(raw, "output_token_details") or {}
    return Usage(
        input_tokens=as_int(field(raw, "input_tokens")),
        output_tokens=as_int(field(raw, "output_tokens")),
        total_tokens=as_int(field(raw, "total_tokens")),
        cache_read_tokens=as_int(field(inp, "cache_read")),
        cache_write_tokens=as_int(field(inp, "cache_creation")),
        reasoning_tokens=as_int(field(out, "reasoning")),
    )


def _thinking_text(block: Mapping[str, Any], key: str) -> str:
    text = block.get(key)
    if isinstance(text, str):
        return text
    summary = block.get("summary")  # OpenAI Responses reasoning, LangChain's v0 format
    if isinstance(summary, list):
        return "".join(str(part.get("text", "")) for part in summary if isinstance(part, Mapping))
    return ""


class LangChainInputAdapter(ProviderAdapter):
    """Reads what LangChain chat models stream, from any integration, sync or async.

    - ``model.stream()`` / ``astream()``: each ``AIMessageChunk``'s ``content`` is text
      when a string; as a list of content blocks, ``text`` blocks are text and
      ``reasoning``/``thinking`` blocks a ``thinking`` block (so is
      ``additional_kwargs["reasoning_content"]``); other blocks (images, citations) pass
      through. ``tool_call_chunks`` become ``tool_call`` blocks, assembled by ``index``.
      ``usage_metadata`` pieces are summed as LangChain sums them;
      ``response_metadata``'s finish reason (``finish_reason``, ``stop_reason``,
      ``done_reason``) is the stop reason. The ``chunk_position="last"`` chunk ends it.
    - ``astream_events(version="v2")``: ``on_chat_model_stream`` (and
      ``on_llm_stream``) events are read through their ``data["chunk"]``;
      ``on_chat_model_end`` closes the run's open blocks; every other event passes through.
    """

    _thinking_open: bool
    _signature: str
    _tool: Hashable | None
    _calls: int
    _stop: StopReason | None
    _usage: Usage | None

    def _reset(self) -> None:
        self._thinking_open = False
        self._signature = ""
        self._tool = None
        self._calls = 0
        self._stop = None
        self._usage = None

    def matches(self, event: Any) -> bool:
        try:
            return _is_chunk(event) or _is_stream_event(event)
        except Exception:
            return False

    def _analyze(self, event: Any) -> Step:
        if _is_chunk(event):
            return self._chunk(event)
        name = field(event, "event")
        data = field(event, "data")
        if name in STREAM_EVENTS and data is not None:
            chunk = field(data, "chunk")
            if _is_chunk(chunk):
                return self._chunk(chunk)
            text = field(chunk, "text")  # a completion model's GenerationChunk
            return Step(EventCategory.TEXT_CONTENT, text) if isinstance(text, str) else SKIP
        if name in END_EVENTS:
            natives: list[Native] = []
            self._close_all(natives)
            return Step(EventCategory.PASSTHROUGH, natives=natives)
        return PASSTHROUGH

    # -- pieces ------------------------------------------------------------------------

    def _close_thinking(self, natives: list[Native]) -> None:
        if self._thinking_open:
            self._thinking_open = False
            signature, self._signature = self._signature, ""
            natives.append(
                NativeEnd(_THINKING_KEY, None, {"signature": signature} if signature else None)
            )

    def _close_all(self, natives: list[Native]) -> None:
        self._close_thinking(natives)
        if self._tool is not None:
            natives.append(NativeEnd(self._tool))
            self._tool = None

    def _thinking(self, natives: list[Native], text: str) -> None:
        if not self._thinking_open:
            self._thinking_open = True
            natives.append(NativeStart(_THINKING_KEY, "thinking"))
        if text:
            natives.append(NativeDelta(_THINKING_KEY, text))

    def _tool_piece(self, natives: list[Native], piece: Any) -> None:
        """One of ``tool_call_chunks``: pieces of one call share an ``index``; a piece
        without one (integrations that send each call whole) is a call of its own."""
        index, call_id, name = field(piece, "index"), field(piece, "id"), field(piece, "name")
        if index is not None:
            key: Hashable = ("tool_call", index)
            new = key != self._tool
        else:
            new = self._tool is None or bool(call_id or name)
            key = ("tool_call", f"#{self._calls + 1}") if new else self._tool
        if new:
            self._close_all(natives)
            self._calls += 1
            self._tool = key
            natives.append(tool_call_start(key, call_id, name))
        args = field(piece, "args")
        if isinstance(args, str) and args:
            natives.append(NativeDelta(key, args))

    def _chunk(self, chunk: Any) -> Step:
        natives: list[Native] = []
        text = ""
        other = False
        content = field(chunk, "content")
        reasoning = (field(chunk, "additional_kwargs") or {}).get("reasoning_content")
        if isinstance(reasoning, str) and reasoning:
            self._thinking(natives, reasoning)
        if isinstance(content, str):
            text = content
        else:
            for block in content or ():
                if isinstance(block, str):
                    text += block
                    continue
                kind = field(block, "type")
                if kind == "text":
                    piece = field(block, "text")
                    text += piece if isinstance(piece, str) else ""
                elif kind in THINKING_BLOCKS:
                    self._thinking(natives, _thinking_text(block, THINKING_BLOCKS[kind]))
                    signature = field(block, "signature")
                    if isinstance(signature, str):
                        self._signature += signature
                elif kind not in TOOL_BLOCKS:
                    other = True  # images, citations, server tool results
        if text:
            self._close_all(natives)
        for piece in field(chunk, "tool_call_chunks") or ():
            self._tool_piece(natives, piece)
        usage = self._add_usage(field(chunk, "usage_metadata"))
        stop = self._finish(field(chunk, "response_metadata"))
        if stop is not None or field(chunk, "chunk_position") == "last":
            self._close_all(natives)
            if stop is None:
                stop = self._stop or (StopReason.tool_use if self._calls else StopReason.end_turn)
        if text:
            category = EventCategory.TEXT_CONTENT
        elif other:
            category = EventCategory.PASSTHROUGH
        else:
            category = EventCategory.SKIP
        if not natives and stop is None and usage is None:
            return Step(category, text) if category is not EventCategory.SKIP else SKIP
        return Step(category, text, natives, stop, usage)

    def _finish(self, metadata: Any) -> StopReason | None:
        if not isinstance(metadata, Mapping):
            return None
        for key in FINISH_KEYS:
            reason = metadata.get(key)
            if isinstance(reason, str) and reason:
                stop = FINISH_REASONS.get(reason.lower(), StopReason.unknown)
                if stop is StopReason.end_turn and self._calls:
                    stop = StopReason.tool_use
                self._stop = stop
                return stop
        return None

    def _add_usage(self, raw: Any) -> Usage | None:
        """The running total: LangChain's chunks carry usage increments."""
        if not raw:
            return None
        self._usage = add_usage(self._usage, _usage(raw))
        return self._usage
