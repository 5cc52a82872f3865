"""Kimi: ``<think>``; K2 calls ``<|tool_call_begin|>functions.NAME:IDX
<|tool_call_argument_begin|>{…}<|tool_call_end|>`` inside a tool-calls section (the id
is ``functions.NAME:IDX``); K3's ``<|open|>TAG…<|sep|>`` / ``<|close|>TAG<|sep|>`` elements
(``think``, ``response``, ``tools``, ``call tool="…"``, ``argument key="…" type="…"``)."""

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

_ARGUMENTS = "<|tool_call_argument_begin|>"


def _k2_call(body: str, schemas: ToolSchemas) -> list[Call]:
    call_id, sep, arguments = body.partition(_ARGUMENTS)
    need(bool(sep), "no <|tool_call_argument_begin|> in the call")
    call_id = call_id.strip()
    name = call_id.removeprefix("functions.").rpartition(":")[0] or call_id
    need(bool(name), "the call has no name")
    return [Call(name, json_object(arguments, "the arguments"), call_id)]


K2_CALL = CallFormat(
    "<|tool_call_begin|>",
    EndSpec(closers=("<|tool_call_end|>",), strings='"'),
    _k2_call,
    name=re.compile(r"\A\s*(?P<id>(?:functions\.)?(?P<name>[^\s:<]+):\d+)(?=[\s<])"),
    arguments=arguments_after(r"\A[^<]*<\|tool_call_argument_begin\|>"),
)
K2_SECTIONS = tuple(
    Section(f"<|tool_{s}_section_begin|>", f"<|tool_{s}_section_end|>", (K2_CALL,))
    for s in ("calls", "call")
)

_K3_CALL_HEAD = re.compile(r'\A\s*tool="([^"]*)"[^<]*?<\|sep\|>')
_K3_ARGUMENT = re.compile(r'<\|open\|>argument\s+key="([^"]*)"(?:\s+type="([^"]*)")?\s*<\|sep\|>')
_K3_ARGUMENT_END = ("<|close|>argument<|sep|>",)


def _k3_value(schemas: ToolSchemas, tool: str, key: str, kind: str | None, text: str) -> Any:
    schema = property_schema(schemas, tool, key)
    if kind and kind != "string":
        return stated(text, kind)
    if kind == "string" or schema is None:
        return text
    return typed(text, schema)


def _k3_is_string(schemas: ToolSchemas, tool: str, key: str, kind: str | None) -> bool:
    if kind and kind != "string":
        return False
    return kind == "string" or by_schema(schemas, tool, key, None)


def _k3_call(body: str, schemas: ToolSchemas) -> list[Call]:
    """``tool="NAME" index="N"<|sep|>`` + arguments (the body after ``<|open|>call``)."""

    def value_of(tool: str, key: str, kind: str | None, text: str) -> Any:
        return _k3_value(schemas, tool, key, kind, text)

    return [element_call(body, _K3_CALL_HEAD, _K3_ARGUMENT, _K3_ARGUMENT_END, value_of)]


K3_CALL = CallFormat(
    "<|open|>call ",
    EndSpec(
        closers=("<|close|>call<|sep|>",),
        regions=(("<|open|>argument", ("<|close|>argument<|sep|>",)),),
    ),
    _k3_call,
    name=re.compile(r'\A\s*tool="(?P<name>[^"]+)"'),
    tagging=Tagging(
        item=_K3_ARGUMENT,
        end=closed_by(*_K3_ARGUMENT_END),
        value=_k3_value,
        string=_k3_is_string,
        tails=("<|close|>call<|sep|>",),
        unescape=True,
    ),
)
K3_TOOLS = Section("<|open|>tools<|sep|>", "<|close|>tools<|sep|>", (K3_CALL,))

KIMI = Grammar(
    thinking=(
        ("<think>", "</think>"),
        ("<|open|>think<|sep|>", "<|close|>think<|sep|>"),
        # K3 may skip thinking that the prompt opened: its response element ends it.
        ("<|open|>think<|sep|>", "<|open|>response<|sep|>"),
    ),
    sections=(*K2_SECTIONS, K3_TOOLS),
    hidden=(
        "<|open|>response<|sep|>",
        "<|close|>response<|sep|>",
        "<|close|>message<|sep|>",
    ),
)
