"""AG-UI event type names.

Nothing here imports ``ag_ui`` at run time; the SDK types are named for type checkers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from ag_ui.core import BaseEvent

    AGUIEvent: TypeAlias = BaseEvent | Mapping[str, Any]
    """What :class:`~streamblocks.ext.agui.AGUIInputAdapter` reads."""

TEXT_TYPES = frozenset({"TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CHUNK"})
"""Events whose ``delta`` is reply text."""

FRAMING_SKIP_TYPES = frozenset(
    {
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_END",
        "REASONING_START",
        "REASONING_END",
        "THINKING_START",
        "THINKING_END",
    }
)
"""Events that only frame text or reasoning already read from other events."""

REASONING_START_TYPES = frozenset({"REASONING_MESSAGE_START", "THINKING_TEXT_MESSAGE_START"})
REASONING_CONTENT_TYPES = frozenset(
    {"REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_CHUNK", "THINKING_TEXT_MESSAGE_CONTENT"}
)
REASONING_END_TYPES = frozenset({"REASONING_MESSAGE_END", "THINKING_TEXT_MESSAGE_END"})

EVENT_TYPES = frozenset(
    {
        *TEXT_TYPES,
        *FRAMING_SKIP_TYPES,
        *REASONING_START_TYPES,
        *REASONING_CONTENT_TYPES,
        *REASONING_END_TYPES,
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        "TOOL_CALL_CHUNK",
        "TOOL_CALL_RESULT",
        "STATE_SNAPSHOT",
        "STATE_DELTA",
        "MESSAGES_SNAPSHOT",
        "ACTIVITY_SNAPSHOT",
        "ACTIVITY_DELTA",
        "RAW",
        "CUSTOM",
        "RUN_STARTED",
        "RUN_FINISHED",
        "RUN_ERROR",
        "STEP_STARTED",
        "STEP_FINISHED",
        "REASONING_ENCRYPTED_VALUE",
        "SUBAGENT_STARTED",
        "SUBAGENT_FINISHED",
        "SUBAGENT_ERROR",
    }
)
"""Every AG-UI event type this adapter knows (1.0, plus the older ``THINKING_*``)."""

__all__ = [
    "EVENT_TYPES",
    "FRAMING_SKIP_TYPES",
    "REASONING_CONTENT_TYPES",
    "REASONING_END_TYPES",
    "REASONING_START_TYPES",
    "TEXT_TYPES",
]
