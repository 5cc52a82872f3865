"""Codex ``exec --json`` event and item types, with the names older releases used."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

THREAD_START_TYPES = frozenset({"thread.started", "session.created", "session.resumed"})
"""The first line of a run (``session.*``: the experimental format before 0.44)."""

EVENT_TYPES = frozenset(
    {
        *THREAD_START_TYPES,
        "turn.started",
        "turn.completed",
        "turn.failed",
        "item.started",
        "item.updated",
        "item.completed",
        "error",
    }
)
"""The ``type`` of each top-level line."""

MESSAGE_ITEMS = frozenset({"agent_message", "assistant_message"})
"""The reply text item (renamed ``assistant_message`` → ``agent_message``)."""

ITEM_TYPES = frozenset(
    {
        *MESSAGE_ITEMS,
        "reasoning",
        "command_execution",
        "file_change",
        "todo_list",
        "mcp_tool_call",
        "web_search",
        "error",
    }
)
"""Item types this adapter reads (the item's ``type``, formerly ``item_type``)."""

ROLLOUT_TYPES = frozenset(
    {"session_meta", "turn_context", "response_item", "event_msg", "compacted"}
)
"""The ``type`` of each line of a Codex session file (a rollout)."""

SHELL_TOOLS = frozenset({"shell", "container.exec", "shell_command", "exec_command"})
"""A rollout's function calls that run a command: ``command`` a list (``shell``,
``container.exec``) or a string (``shell_command``), or ``cmd`` (``exec_command``)."""

CodexCLILine: TypeAlias = Mapping[str, Any]
"""One parsed line (what :class:`~streamblocks.ext.codex_cli.CodexCLIInputAdapter`
reads besides raw ``str``/``bytes`` chunks)."""

__all__ = [
    "EVENT_TYPES",
    "ITEM_TYPES",
    "MESSAGE_ITEMS",
    "ROLLOUT_TYPES",
    "SHELL_TOOLS",
    "THREAD_START_TYPES",
    "CodexCLILine",
]
