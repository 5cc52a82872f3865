"""Typed views of objects while they stream: a pydantic model's fields as far as written.

``BlockDelta.partial`` is plain data (dicts, lists, strings...). To read it as the model
it will become::

    from streamblocks.partial import partial_model, partial_view

    PartialAnswer = partial_model(Answer)        # every field optional, nested models too
    view = partial_view(Answer, delta)           # a PartialAnswer, or None before any value

:func:`partial_view` validates what was written against :func:`partial_model`: a value
that is merely unfinished (the string being written, the list still open) never fails,
whatever the field's constraints; a value that is complete and wrong (a string where an
``int`` belongs, followed by more arguments) raises :class:`pydantic.ValidationError`
as the final validation would. ``collect(..., output=Model, on_partial=fn)`` and
:meth:`streamblocks.Tools.partial` are built on it.
"""

from __future__ import annotations

import functools
import types
import typing
from typing import Annotated, Any, Optional, Union

from pydantic import BaseModel, ValidationError, create_model
from pydantic.fields import FieldInfo

from .core.events import BlockDelta
from .core.partials import PartialAt, Path

__all__ = ["partial_model", "partial_view"]

_UNIONS: tuple[Any, ...] = (Union, types.UnionType)


@functools.cache
def partial_model(model: type[BaseModel]) -> type[BaseModel]:
    """``model`` with every field optional (default ``None``), and every model it
    nests (directly, in lists, dicts, tuples, unions) replaced by its partial model.
    Field constraints and aliases are kept; validators are not (they judge whole
    objects: the final validation runs them). Cached per model."""
    fields: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        annotation = _partial_annotation(field.annotation)
        if field.metadata:
            annotation = _annotated(annotation, tuple(field.metadata))
        optional = Optional[annotation]  # type: ignore[valid-type]  # noqa: UP045
        info = FieldInfo(
            annotation=optional,
            default=None,
            alias=field.alias,
            validation_alias=field.validation_alias,
            description=field.description,
        )
        fields[name] = (optional, info)
    config = {key: value for key, value in model.model_config.items() if key != "title"}
    partial: type[BaseModel] = create_model(  # type: ignore[call-overload]
        f"Partial{model.__name__}",
        __config__=config,
        __doc__=f"{model.__name__} as far as written: every field optional.",
        __module__=model.__module__,
        **fields,
    )
    return partial


def _partial_annotation(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return partial_model(annotation)
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is None or not args:
        return annotation
    if origin is Annotated:
        return _annotated(_partial_annotation(args[0]), args[1:])
    changed = tuple(_partial_annotation(arg) for arg in args)
    if changed == args:
        return annotation
    if origin in _UNIONS:
        return functools.reduce(lambda a, b: a | b, changed)
    if origin is typing.Literal:
        return annotation
    return origin[changed if len(changed) > 1 else changed[0]]


def _annotated(annotation: Any, metadata: tuple[Any, ...]) -> Any:
    arguments = (annotation, *metadata)
    return Annotated[arguments]


def partial_view(model: type[BaseModel], partial: BlockDelta | Any) -> BaseModel | None:
    """``partial`` (a :class:`BlockDelta`, its ``partial_at``, or a value such as its
    ``partial``) as an instance of :func:`partial_model` of ``model``; ``None`` before
    the first value.

    Validation errors at the unfinished part are forgiven (that part is left out and
    the rest validated again); any other raises :class:`pydantic.ValidationError`. A
    bare value does not say which part is unfinished, so the last member at each level
    is taken to be (its errors show once something follows it).
    """
    if isinstance(partial, BlockDelta | PartialAt):
        at = partial.partial_at if isinstance(partial, BlockDelta) else partial
        value = at.value if at is not None else None
        open_path = at.open_path if at is not None else None
    else:
        value, open_path = partial, _last_path(partial)
    if value is None:
        return None
    target = partial_model(model)
    while True:
        try:
            return target.model_validate(value)
        except ValidationError as exc:
            if open_path is None:
                raise
            value = _forgive(value, exc, open_path)
            if value is None:
                raise


def _forgive(value: Any, exc: ValidationError, open_path: Path) -> Any:
    """``value`` without the unfinished places that failed, or ``None`` when an error
    is elsewhere (or at the top, which cannot be left out)."""
    prune: list[Path] = []
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])
        depth = min(len(loc), len(open_path))
        if loc[:depth] != open_path[:depth] or depth == 0:
            return None
        prune.append(loc[:depth])
    value = _copy(value)
    for place in sorted(set(prune), key=len, reverse=True):
        _remove(value, place)
    return value


def _copy(value: Any) -> Any:
    from .core.partial_json import copy_json

    return copy_json(value)


def _remove(value: Any, place: Path) -> None:
    node = value
    for key in place[:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return
    last = place[-1]
    if isinstance(node, dict):
        node.pop(last, None)
    elif isinstance(node, list) and isinstance(last, int) and last < len(node):
        del node[last]


def _last_path(value: Any) -> Path:
    """The chain of last members: where a bare partial value may be unfinished."""
    path: list[str | int] = []
    while isinstance(value, (dict, list)) and value:
        if isinstance(value, dict):
            key = next(reversed(value))
            path.append(key)
            value = value[key]
        else:
            path.append(len(value) - 1)
            value = value[-1]
    return tuple(path)
