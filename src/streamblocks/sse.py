"""Server-sent events, read as the HTML specification says (the event-stream
interpretation of the WHATWG "Server-sent events" section): one sans-IO decoder that
``streamblocks extract`` and ``streamblocks view`` share for an SSE body.

- Lines end with CRLF, LF or CR (a CRLF split across two chunks is one line end); a
  byte-order mark at the very start is dropped.
- A line starting with ``:`` is a comment. ``field: value`` sets a field (one space after
  the colon is dropped); a line without a colon is a field with an empty value.
- ``data`` lines are joined with newlines; ``event`` names the message's type
  (``"message"`` when unnamed); ``id`` sets the last event id (kept across messages,
  ignored when it holds NUL); ``retry`` takes ASCII digits only; other fields are ignored.
- A blank line dispatches the message: nothing when no ``data`` came.

One deliberate choice beyond the specification, for recorded bodies: a message not
followed by a blank line when the input ends is still dispatched by :meth:`close`
(``complete_only=True`` discards it, as a browser does).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

_LINE_END = re.compile(r"\r\n|\r|\n")


class SSEMessage(NamedTuple):
    """One dispatched message."""

    data: str
    """The ``data`` lines joined with newlines."""
    event: str = "message"
    """The ``event`` field, or ``"message"``."""
    id: str | None = None
    """The last event id set so far in the stream (``None`` before any)."""
    retry: int | None = None
    """The last valid ``retry`` value in the stream, in milliseconds."""
    line: int = 0
    """The number (from 1) of the message's first field line, for error messages."""


class SSEDecoder:
    """Feed text chunks, get the messages each chunk completes; :meth:`close` at the end."""

    __slots__ = ("_cr", "_data", "_event", "_first", "_id", "_line", "_parts", "_retry", "_start")

    def __init__(self) -> None:
        self._parts: list[str] = []  # the current, unfinished line
        self._cr = False  # the last chunk ended with CR: a following LF ends nothing
        self._first = True  # nothing seen yet (a BOM may come)
        self._line = 0  # lines completed so far
        self._data: list[str] = []
        self._event = ""
        self._id: str | None = None
        self._retry: int | None = None
        self._start = 0  # the first line of the message being built

    def feed(self, text: str) -> list[SSEMessage]:
        """The messages completed by ``text``."""
        if self._first and text:
            self._first = False
            if text[0] == "\ufeff":
                text = text[1:]
        if self._cr and text.startswith("\n"):
            text = text[1:]
        self._cr = False
        out: list[SSEMessage] = []
        start = 0
        for found in _LINE_END.finditer(text):
            if found.group() == "\r" and found.end() == len(text):
                self._cr = True  # maybe the first half of a CRLF
            self._parts.append(text[start : found.start()])
            line = "".join(self._parts)
            self._parts = []
            self._take(line, out)
            start = found.end()
        if start < len(text):
            self._parts.append(text[start:])
        return out

    def close(self, *, complete_only: bool = False) -> list[SSEMessage]:
        """The end of the input: a last line without its line end is read, and a message
        not yet dispatched is (unless ``complete_only``)."""
        out: list[SSEMessage] = []
        if self._parts:
            line = "".join(self._parts)
            self._parts = []
            self._take(line, out)
        if self._data and not complete_only:
            self._dispatch(out)
        self._data, self._event, self._start = [], "", 0
        return out

    def _take(self, line: str, out: list[SSEMessage]) -> None:
        self._line += 1
        if not line:
            self._dispatch(out)
            return
        if line[0] == ":":
            return
        name, colon, value = line.partition(":")
        if colon and value[:1] == " ":
            value = value[1:]
        if not self._start:
            self._start = self._line
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id":
            if "\x00" not in value:
                self._id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self._retry = int(value)

    def _dispatch(self, out: list[SSEMessage]) -> None:
        if self._data:
            data = "\n".join(self._data)
            out.append(
                SSEMessage(data, self._event or "message", self._id, self._retry, self._start)
            )
        self._data, self._event, self._start = [], "", 0


def sse_messages(texts: Iterable[str], *, complete_only: bool = False) -> Iterator[SSEMessage]:
    """The messages of an SSE body given as text chunks, each as soon as it is complete."""
    decoder = SSEDecoder()
    for text in texts:
        yield from decoder.feed(text)
    yield from decoder.close(complete_only=complete_only)


_FIELDS = ("data:", "event:", "id:", "retry:")


def looks_like_sse(lines: Iterable[str]) -> bool | None:
    """Whether an input whose first lines are ``lines`` is an SSE body: its first
    non-blank line that is not a comment starts with ``data:``, ``event:``, ``id:`` or
    ``retry:`` (comments first are common: ``: OPENROUTER PROCESSING``). ``None``: only
    comments so far, undecided."""
    seen_comment = False
    for line in lines:
        line = line.strip().lstrip("\ufeff")
        if not line:
            continue
        if line[0] == ":":
            seen_comment = True
            continue
        return line.startswith(_FIELDS)
    return None if seen_comment else False


__all__ = ["SSEDecoder", "SSEMessage", "looks_like_sse", "sse_messages"]
