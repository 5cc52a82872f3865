"""LangChain shapes and the finish-reason table its integrations share.

Nothing here imports ``langchain_core`` at run time; its types are named for type
checkers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from ...core.events import StopReason

if TYPE_CHECKING:
    from langchain_core.messages import AIMessageChunk
    from langchain_core.runnables.schema import StreamEvent

    LangChainEvent: TypeAlias = AIMessageChunk | StreamEvent | Mapping[str, Any]
    """What :class:`~streamblocks.ext.langchain.LangChainInputAdapter` reads."""

CHUNK_TYPE = "AIMessageChunk"
"""The class (and ``type`` field) of a streamed chat-model chunk."""

STREAM_EVENTS = frozenset({"on_chat_model_stream", "on_llm_stream"})
"""``astream_events`` events whose ``data.chunk`` is read; every other event passes through."""

END_EVENTS = frozenset({"on_chat_model_end", "on_llm_end"})
"""Events that close a model run's open thinking and tool-call blocks."""

FINISH_KEYS = ("finish_reason", "stop_reason", "done_reason", "stopReason")
"""``response_metadata`` keys the integrations put their finish reason under (OpenAI,
Anthropic, Ollama, Bedrock)."""

FINISH_REASONS: Mapping[str, StopReason] = {
    "stop": StopReason.end_turn,
    "end_turn": StopReason.end_turn,
    "stop_sequence": StopReason.stop_sequence,
    "length": StopReason.max_tokens,
    "max_tokens": StopReason.max_tokens,
    "tool_calls": StopReason.tool_use,
    "function_call": StopReason.tool_use,
    "tool_use": StopReason.tool_use,
    "content_filter": StopReason.content_filter,
    "safety": StopReason.content_filter,
    "recitation": StopReason.content_filter,
    "refusal": StopReason.refusal,
}
"""A finish reason, lower-cased (Gemini's ``STOP``, ``MAX_TOKENS`` too) → :class:`StopReason`
(others: ``unknown``). ``stop`` after a tool call is ``tool_use``."""

THINKING_BLOCKS: Mapping[str, str] = {"reasoning": "reasoning", "thinking": "thinking"}
"""Content-block types that are thinking → the key holding their text (LangChain's
standard ``reasoning`` block, Anthropic's ``thinking``)."""

TOOL_BLOCKS = frozenset(
    {
        "tool_use",
        "tool_call",
        "tool_call_chunk",
        "invalid_tool_call",
        "input_json_delta",
        "server_tool_call",
        "server_tool_call_chunk",
        "function_call",
    }
)
"""Content blocks of a tool call: read from ``tool_call_chunks`` instead, so skipped."""

__all__ = [
    "CHUNK_TYPE",
    "END_EVENTS",
    "FINISH_KEYS",
    "FINISH_REASONS",
    "STREAM_EVENTS",
    "THINKING_BLOCKS",
    "TOOL_BLOCKS",
]
