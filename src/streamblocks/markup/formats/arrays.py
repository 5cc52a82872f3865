"""A JSON array of calls between markers, read item by item (each call streams its
arguments as written): Nemotron's ``<TOOLCALL>[…]</TOOLCALL>``, Hunyuan-A13B's
``<tool_calls>[…]</tool_calls>``, Command A's ``<|START_ACTION|>[…]<|END_ACTION|>``."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from ..grammar import KEYED, Call, CallFormat, arguments_after, json_object, need
from ..scan import EndSpec
from ..schema import ToolSchemas

ARRAY = EndSpec(balanced="[", strings='"')
"""A body that is one JSON array (it ends where the array closes)."""
OBJECT = EndSpec(balanced="{", strings='"')
"""A body that is one call written as an object, not an array of one."""


def named_item(item: Any) -> Call:
    """``{"name": …, "arguments": {…}}`` (``arguments`` may be a JSON string; ``id`` is
    the call's id when given)."""
    return _item(item, "name", "id")


def action_item(item: Any) -> Call:
    """Command A's ``{"tool_call_id": …, "tool_name": …, "parameters": {…}}``."""
    return _item(item, "tool_name", "tool_call_id")


def _item(item: Any, name_key: str, id_key: str) -> Call:
    need(isinstance(item, dict), "an item of the call array is not an object")
    name = item.get(name_key)
    need(isinstance(name, str) and bool(name), "a call has no name")
    arguments: Any = item.get("arguments", item.get("parameters", {}))
    if isinstance(arguments, str):
        arguments = json_object(arguments, "the arguments string")
    need(isinstance(arguments, dict), "the arguments are not an object")
    call_id = item.get(id_key)
    return Call(name, arguments, str(call_id) if isinstance(call_id, (str, int)) else None)


def array_calls(body: str, item: Callable[[Any], Call]) -> list[Call]:
    """The calls of a JSON array body."""
    try:
        items = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"the call array is not valid JSON ({exc})") from None
    if isinstance(items, dict):  # one call, not an array of one (Nemotron writes both)
        items = [items]
    need(isinstance(items, list), "not a JSON array of calls")
    return [item(found) for found in items]


class _ArrayParse:
    """:data:`~streamblocks.markup.grammar.Parse` of an array body (an object, not a
    closure, so that a snapshot can write it)."""

    __slots__ = ("item",)

    def __init__(self, item: Callable[[Any], Call]) -> None:
        self.item = item

    def __call__(self, body: str, schemas: ToolSchemas) -> list[Call]:
        return array_calls(body, self.item)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_ArrayParse, (self.item,))


def array_call(
    opener: str, closer: str, item: Callable[[Any], Call] = named_item, name_key: str = "name"
) -> CallFormat:
    """A JSON array of calls after ``opener``, ``closer`` after it."""
    return CallFormat(
        opener,
        {"[": ARRAY, "{": OBJECT, "": ARRAY},
        _ArrayParse(item),
        name=array_name(name_key),
        name_ends='"',
        tail=closer,
        arguments=arguments_after(rf"\A\s*(?:\[\s*)?{KEYED}"),
        item=item,
    )


def array_name(name_key: str) -> re.Pattern[str]:
    """The name of the first call of an array: its ``name_key`` member, after string
    members."""
    return re.compile(
        r'\A\s*(?:\[\s*)?\{\s*(?:"[^"\\]*"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)*'
        rf'"{name_key}"\s*:\s*"(?P<name>[^"\\]+)"'
    )
