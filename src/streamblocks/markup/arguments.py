"""A call's argument object streamed as JSON text while its body arrives.

For the formats that write the arguments as one JSON object in the body (Hermes and
Llama's ``arguments``/``parameters``, Kimi K2, DeepSeek V3/V3.1, gpt-oss, Mistral's
``[ARGS]`` and each call of its arrays, :mod:`streamblocks.markup.items`), the object's
text is handed on as it is written: a pattern finds where it begins, and a small
reader follows strings and brackets to where it ends. When ``arguments`` is a JSON
string holding the object (a double-encoded Hermes call), the string is decoded as it
arrives and its text handed on.
The formats that write values as tagged text stream the JSON they amount to
(:mod:`streamblocks.markup.tagged`); the others give it when the call ends.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mypy_extensions import mypyc_attr

_HEAD_LIMIT = 2048
"""How far into a body the object's start is looked for."""
_STRING_STOP = re.compile(r'["\\]')
_OBJECT_STOP = re.compile(r'["{}\[\]]')
_HIGH = re.compile(r"\\u[dD][89abAB]")


def _whole(raw: str, last: int, before: int) -> int:
    """How much of an unclosed string's text decodes alone: up to an unfinished last
    escape (``last``: where it starts, ``-1``: none), or a high surrogate whose pair may
    follow (``\\uD83D`` waits for ``\\uDE00``)."""
    n = len(raw)
    if last < 0:
        return n
    size = 6 if raw.startswith("\\u", last) else 2
    if last + size > n:  # unfinished: it waits, and a high surrogate just before it
        return before if before >= 0 and before + 6 == last and _HIGH.match(raw, before) else last
    return last if last + 6 == n and _HIGH.match(raw, last) else n


@mypyc_attr(allow_interpreted_subclasses=True)
class Streamed:
    """What a call body's argument stream offers its reader."""

    __slots__ = ()

    def feed(self, text: str) -> str:
        """Take the body's next text; the next piece of the argument JSON."""
        return ""

    def named(self, tool: str) -> None:
        """The call's tool name is known (typing by schema may depend on it)."""

    def rest(self, arguments: dict[str, Any]) -> str | None:
        """At the call's end: what is still to send so that all sent is ``arguments``'
        JSON text; ``None`` when what was sent cannot become it."""
        return json.dumps(arguments, ensure_ascii=False)

    @property
    def problem(self) -> str:
        """Why :meth:`rest` gave ``None``."""
        return "the arguments differ from those streamed"

    @property
    def work(self) -> int:
        """Characters read again beyond one pass (held text), for ``Session.examined``."""
        return 0


STREAMED = Streamed()
"""Streams nothing: the arguments come whole when the call ends."""


@mypyc_attr(allow_interpreted_subclasses=True)
class ArgumentStream(Streamed):
    """Follows one body: :meth:`feed` takes its text in order and returns the part of
    the argument object's JSON text it holds."""

    __slots__ = (
        *("_depth", "_done", "_escape", "_head", "_needs", "_pattern", "_quoted", "_string"),
        "sent",
    )

    def __init__(self, pattern: re.Pattern[str] | None, needs: tuple[str, ...] = ()) -> None:
        self._pattern = pattern
        self._needs = needs  # (literals one of which a head holds when the pattern matches)
        self._head: str | None = "" if pattern is not None else None  # before the object
        self._depth = 0
        self._string = False
        self._escape = False
        self._quoted: str | None = None  # the undecoded tail of an arguments string
        self._done = pattern is None
        self.sent = False  # some of the object's text was handed on

    def rest(self, arguments: dict[str, Any]) -> str | None:
        if not self.sent:
            return json.dumps(arguments, ensure_ascii=False)
        return "" if self._done else None

    def feed(self, text: str) -> str:
        if self._done:
            return ""
        head = self._head
        if head is not None:
            head += text
            if "{" not in text and '"' not in text:  # (the pattern ends before one of them)
                self._head = head
                return ""
            found = None
            pattern = self._pattern
            if pattern is not None:  # (tried on a head with one of its needs, if any)
                for need in self._needs:
                    if need in head:
                        found = pattern.match(head)
                        break
                else:
                    found = None if self._needs else pattern.match(head)
            if found is None:
                if len(head) > _HEAD_LIMIT:
                    self._done = True
                self._head = head
                return ""
            self._head = None
            text = head[found.end() :]
            if text.startswith('"'):
                self._quoted, text = "", text[1:]
        if self._quoted is not None:
            return self._decode(text)
        end = self._scan(text)
        self.sent = self.sent or end > 0
        return text[:end]

    def _decode(self, text: str) -> str:
        """The arguments string's text decoded as far as it is whole."""
        raw = (self._quoted or "") + text
        i, end, last, before = 0, -1, -1, -1
        while True:
            found = _STRING_STOP.search(raw, i)
            if found is None:
                break
            at = found.start()
            if found.group() == '"':
                end = at
                break
            last, before, i = at, last, at + 2
        if end >= 0:
            cut, self._done = end, True
        else:
            cut = _whole(raw, last, before)
        self._quoted = raw[cut:]
        try:
            decoded = json.loads('"' + raw[:cut] + '"')
        except ValueError:  # not a JSON string: the call's parse says why
            self._done = True
            return ""
        self.sent = self.sent or bool(decoded)
        return str(decoded)

    def _scan(self, text: str) -> int:
        """How much of ``text`` belongs to the object (all of it while it is open)."""
        i, n = 0, len(text)
        if self._string and not self._escape and '"' not in text and "\\" not in text:
            return n  # (inside a string that goes on)
        while i < n:
            if self._escape:
                self._escape = False
                i += 1
            elif self._string:
                found = _STRING_STOP.search(text, i)
                if found is None:
                    return n
                i = found.end()
                if found.group() == "\\":
                    self._escape = True
                else:
                    self._string = False
            else:
                found = _OBJECT_STOP.search(text, i)
                if found is None:
                    return n
                i = found.end()
                c = found.group()
                if c == '"':
                    self._string = True
                elif c in "{[":
                    self._depth += 1
                else:
                    self._depth -= 1
                    if self._depth == 0:
                        self._done = True
                        return i
        return n
