"""Mistral (Magistral, Devstral, Ministral…): ``[THINK]…[/THINK]``; ``[TOOL_CALLS]`` + a
JSON array of calls (v3), or ``[TOOL_CALLS]NAME[ARGS]{…}`` with an optional
``[CALL_ID]ID`` before ``[ARGS]`` (v11+), repeated for parallel calls."""

from __future__ import annotations

import re
from typing import Any

from ...core.json_values import loads
from ..grammar import KEYED, Call, CallFormat, Grammar, arguments_after, json_object, need
from ..scan import EndSpec
from ..schema import ToolSchemas

_NAMED = re.compile(
    r"\A\s*([^\s\[\]{}]+)\s*(?:\[CALL_ID\]\s*([^\s\[\]{}]+)\s*)?(?:\[ARGS\]\s*)?(\{.*)\Z",
    re.DOTALL,
)


def _calls(body: str, schemas: ToolSchemas) -> list[Call]:
    if body.lstrip().startswith("["):
        return _array(body)
    found = _NAMED.match(body)
    need(found is not None, "not NAME[ARGS]{…} after [TOOL_CALLS]")
    assert found is not None
    name, call_id, arguments = found.groups()
    return [Call(name, json_object(arguments, "the arguments"), call_id)]


def _array(body: str) -> list[Call]:
    try:
        items = loads(body)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"the call array is not valid JSON ({exc})") from None
    need(isinstance(items, list), "not a JSON array of calls")
    return [_item(item) for item in items]


def _item(item: Any) -> Call:
    """One parsed item of the call array."""
    need(isinstance(item, dict), "an item of the call array is not an object")
    name = item.get("name")
    need(isinstance(name, str) and bool(name), "a call has no name")
    arguments: Any = item.get("arguments", {})
    if isinstance(arguments, str):
        arguments = json_object(arguments, "the arguments string")
    need(isinstance(arguments, dict), "the arguments are not an object")
    call_id = item.get("id")
    return Call(name, arguments, call_id if isinstance(call_id, str) else None)


TOOL_CALLS = CallFormat(
    "[TOOL_CALLS]",
    {"[": EndSpec(balanced="[", strings='"'), "": EndSpec(balanced="{", strings='"')},
    _calls,
    name=re.compile(
        r'\A\s*(?:\[\s*\{\s*"name"\s*:\s*"(?P<name>[^"\\]+)"'
        r"|(?P<name2>[^\s\[\]{}\"]+)\s*(?:\[CALL_ID\]\s*(?P<id>[^\s\[\]{}]+)\s*)?\[ARGS\])"
    ),
    name_ends='"]',
    arguments=arguments_after(
        r"\A\s*[^\s\[\]{}]+\s*(?:\[CALL_ID\]\s*[^\s\[\]{}]+\s*)?(?:\[ARGS\])?"
        rf"|\A\s*\[\s*{KEYED}"
    ),
    item=_item,
)

MISTRAL = Grammar(thinking=(("[THINK]", "[/THINK]"), ("<think>", "</think>")), calls=(TOOL_CALLS,))
