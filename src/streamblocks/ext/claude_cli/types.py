"""Claude Code ``stream-json`` line types and the tools whose results get typed blocks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

LINE_TYPES = frozenset({"system", "stream_event", "assistant", "user", "result"})
"""The ``type`` of each top-level line."""

ClaudeCLILine: TypeAlias = Mapping[str, Any]
"""One parsed line (what :class:`~streamblocks.ext.claude_cli.ClaudeCLIInputAdapter`
reads besides raw ``str``/``bytes`` chunks)."""

READ_TOOLS = frozenset({"Read"})
"""Tools whose ``tool_use_result.file`` becomes a ``code`` block."""
COMMAND_TOOLS = frozenset({"Bash"})
"""Tools whose ``stdout``/``stderr`` become a ``command`` block."""
EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"})
"""Tools whose result becomes a ``file_change`` block."""
TODO_TOOLS = frozenset({"TodoWrite"})
"""Tools whose todo list becomes a ``todo`` block."""

__all__ = [
    "COMMAND_TOOLS",
    "EDIT_TOOLS",
    "LINE_TYPES",
    "READ_TOOLS",
    "TODO_TOOLS",
    "ClaudeCLILine",
]
