"""The pieces of system-prompt text a syntax writes about its block types: an entry per
type, and the fields of its models. (:meth:`BlockRegistry.system_prompt` puts the
syntaxes' sections together.)"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable, Sequence
from enum import Enum
from types import UnionType
from typing import TYPE_CHECKING, Any, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

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
        notes = [type_name(field.annotation, depth), *constraints(field)]
        if not field.is_required():
            notes.append("optional")
            if field.default is not PydanticUndefined and field.default_factory is None:
                notes.append(f"default {_literal(field.default)}")
        text = f"{field.alias or name} ({', '.join(notes)})"
        if field.description:
            text += f": {field.description}"
        fields.append(text)
    return "; ".join(fields)


def constraints(field: FieldInfo) -> list[str]:
    """A field's constraints in words a model follows: ``from 1 to 5``, ``greater than
    0``, ``a multiple of 5``, ``3 to 20 characters``, ``at most 4 items``, ``matching the
    regular expression ^[a-z]+$``, ``one of "low", "high"`` (an enum's values)."""
    found: dict[str, Any] = {}
    for item in field.metadata:
        for key in _CONSTRAINT_KEYS:
            value = getattr(item, key, None)
            if value is not None:
                found[key] = value
    words = []
    ge, le = found.get("ge"), found.get("le")
    if ge is not None and le is not None:
        words.append(f"from {ge} to {le}")
    else:
        words += [f"at least {ge}"] if ge is not None else []
        words += [f"at most {le}"] if le is not None else []
    words += [f"greater than {found['gt']}"] if "gt" in found else []
    words += [f"less than {found['lt']}"] if "lt" in found else []
    words += [f"a multiple of {found['multiple_of']}"] if "multiple_of" in found else []
    least, most = found.get("min_length"), found.get("max_length")
    unit = "characters" if _is_text(field.annotation) else "items"
    if least is not None and least == most:
        words.append(f"exactly {least} {unit}")
    elif least is not None and most is not None:
        words.append(f"{least} to {most} {unit}")
    elif least is not None:
        words.append(f"at least {least} {unit}")
    elif most is not None:
        words.append(f"at most {most} {unit}")
    if "pattern" in found:
        words.append(f"matching the regular expression {found['pattern']}")
    members = _enum_values(field.annotation)
    if not members and isinstance(field.default, Enum):  # an annotation not resolved yet
        members = [member.value for member in type(field.default)]
    if members:
        words.append("one of " + ", ".join(_literal(value) for value in members))
    return words


_CONSTRAINT_KEYS = ("ge", "gt", "le", "lt", "multiple_of", "min_length", "max_length", "pattern")


def _literal(value: Any) -> str:
    """A value as the model would write it (JSON where it can be)."""
    if isinstance(value, Enum):
        value = value.value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _members(annotation: Any) -> list[Any]:
    """The annotation and, for a union or ``Annotated``, the types inside it."""
    origin = get_origin(annotation)
    if origin is typing.Annotated:
        return _members(get_args(annotation)[0])
    if origin is typing.Union or origin is UnionType:
        return [m for arg in get_args(annotation) for m in _members(arg)]
    return [annotation]


def _is_text(annotation: Any) -> bool:
    return any(m in (str, bytes) for m in _members(annotation))


def _enum_values(annotation: Any) -> list[Any]:
    return [
        member.value
        for m in _members(annotation)
        if isinstance(m, type) and issubclass(m, Enum)
        for member in m
    ]


def type_name(annotation: Any, depth: int = 0) -> str:
    """A short readable name for a field's annotation: ``int``, ``list[str]``,
    ``str | None``, ``Literal['a', 'b']``; a nested model shows its own fields (two
    levels deep)."""
    if annotation is None or annotation is type(None):
        return "None"
    if isinstance(annotation, typing.ForwardRef):  # a name pydantic could not resolve
        return annotation.__forward_arg__
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
