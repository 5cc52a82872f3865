"""JSON schema → the subset Gemini's function declarations accept (an OpenAPI 3.0
``Schema``): ``$ref`` inlined from ``$defs``, ``anyOf`` with ``null`` as ``nullable``,
``const`` as a one-value ``enum``, camelCase keywords in snake_case, and the keywords
Gemini rejects (``additionalProperties``, ``$schema``, ``exclusiveMinimum``...) left out.
"""

from __future__ import annotations

from typing import Any

_KEYWORDS = {
    "type": "type",
    "format": "format",
    "title": "title",
    "description": "description",
    "nullable": "nullable",
    "enum": "enum",
    "default": "default",
    "example": "example",
    "pattern": "pattern",
    "minimum": "minimum",
    "maximum": "maximum",
    "minLength": "min_length",
    "maxLength": "max_length",
    "minItems": "min_items",
    "maxItems": "max_items",
    "minProperties": "min_properties",
    "maxProperties": "max_properties",
    "required": "required",
}
_MAX_DEPTH = 32


def gemini_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (a pydantic model's JSON schema) in the form Gemini takes.

    A recursive model cannot be inlined: it raises ``ValueError`` naming the reference.
    """
    return _convert(schema, schema.get("$defs", {}), 0)


def _convert(node: dict[str, Any], defs: dict[str, Any], depth: int) -> dict[str, Any]:
    if depth > _MAX_DEPTH:
        raise ValueError("a schema nested this deep (a recursive model?) has no Gemini form")
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if name not in defs:
            raise ValueError(f"schema reference {ref!r} is not in $defs")
        extra = {key: value for key, value in node.items() if key != "$ref"}
        return _convert({**defs[name], **extra}, defs, depth + 1)
    out: dict[str, Any] = {}
    for key, value in node.items():
        target = _KEYWORDS.get(key)
        if target is not None:
            out[target] = value
    kind = node.get("type")
    if isinstance(kind, list):  # ["string", "null"]
        others = [k for k in kind if k != "null"]
        out["type"] = others[0] if others else "null"
        if "null" in kind:
            out["nullable"] = True
    if "const" in node:
        out["enum"] = [node["const"]]
    if "enum" in out:
        out["enum"] = [str(value) for value in out["enum"]]
        out.setdefault("type", "string")
        if out["type"] != "string":  # Gemini takes enums of strings only
            del out["enum"]
    properties = node.get("properties")
    if isinstance(properties, dict):
        out["properties"] = {k: _convert(v, defs, depth + 1) for k, v in properties.items()}
        out["property_ordering"] = list(properties)
    items = node.get("items")
    if isinstance(items, dict):
        out["items"] = _convert(items, defs, depth + 1)
    for key in ("anyOf", "oneOf"):
        options = node.get(key)
        if isinstance(options, list):
            _any_of(out, [o for o in options if isinstance(o, dict)], defs, depth)
    for part in node.get("allOf") or ():
        if isinstance(part, dict):
            out = {**_convert(part, defs, depth + 1), **out}
    return out


def _any_of(
    out: dict[str, Any], options: list[dict[str, Any]], defs: dict[str, Any], depth: int
) -> None:
    concrete = [option for option in options if option.get("type") != "null"]
    if len(concrete) < len(options):
        out["nullable"] = True
    if len(concrete) == 1:
        for key, value in _convert(concrete[0], defs, depth + 1).items():
            out.setdefault(key, value)
    elif concrete:
        out["any_of"] = [_convert(option, defs, depth + 1) for option in concrete]
