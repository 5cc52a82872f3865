"""Declaring block types: which blocks a model may emit, in which syntax, validated how."""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from .block_types import BlockType, OnStart, Transform, TypeTable, Validator
from .errors import RegistryError
from .syntax import Syntax, default_syntax

__all__ = ["BlockRegistry", "BlockType", "OnStart", "Transform", "TypeTable", "Validator"]


class BlockRegistry:
    """The block types a processor recognises, in registration order.

    A registry may be shared by many processors; each session works from a snapshot
    taken when it starts, so registering later affects only later streams.
    """

    def __init__(self) -> None:
        self._types: dict[str, BlockType] = {}
        self._version = 0

    def register(
        self,
        name: str,
        *,
        syntax: Syntax | Sequence[Syntax] | None = None,
        tag: str | None = None,
        metadata: type[BaseModel] | None = None,
        content: type[BaseModel] | None = None,
        description: str | None = None,
        instructions: str | None = None,
        transform: Transform | None = None,
        on_start: OnStart | None = None,
        validators: Sequence[Validator] = (),
    ) -> BlockType:
        """Declare a block type and return its description.

        ``syntax`` is the syntax (or syntaxes) the type is written in; without it the
        processor's default syntax applies. ``tag`` is the marker name when it differs
        from ``name`` (``tag="debug-info"`` for the key ``debugInfo``). Without
        ``description``, the ``content`` model's docstring (else the ``metadata``
        model's) is the description.
        """
        if not isinstance(name, str) or not name:
            raise RegistryError(f"block type name must be a non-empty str, got {name!r}")
        if name in self._types:
            raise RegistryError(f"block type {name!r} is already registered")
        marker = name if tag is None else tag
        if not isinstance(marker, str) or not marker:
            raise RegistryError(f"tag of {name!r} must be a non-empty str, got {tag!r}")
        for label, model in (("metadata", metadata), ("content", content)):
            if model is not None and not (isinstance(model, type) and issubclass(model, BaseModel)):
                raise RegistryError(f"{label}= of {name!r} must be a pydantic model class")
        for label, hook in (("transform", transform), ("on_start", on_start)):
            if hook is not None and not callable(hook):
                raise RegistryError(f"{label}= of {name!r} must be callable")
        checks = tuple(validators)
        if not all(callable(check) for check in checks):
            raise RegistryError(f"validators of {name!r} must be callables")
        block_type = BlockType(
            name=name,
            marker=marker,
            syntaxes=_as_syntaxes(name, syntax),
            metadata=metadata,
            content=content,
            description=description or _docstring(content) or _docstring(metadata),
            instructions=instructions,
            transform=transform,
            on_start=on_start,
            validators=checks,
        )
        self._types[name] = block_type
        self._version += 1
        return block_type

    def __contains__(self, name: object) -> bool:
        return name in self._types

    def __iter__(self) -> Iterator[BlockType]:
        return iter(self._types.values())

    def __len__(self) -> int:
        return len(self._types)

    def __getitem__(self, name: str) -> BlockType:
        return self._types[name]

    def get(self, name: str) -> BlockType | None:
        return self._types.get(name)

    @property
    def version(self) -> int:
        """Grows with every registration; lets processors cache their plan."""
        return self._version

    def syntax_plan(self, default: Syntax) -> list[tuple[Syntax, dict[str, BlockType]]]:
        """Each active syntax, in order of first use, with the types it recognises.

        Syntaxes are compared by value, so two equal ``DelimiterPreambleSyntax()``
        instances are one syntax.
        """
        plan: list[tuple[Syntax, dict[str, BlockType]]] = []
        for block_type in self._types.values():
            for syntax in block_type.syntaxes or (default,):
                markers = next((found for known, found in plan if known == syntax), None)
                if markers is None:
                    markers = {}
                    plan.append((syntax, markers))
                markers.setdefault(block_type.marker, block_type)
        return plan

    def unadvertised(self) -> dict[str, str]:
        """The registered types :meth:`system_prompt` leaves out, each with the reason."""
        return {
            t.name: "no description or instructions (pass description= or instructions=, "
            "or give its content/metadata model a docstring)"
            for t in self._types.values()
            if not t.advertised
        }

    def system_prompt(self, default: Syntax | None = None) -> str:
        """Text telling a model which blocks it may emit and in which format.

        One section per syntax, in the order of each syntax's first registered type,
        listing its types in registration order. A type is advertised when it has a
        description (``description=``, or its ``content``/``metadata`` model's
        docstring) or instructions; a type with neither is still intercepted, just not
        advertised (see :meth:`unadvertised`).
        """
        sections: list[str] = []
        for syntax, markers in self.syntax_plan(default or default_syntax()):
            listed = [t for t in dict.fromkeys(markers.values()) if t.advertised]
            if listed:
                sections.append(syntax.describe(listed))
        return "\n\n".join(section for section in sections if section)

    def inject_system_prompt(
        self, messages: Sequence[Mapping[str, Any]], default: Syntax | None = None
    ) -> list[dict[str, Any]]:
        """A copy of ``messages`` with :meth:`system_prompt` added to the system message."""
        return inject_system_prompt(messages, self.system_prompt(default))


def _docstring(model: type[BaseModel] | None) -> str | None:
    """A model's own docstring: not one it inherits, nor pydantic's own (``BaseModel``,
    ``RootModel``); a parametrized generic model (``Page[int]``) has its origin's."""
    if model is None:
        return None
    generic = getattr(model, "__pydantic_generic_metadata__", None) or {}
    origin = generic.get("origin") or model
    doc = origin.__dict__.get("__doc__")
    if not isinstance(doc, str) or origin.__module__.startswith("pydantic."):
        return None
    return inspect.cleandoc(doc) or None


def _as_syntaxes(name: str, syntax: Syntax | Sequence[Syntax] | None) -> tuple[Syntax, ...] | None:
    if syntax is None:
        return None
    given: Any = syntax  # what a caller passed may be anything: checked below
    many = isinstance(given, Sequence) and not isinstance(given, str)
    found: tuple[Any, ...] = tuple(given) if many else (given,)
    wrong = next((s for s in found if not isinstance(s, Syntax)), None)
    if not found or wrong is not None:
        raise RegistryError(f"syntax= of {name!r} {_syntax_hint(wrong)}")
    return found


SYNTAX_CLASSES = (
    "DelimiterPreambleSyntax",
    "DelimiterFrontmatterSyntax",
    "MarkdownFrontmatterSyntax",
    "XMLTagSyntax",
    "GadgetSyntax",
)


def _syntax_hint(wrong: object) -> str:
    """What a wrong ``syntax=`` should have been, in one line."""
    listed = ", ".join(f"{name}()" for name in SYNTAX_CLASSES)
    if isinstance(wrong, type):
        got = f"the class {wrong.__name__}; pass an instance: {wrong.__name__}()"
        return f"must be a Syntax instance, got {got}"
    if isinstance(wrong, str):
        key = wrong.lower().replace("_", "").replace("-", "")
        like = [n for n in SYNTAX_CLASSES if key and key in n.lower()]
        also = f" (did you mean {' or '.join(f'{n}()' for n in like)}?)" if like else ""
        return (
            f"must be a Syntax instance, not the string {wrong!r}{also}; "
            f"from streamblocks import one of {listed}"
        )
    got = "an empty sequence" if wrong is None else type(wrong).__name__
    return f"must be a Syntax instance (or a sequence of them), got {got}; one of {listed}"


SYSTEM_ROLES = ("system", "developer")
"""Roles that carry system instructions (OpenAI's newer models use ``developer``)."""


def inject_system_prompt(
    messages: Sequence[Mapping[str, Any]], prompt: str
) -> list[dict[str, Any]]:
    """A copy of ``messages`` with ``prompt`` appended to the last system (or
    ``developer``) message, or a ``system`` message inserted first.

    Works on OpenAI-style lists (``content`` a string or a list of parts) and
    Anthropic-style ones (no system message: one is inserted; for the Messages API pass
    :meth:`~streamblocks.BlockRegistry.system_prompt` as ``system=`` instead). Neither
    ``messages`` nor anything in it is changed: the messages are copied shallowly and
    the one that receives the prompt gets a new ``content``.
    """
    if not prompt:
        return [dict(message) for message in messages]
    result = [dict(message) for message in messages]
    for message in result[::-1]:
        if message.get("role") not in SYSTEM_ROLES:
            continue
        content = message.get("content")
        if isinstance(content, (list, tuple)):
            message["content"] = [*content, {"type": "text", "text": prompt}]
        elif content:
            message["content"] = f"{content}\n\n{prompt}"
        else:
            message["content"] = prompt
        return result
    result.insert(0, {"role": "system", "content": prompt})
    return result
