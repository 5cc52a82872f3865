"""The finished block handed to the application."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr


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


_COMPILED = "__mypyc_attrs__" in vars(Block)


@mypyc_attr(native_class=False)
class _Filling:
    """:class:`Block`'s twin: the same slots, without the frozen ``__setattr__``."""

    __slots__ = ("attrs", "content", "end", "id", "metadata", "raw", "start", "syntax", "type")


def new_block(
    block_id: str,
    type_name: str,
    syntax: str,
    metadata: Any,
    content: Any,
    attrs: Mapping[str, Any],
    raw: str,
    start: int,
    end: int,
) -> Block:
    """``Block(...)``, as the session builds it for every block it finishes.

    On CPython a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``, a call that unpacks an argument tuple: about 14,000
    instructions for a ``Block`` (CPython 3.11), as much as the rest of closing it, and
    the compiled build runs that same interpreted ``__init__``. The pure build fills a
    twin of the same slots with plain stores and gives it ``Block``'s class (2,400); the
    compiled build writes the native fields of a new ``Block`` directly.
    """
    if _COMPILED:  # (native stores: mypyc writes the fields without ``__setattr__``)
        made = Block.__new__(Block)
        made.id = block_id  # type: ignore[misc]
        made.type = type_name  # type: ignore[misc]
        made.syntax = syntax  # type: ignore[misc]
        made.metadata = metadata  # type: ignore[misc]
        made.content = content  # type: ignore[misc]
        made.attrs = attrs  # type: ignore[misc]
        made.raw = raw  # type: ignore[misc]
        made.start = start  # type: ignore[misc]
        made.end = end  # type: ignore[misc]
        return made
    block: Any = object.__new__(_Filling)
    block.id = block_id
    block.type = type_name
    block.syntax = syntax
    block.metadata = metadata
    block.content = content
    block.attrs = attrs
    block.raw = raw
    block.start = start
    block.end = end
    block.__class__ = Block
    result: Block = block
    return result
