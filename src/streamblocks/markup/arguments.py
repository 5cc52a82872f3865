"""A call's argument object streamed as JSON text while its body arrives.

For the formats that write the arguments as one JSON object in the body (Hermes and
Llama's ``arguments``/``parameters``, Kimi K2, DeepSeek V3/V3.1, gpt-oss, Mistral's
``[ARGS]``), the object's text is handed on as it is written: a pattern finds where it
begins, and a small reader follows strings and brackets to where it ends. The other
formats (values written as tagged text, pythonic lists, several calls in one body) give
the JSON their arguments amount to when the call ends.
"""

from __future__ import annotations

import re

_HEAD_LIMIT = 2048
"""How far into a body the object's start is looked for."""
_STRING_STOP = re.compile(r'["\\]')
_OBJECT_STOP = re.compile(r'["{}\[\]]')


class ArgumentStream:
    """Follows one body: :meth:`feed` takes its text in order and returns the part of
    the argument object's JSON text it holds."""

    __slots__ = ("_depth", "_done", "_escape", "_head", "_pattern", "_string", "sent")

    def __init__(self, pattern: re.Pattern[str] | None) -> None:
        self._pattern = pattern
        self._head: str | None = "" if pattern is not None else None  # before the object
        self._depth = 0
        self._string = False
        self._escape = False
        self._done = pattern is None
        self.sent = False  # some of the object's text was handed on

    @property
    def complete(self) -> bool:
        """The whole object was handed on."""
        return self.sent and self._done

    def feed(self, text: str) -> str:
        if self._done:
            return ""
        head = self._head
        if head is not None:
            head += text
            if "{" not in text:
                self._head = head
                return ""
            found = self._pattern.match(head) if self._pattern is not None else None
            if found is None:
                if len(head) > _HEAD_LIMIT:
                    self._done = True
                self._head = head
                return ""
            self._head = None
            text = head[found.end() :]
        end = self._scan(text)
        self.sent = self.sent or end > 0
        return text[:end]

    def _scan(self, text: str) -> int:
        """How much of ``text`` belongs to the object (all of it while it is open)."""
        i, n = 0, len(text)
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
