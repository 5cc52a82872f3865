"""Tencent Hunyuan: Hunyuan-A13B ``<tool_calls>[{"name": …, "arguments": {…}}]</tool_calls>``
with ``<think>…</think>`` and the answer in ``<answer>…</answer>``; Hy3
``<tool_calls><tool_call>NAME<tool_sep><arg_key>K</arg_key><arg_value>V</arg_value>…
</tool_call>…</tool_calls>`` (values typed by the tool's schema). Hy3's tokens may carry
a suffix, ``<tool_calls:opensource>``: every tag then has it."""

from __future__ import annotations

import re
from typing import Any

from ..grammar import KEYED, Call, CallFormat, Grammar, arguments_after, need
from ..scan import EndSpec, find
from ..schema import ToolSchemas, property_schema, typed
from ..tagged import Tagging, closed_by
from .arrays import ARRAY, array_calls, array_name, named_item

SUFFIXES = ("", ":opensource")
"""The token suffixes Hy3 deployments use."""


def _hy3_calls(body: str, suffix: str, schemas: ToolSchemas) -> list[Call]:
    call_open, call_close = f"<tool_call{suffix}>", f"</tool_call{suffix}>"
    sep, key_open, key_close = f"<tool_sep{suffix}>", f"<arg_key{suffix}>", f"</arg_key{suffix}>"
    value_open, value_close = f"<arg_value{suffix}>", f"</arg_value{suffix}>"
    calls: list[Call] = []
    at = 0
    while body[at:].strip():
        start = find(body, call_open, at)
        need(start >= 0 and not body[at:start].strip(), "text outside a <tool_call>")
        end = find(body, call_close, start)
        need(end >= 0, "a <tool_call> is not closed")
        name, has_sep, rest = body[start + len(call_open) : end].partition(sep)
        name = name.strip()
        need(bool(has_sep) and bool(name), "the call has no tool name")
        arguments: dict[str, Any] = {}
        for key, value in _pairs(rest, key_open, key_close, value_open, value_close):
            arguments[key] = typed(value, property_schema(schemas, name, key))
        calls.append(Call(name, arguments))
        at = end + len(call_close)
    need(bool(calls), "no <tool_call> in <tool_calls>")
    return calls


def _pairs(text: str, key_open: str, key_close: str, value_open: str, value_close: str) -> Any:
    at = 0
    while text[at:].strip():
        key_at = find(text, key_open, at)
        need(key_at >= 0 and not text[at:key_at].strip(), "an argument that does not read")
        key_end = find(text, key_close, key_at)
        need(key_end >= 0, "an argument name is not closed")
        value_at = find(text, value_open, key_end)
        need(value_at >= 0, "an argument has no <arg_value>")
        need(not text[key_end + len(key_close) : value_at].strip(), "text before <arg_value>")
        value_end = find(text, value_close, value_at)
        need(value_end >= 0, "an argument value is not closed")
        yield (
            text[key_at + len(key_open) : key_end].strip(),
            text[value_at + len(value_open) : value_end],
        )
        at = value_end + len(value_close)


class _Parse:
    """A ``<tool_calls>`` body: a JSON array (A13B) or Hy3 ``<tool_call>`` elements."""

    __slots__ = ("suffix",)

    def __init__(self, suffix: str) -> None:
        self.suffix = suffix

    def __call__(self, body: str, schemas: ToolSchemas) -> list[Call]:
        if body.lstrip().startswith("["):
            return array_calls(body, named_item)
        return _hy3_calls(body, self.suffix, schemas)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_Parse, (self.suffix,))


def _tool_calls(suffix: str) -> CallFormat:
    s = re.escape(suffix)
    value_close = f"</arg_value{suffix}>"
    return CallFormat(
        f"<tool_calls{suffix}>",
        {
            "[": ARRAY,
            "": EndSpec(
                closers=(f"</tool_calls{suffix}>",),
                regions=((f"<arg_value{suffix}>", (value_close,)),),
            ),
        },
        _Parse(suffix),
        name=re.compile(
            f"{array_name('name').pattern}"
            rf"|\A\s*<tool_call{s}>\s*(?P<name2>[^<\s]+)\s*<tool_sep{s}>"
        ),
        name_ends='">',
        tail=f"</tool_calls{suffix}>",
        arguments=arguments_after(rf"\A\s*\[\s*{KEYED}"),
        tagging=Tagging(
            item=re.compile(rf"<arg_key{s}>([^<]*)</arg_key{s}>\s*<arg_value{s}>"),
            end=closed_by(value_close),
            tails=(f"</tool_call{suffix}>",),
        ),
        item=named_item,
    )


HUNYUAN = Grammar(
    thinking=(("<think>", "</think>"),),
    calls=tuple(_tool_calls(suffix) for suffix in SUFFIXES),
    hidden=("<answer>", "</answer>"),
)
