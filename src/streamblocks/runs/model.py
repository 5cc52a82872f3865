"""The record model: every event as one JSON-able dict, the ``--json`` line.

Each renderer of the command (JSON lines, plain, rich) reads these records and nothing
else, so they all show the same blocks, text, errors and summary; worker processes send
the same records back to the parent (``--jobs``), and :func:`streamblocks.batch.records`
gives them to any engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from pydantic import BaseModel

SCHEMA_VERSION = 1
"""Version of the ``--json`` line format (documented in docs/cli.md)."""

Record = dict[str, Any]


def jsonable(value: Any) -> Any:
    """``value`` as JSON-compatible data (models dumped, tuples as lists, enums as values)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return getattr(value, "value", value) if isinstance(value, (str, int)) else value
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if hasattr(value, "_asdict"):
        return {key: jsonable(item) for key, item in value._asdict().items()}
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(item) for item in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    enum_value = getattr(value, "value", None)
    if isinstance(enum_value, (str, int)):
        return enum_value
    return str(value)


def event_dict(event: Any, *, partial: bool = False) -> Record:
    """One event as the ``--json`` object: ``{"type": ..., <its fields>}``; with
    ``partial``, a ``BLOCK_DELTA`` of an object block carries ``partial`` too (the object
    written so far, ``extract --partial``)."""
    out: Record = {"type": event.type.value}
    if event.type.value == "BLOCK_END":
        out["block"] = jsonable(event.block)
        return out
    for name in event._fields:
        if name != "partial_at":  # where BlockDelta.partial is read from: not data
            out[name] = jsonable(getattr(event, name))
    if partial and getattr(event, "partial_at", None) is not None:
        out["partial"] = jsonable(event.partial)
    return out


def event_json(event: Any) -> str:
    """One event as one line of JSON."""
    return json.dumps(event_dict(event), ensure_ascii=False)


__all__ = ["SCHEMA_VERSION", "Record", "event_dict", "event_json", "jsonable"]
