"""Llama 3.x: a JSON call ``{"name": …, "parameters": {…}}`` (or ``"arguments"``) at the
start of the reply or after ``<|python_tag|>``, where Llama 3.1's built-in tools also
write ``brave_search.call(query="…")`` (the arguments: the keyword arguments); Llama 4:
a pythonic list ``[f(a='x', b=1), g()]`` at the start of the reply or inside
``<|python_start|>…<|python_end|>``. A reply that starts with JSON or a list that is not
a call is visible text."""

from __future__ import annotations

import ast
import re
from typing import Any

from ..grammar import KEYED_ARGUMENTS, Call, CallFormat, Grammar, json_object, need
from ..scan import EndSpec
from ..schema import ToolSchemas, check_literal, python_literal
from ..tagged import Tagging, closed_by

_JSON = EndSpec(balanced="{", strings='"')
JSON_BODY = _JSON
"""A body that is one JSON object (it ends where the object closes)."""
_PYTHONIC = EndSpec(balanced="[", strings="\"'")
_BUILT_IN_END = EndSpec(balanced="(", strings="\"'")  # NAME.call(…)


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
        tree = _parsed(body.strip())
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise ValueError(f"the call list is not Python ({exc})") from None
    items = tree.elts if isinstance(tree, ast.List) else [tree]
    calls = []
    for item in items:
        need(isinstance(item, ast.Call), "an item of the list is not a call")
        assert isinstance(item, ast.Call)
        name = _dotted(item.func)
        need(name is not None, "a call is not to a name")
        need(not item.args, "a call has positional arguments")
        arguments: dict[str, Any] = {}
        for keyword in item.keywords:
            need(keyword.arg is not None, "a call has **arguments")
            arguments[str(keyword.arg)] = check_literal(keyword.value)
        calls.append(Call(str(name), arguments))
    return calls


def _parsed(source: str) -> ast.expr:
    """``source`` as a Python expression; once more with the raw newlines and NULs
    inside its strings escaped when Python refuses them (a multi-line shell command
    in one pair of quotes)."""
    try:
        return ast.parse(source, mode="eval").body
    except (SyntaxError, ValueError) as exc:
        repaired = _escaped_in_strings(source)
        if repaired == source:
            raise exc from None
        return ast.parse(repaired, mode="eval").body


_RAW = {"\n": "\\n", "\r": "\\r", "\x00": "\\x00"}


def _escaped_in_strings(source: str) -> str:
    """``source`` with ``\\n``, ``\\r`` and NUL written as escapes where they stand
    inside a one-line string literal (quotes and backslash escapes followed)."""
    out: list[str] = []
    quote, escape = "", False
    for char in source:
        if quote and char in _RAW and not escape:
            out.append(_RAW[char])
            continue
        out.append(char)
        if escape:
            escape = False
        elif quote and char == "\\":
            escape = True
        elif char in "'\"" and (not quote or char == quote):
            quote = "" if quote else char
    return "".join(out)


def _dotted(func: ast.expr) -> str | None:
    """The name a call is to: ``f``, or a dotted ``grocery.order`` (BFCL's names)."""
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return None
    parts.append(func.id)
    return ".".join(reversed(parts))


_BUILT_IN = re.compile(r"\A\s*([A-Za-z_]\w*)\.call\s*(?=\()")


def _tagged(body: str, schemas: ToolSchemas) -> list[Call]:
    """After ``<|python_tag|>``: a JSON call, or a Llama 3.1 built-in tool's call
    ``brave_search.call(query="…")`` (also ``wolfram_alpha``, ``code_interpreter``):
    the tool's name, its keyword arguments as the argument object."""
    if body.lstrip().startswith("{"):
        return _json_call(body, schemas)
    found = _BUILT_IN.match(body)
    need(found is not None, "the call is neither JSON nor NAME.call(…)")
    assert found is not None
    [call] = _pythonic(found.group(1) + body[found.end() :], schemas)
    return [call]


def _value(schemas: ToolSchemas, tool: str, key: str, stated: str | None, text: str) -> Any:
    return python_literal(text)


_CODE = re.compile(r"['\"(\[{)\]},]")
_IN_STRING = {q: re.compile(r"\\|" + q) for q in ("'", '"', "'" * 3, '"' * 3)}


class _ValueEnd:
    """Where a keyword argument's value ends: at a ``,`` or ``)`` outside its brackets
    and strings (read once from ``at``: while it has not ended, the place to go on from
    is the first number returned, and the text before it is the value's)."""

    def __init__(self) -> None:
        self.depth, self.quote = 0, ""

    def __call__(self, text: str, at: int) -> tuple[int, int, int]:
        i, n = at, len(text)
        while True:
            if self.quote:
                found = _IN_STRING[self.quote].search(text, i)
                if found is None or (found.group() == "\\" and found.end() >= n):
                    return (found.start() if found is not None else max(i, n - 2)), -1, -1
                if found.group() == "\\":
                    i = found.end() + 1
                else:
                    self.quote, i = "", found.end()
                continue
            found = _CODE.search(text, i)
            if found is None:
                return n, -1, -1
            mark, start = found.group(), found.start()
            if mark in "'\"":
                if start + 3 > n:  # one quote or three: the next characters say
                    return start, -1, -1
                self.quote = mark * 3 if text.startswith(mark * 3, start) else mark
                i = start + len(self.quote)
            elif mark in "([{":
                self.depth, i = self.depth + 1, found.end()
            elif self.depth == 0:
                return 0, start, start
            else:
                self.depth, i = self.depth - (mark != ","), found.end()


def _never_string(schemas: ToolSchemas, tool: str, key: str, stated: str | None) -> bool:
    """A Python literal is read whole at its end."""
    return False


_KEYWORD = re.compile(r"[(,]\s*([A-Za-z_]\w*)\s*=\s*(?=\S)")
_PYTHONIC_ARGUMENTS = Tagging(
    item=_KEYWORD,
    end=closed_by(")"),
    value=_value,
    string=_never_string,
    held_end=_ValueEnd,
    until=")",
)
"""A pythonic call's keyword arguments: each value is sent whole once it ends."""


_JSON_NAME = re.compile(
    r'\A\s*\{\s*(?:"type"\s*:\s*"function"\s*,\s*)?"name"\s*:\s*"(?P<name>[^"\\]+)"'
)
_TAGGED_NAME = re.compile(
    r'\A\s*(?:\{\s*(?:"type"\s*:\s*"function"\s*,\s*)?"name"\s*:\s*"(?P<name>[^"\\]+)"'
    r"|(?P<name2>[A-Za-z_]\w*)\.call\s*\()"
)
_PYTHONIC_NAME = re.compile(r"\A\s*(?:\[\s*)?(?P<name>[A-Za-z_][\w.]*)\s*\(")


def json_call_format(opener: str, *, then: str, tail: str = "") -> CallFormat:
    """A JSON call ``{"name": …, "parameters": {…}}`` after ``opener`` (``""``: bare);
    after ``then`` another may follow."""
    return CallFormat(
        opener,
        {"{": _JSON} if not opener else _JSON,
        _json_call,
        name=_JSON_NAME,
        name_ends='"',
        then=then,
        tail=tail,
        arguments=KEYED_ARGUMENTS,
    )


JSON_CALL = json_call_format("", then=";")
START = (
    JSON_CALL,
    CallFormat(
        "",
        {"[": _PYTHONIC},
        _pythonic,
        name=_PYTHONIC_NAME,
        name_ends="(",
        tagging=_PYTHONIC_ARGUMENTS,
    ),
)


def pythonic_call(opener: str, closer: str) -> CallFormat:
    """A pythonic list of calls ``[f(a='x'), g()]`` between ``opener`` and ``closer``."""
    return CallFormat(
        opener,
        EndSpec(closers=(closer,), strings="\"'"),
        _pythonic,
        name=_PYTHONIC_NAME,
        name_ends="(",
        tagging=_PYTHONIC_ARGUMENTS,
    )


LLAMA = Grammar(
    calls=(
        CallFormat(
            "<|python_tag|>",
            {"{": _JSON, "": _BUILT_IN_END},
            _tagged,
            name=_TAGGED_NAME,
            name_ends='"(',
            then=";",
            arguments=KEYED_ARGUMENTS,
            tagging=_PYTHONIC_ARGUMENTS,
        ),
        pythonic_call("<|python_start|>", "<|python_end|>"),
    ),
    hidden=("<|eom_id|>", "<|eot_id|>"),
    start=START,
    chained=(JSON_CALL,),
)
