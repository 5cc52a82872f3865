"""Llama 3.x: a JSON call ``{"name": …, "parameters": {…}}`` (or ``"arguments"``) at the
start of the reply or after ``<|python_tag|>``; Llama 4: a pythonic list
``[f(a='x', b=1), g()]`` at the start of the reply or inside
``<|python_start|>…<|python_end|>``. A reply that starts with JSON or a list that is not
a call is visible text."""

from __future__ import annotations

import ast
import re
from typing import Any

from ..grammar import KEYED_ARGUMENTS, Call, CallFormat, Grammar, json_object, need
from ..scan import EndSpec
from ..schema import ToolSchemas, check_literal

_JSON = EndSpec(balanced="{", strings='"')
_PYTHONIC = EndSpec(balanced="[", strings="\"'")


def _json_call(body: str, schemas: ToolSchemas) -> list[Call]:
    found = json_object(body, "the call")
    name = found.get("name")
    need(isinstance(name, str) and bool(name), "the call has no name")
    need("parameters" in found or "arguments" in found, "the call has no parameters")
    arguments: Any = found.get("parameters", found.get("arguments"))
    if isinstance(arguments, str):
        arguments = json_object(arguments, "the arguments string")
    need(isinstance(arguments, dict), "the parameters are not an object")
    return [Call(str(name), arguments)]


def _pythonic(body: str, schemas: ToolSchemas) -> list[Call]:
    """``[f(a=1), g()]`` (or one call without the brackets): names and literal keyword
    arguments only; nothing is evaluated but literals."""
    try:
        tree = ast.parse(body.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ValueError(f"the call list is not Python ({exc})") from None
    items = tree.elts if isinstance(tree, ast.List) else [tree]
    calls = []
    for item in items:
        need(isinstance(item, ast.Call), "an item of the list is not a call")
        assert isinstance(item, ast.Call)
        need(isinstance(item.func, ast.Name), "a call is not to a plain name")
        need(not item.args, "a call has positional arguments")
        arguments: dict[str, Any] = {}
        for keyword in item.keywords:
            need(keyword.arg is not None, "a call has **arguments")
            arguments[str(keyword.arg)] = check_literal(keyword.value)
        calls.append(Call(item.func.id, arguments))  # type: ignore[attr-defined]
    return calls


_JSON_NAME = re.compile(
    r'\A\s*\{\s*(?:"type"\s*:\s*"function"\s*,\s*)?"name"\s*:\s*"(?P<name>[^"\\]+)"'
)
_PYTHONIC_NAME = re.compile(r"\A\s*(?:\[\s*)?(?P<name>[A-Za-z_][\w.]*)\s*\(")
JSON_CALL = CallFormat(
    "", {"{": _JSON}, _json_call, name=_JSON_NAME, then=";", arguments=KEYED_ARGUMENTS
)
START = (JSON_CALL, CallFormat("", {"[": _PYTHONIC}, _pythonic, name=_PYTHONIC_NAME))

LLAMA = Grammar(
    calls=(
        CallFormat(
            "<|python_tag|>",
            _JSON,
            _json_call,
            name=_JSON_NAME,
            then=";",
            arguments=KEYED_ARGUMENTS,
        ),
        CallFormat(
            "<|python_start|>",
            EndSpec(closers=("<|python_end|>",), strings="\"'"),
            _pythonic,
            name=_PYTHONIC_NAME,
        ),
    ),
    hidden=("<|eom_id|>", "<|eot_id|>"),
    start=START,
    chained=(JSON_CALL,),
)
