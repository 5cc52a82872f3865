"""Gemini (google-genai) shapes and finish-reason table.

Nothing here imports ``google.genai`` at run time; the SDK types are named for type
checkers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from ...core.events import StopReason

if TYPE_CHECKING:
    from google.genai.types import GenerateContentResponse

    GeminiEvent: TypeAlias = GenerateContentResponse | Mapping[str, Any]
    """What :class:`~streamblocks.ext.gemini.GeminiInputAdapter` reads."""

_FILTERED = StopReason.content_filter

FINISH_REASONS: Mapping[str, StopReason] = {
    "STOP": StopReason.end_turn,
    "MAX_TOKENS": StopReason.max_tokens,
    "SAFETY": _FILTERED,
    "RECITATION": _FILTERED,
    "LANGUAGE": _FILTERED,
    "BLOCKLIST": _FILTERED,
    "PROHIBITED_CONTENT": _FILTERED,
    "SPII": _FILTERED,
    "IMAGE_SAFETY": _FILTERED,
    "IMAGE_PROHIBITED_CONTENT": _FILTERED,
    "IMAGE_RECITATION": _FILTERED,
    "MODEL_ARMOR": _FILTERED,
    "MALFORMED_FUNCTION_CALL": StopReason.error,
    "UNEXPECTED_TOOL_CALL": StopReason.error,
    "TOO_MANY_TOOL_CALLS": StopReason.error,
    "MISSING_THOUGHT_SIGNATURE": StopReason.error,
    "MALFORMED_RESPONSE": StopReason.error,
}
"""``candidates[0].finish_reason`` → :class:`StopReason` (others: ``unknown``). ``STOP``
after a function call is ``tool_use``; a prompt blocked by ``prompt_feedback`` is
``content_filter``."""

__all__ = ["FINISH_REASONS"]
