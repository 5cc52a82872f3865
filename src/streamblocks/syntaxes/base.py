"""The contract between the session and a block syntax.

A syntax is configuration (a frozen dataclass, compared by value); every block it
opens gets a fresh :class:`LineParser` holding that block's state. The session owns all
buffering, events, limits and validation; a syntax only *classifies lines*:

* :meth:`Syntax.open` is asked about each line that starts outside a block, first with
  the partial line as it grows (``complete=False``), then with the whole line.
* :meth:`LineParser.on_line` is asked about each line inside the block the same way.

Both may answer ``PENDING`` ("could still be a marker, show me more of the line") only
while the line is incomplete; every other answer decides the whole line, and the rest
of it then streams without further questions. Answers must be *monotonic*: once a
prefix is not ``PENDING``, no longer prefix may be. That rule is what makes the result
independent of how the text was chunked. Lines are passed without their line ending
(``\\n`` or ``\\r\\n``); a line longer than ``Limits.max_marker_chars`` that is still
``PENDING`` is taken as plain content (no marker is that long).
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from enum import IntEnum
from typing import Any, ClassVar, NamedTuple

from ..core.errors import ErrorCode
from ..core.registry import BlockType


class Verdict(IntEnum):
    """A syntax's answer about one line."""

    PENDING = 0
    """Could still be a marker: hold the line and ask again when more arrives."""
    TEXT = 1
    """Visible text (only for visible regions such as a code fence the model shows)."""
    CONTENT = 2
    """Block content: streamed as ``BLOCK_DELTA`` (section ``content``, ``parser.path``)."""
    BODY = 3
    """Inside the block but not streamed (structure lines such as a gadget's ``!!!ARG:``)."""
    HOLD = 4
    """Part of a header still being read; held until the header is decided."""
    START = 5
    """The header is complete: see ``parser.header``, ``parser.opener_lines`` and
    ``parser.then`` (what the current line is after the start)."""
    CLOSE = 6
    """The closing marker. Before ``START`` it means the block is malformed: the session
    reports ``parser.error`` as ``PARSE_FAILED`` with the whole raw text."""
    REJECT = 7
    """Not a block after all: the first held line is offered to the next syntaxes (or
    becomes text) and the rest is scanned again."""
    VERBATIM = 8
    """Not a block but a visible region: everything held and this line are visible text,
    and ``parser.continuation`` reads what follows."""
    END_TEXT = 9
    """This line is visible text and ends the visible region."""


# The members as module constants, for the hot paths: looking a member up on its Enum
# class costs about ten times a global on CPython 3.11, and lines are classified often.
PENDING, TEXT, CONTENT, BODY, HOLD, START, CLOSE, REJECT, VERBATIM, END_TEXT = Verdict


class Header(NamedTuple):
    """What a syntax learned from a block's opening marker."""

    name: str
    """The type name as written (the marker name)."""
    block_type: BlockType | None
    """The registered (or generic) type; ``None`` when unknown and unknown types are
    errors."""
    block_id: str | None
    """The id written in the marker, if any."""
    attrs: Mapping[str, Any]
    """Attributes written on the opening marker."""
    metadata: Mapping[str, Any] | None
    """The metadata mapping validated against the type's metadata model."""
    error: tuple[ErrorCode, str] | None = None
    """A problem found in the header; reported when the block closes."""


class TypeTable:
    """The block types one syntax recognises, and the policy for unknown names.

    ``unknown`` is ``"text"`` (unknown names are not blocks), ``"error"`` (they are
    blocks rejected with ``UNKNOWN_TYPE``) or ``"block"`` (generic blocks with no
    validation).
    """

    __slots__ = ("_generic", "markers", "prefixes", "unknown")

    def __init__(self, markers: Mapping[str, BlockType], unknown: str = "text") -> None:
        if unknown not in ("text", "error", "block"):
            raise ValueError(f"unknown= must be 'text', 'error' or 'block', got {unknown!r}")
        self.markers = dict(markers)
        self.unknown = unknown
        self.prefixes = frozenset(
            name[:end] for name in self.markers for end in range(len(name) + 1)
        )
        """Every prefix of every marker name: a partial name outside it names no type."""
        self._generic: dict[str, BlockType] = {}

    def resolve(self, name: str) -> BlockType | None:
        """The type named ``name``: registered, generic (``unknown="block"``) or None."""
        found = self.markers.get(name)
        if found is not None or self.unknown != "block":
            return found
        generic = self._generic.get(name)
        if generic is None:
            generic = self._generic[name] = BlockType.generic(name)
        return generic

    def accepts(self, name: str) -> bool:
        """Whether a marker naming ``name`` opens a block (possibly an error block)."""
        return name in self.markers or self.unknown != "text"


class LineParser(ABC):
    """The state of one block (or visible region) while the session reads it."""

    started: bool = False
    """``False`` while the header is being read and held; ``True`` once it started."""
    visible: bool = False
    """``True`` for a visible region: nothing in it is a block (a shown code fence)."""
    committed: bool = True
    """While not started: ``True`` when the opener is certain, so the end of the stream
    makes it ``UNCLOSED``; ``False`` when it is still tentative and becomes text."""
    path: str | None = None
    """The delta path of the content being read (gadget argument pointers)."""
    header: Header | None = None
    opener_lines: int = 1
    """On ``START``: how many held lines form the opener; held lines after them are
    content."""
    then: Verdict | None = None
    """On ``START``: what the current line is (``None`` when it ends the opener)."""
    error: str = "malformed block"
    """On ``CLOSE`` before ``START``: the message of the ``PARSE_FAILED`` error."""
    continuation: LineParser | None = None
    """On ``VERBATIM``: the visible region that reads what follows."""
    marker_starts: str | None = None
    """Characters a marker line inside this parser can start with; other lines get the
    default verdict without a call to :meth:`on_line` (``None``: ask about every line)."""
    closing_line: re.Pattern[str] | None = None
    """Optional, for long chunks. Set on a started parser whose every complete line is
    ``CONTENT`` except its closing line (``CLOSE``): a pattern matching ``"\\n"``, that
    closing line and its ``"\\n"``. With it the session finds a block's body and
    closer with one search when a chunk holds them all, instead of asking line by line;
    it must agree with :meth:`on_line` (see :func:`literal_line_pattern`)."""

    def held(self, piece: str) -> None:  # noqa: B027  (optional hook)
        """Receives each piece of header text held while not started (``HOLD``), the
        opener line included, so a parser can read its header without buffering twice."""

    def on_overflow(self) -> Verdict:
        """A tentative header outgrew ``max_metadata_chars``: ``REJECT`` or ``VERBATIM``."""
        return Verdict.REJECT

    @abstractmethod
    def on_line(self, line: str, complete: bool) -> Verdict:
        """Classify the line that is being read (see the module docstring)."""

    def on_end(self) -> Verdict:
        """The stream ended inside this parser. ``CLOSE`` reports the block as
        ``UNCLOSED``; ``REJECT``/``VERBATIM`` turn a tentative opener into text."""
        if self.visible or (not self.started and not self.committed):
            return Verdict.REJECT
        return Verdict.CLOSE

    def parse(self, body: str) -> Any:
        """The block's content from its body (the text between opener and closer).

        Raise :class:`ParseFailure` when the body is malformed.
        """
        return body


class ParseFailure(Exception):
    """Raised by a syntax when a block's text cannot be parsed."""


class Syntax(ABC):
    """A block format. Subclass it to add your own (see the *Writing a syntax* guide)."""

    name: ClassVar[str]
    """Short name carried in events (``BlockStart.syntax``, ``Block.syntax``)."""
    starts_with: ClassVar[str | None] = None
    """Characters an opening line can start with, used to skip :meth:`open` for other
    lines (``None``: every line is offered)."""

    @abstractmethod
    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        """Whether ``line`` (outside any block) opens a block of this syntax.

        Return ``Verdict.PENDING`` while a partial line could still become an opener,
        ``Verdict.REJECT`` when it cannot, or a fresh :class:`LineParser` (only for a
        complete line) whose state continues with the next line.
        """

    @abstractmethod
    def describe(self, types: Sequence[BlockType]) -> str:
        """The system-prompt section for ``types`` (never empty): how to write this
        syntax's blocks, then one entry per type (see :func:`streamblocks.prompts.listing`)."""


def strip_line_end(line: str) -> str:
    """``line`` without its ``\\n`` or ``\\r\\n``."""
    if line.endswith("\n"):
        line = line[:-2] if line.endswith("\r\n") else line[:-1]
    return line


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


SyntaxPlan = Sequence[tuple[Syntax, TypeTable]]
"""The active syntaxes of a processor in priority order, each with its types."""
