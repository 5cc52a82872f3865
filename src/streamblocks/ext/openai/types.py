"""OpenAI event shapes and finish-reason tables.

Nothing here imports ``openai`` at run time; the SDK types are named for type checkers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from ...core.events import StopReason

if TYPE_CHECKING:
    from openai.lib.streaming.chat import ChatCompletionStreamEvent
    from openai.types.chat import ChatCompletionChunk
    from openai.types.responses import ResponseStreamEvent

    OpenAIEvent: TypeAlias = (
        ChatCompletionChunk
        | ChatCompletionStreamEvent[Any]
        | ResponseStreamEvent
        | Mapping[str, Any]
    )
    """What :class:`~streamblocks.ext.openai.OpenAIInputAdapter` reads."""

CHAT_CHUNK_OBJECT = "chat.completion.chunk"

CHAT_FINISH_REASONS: Mapping[str, StopReason] = {
    "stop": StopReason.end_turn,
    "length": StopReason.max_tokens,
    "tool_calls": StopReason.tool_use,
    "function_call": StopReason.tool_use,
    "content_filter": StopReason.content_filter,
}
"""Chat Completions ``finish_reason`` → :class:`StopReason` (others: ``unknown``)."""

RESPONSES_INCOMPLETE_REASONS: Mapping[str, StopReason] = {
    "max_output_tokens": StopReason.max_tokens,
    "content_filter": StopReason.content_filter,
}
"""Responses ``incomplete_details.reason`` → :class:`StopReason` (others: ``unknown``)."""

CHAT_HELPER_TYPES = frozenset(
    {
        "chunk",
        "content.delta",
        "content.done",
        "refusal.delta",
        "refusal.done",
        "tool_calls.function.arguments.delta",
        "tool_calls.function.arguments.done",
        "logprobs.content.delta",
        "logprobs.content.done",
        "logprobs.refusal.delta",
        "logprobs.refusal.done",
    }
)
"""Event types of ``client.chat.completions.stream()``; only ``chunk`` is read, the
others repeat what the chunk carries."""

NATIVE_ITEM_TYPES: Mapping[str, str] = {
    "reasoning": "thinking",
    "function_call": "tool_call",
    "custom_tool_call": "tool_call",
}
"""Responses output items that become native blocks (item type → block type)."""

SERVER_TOOL_ITEMS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "web_search_call": ("web_search", ("action",)),
    "file_search_call": ("file_search", ("queries", "results")),
    "code_interpreter_call": ("code_interpreter", ("code", "outputs")),
    "image_generation_call": ("image_generation", ("result",)),
    "mcp_call": ("mcp", ("arguments", "output")),
}
"""Responses output items of tools OpenAI runs itself (item type → the tool's name and
the item fields that make the result's content); done, they become ``tool_result``
blocks. An ``mcp_call`` is named by its item's ``name``."""

__all__ = [
    "CHAT_CHUNK_OBJECT",
    "CHAT_FINISH_REASONS",
    "CHAT_HELPER_TYPES",
    "NATIVE_ITEM_TYPES",
    "RESPONSES_INCOMPLETE_REASONS",
    "SERVER_TOOL_ITEMS",
]
