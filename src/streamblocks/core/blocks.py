"""The finished block handed to the application."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Block:
    """A closed, parsed and validated block.

    ``metadata`` is the metadata model's instance when the block type declares one,
    otherwise the metadata mapping. ``content`` is the content model's instance, or the
    syntax's natural value: the body text (``str``) for delimiter and fence blocks, the
    argument object for gadgets. ``raw`` is the exact source text including the markers;
    ``start``/``end`` are its character offsets in the stream's text, so
    ``text[block.start:block.end] == block.raw``.
    """

    id: str
    type: str
    syntax: str
    metadata: Any
    content: Any
    attrs: Mapping[str, Any] = field(default_factory=dict)
    raw: str = ""
    start: int = 0
    end: int = 0

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as a constructor call: the compiled build's Block has none of the
        # state methods a slotted frozen dataclass gets, and would restore field by
        # field through the frozen ``__setattr__``.
        fields = (self.id, self.type, self.syntax, self.metadata, self.content)
        return (Block, (*fields, self.attrs, self.raw, self.start, self.end))
