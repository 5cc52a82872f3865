"""Incremental scanning: where a marker is, and where a call's body ends.

Both work on a growing text and remember how far they have read, so a body delivered in
token-sized pieces is read once; only a possible marker split by a chunk boundary (at
most the longest marker's length) is looked at again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any

from mypy_extensions import mypyc_attr

from ..core.frozen import by_constructor


@mypyc_attr(allow_interpreted_subclasses=True)
class Literals:
    """A set of literal markers: the first one in a text, and how much of a text's end
    may still become one."""

    __slots__ = ("first", "firsts", "literals", "longest", "pattern", "prefixes", "search")

    def __init__(self, literals: Iterable[str]) -> None:
        found = sorted({lit for lit in literals if lit}, key=len, reverse=True)
        self.literals = tuple(found)
        self.longest = max((len(lit) for lit in found), default=0)
        self.prefixes = frozenset(lit[:i] for lit in found for i in range(1, len(lit)))
        self.pattern = re.compile("|".join(map(re.escape, found))) if found else None
        self.search = self.pattern.search if self.pattern is not None else _nothing
        firsts = "".join(sorted({lit[0] for lit in found}))
        self.firsts = firsts  # the characters a marker can begin with
        self.first = re.compile(f"[{re.escape(firsts)}]") if firsts else None

    def held(self, text: str, start: int) -> int:
        """The offset from which ``text[start:]`` ends in the beginning of a marker
        (``len(text)`` when it does not)."""
        n = len(text)
        first = self.first
        if first is None:
            return n
        begin = max(start, n - self.longest + 1)
        prefixes = self.prefixes
        found = first.search(text, begin)
        while found is not None:
            at = found.start()
            if text[at:] in prefixes:
                return at
            found = first.search(text, at + 1)
        return n

    def find(self, text: str, start: int) -> re.Match[str] | None:
        """The first marker in ``text[start:]``, or ``None``; a marker that a longer one
        may still extend in the next chunk (``<|start|>assistant`` / ``… to=``) is not
        found yet."""
        found = self.search(text, start)
        if found is not None and text[found.start() :] in self.prefixes:
            return None
        return found


def _nothing(text: str, pos: int = 0) -> re.Match[str] | None:
    return None


@dataclass(frozen=True)
class EndSpec:
    """How a call's body ends.

    ``closers``: markers that end the body (outside strings and regions); the first found
    is part of the call. ``strings``: quote characters of strings in which nothing ends
    the body (backslash escapes). ``regions``: ``(opener, closers)`` pairs of literal
    stretches (a parameter value) in which the body's closers do not count; a region
    closer starting with ``"\\0"`` ends the region without being read (the rest is read
    as body). ``balanced``: characters that open a bracketed value; the body ends where
    the first such value closes (a JSON array, a Python list, an object).
    """

    closers: tuple[str, ...] = ()
    strings: str = ""
    regions: tuple[tuple[str, tuple[str, ...]], ...] = ()
    balanced: str = ""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_constructor(self)  # (snapshots, in either build: see core/frozen.py)


_OPEN = {"[": "]", "{": "}", "(": ")"}
_CLOSE = frozenset("]})")


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class _Region:
    literals: Literals
    zero_width: frozenset[str]

    def quiet(self, text: str) -> bool:
        """Whether ``text`` holds no character that may begin one of the closers."""
        first = self.literals.first
        return first is None or first.search(text) is None


@mypyc_attr(allow_interpreted_subclasses=True)
class _Searches:
    """What the bodies of one :class:`EndSpec` look for, compiled once per spec: the
    regions by opener, the closers and region openers outside them, the quotes and
    brackets, and what may end the body or open a region (see :meth:`BodyScanner.whole`)."""

    __slots__ = ("loud", "loud_char", "outside", "quote", "regions", "stops")

    def __init__(self, spec: EndSpec) -> None:
        self.regions = {
            opener: _Region(
                Literals(c.lstrip("\0") for c in closers),
                frozenset(c[1:] for c in closers if c.startswith("\0")),
            )
            for opener, closers in spec.regions
        }
        self.outside = Literals((*spec.closers, *self.regions))
        brackets = "[{(]})" if spec.balanced else ""
        chars = spec.strings + brackets
        self.stops = re.compile(f"[{re.escape(chars)}]") if chars else None
        loud = self.outside.firsts + brackets
        self.loud = re.compile(f"[{re.escape(loud)}]") if loud else None
        self.loud_char = loud if len(loud) == 1 else ""  # (then one ``in`` test)
        # (strings of one quote character and no brackets: a chunk without escapes
        # opens or closes a string at each quote, see BodyScanner.whole)
        self.quote = spec.strings if len(spec.strings) == 1 and not brackets else ""


@cache
def _searches(spec: EndSpec) -> _Searches:
    return _Searches(spec)


@mypyc_attr(allow_interpreted_subclasses=True)
class BodyScanner:
    """Finds the end of one call's body, chunk by chunk.

    ``scan(text, start)`` reads ``text[start:]``; when the body has not ended there it
    returns ``None`` and sets :attr:`keep`: the offset from which the caller passes the
    text again with the next chunk (a marker or an escape split by the chunk boundary).
    """

    __slots__ = (
        "_loud",
        "_loud_char",
        "_outside",
        "_quote",
        "_regions",
        "_stops",
        "depth",
        "keep",
        "quote",
        "region",
        "spec",
        "started",
        "work",
    )

    def __init__(self, spec: EndSpec) -> None:
        self.spec = spec
        self.keep = 0
        self.quote = ""  # inside a string opened by this quote
        self.region: _Region | None = None
        self.depth = 0
        self.started = False  # a balanced value has opened
        self.work = 0  # characters the searches for the end passed over (see CallBody.spent)
        found = _searches(spec)
        self._regions = found.regions
        self._outside = found.outside
        self._stops = found.stops
        self._loud = found.loud
        self._loud_char = found.loud_char
        self._quote = found.quote

    def whole(self, text: str) -> bool:
        """The common case in one step: whether ``text``, read next, certainly neither
        ends the body nor leaves anything to read again (no character that may begin a
        closer or a region's marker, no escape cut at its end). Then it is read (its
        strings followed); else nothing is, and :meth:`scan` reads it."""
        region = self.region
        if region is not None:  # (only the region's closers count there)
            return region.quiet(text)
        char = self._loud_char
        if char:
            if char in text:
                return False
        else:
            loud = self._loud
            if loud is not None and loud.search(text) is not None:
                return False
        stops = self._stops
        if stops is not None:  # (quotes)
            if text[-1] == "\\":
                return False
            quote = self._quote
            if quote and "\\" not in text:  # (each quote opens or closes a string)
                if text.count(quote) % 2:
                    self.quote = "" if self.quote else quote
                return True
            if self.spec.balanced and not self.started:  # (a quote opens no string yet)
                self.scan(text, 0)
                return True
            # (what scan does with a text of quotes, escapes and string characters only)
            quote, i = self.quote, 0
            while True:
                found = _special(quote).search(text, i) if quote else stops.search(text, i)
                if found is None:
                    break
                i = found.end()
                c = found.group()
                if c == "\\":
                    i += 1
                elif quote:
                    quote = ""
                else:
                    quote = c
            self.quote = quote
        return True

    def taken(self, text: str) -> int:
        """For a chunk that is not :meth:`whole` because it ends in what may begin a
        closer (``}}\\n<`` before ``/tool_call>``): read the text before it, and return
        its length (the rest is held, as :meth:`scan` would hold it); ``-1``, nothing
        read, when it does not (all of ``text``, its length, when that beginning turns
        out to be inside a string)."""
        if self.region is not None or self.quote:
            return -1
        at = self._outside.held(text, 0)
        if at == 0 or at == len(text):
            return -1
        tail = text[at:]
        stops = self._stops
        if "\\" in tail or (stops is not None and stops.search(tail) is not None):
            return -1
        if self._outside.search(tail) is not None:  # (a shorter marker inside it)
            return -1
        if not self.whole(text[:at]):
            return -1
        return len(text) if self.quote else at  # (in a string the tail is its text)

    def held_whole(self, text: str) -> bool:
        """Whether :meth:`scan` from ``text``'s start would read nothing and hold all of
        it: a proper beginning of a closer (or region marker) and nothing else, outside
        strings (a closer arriving in pieces: ``</too``, then ``</tool_ca``)."""
        if self.quote:
            return False
        region = self.region
        literals = region.literals if region is not None else self._outside
        if text not in literals.prefixes or literals.search(text) is not None:
            return False
        stops = self._stops
        return region is not None or stops is None or stops.search(text) is None

    def scan(self, text: str, start: int) -> tuple[int, int] | None:
        """``(closer_start, end)`` once the body has ended in ``text`` (``end`` after
        its closer), else ``None``."""
        i, n = start, len(text)
        # The first marker and the first quote or bracket at or after ``searched``: a
        # search from ``i`` >= ``searched`` finds them again while they are not behind
        # ``i`` (a body of many strings looks for its closer once, not from every quote).
        found: re.Match[str] | None = None
        stop: re.Match[str] | None = None
        searched = n + 1  # (nothing searched yet)
        while i < n:
            if self.quote:
                i = self._in_string(text, i)
                if i < 0:
                    return None
                continue
            region = self.region
            if region is not None:
                found = region.literals.search(text, i)
                if found is None:
                    self.keep = region.literals.held(text, i)
                    return None
                self.region = None
                lit = found.group()
                i = found.start() if lit in region.zero_width else found.end()
                continue
            if searched > i or (found is not None and found.start() < i):
                found = self._outside.search(text, i)
                self.work += (found.end() if found is not None else n) - i
            if self._stops is not None and (
                searched > i or (stop is not None and stop.start() < i)
            ):
                stop = self._stops.search(text, i)
            searched = i
            if stop is not None and (found is None or stop.start() < found.start()):
                if self._char(text, stop.start()):
                    return stop.end(), stop.end()
                i = stop.end()
                continue
            if found is None:
                self.keep = self._outside.held(text, i)
                return None
            lit = found.group()
            opened = self._regions.get(lit)
            if opened is not None:
                self.region = opened
                i = found.end()
                continue
            if self.spec.balanced and self.started:  # a marker inside the value: text
                i = found.start() + 1
                continue
            return found.start(), found.end()
        self.keep = n
        return None

    def _in_string(self, text: str, i: int) -> int:
        """The offset after the string's closing quote, or -1 (:attr:`keep` set) when the
        text ends first."""
        quote = self.quote
        n = len(text)
        while i < n:
            c = text[i]
            if c == "\\":
                if i + 1 >= n:
                    self.keep = i  # the escaped character is in the next chunk
                    return -1
                i += 2
            elif c == quote:
                self.quote = ""
                return i + 1
            else:
                nxt = _next_special(text, i + 1, quote)
                i = nxt if nxt >= 0 else n
        self.keep = n
        return -1

    def _char(self, text: str, at: int) -> bool:
        """Read a quote or bracket; whether it closes the balanced value."""
        c = text[at]
        spec = self.spec
        if c in spec.strings and (self.started or not spec.balanced):
            self.quote = c
        elif c in _OPEN and (self.started or c in spec.balanced):
            self.started = True
            self.depth += 1
        elif c in _CLOSE and self.started:
            self.depth -= 1
            return self.depth == 0
        return False


_SPECIALS: dict[str, re.Pattern[str]] = {}


def _special(quote: str) -> re.Pattern[str]:
    """The search for what matters inside a string opened by ``quote``: it, or ``\\``."""
    pattern = _SPECIALS.get(quote)
    if pattern is None:
        pattern = _SPECIALS[quote] = re.compile(f"[\\\\{re.escape(quote)}]")
    return pattern


def _next_special(text: str, i: int, quote: str) -> int:
    found = _special(quote).search(text, i)
    return found.start() if found is not None else -1


@mypyc_attr(allow_interpreted_subclasses=True)
class Meter:
    """The characters a body's parse looks at beyond one pass over it, so that
    ``Session.examined`` counts the parse's work too and the linear-work tests see a
    parse that reads a body again and again."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


METER: ContextVar[Meter | None] = ContextVar("streamblocks_markup_meter", default=None)


def find(text: str, sub: str, start: int, end: int | None = None) -> int:
    """``text.find(sub, start, end)``, counted by the current :class:`Meter`."""
    stop = len(text) if end is None else end
    at = text.find(sub, start, stop)
    meter = METER.get()
    if meter is not None:
        meter.count += (at + len(sub) if at >= 0 else stop) - start
    return at


def search(pattern: re.Pattern[str], text: str, start: int) -> re.Match[str] | None:
    """``pattern.search(text, start)``, counted by the current :class:`Meter`."""
    found = pattern.search(text, start)
    meter = METER.get()
    if meter is not None:
        meter.count += (found.end() if found is not None else len(text)) - start
    return found
