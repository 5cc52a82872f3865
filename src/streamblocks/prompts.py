"""The pieces of system-prompt text a syntax writes about its block types: an entry per
type, and the fields of its models. (:meth:`BlockRegistry.system_prompt` puts the
syntaxes' sections together.)"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable, Sequence
from types import UnionType
from typing import TYPE_CHECKING, Any, get_args, get_origin

from pydantic import BaseModel

if TYPE_CHECKING:
    from .core.registry import BlockType


def type_entry(block_type: BlockType, label: str, *, content_label: str = "content") -> str:
    """``- <label>: <description>`` with the instructions (and model fields, when the
    type has models) indented below it. ``content_label`` names the content fields
    (``"arguments"`` for gadgets)."""
    parts = [text for text in (block_type.description, block_type.instructions) if text]
    entry = f"- {label}: " + "\n  ".join(part.replace("\n", "\n  ") for part in parts)
    for kind, model in (("metadata", block_type.metadata), (content_label, block_type.content)):
        if model is not None:
            entry += "\n  " + describe_model(kind, model)
    return entry


def listing(
    intro: str,
    types: Sequence[BlockType],
    label: Callable[[BlockType], str],
    *,
    content_label: str = "content",
) -> str:
    """``intro`` followed by one :func:`type_entry` per type."""
    entries = (type_entry(t, label(t), content_label=content_label) for t in types)
    return "\n".join([intro, *entries])


def describe_model(label: str, model: type[BaseModel]) -> str:
    """A one-line summary of a model's fields: name, type, and description."""
    return f"{label} fields: " + _fields(model, 0)


def _fields(model: type[BaseModel], depth: int) -> str:
    fields = []
    for name, field in model.model_fields.items():
        required = "" if field.is_required() else ", optional"
        text = f"{field.alias or name} ({type_name(field.annotation, depth)}{required})"
        if field.description:
            text += f": {field.description}"
        fields.append(text)
    return "; ".join(fields)


def type_name(annotation: Any, depth: int = 0) -> str:
    """A short readable name for a field's annotation: ``int``, ``list[str]``,
    ``str | None``, ``Literal['a', 'b']``; a nested model shows its own fields (two
    levels deep)."""
    if annotation is None or annotation is type(None):
        return "None"
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is typing.Annotated:
        return type_name(args[0], depth)
    if origin is typing.Union or origin is UnionType:
        return " | ".join(type_name(arg, depth) for arg in args)
    if origin is typing.Literal:
        return "Literal[" + ", ".join(repr(arg) for arg in args) + "]"
    if origin is None and isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if depth >= 2:
            return annotation.__name__
        return f"{annotation.__name__}: {{{_fields(annotation, depth + 1)}}}"
    if origin is not None:
        base = getattr(origin, "__name__", None) or str(origin).replace("typing.", "")
        inner = ", ".join("..." if arg is Ellipsis else type_name(arg, depth) for arg in args)
        return f"{base}[{inner}]" if args else base
    name = getattr(annotation, "__name__", None)
    return name if isinstance(name, str) else str(annotation).replace("typing.", "")


def describe_model_fields(label: str, model: type[BaseModel], *, schema: bool = False) -> str:
    """``<label>: name (type[, optional]): description; ...`` for a model's fields, and
    with ``schema`` the compact JSON schema when a field is structured (a nested model,
    a list or a mapping), where a field list alone would not say enough."""
    line = f"{label}: " + _fields(model, 0)
    if schema and any(_structured(f.annotation) for f in model.model_fields.values()):
        line += "\n  JSON schema: " + json.dumps(
            model.model_json_schema(), separators=(",", ":"), sort_keys=False
        )
    return line


def _structured(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    origin = get_origin(annotation)
    if origin in (list, dict, tuple, set, frozenset):
        return True
    return any(_structured(arg) for arg in get_args(annotation))
