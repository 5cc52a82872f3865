"""Qwen3 / Hermes: ``<think>``, ``<tool_call>`` with a JSON body (Hermes 2/3, Qwen2.5,
Qwen3) or a Qwen3-Coder / Qwen3.5 XML body ``<function=NAME><parameter=P>…``, which
also appears without the ``<tool_call>`` opener."""

from __future__ import annotations

import re
from typing import Any

from ..grammar import KEYED_ARGUMENTS, Call, CallFormat, Grammar, json_object, need
from ..scan import EndSpec, Literals, find, search
from ..schema import ToolSchemas, property_schema, typed
from ..tagged import Tagging, schema_typed

_FUNCTION = re.compile(r"\s*<function=([^>\n]+)>")
_PARAMETER = re.compile(r"<parameter=([^>\n]+)>")
_VALUE_FOLLOWER = re.compile(r"[ \t\r\n]*(?:<parameter=|</function>|\Z)")
_LINE_PARAMETER = re.compile(r"\n<parameter=[^>\n]+>")  # ends a value left open
_PARAMETER_END = "</parameter>"
_FUNCTION_END = "</function>"

# A missing </parameter> before the end of the call still ends the value.
_XML_VALUES = (("<parameter=", (_PARAMETER_END, "\0</function>\n</tool_call>")),)


def hermes_call(body: str) -> Call:
    """A Hermes JSON call: ``{"name": …, "arguments": {…}}`` (``arguments`` may be a
    JSON string, decoded once more; ``parameters`` is accepted too)."""
    found = json_object(body, "the call")
    name = found.get("name")
    need(isinstance(name, str) and bool(name), "the call has no name")
    arguments: Any = found.get("arguments", found.get("parameters", {}))
    if isinstance(arguments, str):
        arguments = json_object(arguments, "the arguments string")
    need(isinstance(arguments, dict), "the arguments are not an object")
    call_id = found.get("id")
    return Call(str(name), arguments, call_id if isinstance(call_id, str) else None)


def coder_call(body: str, schemas: ToolSchemas) -> Call:
    """A Qwen3-Coder call ``<function=NAME><parameter=P>value</parameter>…</function>``;
    values are typed by the tool's schema."""
    head = _FUNCTION.match(body)
    need(head is not None, "no <function=NAME> opens the call")
    assert head is not None
    name = head.group(1).strip()
    rest = body[head.end() :]
    last = rest.rfind(_FUNCTION_END)
    if last >= 0:
        need(not rest[last + len(_FUNCTION_END) :].strip(), "text after </function>")
        rest = rest[:last]
    arguments: dict[str, Any] = {}
    at = 0
    while True:
        found = search(_PARAMETER, rest, at)
        if found is None:
            need(not rest[at:].strip(), f"text outside a parameter: {rest[at:].strip()!r}")
            break
        need(not rest[at : found.start()].strip(), "text between parameters")
        key, start = found.group(1).strip(), found.end()
        following = search(_LINE_PARAMETER, rest, start)
        close = _value_end(rest, start, following.start() if following is not None else len(rest))
        if close < 0:
            end = following.start() if following is not None else len(rest)
            at = end + 1 if following is not None else end
        else:
            end, at = close, close + len(_PARAMETER_END)
        value = _one_newline_off(rest[start:end])
        arguments[key] = typed(value, property_schema(schemas, name, key))
    return Call(name, arguments)


def _value_end(text: str, start: int, stop: int) -> int:
    """Where the value starting at ``start`` ends, before ``stop`` (the next parameter
    on its own line): the first ``</parameter>`` followed by another parameter or the
    end of the call (one written inside the value is text); -1 when there is none.
    Each character is looked at once, so a body of many parameters reads in linear
    time."""
    close = find(text, _PARAMETER_END, start, stop)
    while close >= 0:
        if _VALUE_FOLLOWER.match(text, close + len(_PARAMETER_END)):
            return close
        close = find(text, _PARAMETER_END, close + 1, stop)
    return -1


def _one_newline_off(value: str) -> str:
    """The template writes a value between newlines: drop one on each side."""
    if value.startswith("\n"):
        value = value[1:]
    if value.endswith("\n"):
        value = value[:-1]
    return value


_STOP = re.compile(r"</parameter>|\n<parameter=")
_STOPS = Literals((_PARAMETER_END, "\n<parameter="))
_FOLLOWER = re.compile(r"[ \t\r\n]*(<parameter=|</function>)?")
_LINE_OPEN = re.compile(r"\n<parameter=([^>\n]*)(>)?")


def _streamed_end(text: str, at: int) -> tuple[int, int, int]:
    """Where a value being streamed ends, by :func:`coder_call`'s rule: at the first
    ``</parameter>`` that another parameter or ``</function>`` follows, or at a
    parameter opened on its own line; the text from a place still undecided waits."""
    while (found := _STOP.search(text, at)) is not None:
        start = found.start()
        if found.group() == _PARAMETER_END:
            after = _FOLLOWER.match(text, found.end())
            assert after is not None
            if after.group(1):
                return start, start, found.end()
            tail = text[after.end() : after.end() + 11]
            if not tail or "<parameter=".startswith(tail) or _FUNCTION_END.startswith(tail):
                return start, -1, -1
        else:
            line = _LINE_OPEN.match(text, start)
            assert line is not None
            if line.group(1) and line.group(2):
                return start, start, start + 1
            if line.end() == len(text):
                return start, -1, -1
        at = start + 1
    return _STOPS.held(text, at), -1, -1


_TAGGING = Tagging(
    item=_PARAMETER,
    end=_streamed_end,
    value=schema_typed,
    tails=(_FUNCTION_END, "</tool_call>"),
    newlines=True,
    blank_holds=(_PARAMETER_END,),
)


def _tool_call(body: str, schemas: ToolSchemas) -> list[Call]:
    stripped = body.lstrip()
    if stripped.startswith("{"):
        return [hermes_call(body)]
    need(stripped.startswith("<function="), "the body is neither JSON nor <function=…>")
    return [coder_call(body, schemas)]


def _bare_function(body: str, schemas: ToolSchemas) -> list[Call]:
    return [coder_call("<function=" + body, schemas)]


_NAME = re.compile(r'\A\s*(?:\{\s*"name"\s*:\s*"(?P<name>[^"\\]+)"|<function=(?P<name2>[^>\n]+)>)')

TOOL_CALL = CallFormat(
    "<tool_call>",
    {
        "{": EndSpec(closers=("</tool_call>",), strings='"'),
        "": EndSpec(closers=("</tool_call>",), regions=_XML_VALUES),
    },
    _tool_call,
    name=_NAME,
    name_ends='">',
    arguments=KEYED_ARGUMENTS,
    tagging=_TAGGING,
)


def function_call(tail: str) -> CallFormat:
    """A Qwen3-Coder call opened by its ``<function=`` (``tail``: a closer that may
    follow it and belongs to the call)."""
    return CallFormat(
        "<function=",
        EndSpec(closers=(_FUNCTION_END,), regions=_XML_VALUES),
        _bare_function,
        name=re.compile(r"\A(?P<name>[^>\n]+)>"),
        name_ends=">",
        tail=tail,
        tagging=_TAGGING,
    )


BARE_FUNCTION = function_call("</tool_call>")

QWEN3 = Grammar(thinking=(("<think>", "</think>"),), calls=(TOOL_CALL, BARE_FUNCTION))
