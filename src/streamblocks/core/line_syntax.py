"""The line-syntax protocol: formats whose markers fill whole lines.

The delimiter, frontmatter, fence and gadget formats are line syntaxes. A syntax is
configuration (a frozen dataclass, compared by value); every block it opens gets a
fresh :class:`LineParser` holding that block's state. The scanner owns all buffering,
events, limits and validation; a line syntax only *classifies lines*:

* :meth:`LineSyntax.open` is asked about each line that starts outside a block and
  begins with one of its ``starts_with`` characters, first with the partial line as it
  grows (``complete=False``), then with the whole line.
* :meth:`LineParser.on_line` is asked about each line inside the block the same way
  (only lines starting with one of its ``marker_starts``, when it sets them).

Both may answer ``PENDING`` ("could still be a marker, show me more of the line") only
while the line is incomplete; every other answer decides the whole line, and the rest
of it then streams without further questions. Answers must be *monotonic*: once a
prefix is not ``PENDING``, no longer prefix may be. That rule is what makes the result
independent of how the text was chunked. Lines are passed without their line ending
(``\\n`` or ``\\r\\n``); a line longer than ``Limits.max_marker_chars`` that is still
``PENDING`` is decided on its first ``max_marker_chars + 1`` characters (no marker is
that long), so a held line start is bounded.
"""

from __future__ import annotations

import re
from abc import ABCMeta, abstractmethod
from collections.abc import Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from mypy_extensions import mypyc_attr

from .syntax import Header, Syntax

if TYPE_CHECKING:
    from .registry import TypeTable


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


@mypyc_attr(allow_interpreted_subclasses=True)
class LineParser(metaclass=ABCMeta):
    """The state of one block (or visible region) while the scanner reads it."""

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
    error: str = (
        "malformed block: it closed before its parser started (a parser whose opener line "
        "is its whole header sets LineParser.started = True, or returns Verdict.START)"
    )
    """On ``CLOSE`` before ``START``: the message of the ``PARSE_FAILED`` error. The
    default names the usual cause in a syntax of your own: a parser left ``started =
    False`` whose block therefore never started."""
    continuation: LineParser | None = None
    """On ``VERBATIM``: the visible region that reads what follows."""
    marker_starts: str | None = None
    """Characters a marker line inside this parser can start with; other lines get the
    default verdict without a call to :meth:`on_line` (``None``: ask about every line).
    The scanner finds the next such line with one search, so set it when you can."""

    closing_line: re.Pattern[str] | None = None
    """Optional. Set it on a started parser whose every complete line is ``CONTENT``
    except its closing line (``CLOSE``): a pattern matching ``"\\n"``, that closing line
    and its ``"\\n"``. The scanner then finds the block's closing line with one search
    of this pattern, and the content before it in one piece, without asking
    :meth:`on_line` about the lines between; it must agree with :meth:`on_line` (see
    :func:`~streamblocks.syntaxes.base.literal_line_pattern`). A closing line longer
    than ``max_marker_chars`` is content all the same (the rule above). A visible
    parser (a code fence the model shows) may set it too: every line is ``TEXT`` up to
    its closing line (``END_TEXT``), read in one piece when no inline syntax reads
    inside fences."""

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

        Raise :class:`~streamblocks.core.syntax.ParseFailure` when the body is malformed.
        """
        return body


class WholeBlock(NamedTuple):
    """A block in hand from its opening line to its closing line, read at once by
    :meth:`LineSyntax.read_whole`: ``text[start:body]`` is its opener (its header
    lines), ``text[body:closer]`` its content, ``text[closer:end]`` its closing line."""

    header: Header | None
    """What the parser would hold as its header when the block starts; ``None`` for no
    block but a region the model shows (a code fence that names no type), where the
    line step would make every line visible text up to and including the closing line:
    ``text[start:end]`` is then visible text."""
    body: int
    closer: int
    end: int
    """Just after the closing line's ``"\\n"``."""


class OpenedBlock(NamedTuple):
    """A block whose header is in hand but whose closing line is not, read at once by
    :meth:`LineSyntax.read_whole`: ``text[start:body]`` is its opener (its header
    lines) and ``parser`` the block's parser as the line step holds it once the block
    has started at ``body`` (``started``, its ``header``, ``marker_starts``,
    ``closing_line``): the session begins the block and reads on line by line."""

    parser: LineParser
    body: int


@mypyc_attr(allow_interpreted_subclasses=True)
class LineSyntax(Syntax):
    """A format whose markers fill whole lines (see the module docstring)."""

    starts_with: str | None = None
    """Characters an opening line can start with; the scanner offers only such lines
    (``None``: every line is offered)."""

    @abstractmethod
    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        """Whether ``line`` (outside any block) opens a block of this syntax.

        Return ``Verdict.PENDING`` while a partial line could still become an opener,
        ``Verdict.REJECT`` when it cannot, or a fresh :class:`LineParser` (only for a
        complete line) whose state continues with the next line.
        """

    @abstractmethod
    def describe(self, types: Sequence[Any]) -> str:
        """The system-prompt section for ``types``."""

    def read_whole(
        self, text: str, start: int, line_end: int, types: TypeTable
    ) -> WholeBlock | OpenedBlock | Verdict | None:
        """Optional: read a whole block at once (a speed-up; the default says nothing).

        ``text[start:line_end]`` is a complete line outside any block (its ``"\\n"`` at
        ``line_end``) and no longer than ``max_marker_chars``. Return a
        :class:`WholeBlock` when ``text`` holds all of a block this line opens and the
        line step would read it so: the header :meth:`open` and the parser would give,
        every line between opener and closing line content, the content its body text
        (the parser's ``parse`` returns it as it is, and it has no ``partial_source``).
        Return ``Verdict.REJECT`` when :meth:`open` would reject the line, and ``None``
        to leave the line to :meth:`open` and its parser (always right). A
        :class:`WholeBlock` whose header is ``None`` says that the line opens no block
        but a shown region (a code fence that names no type) that the closing line at
        ``closer`` ends: ``text[start:end]`` is visible text.

        When ``text`` holds the block's header but not its closing line, return an
        :class:`OpenedBlock`: the parser the line step would hold once the block started
        where its content begins (the line step's header, and the line step would have
        started the block on the text in hand). The session takes it only when the line
        after the header is in hand too (a complete line no longer than a marker), and
        reads the rest line by line.

        The session reads the block, builds its events and checks its limits and
        metadata itself; whatever it does not take as simple (a metadata model that
        fails, hooks, transforms, validators, a content model, a limit crossed) goes
        to the line step. It asks a syntax only when the class that defines
        :meth:`open` defines this method too, so a subclass that reads openers its
        own way does not inherit a reader that no longer agrees with it.
        """
        return None


NO_LINE: str | None = None
"""``None`` for ``Scanner.line`` where a call may set it again: the literal would narrow
the attribute for mypy, and mypyc would check it is still ``None`` after the call."""


def strip_line_end(line: str) -> str:
    """``line`` without its ``\\n`` or ``\\r\\n``."""
    if line.endswith("\n"):
        line = line[:-2] if line.endswith("\r\n") else line[:-1]
    return line
