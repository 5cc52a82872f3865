"""Helpers shared by the built-in line syntaxes, and the protocol names re-exported
from core (:mod:`streamblocks.core.syntax`, :mod:`streamblocks.core.line_syntax`),
where the scanner's contract with a syntax is defined."""

from __future__ import annotations

import functools
import re

from ..core.line_syntax import (
    BODY,
    CLOSE,
    CONTENT,
    END_TEXT,
    HOLD,
    PENDING,
    REJECT,
    START,
    TEXT,
    VERBATIM,
    LineParser,
    LineSyntax,
    OpenedBlock,
    Verdict,
    WholeBlock,
    strip_line_end,
)
from ..core.registry import TypeTable
from ..core.syntax import Header, InlineSyntax, ParseFailure, Syntax

__all__ = [
    "BODY",
    "CLOSE",
    "CONTENT",
    "END_TEXT",
    "HOLD",
    "PENDING",
    "REJECT",
    "START",
    "TEXT",
    "VERBATIM",
    "Header",
    "InlineSyntax",
    "LineParser",
    "LineSyntax",
    "OpenedBlock",
    "ParseFailure",
    "Syntax",
    "TypeTable",
    "Verdict",
    "WholeBlock",
    "literal_line",
    "literal_line_pattern",
    "new_tuple",
    "set_starts_with",
    "strip_line_end",
]


new_tuple = tuple.__new__
"""``new_tuple(Header, (name, block_type, block_id, attrs, metadata, error))`` (every
field, in order; ``WholeBlock`` and ``OpenedBlock`` the same): a named tuple built
without its ``__new__``, which is Python code even in the compiled build (a frame
through the interpreter for each header read)."""


def set_starts_with(syntax: Syntax, chars: str | None) -> None:
    """Set a frozen syntax's ``starts_with`` from its configuration (in ``__post_init__``).

    A function, not ``object.__setattr__`` in the method: mypyc compiles that call in a
    subclass to a store into the subclass's own attributes, and ``starts_with`` is the base's.
    """
    object.__setattr__(syntax, "starts_with", chars)


def literal_line(line: str, marker: str, complete: bool) -> Verdict:
    """Is ``line`` the marker ``marker`` followed only by whitespace?

    ``CLOSE`` for a complete match, ``PENDING`` while a partial line could still be one,
    ``REJECT`` otherwise.
    """
    if len(line) <= len(marker):
        if not marker.startswith(line):
            return REJECT
        if complete:  # a complete line shorter than the marker is not the marker
            return CLOSE if len(line) == len(marker) else REJECT
        return PENDING
    if not line.startswith(marker) or line[len(marker) :].strip():
        return REJECT
    return CLOSE if complete else PENDING


@functools.lru_cache(maxsize=64)
def literal_line_pattern(marker: str) -> re.Pattern[str]:
    """The :attr:`LineParser.closing_line` for a closer matched by :func:`literal_line`:
    ``marker`` alone on its line, trailing whitespace allowed."""
    return re.compile("\n" + re.escape(marker) + r"[^\S\n]*\n")
