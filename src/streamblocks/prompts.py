"""System-prompt text that tells a model which blocks it may emit, and how."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from .core.registry import BlockRegistry, BlockType
    from .syntaxes.base import Syntax


def render_system_prompt(registry: BlockRegistry, default: Syntax | None = None) -> str:
    """One section per active syntax (its format and its types), in order of first use.

    Types are listed in registration order; a type with neither description nor
    instructions is still recognised but not listed, and a syntax with no listed type
    gets no section.
    """
    from .syntaxes.preamble import DelimiterPreambleSyntax

    sections: list[str] = []
    for syntax, markers in registry.syntax_plan(default or DelimiterPreambleSyntax()):
        listed = [t for t in dict.fromkeys(markers.values()) if t.description or t.instructions]
        if listed:
            sections.append(syntax.describe(listed))
    return "\n\n".join(section for section in sections if section)


def type_entry(block_type: BlockType, label: str) -> str:
    """``- <label>: <description>`` with the instructions (and model fields, when the
    type has models) indented below it."""
    parts = [text for text in (block_type.description, block_type.instructions) if text]
    entry = f"- {label}: " + "\n  ".join(part.replace("\n", "\n  ") for part in parts)
    for kind, model in (("metadata", block_type.metadata), ("content", block_type.content)):
        if model is not None:
            entry += "\n  " + describe_model(kind, model)
    return entry


def listing(intro: str, types: Sequence[BlockType], label: Callable[[BlockType], str]) -> str:
    """``intro`` followed by one :func:`type_entry` per type."""
    return "\n".join([intro, *(type_entry(t, label(t)) for t in types)])


def describe_model(label: str, model: type[BaseModel]) -> str:
    """A one-line summary of a model's fields: name, type, and description."""
    fields = []
    for name, field in model.model_fields.items():
        annotation = getattr(field.annotation, "__name__", None) or str(field.annotation)
        required = "" if field.is_required() else ", optional"
        text = f"{name} ({annotation}{required})"
        if field.description:
            text += f": {field.description}"
        fields.append(text)
    return f"{label} fields: " + "; ".join(fields)


def inject_system_prompt(
    messages: Sequence[Mapping[str, Any]], prompt: str
) -> list[dict[str, Any]]:
    """A copy of ``messages`` with ``prompt`` appended to the last system message, or a
    system message inserted first. ``messages`` itself is not changed."""
    result = [copy.deepcopy(dict(message)) for message in messages]
    for message in reversed(result):
        if message.get("role") != "system":
            continue
        content = message.get("content")
        if isinstance(content, list):
            content.append({"type": "text", "text": prompt})
        elif content:
            message["content"] = f"{content}\n\n{prompt}"
        else:
            message["content"] = prompt
        return result
    result.insert(0, {"role": "system", "content": prompt})
    return result
