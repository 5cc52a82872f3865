"""What a family's markup is made of, as data the reader follows.

A :class:`Grammar` lists a family's thinking markers, the openers of its tool calls (each
with how its body ends and how the body reads), the sections that wrap several calls,
and the framing markers that are never visible text. Families are built from these in
:mod:`streamblocks.markup.formats`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from mypy_extensions import mypyc_attr

from ..core.frozen import by_constructor
from ..core.json_values import loads
from .arguments import ArgumentStream, Streamed
from .scan import EndSpec, Literals, search
from .schema import ToolSchemas
from .tagged import TaggedStream, Tagging


@dataclass(frozen=True)
class Call:
    """One tool call read from markup: its name, argument object and the id the markup
    gives it (``None``: the session gives one)."""

    name: str
    arguments: dict[str, Any]
    call_id: str | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_constructor(self)  # (snapshots, in either build: see core/frozen.py)


Parse = Callable[[str, ToolSchemas], list[Call]]
"""Reads a complete call body (without its opener and closer) into calls; raises
``ValueError`` saying why when the body is broken."""


@dataclass(frozen=True)
class CallFormat:
    """A tool call that starts at ``opener``.

    ``ends`` says where the body ends: one :class:`EndSpec`, or a mapping from the first
    non-blank character of the body to one (``""``: any other). ``name`` finds the
    tool's name (group 1) early in a body, so the call's ``BLOCK_START`` need not wait
    for its end. ``tail`` is a marker that may follow the closer after blanks and then
    belongs to the call (a ``</tool_call>`` after a bare ``</function>``). ``at_end``:
    the end of the stream closes a body that reads (gpt-oss cuts ``<|call|>``).
    ``then``: a separator after which another call of the grammar's ``chained`` formats
    may follow (Llama 3.x's ``;``). ``arguments``: matched at the body's start, ends
    where the argument object's JSON text begins, for formats that write it as one JSON
    object (see :mod:`streamblocks.markup.arguments`). ``tagging``: how a format that
    writes values as tagged text writes them (in a body that does not start with
    ``{``), to stream the JSON they amount to (see :mod:`streamblocks.markup.tagged`).
    ``item``: reads one item of a body that is a JSON array of calls, so that each call
    streams on its own (see :mod:`streamblocks.markup.items`). ``name_ends``: the
    characters one of which ends every match of ``name`` (``""``: not known, or a match
    that looks ahead): a head without its name that gains none of them still has none,
    so the lean step does not search it again (:meth:`CallBody.unnamed`). ``stream``:
    makes the argument stream of a format that needs its own (MiniMax M3's nested
    elements), given the tools' schemas.
    """

    opener: str
    ends: EndSpec | Mapping[str, EndSpec]
    parse: Parse
    name: re.Pattern[str] | None = None
    tail: str = ""
    at_end: bool = False
    then: str = ""
    arguments: re.Pattern[str] | None = None
    tagging: Tagging | None = None
    item: Callable[[Any], Call] | None = None
    name_ends: str = ""
    stream: Callable[[ToolSchemas], Streamed] | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_constructor(self)  # (snapshots, in either build: see core/frozen.py)

    def argument_stream(self, schemas: ToolSchemas, first: str) -> Streamed:
        """What streams the arguments of a body that starts with ``first`` as JSON text
        (a body that starts with ``{`` is JSON, never tagged)."""
        if self.stream is not None:
            return self.stream(schemas)
        if self.tagging is not None and first != "{":
            return TaggedStream(self.tagging, schemas)
        keyed = self.arguments is KEYED_ARGUMENTS
        return ArgumentStream(self.arguments, KEYED_NEEDS if keyed else ())

    def spec_for(self, first: str) -> EndSpec | None:
        """How the body that starts with ``first`` ends (``None``: no such body)."""
        ends = self.ends
        if isinstance(ends, EndSpec):
            return ends
        return ends.get(first, ends.get(""))


@dataclass(frozen=True)
class Section:
    """Markers around a group of calls; inside, blanks between calls are framing, other
    text that is not a call is visible text."""

    opener: str
    closer: str
    calls: tuple[CallFormat, ...]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_constructor(self)  # (snapshots, in either build: see core/frozen.py)


@dataclass(frozen=True, eq=False)
class Grammar:
    """A family's markup.

    ``thinking``: ``(opener, closer)`` pairs, the first used when the reply starts in
    thinking. ``hidden``: framing markers dropped from visible text (kept in ``raw``).
    ``start``: a call that may begin the reply with no opener (Llama's bare JSON); when
    its body does not read as a call it is visible text. ``chained``: the bare calls
    that may follow a call's ``then`` separator.
    """

    thinking: tuple[tuple[str, str], ...] = ()
    calls: tuple[CallFormat, ...] = ()
    sections: tuple[Section, ...] = ()
    hidden: tuple[str, ...] = ()
    start: tuple[CallFormat, ...] = ()
    chained: tuple[CallFormat, ...] = ()
    marker_chars: str = field(default="", compare=False)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_constructor(self)  # (snapshots, in either build: see core/frozen.py)

    def markers(self) -> set[str]:
        """Every marker the grammar knows (for tests and the counting matrix)."""
        found = {m for pair in self.thinking for m in pair}
        found.update(call.opener for call in self.calls)
        for section in self.sections:
            found.update((section.opener, section.closer))
            found.update(call.opener for call in section.calls)
        found.update(self.hidden)
        return {m for m in found if m}


@mypyc_attr(allow_interpreted_subclasses=True)
class Tables:
    """What a reader looks for, built once per grammar: the markers of visible text and
    what each starts, the markers inside each section, those a closed block takes."""

    __slots__ = ("actions", "after", "call_openers", "sections", "text", "thinking_closers")

    def __init__(self, grammar: Grammar) -> None:
        literals = (
            *(pair[0] for pair in grammar.thinking),
            *(call.opener for call in grammar.calls),
            *(section.opener for section in grammar.sections),
            *grammar.hidden,
        )
        self.text = Literals(literals)
        self.actions: dict[str, tuple[str, Any]] = {}
        for opener, closer in grammar.thinking:
            self.actions.setdefault(opener, ("think", Literals((closer,))))
        for call in grammar.calls:
            self.actions.setdefault(call.opener, ("call", call))
        for section in grammar.sections:
            self.actions.setdefault(section.opener, ("section", section))
        for marker in grammar.hidden:
            self.actions.setdefault(marker, ("hide", marker))
        self.sections = {
            section.opener: Literals((section.closer, *(c.opener for c in section.calls)))
            for section in grammar.sections
        }
        tails = [c.tail for c in grammar.calls]
        for section in grammar.sections:
            tails += [section.closer, *(c.tail for c in section.calls)]
        self.after = Literals((*literals, *tails))
        self.thinking_closers = Literals(pair[1] for pair in grammar.thinking)
        self.call_openers = (
            *(call.opener for call in grammar.calls),
            *(section.opener for section in grammar.sections),
        )


@cache
def with_calls(closers: Literals, openers: tuple[str, ...]) -> Literals:
    """Thinking's closers and the openers of calls (``calls_in_thinking``)."""
    return Literals((*closers.literals, *openers))


@cache
def tables(grammar: Grammar) -> Tables:
    """The :class:`Tables` of ``grammar`` (made once)."""
    return Tables(grammar)


ValueOf = Callable[[str, str, "str | None", str], Any]
"""``(tool, key, stated type or None, text)`` → an argument's value."""


def element_call(
    body: str,
    head: re.Pattern[str],
    item: re.Pattern[str],
    closers: tuple[str, ...],
    value_of: ValueOf,
) -> Call:
    """A call written as elements: ``head`` (group 1: the tool's name), then per
    argument an opening ``item`` (groups: key, stated type; matched after blanks) and its
    value up to the first of ``closers``. Names and keys are HTML-unescaped. Each
    character is looked at a bounded number of times."""
    found = head.match(body)
    need(found is not None, "the call has no tool name")
    assert found is not None
    name = html.unescape(found.group(1))
    arguments: dict[str, Any] = {}
    at = found.end()
    while True:
        opening = item.match(body, _after_blanks(body, at))
        if opening is None:
            break
        closing = search(_closers(closers), body, opening.end())
        need(closing is not None, "an argument is not closed")
        assert closing is not None
        key = html.unescape(opening.group(1))
        arguments[key] = value_of(
            name, key, opening.group(2), body[opening.end() : closing.start()]
        )
        at = closing.end()
    need(not body[at:].strip(), f"an argument that does not read: {body[at:].strip()[:80]!r}")
    return Call(name, arguments)


_BLANKS = re.compile(r"\s*")


def _after_blanks(text: str, at: int) -> int:
    """Where the blanks from ``at`` end: ``item`` patterns start at their tag, so that a
    search for one (the streamed arguments') never retries a run of blanks."""
    found = _BLANKS.match(text, at)
    return found.end() if found else at


@cache
def _closers(closers: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, closers)))


def arguments_after(head: str) -> re.Pattern[str]:
    """The :attr:`CallFormat.arguments` pattern of an object that follows ``head`` (a
    regular expression) and blanks."""
    return re.compile(f"(?:{head})\\s*(?=\\{{)", re.DOTALL)


KEYED = r'\{\s*(?:"[^"\\]*"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)*"(?:arguments|parameters)"\s*:'
"""``arguments`` / ``parameters`` in a JSON call (after string members)."""
KEYED_ARGUMENTS = re.compile(f'\\A\\s*{KEYED}\\s*(?=[{{"])', re.DOTALL)
"""Where the arguments open in a JSON call: an object, or a string that holds one."""
KEYED_NEEDS = ('"arguments"', '"parameters"')
"""One of these is in every head that :data:`KEYED_ARGUMENTS` matches: a head without
them is not tried (the pattern costs microseconds on a head that it does not match)."""


def need(condition: bool, message: str) -> None:
    """Raise ``ValueError(message)`` unless ``condition`` (a broken call body)."""
    if not condition:
        raise ValueError(message)


def json_object(text: str, what: str) -> dict[str, Any]:
    """``text`` as a JSON object (blank: ``{}``), or ``ValueError`` naming ``what``."""
    try:
        value = loads(text) if text.strip() else {}
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"{what} is not valid JSON ({exc})") from None
    need(isinstance(value, dict), f"{what} is not a JSON object")
    return value
