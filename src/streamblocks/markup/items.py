"""A JSON array of calls (Mistral's ``[TOOL_CALLS][{…}, {…}]``) read item by item, so
that every call of it starts once its name shows and streams its arguments as written,
not only the first.

The first item reads as any body does. From its end on, each next item is followed
here: once its name shows, the call before it ends (its item parsed alone) and the new
one starts with the item's text so far. A broken item stops this: the rest is the open
call's ``raw`` and the array's parse at its end says why.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from ..core.json_values import loads
from .arguments import _OBJECT_STOP, _STRING_STOP, ArgumentStream
from .grammar import KEYED_ARGUMENTS, KEYED_NEEDS, Call
from .head import add_text

if TYPE_CHECKING:
    from .body import CallBody
    from .reader import Reader

_NAME = re.compile(r'\A\{\s*"name"\s*:\s*"([^"\\]+)"')
_NAME_SO_FAR = re.compile(r'\{\s*(?:"(?:n(?:a(?:m(?:e(?:"\s*(?::\s*(?:"[^"\\]*)?)?)?)?)?)?)?)?')
"""A head that may still become one :data:`_NAME` matches."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Items:
    """Where the array's text is: outside its items, in one, or at one's end."""

    __slots__ = (
        *("broken", "depth", "done", "ended", "escape", "item", "later", "named", "seeking"),
        *("string", "text"),
        "work",
    )

    def __init__(self, item: Callable[[Any], Call]) -> None:
        self.item = item  # reads one parsed item into its call
        self.depth = 0
        self.string = False
        self.escape = False
        self.text: list[str] = []  # the open item's text
        self.later = False  # past the first item
        self.named = False  # the open later item's call has started
        self.seeking = True  # the open later item's head may still begin with its name
        self.done: Call | None = None  # the closed item's call, until the next starts
        self.ended = 0  # calls ended before the array's end
        self.broken = ""  # why the items are no longer followed
        self.work = 0  # characters of held heads joined again (see CallBody.spent)

    def split(self, text: str) -> list[tuple[str, str]]:
        """``text`` cut into ``("out", s)`` (between items), ``("in", s)`` (an item's
        text) and ``("close", "")`` (the item just given ended)."""
        out: list[tuple[str, str]] = []
        i, start, n = 0, 0, len(text)
        while i < n:
            if self.escape:
                self.escape = False
                i += 1
                continue
            found = (_STRING_STOP if self.string else _OBJECT_STOP).search(text, i)
            if found is None:
                break
            c, at, i = found.group(), found.start(), found.end()
            if self.string:
                self.escape = c == "\\"
                self.string = c != '"'
            elif c == '"':
                self.string = True
            elif c in "{[":
                self.depth += 1
                if self.depth == 2 and at > start:  # an item opens
                    out.append(("out", text[start:at]))
                    start = at
            else:
                self.depth -= 1
                if self.depth == 1:
                    out += [("in", text[start:i]), ("close", "")]
                    start = i
        if start < n:
            out.append(("in" if self.depth >= 2 else "out", text[start:]))
        return out


def add_items(r: Reader, body: CallBody, items: Items, text: str) -> None:
    """Read ``text`` of an array body item by item."""
    for kind, piece in items.split(text):
        if items.broken:
            add_text(r, body, piece)
        elif kind == "close":
            _closed(r, body, items)
        elif kind == "out" or not items.later:
            if kind == "in":
                items.text.append(piece)
            add_text(r, body, piece)
        elif items.named:
            items.text.append(piece)
            add_text(r, body, piece)
        else:  # the head of a later item: held until its name shows
            items.text.append(piece)
            body.add(piece)
            if items.seeking and '"' in piece:  # (a name shows with its closing quote)
                head = "".join(items.text)
                items.work += len(head)
                found = _NAME.match(head)
                if found is not None:
                    _next(r, body, items, found.group(1))
                elif _NAME_SO_FAR.fullmatch(head) is None:
                    items.seeking = False  # the name is not the first key: read at the end


def _closed(r: Reader, body: CallBody, items: Items) -> None:
    try:
        call = items.item(loads("".join(items.text)))
    except (ValueError, RecursionError) as exc:
        stop(r, items, str(exc))
        return
    if items.later and not items.named:
        _next(r, body, items, call.name)
        if items.broken:
            return
    elif not r.sink.started:  # the first item, its name written after its arguments
        r.sink.start("tool_call", {"name": call.name})
        body.arguments.named(call.name)
        if body.held:
            r.sink.out.append(("args", body.held))
            body.held = ""
    items.done, items.text, items.seeking = call, [], True
    items.later, items.named, body.named = True, False, True


def _next(r: Reader, body: CallBody, items: Items, name: str) -> None:
    """The call before ends, the open item's starts."""
    done, sink = items.done, r.sink
    assert done is not None
    rest = body.arguments.rest(done.arguments)
    if rest is None:
        stop(r, items, body.arguments.problem)
        return
    attrs: dict[str, Any] = {"name": done.name}
    if done.call_id is not None:
        attrs["id"] = done.call_id
    if not sink.started:
        sink.start("tool_call", {"name": done.name})
    if body.held or rest:
        sink.out.append(("args", body.held + rest))
    sink.out.append(("end", done.arguments, attrs))
    sink.started, body.held = False, ""
    items.ended += 1
    items.named = True
    head = "".join(items.text)
    sink.mark(head)
    sink.start("tool_call", {"name": name})
    body.arguments = stream = ArgumentStream(KEYED_ARGUMENTS, KEYED_NEEDS)
    stream.named(name)
    arguments = stream.feed(head)
    if arguments:
        sink.out.append(("args", arguments))


def stop(r: Reader, items: Items, why: str) -> None:
    """Follow the items no further."""
    release(r, items)
    items.broken = why or "an item does not read"


def release(r: Reader, items: Items) -> None:
    """A later item's head held until its name shows is the open call's ``raw``."""
    if items.later and not items.named and not items.broken:
        r.sink.mark("".join(items.text))
        items.text = []
