"""Building an argument object from JSON-pointer / value pairs (the gadget syntax).

A gadget writes each argument as a pointer (RFC 6901, without the leading ``/``) and
its value text. :func:`build_arguments` turns those pairs into the argument object:

* each ``/``-separated token is a key; ``~1`` stands for ``/`` and ``~0`` for ``~``;
* a token that is a canonical array index (``0``, ``1``, ... without leading zeros) or
  ``-`` (append) makes its container an array, unless the content model says that
  container is an object or a mapping; array items are written in order, without gaps;
* a value written on one line is *coerced*: ``true``/``false`` become bools and JSON
  numbers become ``int``/``float``; any other text, and any value written over several
  lines, stays a string (one trailing newline removed, inner newlines kept).

With a content model, coercion follows the field's annotation: a field that accepts
no bool or number (``str``, ``datetime``, ``UUID``, ...) keeps the text as written
(``"007"`` stays ``"007"``); ``null`` becomes ``None`` for optional non-string fields;
a list, mapping or model field given a single JSON value (``["a", "b"]``) takes the
parsed JSON. The model's own validation runs afterwards, in the session.
"""

from __future__ import annotations

import collections.abc
import enum
import math
import re
import types
import typing
from collections.abc import Iterable
from decimal import Decimal
from typing import Any, Union

from pydantic import BaseModel

from ..core.json_values import integer, loads
from .base import ParseFailure

_INDEX = re.compile(r"0|[1-9][0-9]*")
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_BAD_ESCAPE = re.compile(r"~(?![01])")
_MAPPINGS = (
    dict,
    collections.abc.Mapping,
    collections.abc.MutableMapping,
    typing.Mapping,
    typing.MutableMapping,
    typing.Dict,  # noqa: UP006  (the runtime origin of old-style annotations)
)
_SEQUENCES = (
    list,
    set,
    frozenset,
    collections.abc.Sequence,
    collections.abc.MutableSequence,
    collections.abc.Set,
    collections.abc.MutableSet,
    collections.abc.Iterable,
)
_SCALARS = (bool, int, float, Decimal)
_UNIONS: tuple[Any, ...] = (Union, types.UnionType)
_MISSING = object()
MAX_DEPTH = 64
"""Deepest nesting an argument object may have. Deeper objects are rejected with
``PARSE_FAILED``: a 500-token pointer fits in a marker line, but the object it builds
cannot be serialised (pydantic stops at about 250 levels) or walked recursively."""

Options = tuple[Any, ...] | None
"""What the content model allows at a place: annotations, or ``None`` (no schema)."""


def split_pointer(pointer: str) -> list[str]:
    """The unescaped tokens of ``pointer`` (one leading ``/`` is tolerated)."""
    if pointer.startswith("/"):
        pointer = pointer[1:]
    if not pointer:
        raise ParseFailure("Empty pointer")
    tokens = pointer.split("/")
    if "~" in pointer:
        if _BAD_ESCAPE.search(pointer):
            raise ParseFailure(f"Invalid escape in pointer: {pointer} (only ~0 and ~1)")
        tokens = [token.replace("~1", "/").replace("~0", "~") for token in tokens]
    return tokens


def escape_token(token: str) -> str:
    """``token`` escaped for use in a pointer (``~`` → ``~0``, ``/`` → ``~1``)."""
    return token.replace("~", "~0").replace("/", "~1")


def normalize_pointer(pointer: str) -> str:
    """The pointer as reported in deltas and errors: trimmed, no leading ``/``."""
    pointer = pointer.strip()
    return pointer[1:] if pointer.startswith("/") else pointer


def coerce(text: str) -> Any:
    """The value of a single-line argument without schema: bool, int, float or text."""
    if text == "true":
        return True
    if text == "false":
        return False
    if text[:1] in "-0123456789" and text:
        if _INT.fullmatch(text):
            return integer(text)
        if _FLOAT.fullmatch(text):
            number = float(text)
            if math.isfinite(number):
                return number
    return text


def value_of(lines: list[str], options: Options) -> Any:
    """The value written as ``lines`` (each without its ``\\n``; a ``\\r`` before it
    is part of the line ending), for a place whose schema is ``options``."""
    if not lines:
        return ""
    last = lines[-1]
    if last.endswith("\r"):
        last = last[:-1]
    if len(lines) > 1:
        return "\n".join([*lines[:-1], last])
    return _single(last, options)


def build_arguments(pairs: Iterable[tuple[str, list[str]]], model: Any = None) -> dict[str, Any]:
    """The argument object written as ``(pointer, value lines)`` pairs, in order.

    ``model`` is the block type's content model (or ``None``). Raises
    :class:`ParseFailure` for duplicate or conflicting pointers and array gaps.
    """
    root: dict[str, Any] = {}
    top: Options = (model,) if model is not None else None
    for pointer, lines in pairs:
        insert(root, pointer, lines, top)
    return root


def insert(
    root: dict[str, Any],
    pointer: str,
    lines: list[str],
    top: Options,
    owned: set[int] | None = None,
    given: str | None = None,
) -> tuple[list[str | int], int]:
    """Put the value written as ``lines`` (or ``given``: text certainly kept as text)
    at ``pointer`` into ``root`` (the schema of the top being ``top``); returns the
    keys and indexes of the place it took and how many of them were there before (the
    depth at which the pointer created its key).

    With ``owned`` (the ids of containers no one else holds), a container on the way
    that is not owned is copied first and its copy owned: a reader of partial objects
    extends the object it built without changing one it handed out. Raises
    :class:`ParseFailure` as :func:`build_arguments` does, ``root`` then holding what
    it held (owned containers may have been copied, not changed)."""
    pointer = normalize_pointer(pointer)
    tokens = split_pointer(pointer)
    if len(tokens) > MAX_DEPTH:
        raise ParseFailure(f"Pointer nested deeper than {MAX_DEPTH} levels: {pointer[:80]}")
    keys: list[str | int] = []
    created: list[Any] = []  # the container that took the first new key, the key, its depth
    try:
        _insert(root, pointer, tokens, lines, given, top, owned, keys, created)
    except ParseFailure:
        if created:  # (containers made on the way to a conflict: gone again)
            holder = created[0]
            if isinstance(holder, dict):
                del holder[created[1]]
            else:
                holder.pop()
        raise
    return keys, len(keys) - 1 if not created else created[2]


def _insert(
    root: dict[str, Any],
    pointer: str,
    tokens: list[str],
    lines: list[str],
    given: str | None,
    top: Options,
    owned: set[int] | None,
    keys: list[str | int],
    created: list[Any],
) -> None:
    node: Any = root
    schema = top
    for depth, token in enumerate(tokens):
        schema = child_options(schema, token)
        last = depth == len(tokens) - 1
        key, existing = _slot(node, token, pointer, tokens[:depth])
        keys.append(key)
        if last:
            if isinstance(existing, (dict, list)):
                kind = "an object" if isinstance(existing, dict) else "an array"
                raise ParseFailure(f"Conflicting pointer: {pointer} (already holds {kind})")
            if existing is not _MISSING:
                raise ParseFailure(f"Duplicate pointer: {pointer}")
            value = value_of(lines, schema) if given is None else given
            if isinstance(value, (dict, list)) and _too_deep(value, MAX_DEPTH - len(tokens)):
                raise ParseFailure(f"Value nested deeper than {MAX_DEPTH} levels: {pointer}")
            _put(node, key, value)
            return
        if existing is _MISSING:
            follower = tokens[depth + 1]
            if (_INDEX.fullmatch(follower) or follower == "-") and not _is_mapping(schema):
                existing = []
            else:
                existing = {}
            if not created:
                created += (node, key, depth)
            if owned is not None:
                owned.add(id(existing))
            _put(node, key, existing)
        elif not isinstance(existing, (dict, list)):
            here = "/".join(escape_token(t) for t in tokens[: depth + 1])
            raise ParseFailure(f"Conflicting pointer: {pointer} ({here} already holds a value)")
        elif owned is not None and id(existing) not in owned:
            existing = existing.copy()
            owned.add(id(existing))
            node[key] = existing
        node = existing


def _too_deep(value: Any, budget: int) -> bool:
    """Whether ``value`` nests containers more than ``budget`` levels deep."""
    level: list[Any] = [value]
    while level:
        budget -= 1
        if budget < 0:
            return True
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, (dict, list))
        ]
    return False


def _slot(node: Any, token: str, pointer: str, above: list[str]) -> tuple[Any, Any]:
    """Where ``token`` goes in ``node``: (key or index, current value or _MISSING)."""
    if isinstance(node, dict):
        return token, node.get(token, _MISSING)
    if token == "-":
        return len(node), _MISSING
    if not _INDEX.fullmatch(token):
        here = "/".join(escape_token(t) for t in above)
        raise ParseFailure(f"Conflicting pointer: {pointer} ({here} is an array)")
    index = int(token)
    if index > len(node):
        raise ParseFailure(f"Array index gap: expected {len(node)}, got {index}")
    if index == len(node):
        return index, _MISSING
    return index, node[index]


def _put(node: Any, key: Any, value: Any) -> None:
    if isinstance(node, dict):
        node[key] = value
    else:
        node.append(value)


# ---------------------------------------------------------------------- schema lookup


def _is_model(annotation: Any) -> bool:
    return _is_class(annotation) and issubclass(annotation, BaseModel)


def _is_class(annotation: Any) -> bool:
    """A plain class (on Python 3.10 ``list[int]`` passes ``isinstance(..., type)``)."""
    return isinstance(annotation, type) and typing.get_origin(annotation) is None


def _expand(options: Options) -> Options:
    """Flatten unions and ``Annotated``; ``None`` when anything is unconstrained."""
    if options is None:
        return None
    flat: list[Any] = []
    pending = list(options)
    while pending:
        annotation = pending.pop()
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            pending.append(typing.get_args(annotation)[0])
        elif origin in _UNIONS:
            pending.extend(typing.get_args(annotation))
        elif annotation is Any or annotation is object or isinstance(annotation, typing.TypeVar):
            return None
        else:
            flat.append(annotation)
    return tuple(flat)


def child_options(options: Options, token: str) -> Options:
    """What the schema allows under ``token`` of a place whose schema is ``options``."""
    found = _expand(options)
    if not found:
        return None
    children: list[Any] = []
    for annotation in found:
        origin: Any = typing.get_origin(annotation) or annotation
        args = typing.get_args(annotation)
        if _is_model(annotation):
            field = _field(annotation, token)
            if field is not None:
                children.append(field)
            elif annotation.model_config.get("extra") == "allow":
                return None
        elif origin in _MAPPINGS:
            if len(args) != 2:
                return None
            children.append(args[1])
        elif origin in _SEQUENCES:
            if not args:
                return None
            children.append(args[0])
        elif origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                children.append(args[0])
            elif _INDEX.fullmatch(token) and int(token) < len(args):
                children.append(args[int(token)])
    return tuple(children) or None


def _field(model: type[BaseModel], key: str) -> Any:
    for name, field in model.model_fields.items():
        if key == (field.alias or name) or (key == name and field.alias is None):
            return field.annotation
    for name, field in model.model_fields.items():  # populate_by_name style
        if key == name:
            return field.annotation
    return None


def _is_mapping(options: Options) -> bool:
    found = _expand(options)
    for annotation in found or ():
        origin: Any = typing.get_origin(annotation) or annotation
        if origin in _MAPPINGS:
            return True
        if _is_model(annotation):
            return True
    return False


def _kind(annotation: Any) -> str:
    """``"scalar"`` (bool/number), ``"str"``, ``"none"``, ``"container"`` or ``"other"``."""
    if annotation is type(None) or annotation is None:
        return "none"
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        values = typing.get_args(annotation)
        if any(isinstance(v, _SCALARS) and not isinstance(v, str) for v in values):
            return "scalar"
        return "str"
    if _is_class(annotation):
        if issubclass(annotation, str):
            return "str"
        if issubclass(annotation, _SCALARS):
            return "scalar"
        if issubclass(annotation, enum.Enum):
            return "scalar"  # its values decide: let the text be coerced
        if issubclass(annotation, BaseModel) or annotation in _MAPPINGS + _SEQUENCES:
            return "container"
        if annotation is tuple:
            return "container"
        return "other"
    origin = origin or annotation
    if origin in _MAPPINGS or origin in _SEQUENCES or origin is tuple:
        return "container"
    return "other"


def _single(text: str, options: Options) -> Any:
    """The value of a single-line argument at a place whose schema is ``options``."""
    found = _expand(options)
    if not found:
        return coerce(text)
    kinds = {_kind(annotation) for annotation in found}
    if text == "null" and "none" in kinds and "str" not in kinds:
        return None
    if "scalar" in kinds:
        return coerce(text)
    if kinds <= {"container", "none"} and text[:1] in "[{":
        try:
            parsed = loads(text)
        except (ValueError, RecursionError):
            return text
        if isinstance(parsed, (dict, list)):
            return parsed
    return text
