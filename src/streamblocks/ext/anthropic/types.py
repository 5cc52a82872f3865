"""Anthropic event shapes and stop-reason table.

Nothing here imports ``anthropic`` at run time; the SDK types are named for type checkers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from ...core.events import StopReason

if TYPE_CHECKING:
    from anthropic.lib.streaming import MessageStreamEvent
    from anthropic.types import RawMessageStreamEvent

    AnthropicEvent: TypeAlias = RawMessageStreamEvent | MessageStreamEvent | Mapping[str, Any]
    """What :class:`~streamblocks.ext.anthropic.AnthropicInputAdapter` reads."""

STOP_REASONS: Mapping[str, StopReason] = {
    "end_turn": StopReason.end_turn,
    "stop_sequence": StopReason.stop_sequence,
    "tool_use": StopReason.tool_use,
    "max_tokens": StopReason.max_tokens,
    "model_context_window_exceeded": StopReason.max_tokens,
    "refusal": StopReason.refusal,
    "pause_turn": StopReason.unknown,
}
"""Messages ``stop_reason`` → :class:`StopReason` (others: ``unknown``)."""

RAW_EVENT_TYPES = frozenset(
    {
        "message_start",
        "message_delta",
        "message_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "ping",
    }
)
"""Event types of the Messages SSE stream (plus ``error``)."""

HELPER_EVENT_TYPES = frozenset({"text", "thinking", "input_json", "signature", "citation"})
"""Events ``messages.stream()`` adds beside the raw ones; they repeat a raw delta."""

TOOL_BLOCK_TYPES = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
"""Content blocks that become ``tool_call`` blocks."""

__all__ = ["HELPER_EVENT_TYPES", "RAW_EVENT_TYPES", "STOP_REASONS", "TOOL_BLOCK_TYPES"]
