"""What the sub-agents of a step did (:class:`SubAgent`), kept apart from the step's own.

A sub-agent's blocks name the call that started it in ``attrs["parent_id"]`` (see
:mod:`streamblocks.ext._subagents`). ``collect()`` gathers them here, so that
``step.text`` and ``step.tool_calls`` stay the run's own: a call a sub-agent made is
not one the loop should run, and its text is not the reply.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from .core.blocks import Block

PARENT_ID = "parent_id"
"""The ``attrs`` key naming the call that started a sub-agent's block."""


def parent_id(block: Block) -> str | None:
    """The id of the call that started the sub-agent ``block`` comes from, if any."""
    value = block.attrs.get(PARENT_ID) if block.attrs else None
    return value if isinstance(value, str) and value else None


@dataclass
class SubAgent:
    """One sub-agent: the call that started it and everything it produced, in order."""

    id: str
    """The id of the call that started it (Claude Code's ``Task`` tool-use id, the
    OpenAI Agents SDK's function call id of an agent run as a tool)."""
    call: Block | None = None
    """That call's ``tool_call`` block (``None`` when the stream did not hold it)."""
    result: Block | None = None
    """That call's ``tool_result`` block: what the sub-agent answered, when it came."""
    blocks: list[Block] = field(default_factory=list)
    """Its own blocks, in order: ``text``, ``thinking``, ``tool_call``, ``tool_result``
    and the typed blocks of its tool results."""
    sub_agents: list[SubAgent] = field(default_factory=list)
    """The sub-agents it started itself, in the order they began."""

    @property
    def name(self) -> str | None:
        """The name of the tool that started it (``"Task"``), when the call is known."""
        name = self.call.attrs.get("name") if self.call is not None else None
        return name if isinstance(name, str) else None

    @property
    def text(self) -> str:
        """Its text (the ``text`` blocks joined)."""
        return "".join(str(b.content) for b in self.blocks if b.type == "text")

    @property
    def tool_calls(self) -> list[Block]:
        """The ``tool_call`` blocks it made (not calls for the loop to run: it ran them)."""
        return [b for b in self.blocks if b.type == "tool_call"]

    def walk(self) -> Iterator[tuple[int, SubAgent]]:
        """This sub-agent and every one below it, depth first, with its depth (0 here)."""
        yield 0, self
        for child in self.sub_agents:
            for depth, agent in child.walk():
                yield depth + 1, agent


class SubAgentFolder:
    """Sorts the finished blocks of one step into :class:`SubAgent` trees."""

    def __init__(self) -> None:
        self.roots: list[SubAgent] = []
        self._by_id: dict[str, SubAgent] = {}
        self._calls: dict[str, Block] = {}  # call id -> its tool_call block
        self._owner: dict[str, str | None] = {}  # call id -> parent id of the call

    def note_call(self, block: Block) -> None:
        """Remember a finished ``tool_call`` block (the run's or a sub-agent's): it may
        start a sub-agent."""
        call_id = block.attrs.get("id") or block.id
        if isinstance(call_id, str):
            self._calls[call_id] = block
            self._owner[call_id] = parent_id(block)
            agent = self._by_id.get(call_id)
            if agent is not None and agent.call is None:  # its blocks came before its call
                agent.call = block
                owner = self._owner[call_id]
                if owner is not None and owner != call_id and agent in self.roots:
                    self.roots.remove(agent)
                    self._agent(owner).sub_agents.append(agent)

    def note_result(self, block: Block) -> None:
        """Remember a ``tool_result``: the answer of a sub-agent's call, if one ran."""
        agent = self._by_id.get(str(block.attrs.get("tool_call_id")))
        if agent is not None and agent.result is None:
            agent.result = block

    def add(self, block: Block, parent: str) -> None:
        """A block of the sub-agent started by the call ``parent``."""
        self._agent(parent).blocks.append(block)

    def _agent(self, call_id: str) -> SubAgent:
        agent = self._by_id.get(call_id)
        if agent is not None:
            return agent
        agent = self._by_id[call_id] = SubAgent(call_id, self._calls.get(call_id))
        owner = self._owner.get(call_id)
        if owner is not None and owner != call_id:
            self._agent(owner).sub_agents.append(agent)
        else:
            self.roots.append(agent)
        return agent


__all__ = ["PARENT_ID", "SubAgent", "parent_id"]
