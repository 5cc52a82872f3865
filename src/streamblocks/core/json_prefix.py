"""JSON text of a growing object that its later states extend (AG-UI arguments of a
call whose text is not JSON: a gadget's)."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["json_prefix"]


def json_prefix(value: Any) -> str:
    """JSON text of a partial value that later values of the same object extend: its
    last string and the containers holding it left open, and a number, ``true``,
    ``false`` or ``null`` in the last place left out (where a gadget's value may still
    turn into text). ``json.dumps`` of the final value (same key order, default
    separators, ``ensure_ascii=False``) starts with it."""
    cls = value.__class__
    if cls is dict:
        items = list(value.items())
        head = [f"{_dumps(k)}: {_dumps(v)}" for k, v in items[:-1]]
        if items:
            key, last = items[-1]
            if last.__class__ in (dict, list, str):
                head.append(f"{_dumps(key)}: {json_prefix(last)}")
        return "{" + ", ".join(head)
    if cls is list:
        head = [_dumps(v) for v in value[:-1]]
        if value and value[-1].__class__ in (dict, list, str):
            head.append(json_prefix(value[-1]))
        return "[" + ", ".join(head)
    if cls is str:
        return _dumps(value)[:-1]
    return ""


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
