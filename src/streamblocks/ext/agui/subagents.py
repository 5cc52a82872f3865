"""Sub-agents as AG-UI 1.0 events, for :class:`~streamblocks.ext.agui.AGUIOutputAdapter`.

A sub-agent's blocks name the call that started it in ``attrs["parent_id"]`` (DESIGN.md
"Sub-agents"). In protocol 1.0 its first block is preceded by ``SUBAGENT_STARTED``
(``parent_tool_call_id``: that call's id), every event of its blocks carries its
``subagent_run_id``, and the call's result is preceded by ``SUBAGENT_FINISHED`` (its
content as ``result``) or ``SUBAGENT_ERROR`` (an error result). One call runs one
invocation, so the ``subagent_run_id`` *is* the call's id; a sub-agent started by a call
another sub-agent made names that one as ``parent_subagent_run_id``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...subagents import PARENT_ID
from .payloads import jsonable


def parent_of(attrs: Mapping[str, Any]) -> str | None:
    """The call a block's sub-agent was started by, if the block is a sub-agent's."""
    parent = attrs.get(PARENT_ID) if attrs else None
    return parent if isinstance(parent, str) and parent else None


class SubAgentEvents:
    """One stream's sub-agents: which are running, and the calls that may start one."""

    __slots__ = ("_calls", "active", "core", "done", "messages")

    def __init__(self, core: Any) -> None:
        self.core = core
        self._calls: dict[str, tuple[str, Any, str | None]] = {}  # id -> name, args, owner
        self.active: dict[str, str | None] = {}  # running: id -> its parent sub-agent
        self.done: set[str] = set()
        self.messages: dict[str, str] = {}  # sub-agent -> its last text message

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__ if name != "core"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self.core = None  # set again by the adapter that owns it

    def note_call(self, call_id: str, name: Any, arguments: Any, attrs: Mapping[str, Any]) -> None:
        """A tool call (it may start a sub-agent): its name, arguments and owner."""
        self._calls[call_id] = (str(name or "subagent"), arguments, parent_of(attrs))

    def enter(self, parent: str, out: list[Any]) -> str:
        """The ``subagent_run_id`` of the sub-agent started by the call ``parent``;
        ``SUBAGENT_STARTED`` goes to ``out`` first when it was not running yet."""
        if parent in self.active or parent in self.done:
            return parent
        name, arguments, owner = self._calls.get(parent, ("subagent", None, None))
        outer = self.enter(owner, out) if owner is not None and owner != parent else None
        fields: dict[str, Any] = {"subagent_run_id": parent, "parent_tool_call_id": parent}
        if isinstance(arguments, Mapping):
            kind, description = arguments.get("subagent_type"), arguments.get("description")
            name = kind if isinstance(kind, str) and kind else name
            if isinstance(description, str):
                fields["description"] = description
        if outer is not None:
            fields["parent_subagent_run_id"] = outer
        out.append(self.core.SubagentStartedEvent(name=name, **fields))
        self.active[parent] = outer
        return parent

    def finish(self, call_id: str, content: Any, is_error: bool, out: list[Any]) -> None:
        """The call ``call_id`` has its result: the sub-agent it ran (if one did) ends,
        after the ones it started that are still running."""
        if call_id not in self.active:
            return
        for inner in [i for i, owner in self.active.items() if owner == call_id]:
            self.finish(inner, None, False, out)
        del self.active[call_id]
        self.done.add(call_id)
        core = self.core
        if is_error:
            message = content if isinstance(content, str) and content else "the sub-agent failed"
            out.append(core.SubagentErrorEvent(subagent_run_id=call_id, message=message))
        elif content is None:
            out.append(core.SubagentFinishedEvent(subagent_run_id=call_id))
        else:
            result = jsonable(content)
            out.append(core.SubagentFinishedEvent(subagent_run_id=call_id, result=result))

    def close_all(self, error: str | None, out: list[Any]) -> None:
        """The stream ends: every sub-agent still running ends, innermost first (with
        the run's error when it failed)."""
        for call_id in reversed(list(self.active)):
            if call_id in self.active:
                self.finish(call_id, error, error is not None, out)


__all__ = ["SubAgentEvents", "parent_of"]
