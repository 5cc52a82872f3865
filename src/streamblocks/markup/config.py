"""What ``StreamBlockProcessor(markup=…)`` accepts, and the model a stream names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.registry import TypeTable
from .families import ALIASES, FAMILIES, Markup, markup_for, unknown
from .schema import tool_schemas
from .switch import thinking_of
from .syntax import MarkupSyntax

AUTO = "auto"


def markup_option(spec: Any) -> tuple[Markup, ...] | str:
    """``markup=`` checked: the configured markups, or ``"auto"``. A family name, a
    model id (read by :func:`markup_for`), a :class:`Markup`, a list of them, ``"auto"``
    or ``None`` (no markup)."""
    if spec is None:
        return ()
    if isinstance(spec, str):
        return AUTO if spec.strip().lower() == AUTO else (named(spec),)
    if isinstance(spec, Markup):
        return (spec,)
    if isinstance(spec, Sequence):
        found: list[Markup] = []
        for item in spec:
            if isinstance(item, str) and item.strip().lower() != AUTO:
                found.append(named(item))
            elif isinstance(item, Markup):
                found.append(item)
            else:
                raise TypeError(f"markup= lists family names and Markup objects, got {item!r}")
        return tuple(found)
    raise TypeError(
        f"markup= is a family name, a Markup, a list of them, 'auto' or None, "
        f"got {type(spec).__name__}"
    )


def named(name: str) -> Markup:
    """The markup a family name or a model id stands for; ``ValueError`` naming both ways
    and :data:`FAMILIES` when it is neither."""
    key = name.strip().lower()
    if ALIASES.get(key, key) in FAMILIES:
        return Markup(key)
    found = markup_for(name)
    if found is None:
        raise ValueError(unknown(name))
    return found


def markup_plan(markups: Sequence[Markup]) -> list[tuple[MarkupSyntax, TypeTable]]:
    """The plan entries (syntax, empty type table) of ``markups``."""
    return [(MarkupSyntax(markup), TypeTable({})) for markup in markups]


def for_model(model: str | None, request: Mapping[str, Any] | None = None) -> tuple[Markup, ...]:
    """``markup="auto"``: the markup of the model a stream names (none when unnamed or
    unknown), for the request's thinking switch and tools when they are known."""
    if not model:
        return ()
    if request is None:
        found = markup_for(model)
    else:
        found = markup_for(model, thinking=thinking_of(request), tools=request_tools(request))
    return (found,) if found is not None else ()


def request_tools(request: Mapping[str, Any]) -> Any:
    """The OpenAI-format tools of a request's keyword arguments (``None`` when it offers
    none, or tools in a format that names no function: Gemini's declarations)."""
    tools = request.get("tools")
    if not isinstance(tools, Sequence) or isinstance(tools, str):
        return None
    try:
        tool_schemas(tools)
    except (TypeError, ValueError):
        return None
    return tools


class MarkupChoice:
    """``markup=`` resolved into what the core runs (its
    :class:`~streamblocks.core.markup_hook.MarkupPlan`)."""

    def __init__(self, spec: Any) -> None:
        self.option = markup_option(spec)
        self.auto = self.option == AUTO

    def entries(
        self, model: str | None, request: Mapping[str, Any] | None = None
    ) -> list[tuple[MarkupSyntax, TypeTable]]:
        option = self.option
        return markup_plan(for_model(model, request) if isinstance(option, str) else option)

    def model_of(self, item: Any) -> str | None:
        return model_of(item)


def model_of(item: Any) -> str | None:
    """The model an item of a stream names: an OpenAI-compatible chunk's ``model``, an
    Ollama response's ``model`` (objects or their dict forms); ``None`` otherwise."""
    model = item.get("model") if isinstance(item, Mapping) else getattr(item, "model", None)
    return model if isinstance(model, str) and model else None
