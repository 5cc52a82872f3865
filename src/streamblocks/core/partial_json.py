"""An incremental reader of JSON text that can say, at any point, what has been written.

A tool call's arguments arrive as JSON text in pieces. :class:`PartialJson` is fed the
pieces once each and keeps its place (the open containers, the string being written,
a half-written escape), so asking for the value so far never re-reads the text:

- every complete value is as it will be in the final object;
- an unfinished string is there as far as it is written (escapes decoded, a ``\\u``
  escape or a surrogate pair split across pieces held back until whole);
- an unfinished number, literal (``tru``) or key is left out, and so is a key whose
  value has not begun;
- before the first value it is ``None``.

So the values are monotone: a value once complete never changes, strings only grow.
A key written twice keeps its first value in every read until the top value is
complete, which has the last one (``json.loads``' rule): only that last read changes it.
Text that is not JSON stops the reader where it went wrong (:attr:`PartialJson.error`);
the value written before that point is kept.

Reading the value copies only what is still open (the containers on the way to the
unfinished part, shallowly) and shares every finished value with the reader and with
earlier reads: a finished value never changes again, so a read costs the open
containers' widths, not the whole object, and feeding costs the text's length, once.
Treat a value as read-only (``copy.deepcopy`` one to change it).
"""

from __future__ import annotations

import re
from typing import Any, Final

from mypy_extensions import mypyc_attr

from .json_values import integer

__all__ = ["PartialJson", "copy_json"]

_RUN: Final = re.compile(r'[^"\\]+')
_SPACE: Final = re.compile(r"[ \t\n\r]*")
_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NUMBER_CHARS: Final = re.compile(r"[-+0-9.eE]*")
_HEX4: Final = re.compile(r"[0-9a-fA-F]{4}")
_ESCAPES: Final = {
    '"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
}  # fmt: skip
_LITERALS: Final = {"t": ("true", True), "f": ("false", False), "n": ("null", None)}

# What the reader expects next.
_VALUE: Final = 0  # a value (after ``[``, ``:``, ``,`` in an array, or at the start)
_STRING: Final = 1  # inside a string (a value or a key)
_AFTER: Final = 2  # after a value: ``,`` or the container's closer
_KEY: Final = 3  # a key or ``}`` (after ``{``) / a key (after ``,`` in an object)
_COLON: Final = 4  # ``:`` after a key
_TOKEN: Final = 5  # inside a number or a literal
_DONE: Final = 6  # the top value is complete (only blanks may follow)
_FAILED: Final = 7  # not JSON: the reader stopped


def copy_json(value: Any) -> Any:
    """A copy of a JSON value whose containers are all new (strings and numbers shared)."""
    cls = value.__class__
    if cls is dict:
        return {k: (copy_json(v) if v.__class__ in _CONTAINERS else v) for k, v in value.items()}
    if cls is list:
        return [copy_json(v) if v.__class__ in _CONTAINERS else v for v in value]
    return value


_CONTAINERS: Final = (dict, list)


@mypyc_attr(allow_interpreted_subclasses=True)
class PartialJson:
    """Reads one JSON value from pieces of text (see the module docstring)."""

    __slots__ = (
        "_esc",
        "_high",
        "_key",
        "_keys",
        "_mode",
        "_parts",
        "_shown",
        "_stack",
        "_string_is_key",
        "_token",
        "_top",
        "chars",
        "error",
    )

    def __init__(self) -> None:
        self._mode = _VALUE
        self._stack: list[Any] = []  # the open containers, outermost first
        self._keys: list[Any] = []  # per open object: the key whose value is being read
        self._key: str | None = None
        self._shown: list[dict[Any, Any] | None] = []  # per open container: what reads show
        self._parts: list[str] = []  # the string being read, decoded
        self._string_is_key = False
        self._esc = ""  # an escape not yet complete (``\``, ``\u00``)
        self._high = ""  # a high surrogate waiting for its low half
        self._token = ""  # a number or literal being read
        self._top: Any = None
        self.chars = 0
        """Characters fed so far."""
        self.error: str | None = None
        """Why the text is not JSON (``None`` while it is)."""

    # ------------------------------------------------------------------ reading

    @property
    def complete(self) -> bool:
        """Whether the top value is complete."""
        return self._mode == _DONE

    def feed(self, text: str) -> None:
        """Read the next piece of the text."""
        self.chars += len(text)
        i, n = 0, len(text)
        while i < n:
            mode = self._mode
            if mode == _STRING:
                i = self._string(text, i, n)
            elif mode == _TOKEN:
                i = self._more_token(text, i, n)
            elif mode == _FAILED:
                return
            else:
                i = _SPACE.match(text, i).end()  # type: ignore[union-attr]
                if i < n:
                    i = self._structure(text[i], text, i)

    def _fail(self, message: str) -> int:
        self._mode = _FAILED
        self.error = message
        return 1 << 62

    def _structure(self, char: str, text: str, i: int) -> int:
        mode = self._mode
        if mode == _VALUE:
            if char == '"':
                self._string_is_key = False
                self._mode = _STRING
                return i + 1
            if char == "{":
                self._open({}, _KEY)
                return i + 1
            if char == "[":
                self._open([], _VALUE)
                return i + 1
            if char == "]" and self._stack and self._stack[-1].__class__ is list:
                if self._stack[-1] or self._token == ",":  # ``[1,]`` is not JSON
                    return self._fail("a value was expected before ']'")
                self._close()
                return i + 1
            if char in _LITERALS or char == "-" or "0" <= char <= "9":
                self._mode = _TOKEN
                self._token = ""
                return self._more_token(text, i, len(text))
            return self._fail(f"unexpected {char!r} where a value was expected")
        if mode == _AFTER:
            top = self._stack[-1] if self._stack else None
            if char == ",":
                if top.__class__ is dict:
                    self._mode = _KEY
                    self._token = ","
                else:
                    self._mode = _VALUE
                    self._token = ","
                return i + 1
            if (char == "}" and top.__class__ is dict) or (char == "]" and top.__class__ is list):
                self._close()
                return i + 1
            return self._fail(f"unexpected {char!r} after a value")
        if mode == _KEY:
            if char == '"':
                self._string_is_key = True
                self._mode = _STRING
                return i + 1
            if char == "}" and self._token != ",":
                self._close()
                return i + 1
            return self._fail(f"unexpected {char!r} where a key was expected")
        if mode == _COLON:
            if char == ":":
                self._mode = _VALUE
                self._token = ""
                return i + 1
            return self._fail(f"unexpected {char!r} where ':' was expected")
        return self._fail(f"unexpected {char!r} after the end of the value")

    def _open(self, container: Any, mode: int) -> None:
        self._stack.append(container)
        self._keys.append(None)
        self._shown.append(None)
        self._mode = mode
        self._token = ""

    def _close(self) -> None:
        self._keys.pop()
        container, shown = self._stack.pop(), self._shown.pop()
        self._value(container, _showing(container, shown) if shown else None)

    def _value(self, value: Any, shown: Any = None) -> None:
        """A complete value: put it where it belongs (reads show ``shown`` if given)."""
        stack = self._stack
        if not stack:
            self._top = value
            self._mode = _DONE
            return
        container, here = stack[-1], self._shown[-1]
        if container.__class__ is dict:
            key = self._keys[-1]
            self._keys[-1] = None
            if key in container:  # written twice: reads keep showing the first value
                shown = None if here is not None and key in here else container[key]
            container[key] = value
        else:
            key = len(container)
            container.append(value)
        if shown is not None:
            here = self._shown[-1] = here if here is not None else {}
            here[key] = shown
        self._mode = _AFTER

    def _more_token(self, text: str, i: int, n: int) -> int:
        token = self._token
        first = token[:1] or text[i]
        if first in _LITERALS:
            word, value = _LITERALS[first]
            need = len(word) - len(token)
            piece = text[i : i + need]
            token += piece
            if not word.startswith(token):
                return self._fail(f"{token!r} is not a JSON literal")
            if len(token) == len(word):
                self._token = ""
                self._value(value)
            else:
                self._token = token
            return i + len(piece)
        end = _NUMBER_CHARS.match(text, i).end()  # type: ignore[union-attr]
        token += text[i:end]
        if end == n:
            self._token = token  # the number may go on in the next piece
            return end
        self._token = ""
        return self._number(token, end)

    def _number(self, token: str, end: int) -> int:
        if not _NUMBER.fullmatch(token):
            return self._fail(f"{token!r} is not a JSON number")
        is_float = "." in token or "e" in token or "E" in token
        self._value(float(token) if is_float else integer(token))
        return end

    def _string(self, text: str, i: int, n: int) -> int:
        parts = self._parts
        while i < n:
            if self._esc:
                i = self._escape(text, i, n)
                continue
            match = _RUN.match(text, i)
            if match is not None:
                if self._high:
                    parts.append(self._high)
                    self._high = ""
                end = match.end()
                parts.append(text[i:end] if i or end != n else text)
                i = end
                continue
            char = text[i]
            if char == "\\":
                self._esc = "\\"
                i += 1
                continue
            # the closing quote
            if self._high:
                parts.append(self._high)
                self._high = ""
            string = parts[0] if len(parts) == 1 else "".join(parts)
            parts.clear()
            if self._string_is_key:
                self._keys[-1] = string
                self._mode = _COLON
            else:
                self._value(string)
            return i + 1
        return i

    def _escape(self, text: str, i: int, n: int) -> int:
        esc = self._esc
        if len(esc) == 1:  # just the backslash
            char = text[i]
            if char != "u":
                decoded = _ESCAPES.get(char)
                if decoded is None:
                    return self._fail(f"invalid escape \\{char}")
                self._esc = ""
                self._add(decoded)
                return i + 1
            esc = "\\u"
            i += 1
        need = 6 - len(esc)
        piece = text[i : i + need]
        esc += piece
        i += len(piece)
        if len(esc) < 6:
            self._esc = esc
            return i
        self._esc = ""
        if not _HEX4.fullmatch(esc, 2):
            return self._fail(f"invalid escape {esc}")
        code = int(esc[2:], 16)
        char = chr(code)
        if self._high and 0xDC00 <= code <= 0xDFFF:
            pair = 0x10000 + ((ord(self._high) - 0xD800) << 10) + (code - 0xDC00)
            self._high = ""
            self._parts.append(chr(pair))
        elif 0xD800 <= code <= 0xDBFF:
            if self._high:
                self._parts.append(self._high)
            self._high = char
        else:
            self._add(char)
        return i

    def _add(self, char: str) -> None:
        if self._high:
            self._parts.append(self._high)
            self._high = ""
        self._parts.append(char)

    # ------------------------------------------------------------------ the value so far

    def value(self) -> Any:
        """The value written so far (see the module docstring): its open containers
        are new objects, its finished values shared with earlier reads."""
        if self._mode == _DONE:
            top = self._top
            return top.copy() if top.__class__ in _CONTAINERS else top
        stack = self._stack
        if not stack:
            if self._mode == _STRING and not self._string_is_key:
                return self._joined()
            return None
        partial: Any = None
        if self._mode == _STRING and not self._string_is_key:
            partial = self._joined()
        elif self._mode == _FAILED:
            partial = None
        # From the innermost open container out: each copied, holding the one inside.
        keys = self._keys
        for depth in range(len(stack) - 1, -1, -1):
            shown = self._shown[depth]
            container = _showing(stack[depth], shown) if shown else stack[depth].copy()
            if partial is not None:
                if container.__class__ is dict:
                    key = keys[depth]
                    if key is not None and key not in container:
                        container[key] = partial
                else:
                    container.append(partial)
            partial = container
        return partial

    def open_path(self) -> tuple[str | int, ...] | None:
        """Where the unfinished part is: the keys and indexes from the top value down to
        the innermost open container, or to the string being written in it; ``None``
        once the top value is complete (or before it began)."""
        if self._mode == _DONE or (not self._stack and self._mode != _STRING):
            return None
        path: list[str | int] = []
        stack, keys = self._stack, self._keys
        for depth in range(1, len(stack) + 1):
            if depth == len(stack):
                if self._mode == _STRING and not self._string_is_key:
                    path.append(_place(stack[-1], keys[-1]))
                break
            path.append(_place(stack[depth - 1], keys[depth - 1]))
        return tuple(path)

    def _joined(self) -> str:
        parts = self._parts
        if len(parts) > 1:
            parts[:] = ["".join(parts)]  # the next read joins only what came since
        return parts[0] if parts else ""


def _showing(container: Any, shown: dict[Any, Any]) -> Any:
    """``container`` as reads show it: ``shown``'s values in place of its own."""
    view = container.copy()
    for key in shown:
        view[key] = shown[key]
    return view


def _place(container: Any, key: Any) -> str | int:
    """The key (object) or index (array) the next value of ``container`` takes."""
    return len(container) if container.__class__ is list else key
