"""``Message``: one turn of a conversation, what a step returns and what the next
request is built from (``streamblocks.request`` turns a list of them into each
provider's request)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, Field

from .blocks import ContentBlock, DocumentBlock, ImageBlock, TextBlock, ToolResultBlock

Role = Literal["system", "user", "assistant", "tool"]
"""Who speaks: ``system`` (instructions), ``user``, ``assistant`` (the model) and
``tool`` (a tool's result, one :class:`ToolResultBlock`)."""

UserPart = str | TextBlock | ImageBlock | DocumentBlock
"""What :meth:`Message.user` takes besides text: images and documents."""


class Message(BaseModel):
    """A message: its role and its content blocks in temporal order."""

    role: Role = "assistant"
    content: list[ContentBlock] = Field(default_factory=list)

    def text(self) -> str:
        """The visible text of the message (its text blocks, joined)."""
        return "".join(block.text for block in self.content if isinstance(block, TextBlock))

    @classmethod
    def system(cls, text: str) -> Message:
        """Instructions for the model."""
        return cls(role="system", content=[TextBlock(text)])

    @classmethod
    def user(cls, *parts: UserPart) -> Message:
        """A user turn: text, and images or documents (``Message.user("What is this?",
        ImageBlock(url=...))``)."""
        return cls(role="user", content=_parts(parts))

    @classmethod
    def assistant(cls, text: str) -> Message:
        """A model turn written by hand (a few-shot example, a replayed answer)."""
        return cls(role="assistant", content=[TextBlock(text)])

    @classmethod
    def tool(
        cls, tool_call_id: str, content: Any, *, name: str | None = None, is_error: bool = False
    ) -> Message:
        """A tool's result for the call ``tool_call_id``."""
        result = ToolResultBlock(
            tool_call_id=tool_call_id, name=name, content=content, is_error=is_error
        )
        return cls(role="tool", content=[result])


def _parts(parts: Iterable[UserPart]) -> list[Any]:
    return [TextBlock(part) if isinstance(part, str) else part for part in parts]
