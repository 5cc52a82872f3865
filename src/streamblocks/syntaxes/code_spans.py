"""Inline code spans: a backtick run, visible text, the closing run of the same length
(or the end of the line). The XML syntax reads them (``code_aware``) so that tags
written in code stay text."""

from __future__ import annotations

import re

from mypy_extensions import mypyc_attr

from ..core.syntax import GO_ON, InlineOut, InlineReader

_TICK_OR_NEWLINE = re.compile("[`\n]")


@mypyc_attr(allow_interpreted_subclasses=True)
class CodeSpan(InlineReader):
    """An inline code span: visible text from a backtick run to the closing run of the
    same length, or to the end of the line."""

    __slots__ = ("held", "run")

    def __init__(self) -> None:
        self.run = 0  # length of the opening run (0 while it is being read)
        self.held = 0  # a backtick run being read, not attributed yet

    def read(self, text: str, start: int, stop: int, out: InlineOut) -> int:
        i = start
        while i < stop:
            if text[i] == "`":
                j = i
                while j < stop and text[j] == "`":
                    j += 1
                self.held += j - i
                i = j
                if i == stop:
                    break  # the run may go on
            if self.held:
                out.text(self.held)
                if not self.run:
                    self.run = self.held
                elif self.held == self.run:
                    self.held = 0
                    return i
                self.held = 0
            found = _TICK_OR_NEWLINE.search(text, i, stop)
            if found is None:
                out.text(stop - i)
                return GO_ON
            at = found.start()
            if text[at] == "\n":
                out.text(at + 1 - i)
                return at + 1
            out.text(at - i)
            i = at
        return GO_ON

    def close(self, out: InlineOut, stop_reason: object) -> None:
        out.text(self.held)


def code_span_end(text: str, start: int, stop: int) -> int:
    """Where the code span opening at ``text[start]`` ends when :class:`CodeSpan`, given
    ``text[start:stop]``, would read it whole and close it before ``stop`` (its closing
    run in hand, on the same line); else ``-1``."""
    i = start + 1
    if i < stop and text[i] != "`":  # (one backtick, the common span: one find)
        end = text.find("`", i, stop) + 1
        if 0 < end < stop and text[end] != "`" and text.find("\n", i, end) < 0:
            return end
    i = start
    while i < stop and text[i] == "`":
        i += 1
    run = i - start
    while i < stop:
        found = _TICK_OR_NEWLINE.search(text, i, stop)
        if found is None or text[found.start()] == "\n":
            return -1  # (no closing run in hand, or the span ends with its line)
        at = j = found.start()
        while j < stop and text[j] == "`":
            j += 1
        if j == stop:
            return -1  # (the run may go on)
        if j - at == run:
            return j
        i = j
    return -1
