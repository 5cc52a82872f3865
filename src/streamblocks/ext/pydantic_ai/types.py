"""pydantic-ai event kinds and its finish-reason table.

Nothing here imports ``pydantic_ai`` at run time; its types are named for type checkers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from ...core.events import StopReason

if TYPE_CHECKING:
    from pydantic_ai import AgentStreamEvent
    from pydantic_ai.run import AgentRunResultEvent

    PydanticAIEvent: TypeAlias = AgentStreamEvent | AgentRunResultEvent[Any] | Mapping[str, Any]
    """What :class:`~streamblocks.ext.pydantic_ai.PydanticAIInputAdapter` reads."""

EVENT_KINDS = frozenset(
    {
        "part_start",
        "part_delta",
        "part_end",
        "final_result",
        "function_tool_call",
        "function_tool_result",
        "output_tool_call",
        "output_tool_result",
        "builtin_tool_call",
        "builtin_tool_result",
        "agent_run_result",
    }
)
"""The ``event_kind`` of the events an agent run streams (the ones detection trusts)."""

TOOL_CALL_PARTS: Mapping[str, bool] = {"tool-call": False, "builtin-tool-call": True}
"""Response parts that are tool calls → whether the provider runs the tool itself."""

RESULT_EVENTS = frozenset({"function_tool_result", "output_tool_result"})
"""Events carrying the result of a tool the agent ran."""

FINISH_REASONS: Mapping[str, StopReason] = {
    "length": StopReason.max_tokens,
    "content_filter": StopReason.content_filter,
    "error": StopReason.error,
}
"""The last response's ``finish_reason`` when the run ends → :class:`StopReason`; any
other (``stop``, ``tool_call`` for an output tool) is ``end_turn``: the run is done."""

__all__ = ["EVENT_KINDS", "FINISH_REASONS", "RESULT_EVENTS", "TOOL_CALL_PARTS"]
