"""Block types: what the registry records for each one, and the table of types one syntax
recognises (a module of its own so that the syntax protocol can name them at run time)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from .frozen import by_constructor

if TYPE_CHECKING:
    from .blocks import Block
    from .syntax import Syntax

Validator = Callable[["Block"], Any]
"""Called with the finished block. Returning ``None``/``True`` accepts it; returning
``False`` or a message (``str``), or raising, rejects it with ``VALIDATION_FAILED``."""
Transform = Callable[["Block"], Any]
"""Called with the finished block of a type that is not streamed: ``None`` keeps the
block, a list replaces it (strings become visible text, events are emitted as they are),
``[]`` suppresses it."""
OnStart = Callable[[Mapping[str, Any]], Any]
"""Called with the opening marker's attributes when a block starts."""


@dataclass(frozen=True, slots=True)
class BlockType:
    """One registered block type. ``name`` is the block's ``type``; ``marker`` is the
    name written in the model's text (``tag=`` when given, else ``name``)."""

    name: str
    marker: str
    syntaxes: tuple[Syntax, ...] | None
    metadata: type[BaseModel] | None
    content: type[BaseModel] | None
    description: str | None
    instructions: str | None
    transform: Transform | None
    on_start: OnStart | None
    validators: tuple[Validator, ...]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_constructor(self)

    @classmethod
    def generic(cls, name: str) -> BlockType:
        """An unregistered type accepted as it is (``unknown="block"``): no models,
        no hooks, no validation."""
        return cls(name, name, None, None, None, None, None, None, None, ())

    @property
    def advertised(self) -> bool:
        """Listed by :meth:`BlockRegistry.system_prompt`: it has a description (its own,
        or its models' docstring) or instructions. Every type is recognised either way."""
        return bool(self.description or self.instructions)

    @property
    def streamed(self) -> bool:
        """A type with a transform is held until it closes, then only the verdict shows."""
        return self.transform is None


class TypeTable:
    """The block types one syntax recognises, and the policy for unknown names.

    ``unknown`` is ``"text"`` (unknown names are not blocks), ``"error"`` (they are
    blocks rejected with ``UNKNOWN_TYPE``) or ``"block"`` (generic blocks with no
    validation).
    """

    __slots__ = ("_generic", "markers", "prefixes", "unknown")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # (a constructor call: the compiled build's ``__new__`` would call ``__init__``)
        return (TypeTable, (self.markers, self.unknown))

    def __init__(self, markers: Mapping[str, BlockType], unknown: str = "text") -> None:
        if unknown not in ("text", "error", "block"):
            raise ValueError(f"unknown= must be 'text', 'error' or 'block', got {unknown!r}")
        self.markers = dict(markers)
        self.unknown = unknown
        self.prefixes = frozenset(
            name[:end] for name in self.markers for end in range(len(name) + 1)
        )
        """Every prefix of every marker name: a partial name outside it names no type."""
        self._generic: dict[str, BlockType] = {}

    def resolve(self, name: str) -> BlockType | None:
        """The type named ``name``: registered, generic (``unknown="block"``) or None."""
        found = self.markers.get(name)
        if found is not None or self.unknown != "block":
            return found
        generic = self._generic.get(name)
        if generic is None:
            generic = self._generic[name] = BlockType.generic(name)
        return generic

    def accepts(self, name: str) -> bool:
        """Whether a marker naming ``name`` opens a block (possibly an error block)."""
        return name in self.markers or self.unknown != "text"
