"""DeepSeek: ``<think>``; V3 / R1 and V3.1 calls between ``<｜tool▁calls▁begin｜>`` and
``<｜tool▁calls▁end｜>``; V3.2 / V4 DSML ``<｜DSML｜function_calls>`` (or ``tool_calls``,
``calls``; V4.1 writes a space after ``｜DSML｜``) with ``invoke`` and ``parameter``
elements. (｜ is U+FF5C, ▁ U+2581.)"""

from __future__ import annotations

import re
from typing import Any

from ..grammar import (
    Call,
    CallFormat,
    Grammar,
    Section,
    arguments_after,
    element_call,
    json_object,
    need,
)
from ..scan import EndSpec
from ..schema import ToolSchemas, property_schema, stated, typed
from ..tagged import Tagging, by_schema, closed_by

_SEP = "<｜tool▁sep｜>"
_FENCE = "```"


def _v3_call(body: str, schemas: ToolSchemas) -> list[Call]:
    """V3: ``function<｜tool▁sep｜>NAME`` + a fenced JSON object; V3.1:
    ``NAME<｜tool▁sep｜>{…}``."""
    kind, sep, rest = body.partition(_SEP)
    need(bool(sep), "no <｜tool▁sep｜> in the call")
    if kind.strip() == "function":
        name, _, arguments = rest.partition("\n")
        arguments = arguments.strip()
        if arguments.startswith(_FENCE) and arguments.endswith(_FENCE) and len(arguments) > 5:
            arguments = arguments[3:-3].removeprefix("json")
    else:
        name, arguments = kind, rest
    name = name.strip()
    need(bool(name), "the call has no name")
    return [Call(name, json_object(arguments, "the arguments"))]


V3_CALL = CallFormat(
    "<｜tool▁call▁begin｜>",
    EndSpec(closers=("<｜tool▁call▁end｜>",), strings='"'),
    _v3_call,
    name=re.compile(
        r"\A\s*(?:function\s*<｜tool▁sep｜>(?P<name>[^\n<]+)\n"
        r"|(?P<name2>(?!\s*function\s*<)[^<]+)<｜tool▁sep｜>)"
    ),
    name_ends="\n>",
    arguments=arguments_after(r"\A[^<]*<｜tool▁sep｜>(?:[^\n{`]*\n\s*```(?:json)?)?"),
)
V3_SECTIONS = tuple(
    Section(f"<｜tool{s}calls{s}begin｜>", f"<｜tool{s}calls{s}end｜>", (V3_CALL,)) for s in "▁_"
)

_INVOKE_NAME = re.compile(r'\A\s*name="(?P<name>[^"]*)"')
_INVOKE_HEAD = re.compile(r'\A\s*name="([^"]*)"\s*/?>?')
_PARAMETER = re.compile(r'<｜DSML｜ ?parameter\s+name="([^"]*)"(?:\s+string="(true|false)")?\s*>')


def _value(schemas: ToolSchemas, tool: str, key: str, is_string: str | None, text: str) -> Any:
    if is_string == "true":
        return text
    if is_string == "false":
        return stated(text, "json")
    return typed(text, property_schema(schemas, tool, key))


def _is_string(schemas: ToolSchemas, tool: str, key: str, is_string: str | None) -> bool:
    return is_string == "true" or (is_string is None and by_schema(schemas, tool, key, None))


def _invoke(body: str, schemas: ToolSchemas) -> list[Call]:
    """``name="NAME">`` + parameters (the body after ``<｜DSML｜invoke``)."""

    def value_of(tool: str, key: str, is_string: str | None, text: str) -> Any:
        return _value(schemas, tool, key, is_string, text)

    return [element_call(body, _INVOKE_HEAD, _PARAMETER, _DSML_VALUES, value_of)]


_DSML_VALUES = ("</｜DSML｜parameter>", "</｜DSML｜ parameter>")
_DSML_INVOKE = EndSpec(
    closers=("</｜DSML｜invoke>", "</｜DSML｜ invoke>", "/>"),
    regions=(("<｜DSML｜parameter", _DSML_VALUES), ("<｜DSML｜ parameter", _DSML_VALUES)),
)
_DSML_TAGGING = Tagging(
    item=_PARAMETER,
    end=closed_by(*_DSML_VALUES),
    value=_value,
    string=_is_string,
    tails=_DSML_INVOKE.closers,
    unescape=True,
)
DSML_CALLS = tuple(
    CallFormat(
        opener, _DSML_INVOKE, _invoke, name=_INVOKE_NAME, name_ends='"', tagging=_DSML_TAGGING
    )
    for opener in ("<｜DSML｜invoke", "<｜DSML｜ invoke")
)
DSML_SECTIONS = tuple(
    Section(f"<｜DSML｜{space}{tag}>", f"</｜DSML｜{space}{tag}>", DSML_CALLS)
    for tag in ("function_calls", "tool_calls", "calls")
    for space in ("", " ")
)

DEEPSEEK = Grammar(
    thinking=(("<think>", "</think>"),),
    sections=(*V3_SECTIONS, *DSML_SECTIONS),
)
