"""LangChain input adapter: chat-model streams, ``astream_events`` v2 and v3, LangGraph."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...adapters.protocols import EventCategory, Native
from ...core.events import StopReason, Usage
from .._base import PASSTHROUGH, SKIP, START, ProviderAdapter, Step, as_int, field, tool_result
from .._usage import add_usage
from .blocks import OpenBlocks
from .shapes import MESSAGE, V2, V3, unwrap
from .types import (
    CHUNK_TYPE,
    CLIENT_CALL_BLOCKS,
    END_EVENTS,
    FINISH_KEYS,
    FINISH_REASONS,
    STREAM_EVENTS,
    THINKING_BLOCKS,
)
from .v3 import V3Reader


def _usage(raw: Any) -> Usage:
    """A ``usage_metadata`` (a chunk's increment, a message's total) as a :class:`Usage`."""
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


def _blocks(message: Any, content: list[Any]) -> Any:
    """A message's list content as standard blocks: ``content_blocks`` when the message
    has them (langchain-core 1.x translates each integration's format), else the list."""
    if isinstance(message, Mapping):
        return content
    try:
        return message.content_blocks
    except Exception:  # an older langchain-core, or a translator that failed
        return content


def _calls(message: Any, whole: bool) -> list[Any]:
    """A message's own tool calls: ``tool_call_chunks`` of a chunk, ``tool_calls`` of a
    whole message (its ``invalid_tool_calls`` are read apart)."""
    calls = field(message, "tool_calls" if whole else "tool_call_chunks")
    return calls if isinstance(calls, list) else []


def _kinds(blocks: Any) -> set[Any]:
    return {field(block, "type") for block in blocks if not isinstance(block, str)}


class LangChainInputAdapter(ProviderAdapter):
    """Reads what LangChain chat models and LangGraph graphs stream, sync or async.

    - ``model.stream()`` / ``astream()``: each ``AIMessageChunk``'s string ``content`` is
      text; list content is read as its standard ``content_blocks`` (see
      :class:`~streamblocks.ext.langchain.blocks.OpenBlocks`): text (citation
      ``annotations`` become ``citation`` blocks), reasoning (``thinking``, with its
      signature), client and server-side tool calls, server tool results, refusals,
      images and files. ``tool_call_chunks`` are the calls when the blocks hold none.
      ``usage_metadata`` pieces are summed; ``response_metadata``'s finish reason
      (``finish_reason``, ``stop_reason``, ``done_reason``) is the stop reason; the
      ``chunk_position="last"`` chunk ends the message.
    - LangGraph ``stream_mode="messages"`` ``(message, metadata)`` tuples, a list of modes'
      ``(mode, payload)`` tuples, ``subgraphs=True`` namespaces and ``version="v2"``
      parts: the messages are read (an ``AIMessage`` whole, a ``ToolMessage`` as a
      ``tool_result`` block); everything else passes through.
    - ``astream_events(version="v2")``: ``on_chat_model_stream`` (and ``on_llm_stream``)
      events are read through their ``data["chunk"]``; ``on_chat_model_end`` closes the
      run's open blocks; every other event passes through.
    - ``stream_events`` / ``astream_events(version="v3")`` (a chat model's or a graph's):
      ``message-start``, ``content-block-start`` / ``-delta`` / ``-finish`` and
      ``message-finish`` (:class:`~streamblocks.ext.langchain.v3.V3Reader`).
    """

    _open: OpenBlocks
    _v3: V3Reader
    _ended: tuple[Any, StopReason] | None
    _usage: Usage | None

    def _reset(self) -> None:
        self._open = OpenBlocks()
        self._v3 = V3Reader(self._open, self._finish, self._add_usage)
        self._ended = None  # the id of the message that ended last, and its stop reason
        self._usage = None

    def matches(self, event: Any) -> bool:
        try:
            return unwrap(event) is not None
        except Exception:
            return False

    def _analyze(self, event: Any) -> Step:
        cls = event.__class__
        if cls.__name__ == CHUNK_TYPE and cls.__module__.startswith("langchain"):
            return self._message(event, CHUNK_TYPE)  # the common case first
        found = unwrap(event)
        if found is None:
            if field(event, "event") == "error":  # a v3 stream's error event
                return self._v3.read(event)
            return PASSTHROUGH
        what, inner = found
        if what == MESSAGE:
            step = self._message(inner, field(inner, "type"))
        elif what == V3:
            step = self._v3.read(inner)
        elif what == V2:
            step = self._stream_event(inner)
        else:
            return PASSTHROUGH
        if step.category is EventCategory.STREAM_START and inner is not event:
            return START  # (an envelope's message start)
        return step

    def _stream_event(self, event: Any) -> Step:
        name = field(event, "event")
        data = field(event, "data")
        if name in STREAM_EVENTS and data is not None:
            chunk = field(data, "chunk")
            if field(chunk, "type") == CHUNK_TYPE:
                return self._message(chunk, CHUNK_TYPE)
            text = field(chunk, "text")  # a completion model's GenerationChunk
            return Step(EventCategory.TEXT_CONTENT, text) if isinstance(text, str) else SKIP
        if name in END_EVENTS:
            natives: list[Native] = []
            self._open.close_all(natives)
            return Step(EventCategory.PASSTHROUGH, natives=natives)
        return PASSTHROUGH

    # -- messages --------------------------------------------------------------------------

    def _message(self, message: Any, kind: Any) -> Step:
        if kind == "tool" or kind == "ToolMessageChunk":
            return self._tool_message(message)
        if kind != CHUNK_TYPE and kind != "ai":
            return PASSTHROUGH  # the user's, the system's messages
        whole = kind == "ai"
        opened = self._open
        natives: list[Native] = []
        opened.flush(natives)
        text = ""
        other = False
        content = field(message, "content")
        blocks: Any = () if isinstance(content, str) else _blocks(message, content or [])
        kinds = _kinds(blocks) if blocks else set()
        extra = field(message, "additional_kwargs") or {}
        if not kinds & THINKING_BLOCKS.keys():
            reasoning = extra.get("reasoning_content")
            if isinstance(reasoning, str) and reasoning:
                opened.thinking(natives, reasoning)
        if isinstance(content, str):
            if content:
                opened.close_all(natives)
            text = content
        calls = _calls(message, whole)
        invalid = field(message, "invalid_tool_calls") if whole else None
        invalid = invalid if isinstance(invalid, list) else []
        for block in blocks:
            if (calls or invalid) and field(block, "type") in CLIENT_CALL_BLOCKS:
                continue  # the same calls as the fields (for a chunk, parsed partly)
            piece = opened.read(natives, block, bool(text))
            if piece is None:
                other = True  # a block nobody reads (non_standard): the event passes through
            else:
                text += piece
        refusal = extra.get("refusal")
        if "refusal" not in kinds and isinstance(refusal, str) and refusal:
            opened.refusal(natives, refusal)
            other = other or not text
        for call in calls:
            if whole:
                opened.whole_call(natives, call, False)
            else:
                opened.tool_piece(
                    natives, field(call, "id"), field(call, "name"), field(call, "args"),
                    field(call, "index"), False,
                )  # fmt: skip
        for call in invalid:
            opened.invalid_call(natives, call)
        usage = self._add_usage(field(message, "usage_metadata"))
        message_id = field(message, "id")
        stop = self._finish(field(message, "response_metadata"), natives, message_id)
        if stop is None and (whole or field(message, "chunk_position") == "last"):
            stop = self._finish(None, natives, message_id, ended=True)
        if text:
            category = EventCategory.TEXT_CONTENT
        elif other or (opened.refused and not natives):
            category = EventCategory.PASSTHROUGH
        else:
            category = EventCategory.SKIP
        if not natives and stop is None and usage is None:
            return Step(category, text) if category is not EventCategory.SKIP else SKIP
        return Step(category, text, natives, stop, usage)

    def _tool_message(self, message: Any) -> Step:
        """A ``ToolMessage`` (LangGraph's tool node): a ``tool_result`` block."""
        natives: list[Native] = []
        self._open.flush(natives)
        self._open.close_all(natives)
        key = self._open.new_key("tool_result")
        failed = field(message, "status") == "error"
        natives += tool_result(
            key, field(message, "tool_call_id"), field(message, "name"),
            field(message, "content"), failed, server=False,
        )  # fmt: skip
        return Step(EventCategory.SKIP, natives=natives)

    # -- the end of a message ------------------------------------------------------------

    def _finish(
        self, metadata: Any, natives: list[Native], message_id: Any = None, ended: bool = False
    ) -> StopReason | None:
        """The stop reason of a message whose ``metadata`` names a finish reason, or that
        ``ended`` without one (then the reason an earlier chunk of the same message gave,
        if any); ``None`` when the message goes on."""
        found = (metadata.get(k) for k in FINISH_KEYS) if isinstance(metadata, Mapping) else ()
        reason = next((r for r in found if isinstance(r, str) and r), None)
        if reason is None and not ended:
            return None
        opened = self._open
        last, self._ended = self._ended, None
        if reason is None:
            if last is not None and last[0] == message_id:
                stop = last[1]
            else:
                stop = StopReason.tool_use if opened.calls else StopReason.end_turn
        else:
            stop = FINISH_REASONS.get(reason.lower(), StopReason.unknown)
            if stop is StopReason.end_turn and opened.calls:
                stop = StopReason.tool_use
        if opened.refused and stop in (StopReason.end_turn, StopReason.unknown):
            stop = StopReason.refusal
        opened.close_all(natives)
        opened.flush(natives)
        opened.calls = 0  # the next message's calls are its own
        opened.refused = False
        self._ended = (message_id, stop)
        return stop

    def _add_usage(self, raw: Any) -> Usage | None:
        """The running total: LangChain's chunks carry usage increments, and each message
        of a graph's run its own total."""
        if not raw:
            return None
        self._usage = add_usage(self._usage, _usage(raw))
        return self._usage
