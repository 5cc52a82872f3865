"""``stream_events(version="v3")``: LangChain's content-block protocol events.

A chat model's (and a LangGraph graph's) v3 stream says ``message-start``, then for each
content block ``content-block-start``, ``content-block-delta`` pieces (``text-delta``,
``reasoning-delta``, ``tool-call-delta``...) and ``content-block-finish`` with the
finished block, then ``message-finish`` with the usage and the provider's metadata.
Text, reasoning and streamed tool calls are read from their deltas; a block that comes
whole (a server tool result, an image, a refusal, a call that was not streamed) from
its finish; a text block's finish adds its citations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...adapters.protocols import EventCategory, Native
from ...core.events import StopReason, Usage
from .._base import SKIP, START, Step, field
from .blocks import OpenBlocks, signature_of

_STREAMED = frozenset({"text", "reasoning", "tool_call_chunk", "server_tool_call_chunk"})
"""Block types whose content streams as deltas (the rest is read from the finish)."""


class V3Reader:
    """Reads v3 events into the adapter's :class:`OpenBlocks` (one per stream)."""

    def __init__(
        self,
        opened: OpenBlocks,
        finish: Callable[[Any, list[Native], Any, bool], StopReason | None],
        add_usage: Callable[[Any], Usage | None],
    ) -> None:
        self._open = opened
        self._finish = finish
        self._add_usage = add_usage
        self._types: dict[Any, Any] = {}  # index -> the type its start announced
        self._message_id: Any = None

    def read(self, event: Any) -> Step:
        kind = field(event, "event")
        natives: list[Native] = []
        if kind == "content-block-delta":
            return self._delta(event, natives)
        if kind == "content-block-start":
            self._start(field(event, "index"), field(event, "content"), natives)
        elif kind == "content-block-finish":
            if not self._finish_block(field(event, "index"), field(event, "content"), natives):
                return Step(EventCategory.PASSTHROUGH, natives=natives)
        elif kind == "message-start":
            self._types.clear()
            self._message_id = field(event, "id")
            return START
        elif kind == "message-finish":
            usage = self._add_usage(field(event, "usage"))
            stop = self._finish(field(event, "metadata"), natives, self._message_id, True)
            return Step(EventCategory.SKIP, natives=natives, stop=stop, usage=usage)
        elif kind == "error":
            self._open.close_all(natives)
            message = field(event, "message")
            error = message if isinstance(message, str) else "the model's stream failed"
            return Step(
                EventCategory.PASSTHROUGH, natives=natives, stop=StopReason.error, error=error
            )
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP

    def _start(self, index: Any, block: Any, natives: list[Native]) -> None:
        kind = field(block, "type")
        self._types[index] = kind
        opened = self._open
        if kind == "reasoning":
            opened.thinking(natives, "", None)
        elif kind in ("tool_call_chunk", "server_tool_call_chunk"):
            opened.tool_piece(
                natives, field(block, "id"), field(block, "name"), None, ("v3", index),
                kind == "server_tool_call_chunk",
            )  # fmt: skip

    def _delta(self, event: Any, natives: list[Native]) -> Step:
        delta = field(event, "delta")
        kind = field(delta, "type")
        opened = self._open
        if kind == "text-delta":
            text = field(delta, "text")
            if not isinstance(text, str) or not text:
                return SKIP
            opened.close_all(natives)
            return Step(EventCategory.TEXT_CONTENT, text, natives)
        if kind == "reasoning-delta":
            piece = field(delta, "reasoning")
            opened.thinking(natives, piece if isinstance(piece, str) else "", None)
        elif kind == "tool-call-delta":
            index = field(event, "index")
            server = self._types.get(index) == "server_tool_call_chunk"
            opened.tool_piece(natives, None, None, field(delta, "args"), ("v3", index), server)
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP

    def _finish_block(self, index: Any, block: Any, natives: list[Native]) -> bool:
        """``False`` for a block nobody reads (``non_standard``): the event passes through."""
        opened = self._open
        started = self._types.pop(index, None)
        kind = field(block, "type")
        if started == "reasoning" and kind == "reasoning":
            opened.close_thinking(natives, signature_of(block))
        elif started in ("tool_call_chunk", "server_tool_call_chunk"):
            # the finished call (or invalid_tool_call): the session parses the deltas
            error = field(block, "error") if kind == "invalid_tool_call" else None
            opened.close_tool(natives, {"error": error} if isinstance(error, str) else None)
        elif kind == "text":
            opened.citations(natives, field(block, "annotations"))
        elif started not in _STREAMED:
            return opened.read(natives, block, False) is not None
        return True


__all__ = ["V3Reader"]
