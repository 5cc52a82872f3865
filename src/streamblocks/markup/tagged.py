"""The JSON a tagged call's arguments amount to, streamed as its values arrive.

Qwen3-Coder, GLM, DSML and Kimi K3 write each argument as a key in an opening tag and
its value as bare text up to a closing tag; the value's type comes from the tool's
schema or from a type the tag states. :class:`TaggedStream` turns the body, as it
arrives, into the text of ``json.dumps(arguments, ensure_ascii=False)``:

- ``{"key": `` (``, "key": `` after the first) as soon as an argument's opening tag
  is whole;
- a value that is a string whatever follows it (the schema says string, or there is no
  schema and the tag states no other type) streams its characters JSON-escaped as they
  arrive, held back only where a closing tag (or a newline the template adds) may begin;
- any other value (a number, an object, a string the schema may also read as ``null``)
  is held until its closing tag, then written whole, as the call will have it;
- the closing ``}`` comes with the call's end.

What it hands on is always the start of the final JSON text: the call's end checks that
and sends the rest (:meth:`TaggedStream.rest`). A call that writes one key twice cannot
be streamed that way (the JSON object keeps the key's first place and last value): it is
a broken call.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr

from ..core.frozen import by_constructor
from .arguments import Streamed
from .scan import Literals
from .schema import ToolSchemas, is_text, property_schema, typed

ValueOf = Callable[[ToolSchemas, str, str, "str | None", str], Any]
"""``(schemas, tool, key, stated type or None, text)`` → the argument's value."""
IsString = Callable[[ToolSchemas, str, str, "str | None"], bool]
"""``(schemas, tool, key, stated type or None)`` → the value is its text, whatever it is."""
End = Callable[[str, int], "tuple[int, int, int]"]
"""``(value text, where to look from)`` → ``(characters certainly in the value,
where its closing tag starts, where it ends)``; ``-1, -1`` while the end is not known.
Those characters are not shown again: the next call's text starts after them, so each
character of a long value is looked at about once (a held value keeps them aside)."""

_LIMIT = 4096
"""Text between arguments longer than this is no argument: streaming stops there."""


def schema_typed(schemas: ToolSchemas, tool: str, key: str, stated: str | None, text: str) -> Any:
    """A value typed by the tool's schema alone."""
    return typed(text, property_schema(schemas, tool, key))


def by_schema(schemas: ToolSchemas, tool: str, key: str, stated: str | None) -> bool:
    """A value typed by the tool's schema alone is a string when the schema says only
    string, or says nothing."""
    return is_text(property_schema(schemas, tool, key))


def closed_by(*closers: str) -> End:
    """A value ends at the first of ``closers``."""
    return _ClosedBy(Literals(closers))


@mypyc_attr(allow_interpreted_subclasses=True)
class _ClosedBy:
    """:func:`closed_by`'s :data:`End`: an object, not a closure, so that a snapshot
    of a session inside a call can write it."""

    __slots__ = ("literals",)

    def __init__(self, literals: Literals) -> None:
        self.literals = literals

    def __call__(self, text: str, at: int) -> tuple[int, int, int]:
        literals = self.literals
        found = literals.search(text, at)
        if found is not None:
            return found.start(), found.start(), found.end()
        return literals.held(text, at), -1, -1


@dataclass(frozen=True)
class Tagging:
    """How a format writes its arguments: ``item`` matches an argument's opening tag
    (group 1 its key, an optional group 2 the type it states), ``end`` finds where a
    value ends, ``value`` types a value's text, ``string`` says when a value is its
    text before it ends. ``unescape``: keys and tool names are HTML-escaped.
    ``newlines``: the template writes a value between newlines (one on each side is
    not the value's). ``blank_holds``: markers besides ``tails`` that keep a string
    value undecided while only blanks (``[ \t\r\n]``) follow them."""

    item: re.Pattern[str]
    end: End
    value: ValueOf = schema_typed
    string: IsString = by_schema
    held_end: Callable[[], End] | None = None
    until: str = ""
    tails: tuple[str, ...] = ()
    unescape: bool = False
    newlines: bool = False
    marks: str = "<"
    blank_holds: tuple[str, ...] = ()
    held: Literals = field(init=False, repr=False, compare=False)
    quiet: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_constructor(self)  # (snapshots, in either build: see core/frozen.py)

    def __post_init__(self) -> None:
        object.__setattr__(self, "held", Literals(self.tails))
        marks = self.marks + "".join(t[0] for t in self.tails) + ("\n" if self.newlines else "")
        object.__setattr__(self, "quiet", re.compile(f"[^{re.escape(marks)}]*\\Z"))

    def key(self, text: str) -> str:
        return html.unescape(text) if self.unescape else text.strip()


_OUT, _STRING, _HOLD, _STOP = range(4)
_BLANKS = " \t\r\n"


@mypyc_attr(allow_interpreted_subclasses=True)
class Stepwise(Streamed):
    """A body read in steps (``_step``, the subclass's) over the text not yet handed on,
    ``_buf``: what they write is kept, to check the call's end against (:meth:`rest`).
    A value held to its end keeps its text read so far aside (:meth:`_keep`), so that
    each chunk copies and reads again only the undecided rest (``work`` counts that)."""

    __slots__ = ("_buf", "_problem", "_read_again", "_sent", "_tool", "_value")

    def __init__(self) -> None:
        self._tool: str | None = None
        self._buf = ""  # text read and not yet handed on
        self._value: list[str] = []  # a held value's text before ``_buf``: read, kept
        self._sent: list[str] = []
        self._problem = ""
        self._read_again = 0  # held text read again with a new chunk (see ``work``)

    def rest(self, arguments: dict[str, Any]) -> str | None:
        final = json.dumps(arguments, ensure_ascii=False)
        sent = "".join(self._sent)
        return final[len(sent) :] if final.startswith(sent) else None

    @property
    def problem(self) -> str:
        return self._problem or super().problem

    @property
    def work(self) -> int:
        return self._read_again

    def _more(self, text: str) -> str:
        """``text`` after ``_buf``, read in steps: the JSON text they write."""
        self._read_again += len(self._buf)
        self._buf += text
        if self._tool is None:
            return ""
        out: list[str] = []
        while self._step(out):
            pass
        if not out:
            return ""
        piece = "".join(out)
        self._sent.append(piece)
        return piece

    def _step(self, out: list[str]) -> bool:
        """One step of reading ``_buf``; whether another may follow."""
        raise NotImplementedError

    def _keep(self, n: int) -> str:
        """The first ``n`` characters of ``_buf`` are a held value's: kept aside. The
        rest of ``_buf``."""
        buf = self._buf
        self._value.append(buf[:n])
        self._buf = buf = buf[n:]
        return buf

    def _kept(self, value: str) -> str:
        """``value``, the end of a held value, after what was kept of it."""
        if self._value:
            value = "".join(self._value) + value
            self._value = []
        return value


@mypyc_attr(allow_interpreted_subclasses=True)
class TaggedStream(Stepwise):
    """One tagged call's body in, the JSON text of its arguments out (see the module)."""

    __slots__ = (
        *("_blanks", "_end", "_fresh", "_idle", "_key", "_keys", "_schemas", "_spec"),
        *("_state", "_stated"),
    )

    def __init__(self, spec: Tagging, schemas: ToolSchemas) -> None:
        super().__init__()
        self._spec = spec
        self._schemas = schemas
        self._state = _OUT
        self._keys: set[str] = set()
        self._key = ""
        self._stated: str | None = None
        self._end = spec.end
        self._fresh = False  # a string value whose first character is not read yet
        # A string value's held text is a marker and blanks (``</function>   ``): more
        # blanks decide nothing, so they wait in ``_blanks`` instead of being read again.
        self._idle = False
        self._blanks: list[str] = []

    def named(self, tool: str) -> None:
        self._tool = html.unescape(tool.strip()) if self._spec.unescape else tool.strip()

    def feed(self, text: str) -> str:
        state = self._state
        if state == _STOP:
            return ""
        if self._idle:
            if not text.strip(_BLANKS):
                self._blanks.append(text)
                return ""
            self._idle = False
            text = "".join(self._blanks) + text
            self._blanks = []
        fast = state == _STRING and not self._buf and not self._fresh
        if fast and self._spec.quiet.match(text):  # (the common case: nothing to look at)
            piece = escaped(text)
            self._sent.append(piece)
            return piece
        return self._more(text)

    def _step(self, out: list[str]) -> bool:
        spec, buf = self._spec, self._buf
        if self._state == _OUT:
            found = spec.item.search(buf)
            last = buf.find(spec.until) if spec.until else -1
            if last >= 0 and (found is None or last < found.start()):  # the call's end
                self._stop("")
                return False
            if found is None:
                if len(buf) > _LIMIT:
                    self._stop("")
                return False
            key = spec.key(found.group(1))
            if key in self._keys:
                self._stop(f"the argument {key!r} is written twice")
                return False
            out.append(", " if self._keys else "{")
            out.append(json.dumps(key, ensure_ascii=False) + ": ")
            self._keys.add(key)
            self._key = key
            self._stated = found.group(2) if found.re.groups > 1 else None
            self._buf = buf[found.end() :]
            assert self._tool is not None
            self._end = spec.end
            if spec.string(self._schemas, self._tool, key, self._stated):
                self._state, self._fresh = _STRING, True
                out.append('"')
            else:
                self._state = _HOLD
                if spec.held_end is not None:
                    self._end = spec.held_end()
            return True
        if self._state == _STRING and self._fresh:
            if not buf:
                return False
            self._fresh = False
            if spec.newlines and buf.startswith("\n"):
                self._buf = buf = buf[1:]
        safe, start, end = self._end(buf, 0)
        if start < 0:
            if self._state == _STRING:
                safe = _unsure(spec, buf, safe)
                if safe:
                    out.append(escaped(buf[:safe]))
                    self._buf = buf = buf[safe:]
            elif safe:  # (a held value's part before ``safe``: kept, not read again)
                buf = self._keep(safe)
            held = buf[1:] if buf.startswith("\n") else buf
            held = held.rstrip(_BLANKS)
            self._idle = held in spec.tails or held in spec.blank_holds
            return False
        value = self._kept(buf[:start])
        if spec.newlines and value.endswith("\n"):
            value = value[:-1]
        if spec.newlines and self._state == _HOLD and value.startswith("\n"):
            value = value[1:]
        if self._state == _STRING:
            out.append(escaped(value) + '"')
        else:
            assert self._tool is not None
            try:
                typed = spec.value(self._schemas, self._tool, self._key, self._stated, value)
            except ValueError:  # the call's parse says why
                self._stop("")
                return False
            out.append(json.dumps(typed, ensure_ascii=False))
        self._buf, self._state = buf[end:], _OUT
        return True

    def _stop(self, problem: str) -> None:
        self._state, self._buf, self._problem, self._value = _STOP, "", problem, []


def _unsure(spec: Tagging, buf: str, safe: int) -> int:
    """Where the part of ``buf[:safe]`` begins that may still not be the value's: a
    call's closer at its end (then blanks), or the start of one; the newline the
    template writes after a value."""
    if spec.tails:
        cut = buf[:safe]
        kept = cut.rstrip()
        for tail in spec.tails:
            if kept.endswith(tail):
                safe = len(kept) - len(tail)
                break
        else:
            safe = spec.held.held(cut, 0)
    if spec.newlines and safe and buf[safe - 1] == "\n":
        safe -= 1
    return safe


def escaped(text: str) -> str:
    """``text`` as it is inside a JSON string."""
    return json.dumps(text, ensure_ascii=False)[1:-1]
