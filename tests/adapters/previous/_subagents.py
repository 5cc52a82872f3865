"""Sub-agents: what an agent started by a call writes is not the run's own reply.

Claude Code's ``Task`` tool, the Agent SDK's messages with ``parent_tool_use_id`` and an
OpenAI Agents SDK agent run as a tool all name the call that started them. Everything
such a sub-agent produces comes out as native blocks whose ``attrs["parent_id"]`` is that
call's id: its text as ``text`` blocks (never a ``TEXT_DELTA`` of the run), its thinking,
calls and results as the blocks the run's own would be. A sub-agent that starts another
gives blocks naming the inner call, so the nesting is the chain of ``parent_id`` links
through the calls' ids.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from streamblocks.adapters.protocols import (
    EventCategory,
    Native,
    NativeDelta,
    NativeEnd,
    NativeStart,
)
from streamblocks.subagents import PARENT_ID

from ._base import SKIP, Step


class Nesting:
    """Puts a sub-agent's native pieces under its parent call, for one stream.

    Keys are made unique per parent (two sub-agents running side by side both count
    their content blocks from 0), every block is marked with ``parent_id``, a
    close-all (``NativeEnd(None)``) closes only that sub-agent's blocks, and its text
    becomes ``text`` blocks.
    """

    __slots__ = ("_open",)

    def __init__(self) -> None:
        self._open: dict[str, dict[Hashable, None]] = {}  # parent -> its open keys

    def pieces(self, parent: str, natives: Iterable[Native]) -> list[Native]:
        """``natives`` of a sub-agent, re-keyed and marked."""
        opened = self._open.setdefault(parent, {})
        out: list[Native] = []
        for piece in natives:
            if isinstance(piece, NativeStart):
                key = (PARENT_ID, parent, piece.key)
                opened[key] = None
                out.append(piece._replace(key=key, attrs={**piece.attrs, PARENT_ID: parent}))
            elif isinstance(piece, NativeDelta):
                out.append(piece._replace(key=(PARENT_ID, parent, piece.key)))
            elif piece.key is None:
                out.extend(self.close(parent))
            else:
                key = (PARENT_ID, parent, piece.key)
                opened.pop(key, None)
                out.append(piece._replace(key=key))
        return out

    def text(self, parent: str, key: Hashable, text: str) -> list[Native]:
        """A piece of a sub-agent's text: opens its ``text`` block at ``key`` if needed."""
        full = (PARENT_ID, parent, "text", key)
        opened = self._open.setdefault(parent, {})
        out: list[Native] = []
        if full not in opened:
            opened[full] = None
            out.append(NativeStart(full, "text", None, {PARENT_ID: parent}))
        if text:
            out.append(NativeDelta(full, text))
        return out

    def end_text(self, parent: str, key: Hashable) -> list[Native]:
        """Closes the sub-agent's ``text`` block at ``key``, if one is open."""
        full = (PARENT_ID, parent, "text", key)
        opened = self._open.get(parent)
        if opened is None or full not in opened:
            return []
        del opened[full]
        return [NativeEnd(full)]

    def whole_text(self, parent: str, key: Hashable, text: str) -> list[Native]:
        """A sub-agent's text that arrived whole (a message snapshot)."""
        return [*self.text(parent, key, text), *self.end_text(parent, key)]

    def close(self, parent: str) -> list[Native]:
        """Closes every block of the sub-agent still open (its turn ended)."""
        opened = self._open.pop(parent, {})
        return [NativeEnd(key) for key in opened]

    def step(self, parent: str, step: Step, key: Hashable) -> Step:
        """What one of a sub-agent's analysed events gives: its text as a whole ``text``
        block at ``key``, its pieces marked; the stop reason and usage stay the run's."""
        natives = self.pieces(parent, step.natives)
        if step.category is EventCategory.TEXT_CONTENT and step.text:
            natives = [*self.whole_text(parent, key, step.text), *natives]
        if step.category is EventCategory.PASSTHROUGH:
            return Step(EventCategory.PASSTHROUGH, natives=natives)
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP


def parent_of(value: Any) -> str | None:
    """A parent call id when ``value`` is one (a non-empty string)."""
    return value if isinstance(value, str) and value else None


__all__ = ["PARENT_ID", "Nesting", "parent_of"]
