"""What a syntax tells the scanner: the protocols every block format implements.

The session's scanner (:mod:`streamblocks.core.scanner`) reads the stream once and
knows no format: it learns about markers through the protocols defined here and in
:mod:`.line_syntax` (``streamblocks.syntaxes`` implements them; core never imports it).

* :class:`Syntax`, the base of every format: a ``name``, and ``describe`` for prompts.
* A **line syntax** (:class:`~streamblocks.core.line_syntax.LineSyntax`: the delimiter,
  frontmatter, fence and gadget formats) has markers that fill whole lines. The
  scanner offers it each line start; it classifies lines (see :mod:`.line_syntax`).
* An **inline syntax** (:class:`InlineSyntax`, below: XML tags, model markup such as
  ``<think>`` or ``[TOOL_CALLS]``) has markers that may begin anywhere in visible text.

The inline protocol
-------------------

An inline syntax names its **openers**: non-empty literal strings that can begin a
marker anywhere in visible text (``"<"`` for XML tags, ``"<think>"``,
``"[TOOL_CALLS]"``, ``"<｜tool▁calls▁begin｜>"``; any characters). The scanner folds
the openers of every active syntax into one compiled search. Visible text between hits
goes out at once; at a chunk's end it holds back only the longest tail that is a
*proper prefix* of some opener (``"<thi"``) and releases it the moment it cannot be one.

Where an opener is found, the scanner asks the syntax for a fresh **reader**
(:meth:`InlineSyntax.reader`) and hands it the text *from the opener's first
character on*: a **region** begins. Every character then goes to the reader once and
in order (:meth:`InlineReader.read`), whatever the chunking, so it keeps a small state
between calls (a string flag, a bracket depth) and never looks back. It decides what
each character it consumed is by **attributing** counts of characters, in order,
through the :class:`InlineOut` it is given:

* ``out.text(n)``: visible text (``TEXT_DELTA``), only while no block is open;
* ``out.marker(n)``: part of a block's ``raw`` that is not content (tags, markers).
  Marker characters attributed while no block is open belong to the next block that
  :meth:`InlineOut.start` opens: a block's ``raw`` begins at the first of them;
* ``out.content(n)``: the open block's content (``raw`` too, and streamed as
  ``BLOCK_DELTA`` unless the type has a transform);
* ``out.hide(n)``: characters in no event, only for markers that a format says are
  never shown and belong to no block (an end-of-turn token): they break conservation.

and by opening and closing blocks:

* ``out.start(header)``: a block opens (``BLOCK_START`` / ``BLOCK_METADATA`` as for
  every syntax). ``header.block_type`` may be a registered type (``types.resolve``) or a
  built-in one such as ``BlockType.generic("thinking")`` or ``"tool_call"``, the types
  provider adapters produce for native thinking and tool calls;
* ``out.end(content)``: the open block closes (``BLOCK_END``). ``content`` is the parsed
  object (a ``dict`` of call arguments) or :data:`BODY` for the text attributed as
  content; a type's ``content`` model then validates it, its validators and transform
  run as for every syntax. ``attrs`` given here update the block's attributes (a tool
  call's name read from its body);
* ``out.fail(code, message)``: the open block closes as one ``BLOCK_ERROR`` carrying its
  whole ``raw`` (a body that does not parse: ``ErrorCode.PARSE_FAILED``).

One region may open and close any number of blocks, one after another (a
``[TOOL_CALLS]`` array of three calls gives three blocks), with visible text between
them (gpt-oss's ``final`` channel); every character of the region must end up in some
block's ``raw``, in visible text or (rarely) hidden.

:meth:`InlineReader.read` returns

* :data:`GO_ON` when it consumed everything it was given and the region goes on;
* an offset ``end`` (``start <= end <= stop``) when the region ended there: the scanner
  takes the text from ``end`` on back as visible text;
* :data:`NOT_MINE` when the opener turned out not to be a marker of this syntax
  (``<div>`` when ``div`` is not registered). The reader must not have attributed
  anything. The scanner then offers the same position to the next inline syntax whose
  opener matches there, else releases its first character as text and scans on.

Characters a reader consumed but has not attributed when its region ends are **pending**:
the scanner scans them again as visible text (an opening tag rejected at its last
character may hold another opener inside an attribute value). That is the only
re-reading, and it is bounded by ``Limits.max_marker_chars`` per region.

Limits. The scanner passes at most as many characters as the region may still take
(``stop`` may be short of the text's end): while no block is open, marker and pending
characters together are bounded by ``max_marker_chars`` (beyond it: one
``MARKER_TOO_LARGE`` error with the first ``max_marker_chars`` characters as ``raw``);
while a block is open, its ``raw`` plus pending characters by ``max_block_chars`` (beyond
it: ``TOO_LARGE``). The region is then dropped (its reader not called again) and the text
after the cut scanned again as visible text: a reader never checks a limit itself.

End of stream. :meth:`InlineReader.close` is called on an open region with the
stream's stop reason (``None`` when the provider gave none). It attributes what it
still holds and closes or fails its block as its format says (unclosed thinking is
thinking; an unclosed call is an error, except where the format ends calls with a stop
token servers cut). A block it leaves open is ``UNCLOSED``; pending text is read again.

A region may begin with the stream: :meth:`InlineSyntax.initial` returns a reader for
a region that is open at offset 0 (the chat template opened thinking in the prompt, so
the reply starts inside it), fed from the first character with an empty opener; its
first ``read`` comes when the stream starts, with no text (``start == stop``), so it
can open its block before any text arrives. Such a reader may answer ``NOT_MINE`` at once
when the text does not begin its format (a bare JSON call opens a reply in some formats).

A reader looks at each character a bounded number of times and keeps bounded state, so
the stream stays linear. :class:`~streamblocks.syntaxes.xml.XMLTagSyntax` and
``examples/cite_syntax.py`` are two readers written only against this module.
"""

from __future__ import annotations

import importlib
from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import is_dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple, SupportsIndex

from mypy_extensions import mypyc_attr

# Imported at run time: a compiled (mypyc) NamedTuple needs its field types.
from .block_types import BlockType
from .errors import ErrorCode
from .frozen import by_constructor

if TYPE_CHECKING:
    from .block_types import TypeTable
    from .events import StopReason

GO_ON: Final = -1
"""``InlineReader.read``: everything given was consumed and the region goes on."""
NOT_MINE: Final = -2
"""``InlineReader.read``: the opener is not a marker of this syntax (nothing attributed)."""


class _Body:
    """The type of :data:`BODY`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "BODY"


BODY: Final = _Body()
"""``InlineOut.end(BODY)``: the block's content is the text attributed as content."""


class ParseFailure(Exception):
    """Raised by a syntax when a block's text cannot be parsed."""


class Header(NamedTuple):
    """What a syntax learned from a block's opening marker."""

    name: str
    """The type name as written (the marker name)."""
    block_type: BlockType | None
    """The registered (or generic, or built-in) type; ``None`` when the name is unknown
    and unknown names are errors (the block is then reported ``UNKNOWN_TYPE``)."""
    block_id: str | None
    """The id written in the marker, if any (else the session numbers the block)."""
    attrs: Mapping[str, Any]
    """Attributes written on the opening marker (``BlockStart.attrs``)."""
    metadata: Mapping[str, Any] | None
    """The metadata mapping, validated against the type's metadata model and announced
    with ``BLOCK_METADATA``; ``None`` when the marker carries none."""
    error: tuple[ErrorCode, str] | None = None
    """A problem found in the header; reported when the block closes."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Syntax(metaclass=ABCMeta):
    """A block format. Subclass :class:`~streamblocks.core.line_syntax.LineSyntax` for
    markers that fill lines, :class:`InlineSyntax` for markers anywhere in text (see
    the *Writing a syntax* guide). A syntax is configuration, compared by value
    (frozen dataclasses are a good fit); per-block state lives in the parser or
    reader it makes.

    For compatibility, a direct subclass that implements :meth:`open` is a line
    syntax.
    """

    name: ClassVar[str]
    """Short name carried in events (``BlockStart.syntax``, ``Block.syntax``)."""
    shows_code_fences: ClassVar[bool] = False
    """``True``: fenced code that is not one of this syntax's blocks stays visible text."""
    starts_with: str | None = None
    """Line syntaxes: characters an opening line can start with (``None``: any). A
    class attribute, or set per instance when the configuration decides it."""

    def open(self, line: str, complete: bool, types: TypeTable) -> Any:
        """Line syntaxes: see :meth:`streamblocks.core.line_syntax.LineSyntax.open`."""
        raise NotImplementedError(
            f"{type(self).__name__} is neither a line syntax (implement open()) nor an InlineSyntax"
        )

    @abstractmethod
    def describe(self, types: Sequence[BlockType]) -> str:
        """The system-prompt section for ``types`` (never empty): how to write this
        syntax's blocks, then one entry per type (see :func:`streamblocks.prompts.listing`)."""

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        # (a frozen dataclass syntax as a constructor call: see ``frozen``)
        return by_constructor(self) if is_dataclass(self) else super().__reduce_ex__(protocol)

    def check(self, types: TypeTable) -> None:  # noqa: B027  (optional hook)
        """Raise :class:`~streamblocks.core.errors.RegistryError` when this syntax cannot
        serve ``types`` (called when a processor builds its plan)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class InlineOut(metaclass=ABCMeta):
    """What a reader may do with the characters it consumed (see the module docstring).

    Implemented by the scanner; counts refer to consumed, not yet attributed characters,
    oldest first, across chunks.
    """

    @abstractmethod
    def text(self, n: int) -> None:
        """The next ``n`` characters are visible text (no block may be open)."""

    @abstractmethod
    def marker(self, n: int) -> None:
        """The next ``n`` characters are ``raw`` of the open block, or of the next one."""

    @abstractmethod
    def content(self, n: int) -> None:
        """The next ``n`` characters are content of the open block."""

    @abstractmethod
    def hide(self, n: int) -> None:
        """The next ``n`` characters are in no event (never-visible stray markers)."""

    @abstractmethod
    def start(self, header: Header, *, empty: bool = False) -> None:
        """Open a block; its ``raw`` begins with the marker characters attributed since
        the last block or text. ``empty=True``: the block closes at once with no body
        (a self-closing tag), so the type's ``on_start`` hook is not called."""

    @abstractmethod
    def end(self, content: Any = BODY, attrs: Mapping[str, Any] | None = None) -> None:
        """Close the open block with ``content`` (:data:`BODY`: its content text)."""

    @abstractmethod
    def fail(self, code: ErrorCode, message: str) -> None:
        """Close the open block as one ``BLOCK_ERROR`` with its whole ``raw``."""

    @property
    @abstractmethod
    def block_open(self) -> bool:
        """Whether a block of this region is open (it may have been dropped for size)."""

    @property
    def reference(self) -> bool:
        """``True`` with every fast path off (``reference=True``): ``read`` takes no shortcut."""
        return False

    def stream(self, text: str) -> None:  # noqa: B027
        """``text`` streamed as content of the open block though it is no character of
        the input (a call's argument object as JSON text): a ``BLOCK_DELTA``, not
        ``raw``."""

    def work(self, n: int) -> None:  # noqa: B027
        """The reader looked at ``n`` characters more than it consumed (a call body's
        parse), for ``Session.examined``."""


@mypyc_attr(allow_interpreted_subclasses=True)
class InlineReader(metaclass=ABCMeta):
    """The state of one region, fed every character from its opener on."""

    @abstractmethod
    def read(self, text: str, start: int, stop: int, out: InlineOut) -> int:
        """Consume ``text[start:stop]`` and attribute what is decided.

        Returns :data:`GO_ON`, the offset where the region ended, or :data:`NOT_MINE`.
        """

    def close(self, out: InlineOut, stop_reason: StopReason | None) -> None:  # noqa: B027
        """The stream ended inside the region (default: do nothing, so an open block is
        ``UNCLOSED`` and pending characters are visible text)."""

    def bulk(self, text: str) -> int | None:
        """Optional, for speed: the next chunk read whole while a block is open, when
        all it decides is content. Consume ``text`` as :meth:`read` would and return
        how many of the characters consumed and not yet attributed (the oldest first)
        are the open block's content, attributing nothing else; or ``None`` without
        consuming anything, and :meth:`read` gets the chunk. A reader that overrides
        it gets each such chunk as one search and one event."""
        return None

    def bulk_held(self, text: str) -> bool:
        """Optional, for speed, as :meth:`bulk` while no block of the region is open, or
        while characters consumed before are not attributed yet (a closer arriving in
        pieces): whether ``text`` was consumed as :meth:`read` would, attributing
        nothing (a call's head before its name shows, the closer's next piece);
        ``False`` without consuming anything."""
        return False

    def bulk_start(self, text: str, out: InlineOut) -> bool:
        """Optional, for speed: a chunk :meth:`bulk_held` declines that starts the block
        and ends nothing (a call's head whose name shows), read as :meth:`read` would
        into ``out``; ``False`` without consuming anything."""
        return False

    def content_stop(self) -> str | None:
        """Optional, for speed: asked after each :meth:`read`. A character such that a
        chunk that does not hold it is what :meth:`bulk` would take whole as content,
        changing nothing but counters of the reader's own: the blanks it holds, then
        the chunk but for the blanks at its end, which it holds in turn (they may
        belong to a closer). The session then takes such chunks without asking the
        reader, and shows it the blanks held with what follows. ``None``: every chunk
        goes to :meth:`bulk` (or :meth:`read`)."""
        return None

    def bulk_raw(self, text: str) -> tuple[str, int] | None:
        """Optional, for speed, as :meth:`bulk` for a chunk that is ``raw`` of the open
        block and no content (a call's body): consume ``text`` as :meth:`read` would
        and return the text it streams (:meth:`InlineOut.stream`; ``""``: none) and how
        many of its first characters are marker, the rest held unattributed (what may
        begin a closer); or ``None`` without consuming anything. Asked only while every
        character consumed before is attributed."""
        return None


@mypyc_attr(allow_interpreted_subclasses=True)
class InlineSyntax(Syntax):
    """A format whose markers may begin anywhere in visible text (see the module
    docstring for the whole protocol)."""

    code_aware: bool = False
    """``True``: markers inside code the model shows (inline code spans are the
    syntax's own business; this is about fenced code) are text, so the processor makes
    shown code fences visible regions; ``False``: fenced code is scanned too."""

    @abstractmethod
    def openers(self, types: TypeTable) -> Sequence[str]:
        """The literals that can begin a marker (non-empty; order is priority)."""

    @abstractmethod
    def reader(self, opener: str, types: TypeTable) -> InlineReader:
        """A fresh reader for a region that begins with ``opener`` (one of
        :meth:`openers`)."""

    def initial(self, types: TypeTable) -> InlineReader | None:
        """A reader for a region open when the stream starts, or ``None``."""
        return None

    shown_openers: ClassVar[tuple[str, ...]] = ()  # (the ones read_shown may read)

    def read_shown(self, opener: str, text: str, start: int, stop: int) -> int:
        """Optional, a speed-up: where a region that ``opener`` begins at ``text[start]``
        ends when its reader, given ``text[start:stop]``, would make all of it visible
        text and end the region at a place before ``stop`` (an inline code span closed
        in hand); ``-1`` to leave the region to the reader (the default, always right).
        The scanner asks only a syntax whose class defines :meth:`reader` and this
        method together, and only about an opener of :attr:`shown_openers` that no
        other opener shares a first character with."""
        return -1


SyntaxPlan = Sequence[tuple[Syntax, "TypeTable"]]
"""The active syntaxes of a processor in priority order, each with its types."""

_DEFAULTS: dict[str, Callable[[], Syntax]] = {}
WIRING_MODULE = "streamblocks.syntaxes"
"""The module that calls :func:`wire_defaults` on import (named, not imported here: the
core imports no syntax)."""


def wire_defaults(*, syntax: Callable[[], Syntax], code_fences: Callable[[], Syntax]) -> None:
    """Name the syntaxes core falls back on, without importing them: ``syntax`` for
    block types registered without one, ``code_fences`` for the line syntax that shows
    fenced code as visible text. :mod:`streamblocks.syntaxes` calls this on import
    (and importing any part of the package imports it)."""
    _DEFAULTS["syntax"] = syntax
    _DEFAULTS["code_fences"] = code_fences


def default_syntax(role: str = "syntax") -> Syntax:
    """A fresh instance of the default syntax for ``role`` (see :func:`wire_defaults`)."""
    if role not in _DEFAULTS:  # not wired yet: the package's syntaxes do it when imported
        importlib.import_module(WIRING_MODULE)
    try:
        return _DEFAULTS[role]()
    except KeyError:
        raise RuntimeError(f"no default {role} syntax: import streamblocks.syntaxes") from None


COMPILED = "__mypyc_attrs__" in vars(Syntax)
"""Whether the core runs compiled (mypyc)."""


def settle_class_values(obj: Any) -> Any:
    """``obj`` (a syntax or parser), its class attributes (``started = True``,
    ``starts_with = "@"``) made what the core reads. In the compiled build the core
    reads a native attribute, which a Python subclass's class attribute does not reach:
    each is written into it. Nothing to do in the pure build or for a compiled class."""
    cls = type(obj)
    if not COMPILED or "__mypyc_attrs__" in vars(cls):
        return obj
    native = next(k for k in cls.__mro__ if "__mypyc_attrs__" in vars(k))
    names = {n for k in native.__mro__ for n in vars(k).get("__mypyc_attrs__", ())}
    for klass in reversed(cls.__mro__[: cls.__mro__.index(native)]):
        for name, value in vars(klass).items():
            if name in names and not hasattr(value, "__get__"):
                getattr(native, name).__set__(obj, value)
    return obj
