"""MiniMax M2 / M2.1 / M2.5: ``<think>…</think>``; ``<minimax:tool_call>`` around
``<invoke name="NAME"><parameter name="P">value</parameter>…</invoke>`` calls (values
as text, typed by the tool's schema). The chat template opens thinking in the prompt
(``<think>\\n``), so a reply starts inside it."""

from __future__ import annotations

import re
from typing import Any

from ..grammar import Call, CallFormat, Grammar, Section, element_call
from ..scan import EndSpec
from ..schema import ToolSchemas
from ..tagged import Tagging, closed_by, schema_typed

_HEAD = re.compile(r'\A\s*name="([^"]*)"\s*>')
_PARAMETER = re.compile(r'<parameter\s+name="([^"]*)"()\s*>')
_VALUE_END = ("</parameter>",)


def _invoke(body: str, schemas: ToolSchemas) -> list[Call]:
    """``name="NAME">`` + parameters (the body after ``<invoke``)."""

    def value_of(tool: str, key: str, stated: str | None, text: str) -> Any:
        return schema_typed(schemas, tool, key, stated, _trimmed(text))

    return [element_call(body, _HEAD, _PARAMETER, _VALUE_END, value_of)]


def _trimmed(text: str) -> str:
    """The template writes a value on its own line sometimes: one newline each side."""
    return text.removeprefix("\n").removesuffix("\n")


INVOKE = CallFormat(
    "<invoke",
    EndSpec(closers=("</invoke>",), regions=(("<parameter", _VALUE_END),)),
    _invoke,
    name=re.compile(r'\A\s*name="(?P<name>[^"]*)"'),
    name_ends='"',
    tagging=Tagging(
        item=_PARAMETER, end=closed_by(*_VALUE_END), tails=("</invoke>",), newlines=True
    ),
)

MINIMAX = Grammar(
    thinking=(("<think>", "</think>"),),
    sections=(Section("<minimax:tool_call>", "</minimax:tool_call>", (INVOKE,)),),
)
