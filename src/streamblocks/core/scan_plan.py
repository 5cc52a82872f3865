"""What a scanner knows of its syntaxes before it reads anything, built once per processor.

The inline syntaxes and their openers, the characters marker lines start with, the
compiled searches of the visible state, the line syntaxes that read whole blocks and
the code spans read at once depend on the syntax plan only. A :class:`ScanPlan` holds
them; the processor builds one per plan and every session it makes shares it (a session
of a plan of its own, ``markup="auto"``'s, builds its own). Nothing in it changes while
a stream is read.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from .line_syntax import LineSyntax
from .registry import TypeTable
from .searches import Search, Stop, lean_visible_stop, tail_search, visible_search
from .syntax import InlineSyntax, SyntaxPlan

Readers = tuple[tuple[str | None, LineSyntax | None, TypeTable, int], ...]
"""The line syntaxes of a plan in its order: the characters each one's openers start
with (``None``: any), the syntax when it reads whole blocks, its types, its index in
the plan."""

Openers = tuple[tuple[int, str, InlineSyntax, TypeTable], ...]
"""Every inline opener: its syntax's index in the plan, the opener, the syntax, its types."""


@mypyc_attr(allow_interpreted_subclasses=True)
class ScanPlan:
    """The scanner's view of a syntax plan (see the module docstring)."""

    __slots__ = (
        "all_openers", "inline", "nl_lean", "opener_also", "opener_first", "opener_prefixes",
        "openers", "outside_search", "outside_starts", "outside_stop", "prefilter", "readers",
        "scan_fences", "shown_spans", "syntaxes", "tail_span", "tails",
    )  # fmt: skip

    def __init__(self, plan: SyntaxPlan) -> None:
        self.syntaxes = plan
        inline: list[tuple[int, InlineSyntax, TypeTable]] = []
        prefilter: list[str | None] = []
        for index, (syntax, table) in enumerate(plan):
            if isinstance(syntax, InlineSyntax):
                inline.append((index, syntax, table))
                prefilter.append("")  # never offered a line
            else:
                prefilter.append(syntax.starts_with)
        self.inline = tuple(inline)
        self.prefilter = tuple(prefilter)
        """The characters each syntax's opening line starts with (``None``: any; ``""``:
        an inline syntax, never offered a line)."""
        self.outside_starts: str | None = (
            None if None in prefilter else "".join(sorted(set("".join(prefilter))))  # type: ignore[arg-type]
        )
        """The characters a marker line outside blocks may start with (``None``: any)."""
        self.openers: Openers = tuple(
            (index, opener, syntax, table)
            for index, syntax, table in inline
            for opener in syntax.openers(table)
        )
        self.all_openers = tuple(opener for _, opener, _, _ in self.openers)
        self.shown_spans = shown_spans(self.openers)
        """The openers whose syntax reads a code span at once (see :func:`shown_spans`)."""
        self.tails = tail_search(self.all_openers)
        self.tail_span = max((len(opener) for opener in self.all_openers), default=1)
        self.outside_search: Search = visible_search(self.outside_starts, self.all_openers)
        """The full visible step's search outside blocks."""
        self.outside_stop: Stop = lean_visible_stop(self.outside_starts, self.all_openers)
        """The lean visible step's search outside blocks."""
        self.opener_first, self.opener_also, self.opener_prefixes = opener_stops(
            self.all_openers, self.outside_search
        )
        """What the lean visible step knows of the openers (:func:`opener_stops`)."""
        self.nl_lean = self.outside_starts is not None and not any(
            "\n" in opener for opener in self.all_openers
        )
        """Whether a newline ending a chunk of visible text is the stop it matches
        alone (no opener holds a newline), so the lean step goes on at the line start."""
        self.scan_fences = any(not syntax.code_aware for _, syntax, _ in inline)
        """Whether an inline syntax reads inside code fences."""
        self.readers = readers(plan)
        """The line syntaxes asked to read a whole block at a line start (``None``:
        no syntax can)."""


def opener_stops(openers: tuple[str, ...], search: Search) -> tuple[str, str, frozenset[str]]:
    """For the lean visible step: the characters inline openers begin with, when they
    are one or two (the second ``""`` when one; both ``""`` when none or more: a chunk
    of visible text with none of them and no newline holds no stop, and two ``in``
    tests cost less than the search), and the proper beginnings of openers that the
    visible ``search`` finds nothing in (no other opener, no line start), held whole
    by :func:`.lean.opening`."""
    firsts = sorted({opener[0] for opener in openers})
    first, also = (*firsts, "", "")[:2] if len(firsts) <= 2 and "\n" not in firsts else ("", "")
    prefixes = {opener[:end] for opener in openers for end in range(1, len(opener))}
    return first, also, frozenset(prefix for prefix in prefixes if search(prefix, 0) is None)


def readers(plan: SyntaxPlan) -> Readers | None:
    """The plan's line syntaxes for :func:`.whole.block`, or ``None`` when none reads
    whole blocks."""
    found: Readers = tuple(
        (
            syntax.starts_with,
            syntax
            if isinstance(syntax, LineSyntax)
            and defines_together(type(syntax), "open", "read_whole", LineSyntax)
            else None,
            table,
            index,
        )
        for index, (syntax, table) in enumerate(plan)
        if not isinstance(syntax, InlineSyntax)
    )
    return found if any(reader is not None for _, reader, _, _ in found) else None


def defines_together(cls: type, method: str, hook: str, base: type) -> bool:
    """Whether the class that defines ``method`` for ``cls`` defines the optional
    ``hook`` too, and is not the protocol ``base``: a subclass that overrides
    ``method`` alone inherits no hook that may disagree with it."""
    for klass in cls.__mro__:
        has_method, has_hook = method in vars(klass), hook in vars(klass)
        if has_method or has_hook:
            return has_method and has_hook and klass is not base
    return False


def shown_spans(openers: Openers) -> dict[str, InlineSyntax]:
    """The openers ``Scanner.run`` may hand to ``read_shown`` (``Scanner._shown_span``):
    one character long, the only opener starting with it, of a syntax whose class
    defines ``reader`` and ``read_shown`` together (a subclass that reads regions its
    own way inherits no ``read_shown`` that disagrees with it)."""
    found: dict[str, InlineSyntax] = {}
    for _, opener, syntax, _ in openers:
        alone = sum(other.startswith(opener[0]) for _, other, _, _ in openers) == 1
        if (
            opener in syntax.shown_openers
            and len(opener) == 1
            and alone
            and defines_together(type(syntax), "reader", "read_shown", InlineSyntax)
        ):
            found[opener] = syntax
    return found
