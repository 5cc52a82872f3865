"""OpenAI Agents SDK stream-event shapes.

Nothing here imports ``agents`` at run time; its types are named for type checkers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from agents import StreamEvent

    OpenAIAgentsEvent: TypeAlias = StreamEvent | Mapping[str, Any]
    """What :class:`~streamblocks.ext.openai_agents.OpenAIAgentsInputAdapter` reads."""

RAW = "raw_response_event"
"""A Responses API stream event of the model, in ``data``."""
RUN_ITEM = "run_item_stream_event"
"""A run item (message, tool call, tool output, handoff, reasoning), in ``item``."""
AGENT_UPDATED = "agent_updated_stream_event"
"""The run switched to another agent (a handoff)."""
EVENT_TYPES = frozenset({RAW, RUN_ITEM, AGENT_UPDATED})

RESULT_ITEMS = frozenset({"tool_output", "handoff_occured", "handoff_occurred"})
"""Run items that are a tool's result (a handoff is answered like a tool call)."""

__all__ = ["AGENT_UPDATED", "EVENT_TYPES", "RAW", "RESULT_ITEMS", "RUN_ITEM"]
