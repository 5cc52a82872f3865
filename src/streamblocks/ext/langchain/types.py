"""LangChain shapes and the finish-reason table its integrations share.

Nothing here imports ``langchain_core`` at run time; its types are named for type
checkers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from ...core.events import StopReason

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage
    from langchain_core.runnables.schema import StreamEvent

    LangChainEvent: TypeAlias = BaseMessage | StreamEvent | Mapping[str, Any] | tuple[Any, ...]
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

CLIENT_CALL_BLOCKS = frozenset({"tool_call", "tool_call_chunk", "invalid_tool_call"})
"""Standard blocks of the application's own tool calls: when a message's blocks hold any,
its calls are read from them, else from ``tool_call_chunks`` / ``tool_calls``."""

LEGACY_TOOL_BLOCKS = frozenset({"tool_use", "input_json_delta", "server_tool_use", "function_call"})
"""Provider-native tool-call blocks of ``content`` (LangChain's v0 format): their calls
are read from ``tool_call_chunks``, so these are skipped."""

DATA_BLOCKS = frozenset({"image", "audio", "video", "file", "text-plain"})
"""Standard multimodal blocks: each becomes a native block of its type (content: the
base64 data, or the URL), in stream order."""

DATA_FIELDS = ("base64", "data", "url")
"""Where a data block's payload is, in order (the rest of its fields are attrs)."""

STREAM_MODES = frozenset(
    {"values", "updates", "messages", "custom", "checkpoints", "tasks", "debug", "tools"}
)
"""LangGraph ``stream_mode`` names: ``(mode, payload)`` tuples and v2 stream parts."""

MESSAGE_TYPES = frozenset(
    {"AIMessageChunk", "ai", "tool", "ToolMessageChunk", "human", "system", "HumanMessageChunk"}
)
"""The ``type`` of LangChain messages (what LangGraph's ``messages`` mode yields)."""

V3_EVENTS = frozenset(
    {
        "message-start",
        "content-block-start",
        "content-block-delta",
        "content-block-finish",
        "message-finish",
    }
)
"""The events of ``stream_events(version="v3")`` (langchain-core 1.8, the
``langchain-protocol`` ``MessagesData``); an ``error`` event is read within a stream."""

__all__ = [
    "CHUNK_TYPE",
    "CLIENT_CALL_BLOCKS",
    "DATA_BLOCKS",
    "DATA_FIELDS",
    "END_EVENTS",
    "FINISH_KEYS",
    "FINISH_REASONS",
    "LEGACY_TOOL_BLOCKS",
    "MESSAGE_TYPES",
    "STREAM_EVENTS",
    "STREAM_MODES",
    "THINKING_BLOCKS",
    "V3_EVENTS",
]
