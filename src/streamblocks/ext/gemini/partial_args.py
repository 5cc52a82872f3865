"""Gemini's streamed function-call arguments as the JSON text they amount to.

With ``stream_function_call_arguments`` (Vertex AI), a call's arguments come as
``partial_args``: each a JSON path (RFC 9535, ``$.a.b[0]``) and a value, strings in
several pieces (``will_continue``). :class:`ArgumentText` turns them, in order, into
pieces of the argument object's JSON text, so a Gemini call streams its arguments as
``BLOCK_DELTA`` text like every other provider's (``BlockDelta.partial``, AG-UI
``TOOL_CALL_ARGS``). Each piece costs its own size: nothing is re-serialised.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .._base import field2

_TOKEN = re.compile(
    r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\[\"((?:[^\"\\]|\\.)*)\"\]"
)
_NULL = object()


def path_tokens(path: str) -> list[str | int] | None:
    """The member names and indexes of a JSON path, or ``None`` when it is not one."""
    if not path.startswith("$"):
        return None
    tokens: list[str | int] = []
    i = 1
    while i < len(path):
        match = _TOKEN.match(path, i)
        if match is None:
            return None
        name, index, single, double = match.groups()
        if index is not None:
            tokens.append(int(index))
        elif name is not None:
            tokens.append(name)
        else:
            quoted = single if single is not None else double
            tokens.append(json.loads('"' + quoted.replace("\\'", "'") + '"'))
        i = match.end()
    return tokens


def _value(arg: Any) -> Any:
    """A partial argument's value (``_NULL`` for null; ``None`` when it has none)."""
    text = field2(arg, "string_value", "stringValue")
    if text is not None:
        return str(text)
    number = field2(arg, "number_value", "numberValue")
    if isinstance(number, (int, float)) and not isinstance(number, bool):
        if isinstance(number, float) and number.is_integer() and abs(number) < 2**53:
            return int(number)
        return number if math.isfinite(number) else None
    flag = field2(arg, "bool_value", "boolValue")
    if isinstance(flag, bool):
        return flag
    if field2(arg, "null_value", "nullValue") is not None:
        return _NULL
    return None


class ArgumentText:
    """Writes one call's argument object as JSON text from its partial arguments."""

    __slots__ = ("_closers", "_counts", "_path", "_string", "started")

    def __init__(self) -> None:
        self._path: list[str | int] = []  # the open containers below the top object
        self._closers: list[str] = []  # their closers, "]" or "}"
        self._counts: list[int] = [0]  # members written in each open container
        self._string: list[str | int] | None = None  # the path of a string left open
        self.started = False

    def add(self, arg: Any) -> str:
        """The text one partial argument adds (``""`` for one that cannot be read)."""
        path = field2(arg, "json_path", "jsonPath")
        tokens = path_tokens(path) if isinstance(path, str) else None
        value = _value(arg)
        if not tokens or value is None:
            return ""
        more = field2(arg, "will_continue", "willContinue") is True
        out: list[str] = []
        if not self.started:
            self.started = True
            out.append("{")
        if self._string is not None:
            if self._string == tokens and isinstance(value, str):
                out.append(json.dumps(value, ensure_ascii=False)[1:-1])
                if not more:
                    out.append('"')
                    self._string = None
                return "".join(out)
            out.append('"')
            self._string = None
        parent = tokens[:-1]
        common = 0
        while common < min(len(self._path), len(parent)) and self._path[common] == parent[common]:
            common += 1
        while len(self._path) > common:
            self._path.pop()
            self._counts.pop()
            out.append(self._closers.pop())
        for depth in range(common, len(parent)):
            out.append(self._member(parent[depth]))
            array = isinstance(tokens[depth + 1], int)
            out.append("[" if array else "{")
            self._path.append(parent[depth])
            self._closers.append("]" if array else "}")
            self._counts.append(0)
        out.append(self._member(tokens[-1]))
        if value is _NULL:
            out.append("null")
        elif isinstance(value, str):
            text = json.dumps(value, ensure_ascii=False)
            if more:
                out.append(text[:-1])
                self._string = tokens
            else:
                out.append(text)
        else:
            out.append(json.dumps(value))
        return "".join(out)

    def _member(self, token: str | int) -> str:
        """What goes before a member: a comma after the first, an object's key."""
        comma = "," if self._counts[-1] else ""
        self._counts[-1] += 1
        if isinstance(token, int):
            return comma
        return f"{comma}{json.dumps(token, ensure_ascii=False)}:"

    def close(self) -> str:
        """The text that completes the object."""
        out = ["{"] if not self.started else []
        self.started = True
        if self._string is not None:
            out.append('"')
            self._string = None
        out.extend(reversed(self._closers))
        out.append("}")
        self._path, self._closers, self._counts = [], [], [0]
        return "".join(out)
