"""GLM-4.5 / 4.6 / 4.7 / 5: ``<think>``, ``<tool_call>NAME<arg_key>K</arg_key>
<arg_value>V</arg_value>…</tool_call>`` (4.5 puts newlines between the parts)."""

from __future__ import annotations

import re
from typing import Any

from ..grammar import Call, CallFormat, Grammar, need
from ..scan import EndSpec
from ..schema import ToolSchemas, property_schema, typed

# The last value may lack its </arg_value> (then the stream ended on </tool_call>).
_PAIR = re.compile(r"<arg_key>(.*?)</arg_key>\s*<arg_value>(.*?)(?:</arg_value>|\Z)", re.DOTALL)


def _call(body: str, schemas: ToolSchemas) -> list[Call]:
    first = body.find("<arg_key>")
    name = (body if first < 0 else body[:first]).strip()
    need(bool(name) and "<" not in name, "the call has no tool name")
    arguments: dict[str, Any] = {}
    at = len(body) if first < 0 else first
    for found in _PAIR.finditer(body, at):
        need(not body[at : found.start()].strip(), "text between arguments")
        key = found.group(1).strip()
        arguments[key] = typed(found.group(2), property_schema(schemas, name, key))
        at = found.end()
    need(not body[at:].strip(), f"an argument that does not read: {body[at:].strip()[:80]!r}")
    return [Call(name, arguments)]


TOOL_CALL = CallFormat(
    "<tool_call>",
    EndSpec(closers=("</tool_call>",), regions=(("<arg_value>", ("</arg_value>",)),)),
    _call,
    name=re.compile(r"\A\s*(?P<name>[^\s<]+)\s*(?:<|\n)"),
)

GLM = Grammar(thinking=(("<think>", "</think>"),), calls=(TOOL_CALL,))
