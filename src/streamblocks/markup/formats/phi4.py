"""Microsoft Phi-4-mini: ``functools[{"name": …, "arguments": {…}}, …]`` in plain text
(no special token), each call read as it closes, ``functools[]`` none; Phi-4-reasoning's
``<think>…</think>``."""

from __future__ import annotations

from dataclasses import replace

from ..grammar import Call, Grammar
from ..scan import EndSpec
from ..schema import ToolSchemas
from .llama import JSON_BODY, json_call_format

_CALL = json_call_format("functools[", then=",", tail="]")
_EMPTY = EndSpec(closers=("]",))


def _call_or_none(body: str, schemas: ToolSchemas) -> list[Call]:
    """A call, or none for the empty list ``functools[]``."""
    return [] if not body.strip() else _CALL.parse(body, schemas)


PHI4 = Grammar(
    thinking=(("<think>", "</think>"),),
    calls=(replace(_CALL, ends={"]": _EMPTY, "": JSON_BODY}, parse=_call_or_none),),
    chained=(json_call_format("", then=",", tail="]"),),
)
