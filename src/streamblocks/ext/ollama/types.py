"""Ollama response shapes and its ``done_reason`` table.

Nothing here imports ``ollama`` at run time; the SDK types are named for type checkers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from ...core.events import StopReason

if TYPE_CHECKING:
    from ollama import ChatResponse, GenerateResponse

    OllamaEvent: TypeAlias = ChatResponse | GenerateResponse | Mapping[str, Any]
    """What :class:`~streamblocks.ext.ollama.OllamaInputAdapter` reads."""

RESPONSE_TYPES = frozenset({"ChatResponse", "GenerateResponse"})
"""The SDK classes of a streamed chunk."""

DONE_REASONS: Mapping[str, StopReason] = {
    "stop": StopReason.end_turn,
    "length": StopReason.max_tokens,
}
"""``done_reason`` → :class:`StopReason` (others, like ``load``/``unload``: ``unknown``).
``stop`` after a tool call is ``tool_use``."""

__all__ = ["DONE_REASONS", "RESPONSE_TYPES"]
