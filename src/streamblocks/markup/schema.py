"""Typing argument values that a format writes as bare text, by the offered tools' JSON
schemas.

Qwen3-Coder parameters, GLM ``arg_value``, DSML parameters, Kimi K3 arguments and
Gemma 4 values are text: ``7`` may be the number 7 or the string ``"7"``. The tool's
JSON schema decides; without one, a value stays a string unless the format states its
type. A value that fits none of the schema's types stays the string it was written as.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Mapping
from typing import Any

from ..core.json_values import integer, loads

ToolSchemas = dict[str, Mapping[str, Any]]
"""Tool name → the JSON schema of its parameters."""

_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")
_TRUE = ("true", "True")
_FALSE = ("false", "False")
_NULL = ("null", "None")


def tool_schemas(tools: Any) -> ToolSchemas:
    """Parameter schemas by tool name from OpenAI-format tool dicts (``{"type":
    "function", "function": {"name", "parameters"}}`` or the bare function dicts) or
    from an object with ``schemas("openai")``."""
    if tools is None:
        return {}
    schemas = getattr(tools, "schemas", None)
    if callable(schemas):
        tools = schemas("openai")
    found: ToolSchemas = {}
    for tool in tools:
        if not isinstance(tool, Mapping):
            raise TypeError(f"a tool is an OpenAI-format dict, got {type(tool).__name__}")
        function = tool.get("function", tool)
        name = function.get("name") if isinstance(function, Mapping) else None
        if not isinstance(name, str):
            raise ValueError(f"a tool without a name: {tool!r}")
        parameters = function.get("parameters")
        found[name] = parameters if isinstance(parameters, Mapping) else {}
    return found


def property_schema(schemas: ToolSchemas, tool: str, key: str) -> Mapping[str, Any] | None:
    """The schema of argument ``key`` of ``tool``, or ``None`` when it is not known."""
    parameters = schemas.get(tool)
    if parameters is None:
        return None
    properties = parameters.get("properties")
    if isinstance(properties, Mapping):
        found = properties.get(key)
        if isinstance(found, Mapping):
            return found
    return None


def typed(text: str, schema: Mapping[str, Any] | None) -> Any:
    """``text`` as the value ``schema`` asks for (the first of its types that ``text``
    fits, a string last); ``text`` itself when there is no schema or nothing fits."""
    if schema is None:
        return text
    types = _types(schema)
    if not types:
        return text
    for kind in sorted(types, key=lambda t: t == "string"):
        ok, value = _as(kind, text)
        if ok:
            return value
    return text


def is_text(schema: Mapping[str, Any] | None) -> bool:
    """Whether :func:`typed` gives every text back as it is (the schema says only
    string, or says nothing): such a value can be streamed before it ends."""
    return schema is None or set(_types(schema)) <= {"string"}


def types_of(schema: Mapping[str, Any] | None) -> list[str]:
    """The JSON types ``schema`` allows (its ``type``, or those of its ``anyOf`` /
    ``oneOf`` options); none when it says nothing."""
    return [] if schema is None else _types(schema)


def stated(text: str, kind: str) -> Any:
    """``text`` as a value of the type a format states (DSML ``string="false"``,
    Kimi K3 ``type="number"``); the string when it does not fit."""
    ok, value = _as(kind, text)
    if ok:
        return value
    ok, value = _as("json", text)
    return value if ok else text


def _types(schema: Mapping[str, Any]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        return [k for k in kind if isinstance(k, str)]
    found: list[str] = []
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list):
            for option in options:
                if isinstance(option, Mapping):
                    found.extend(t for t in _types(option) if t not in found)
    if not found and "enum" in schema:
        found.append("json")
    if not found and ("properties" in schema):
        found.append("object")
    return found


def _as(kind: str, text: str) -> tuple[bool, Any]:
    """Whether ``text`` reads as a value of JSON type ``kind``, and that value."""
    stripped = text.strip()
    if kind == "string":
        return True, text
    if kind == "integer":
        if _INTEGER.match(stripped):
            return True, integer(stripped)
        return False, None
    if kind == "number":
        if _NUMBER.match(stripped):
            number = float(stripped)
            return True, integer(stripped) if _INTEGER.match(stripped) else number
        return False, None
    if kind == "boolean":
        if stripped in _TRUE or stripped in _FALSE:
            return True, stripped in _TRUE
        return False, None
    if kind == "null":
        return (True, None) if stripped in _NULL else (False, None)
    if kind in ("object", "array", "json"):
        value = _structured(stripped)
        if value is _NOTHING:
            return False, None
        if kind == "object" and not isinstance(value, dict):
            return False, None
        if kind == "array" and not isinstance(value, list):
            return False, None
        return True, value
    return False, None


_NOTHING = object()


def _structured(text: str) -> Any:
    """A JSON value, or a Python literal of the same shapes (``{'a': True}``)."""
    try:
        return loads(text)
    except (ValueError, RecursionError):
        pass
    try:
        return python_literal(text)
    except ValueError:
        return _NOTHING


_LITERAL_NODES = (
    ast.Expression,
    ast.Constant,
    ast.Dict,
    ast.List,
    ast.Set,
    ast.Tuple,
    ast.UnaryOp,
    ast.USub,
    ast.UAdd,
    ast.Load,
)


def python_literal(text: str) -> Any:
    """A Python literal made of constants, lists, tuples, sets and dicts (tuples and
    sets become lists, in the order written): ``ValueError`` for anything else."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ValueError(f"not a Python literal: {exc}") from None
    return check_literal(tree)


def check_literal(tree: ast.AST) -> Any:
    """The value of a literal syntax tree. The tree is checked before
    ``ast.literal_eval`` sees it, so no other node is ever evaluated."""
    for node in ast.walk(tree):
        if not isinstance(node, _LITERAL_NODES):
            raise ValueError(f"not a literal: {type(node).__name__}")
    tree = _SetsAsLists().visit(tree)
    try:
        return _lists(ast.literal_eval(tree))
    except (ValueError, TypeError, RecursionError) as exc:
        raise ValueError(f"not a literal: {exc}") from None


class _SetsAsLists(ast.NodeTransformer):
    """A set literal as a list of its items in the order written (JSON has no set)."""

    def visit_Set(self, node: ast.Set) -> ast.AST:
        return ast.List([self.visit(item) for item in node.elts], ast.Load())


def _lists(value: Any) -> Any:
    """``value`` as JSON holds it (tuples become lists); ``ValueError`` for what JSON
    cannot hold (``...``, bytes, complex and non-finite numbers, keys other than
    strings), so such a call never reaches a message that fails to serialise."""
    if isinstance(value, (list, tuple)):
        return [_lists(item) for item in value]
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise ValueError("not a JSON value: a key that is not a string")
        return {key: _lists(item) for key, item in value.items()}
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    raise ValueError(f"not a JSON value: {value!r:.40}")
