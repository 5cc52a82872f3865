"""Claude Agent SDK message and content-block classes, by name.

Nothing here imports ``claude_agent_sdk`` at run time; its types are named for type
checkers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from claude_agent_sdk import Message

    ClaudeAgentSDKEvent: TypeAlias = Message | Mapping[str, Any]
    """What :class:`~streamblocks.ext.claude_agent_sdk.ClaudeAgentSDKInputAdapter` reads."""

SDK_MODULE = "claude_agent_sdk"

BLOCK_TYPES: Mapping[str, str] = {
    "TextBlock": "text",
    "ThinkingBlock": "thinking",
    "ToolUseBlock": "tool_use",
    "ToolResultBlock": "tool_result",
    "ServerToolUseBlock": "server_tool_use",
    "ServerToolResultBlock": "advisor_tool_result",
}
"""Content-block class → the ``type`` of the stream-json block it was parsed from."""

__all__ = ["BLOCK_TYPES", "SDK_MODULE"]
