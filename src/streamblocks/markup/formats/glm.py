"""GLM-4.5 / 4.6 / 4.7 / 5: ``<think>``, ``<tool_call>NAME<arg_key>K</arg_key>
<arg_value>V</arg_value>…</tool_call>`` (4.5 puts newlines between the parts)."""

from __future__ import annotations

import re
from typing import Any

from ..grammar import Call, CallFormat, Grammar, need
from ..scan import EndSpec, find
from ..schema import ToolSchemas, property_schema, typed
from ..tagged import Tagging, closed_by

_KEY = re.compile(r"\s*<arg_key>")


def _call(body: str, schemas: ToolSchemas) -> list[Call]:
    first = body.find("<arg_key>")
    name = (body if first < 0 else body[:first]).strip()
    need(bool(name) and "<" not in name, "the call has no tool name")
    arguments: dict[str, Any] = {}
    at = len(body) if first < 0 else first
    while (key := _KEY.match(body, at)) is not None:
        key_end = find(body, "</arg_key>", key.end())
        need(key_end >= 0, "an argument name is not closed")
        value = _VALUE.match(body, key_end + len("</arg_key>"))
        need(value is not None, "an argument has no <arg_value>")
        assert value is not None
        end = find(body, "</arg_value>", value.end())
        # the last value may lack its </arg_value> (the stream ended on </tool_call>)
        text = body[value.end() : end] if end >= 0 else body[value.end() :]
        name_of_key = body[key.end() : key_end].strip()
        arguments[name_of_key] = typed(text, property_schema(schemas, name, name_of_key))
        at = end + len("</arg_value>") if end >= 0 else len(body)
    need(not body[at:].strip(), f"an argument that does not read: {body[at:].strip()[:80]!r}")
    return [Call(name, arguments)]


_VALUE = re.compile(r"\s*<arg_value>")

_ITEM = re.compile(r"<arg_key>([^<]*(?:<(?!/arg_key>)[^<]*)*)</arg_key>\s*<arg_value>")

TOOL_CALL = CallFormat(
    "<tool_call>",
    EndSpec(closers=("</tool_call>",), regions=(("<arg_value>", ("</arg_value>",)),)),
    _call,
    name=re.compile(r"\A\s*(?P<name>[^\s<]+)\s*(?:<|\n)"),
    name_ends="<\n",
    tagging=Tagging(item=_ITEM, end=closed_by("</arg_value>"), tails=("</tool_call>",)),
)

GLM = Grammar(thinking=(("<think>", "</think>"),), calls=(TOOL_CALL,))
