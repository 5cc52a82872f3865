"""AG-UI's tool-call arguments of a gadget, written as its deltas arrive: the JSON text
that :func:`~streamblocks.core.json_prefix.json_prefix` of each delta's ``partial``
adds to the one before, worked out from the log of :class:`.gadget_partial.GadgetSource`
without building the partials (see :mod:`.gadget_partial`)."""

from __future__ import annotations

import json
from typing import Any

from mypy_extensions import mypyc_attr

from .arguments import Options, insert
from .base import ParseFailure
from .gadget_partial import GadgetSource, OpenValue, follow, replace

__all__ = ["GadgetJson"]


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _escaped(text: str) -> str:
    return _dumps(text)[1:-1]


def _key(key: str | int, container: type) -> str:
    return _dumps(key) + ": " if container is dict else ""


def _opener(container: type) -> str:
    return "{" if container is dict else "["


def _more(out: list[str], value: OpenValue) -> None:
    """What a value written as text added since it was last sent (all but the newline
    or ``\r`` at its end, which may not be the value's)."""
    unsent = value.unsent
    keep = len(unsent) - (value.size - value.stable())
    if keep > 0:
        out.append(_escaped(unsent[:keep]))
        value.unsent = unsent[keep:]


def _at(root: Any, keys: list[str | int]) -> tuple[list[type], Any]:
    """The classes of the containers on the way to ``keys`` in ``root``, and the value."""
    kinds: list[type] = []
    node = root
    for key in keys:
        kinds.append(node.__class__)
        node = node[key]
    return kinds, node


@mypyc_attr(allow_interpreted_subclasses=True)
class GadgetJson:
    """The JSON text of a gadget's arguments as its deltas arrive (AG-UI's
    ``TOOL_CALL_ARGS``): :meth:`advance` gives what ``json_prefix`` of the delta's
    ``partial`` adds to the text given before, without building the partial. The text
    ends inside the last value written: a string left open, a number, ``true``,
    ``false`` or ``null`` left out with its key until a value follows it. A value that
    goes back into an object already written (``a/x``, ``b``, ``a/y``) or conflicts
    stops the text, as the partial's would."""

    __slots__ = (
        *("at", "chain", "finished", "first", "kinds", "leaf", "leaf_value", "owner", "pairs"),
        *("passed", "root", "work"),
    )

    def __init__(self) -> None:
        self.at = 0  # the log read so far
        self.root: dict[str, Any] = {}  # the object of the finished values
        self.pairs: list[OpenValue] = []  # the values begun, in order
        self.finished = 0  # how many of them are written out (all but the last)
        self.chain: list[str | int] = []  # the place of the last value written
        self.kinds: list[type] = []  # the containers on the way to it
        self.leaf = ""  # "text" (its string left open), "scalar" (left out), "stop"
        self.leaf_value: Any = None
        self.first = True  # it is the first item of its container
        self.owner: OpenValue | None = None  # the value written last
        self.passed: OpenValue | None = None  # an unfinished value whose place conflicts
        self.work = 0  # characters read and joined, for the linear-work tests

    def advance(self, source: GadgetSource, index: int) -> str | None:
        """The text added by the deltas up to ``index`` (a ``PartialAt.index``); ``None``
        when a value this does not follow came (an object or array value, typed by
        the schema): the caller compares ``json_prefix`` of the partials from then on."""
        out: list[str] = [] if self.at else ["{"]
        top = source.top()
        pairs = self.pairs
        for value, text in follow(source.log, self.at, index, pairs):
            self.work += len(text)
            if value.keys is not None and self.leaf != "stop":  # (finished: text came late)
                if (
                    value is not self.owner
                    or self.leaf != "text"
                    or not self._text_still(value, top)
                ):
                    return None  # (a value written out before changes)
                value.unsent += text
                _more(out, value)
            elif self.owner is value and self.leaf == "text":
                value.unsent += text
        self.at = index
        while self.finished < len(pairs) - 1 and self.leaf != "stop":
            if not self._finish(out, top, pairs[self.finished]):
                return None
            self.finished += 1
        last = pairs[-1] if pairs else None
        if last is not None and self.leaf != "stop" and last.shown():
            if self.owner is last and self.leaf == "text":
                _more(out, last)
            elif self.passed is not last and not self._show(out, top, last):
                return None
        return "".join(out)

    def _finish(self, out: list[str], top: Options, value: OpenValue) -> bool:
        """A value is complete (another began after it): written out."""
        self.work += value.size  # (its text joined)
        lines, given = value.lines(finished=True)
        try:
            keys, created = insert(self.root, value.pointer, lines, top, None, given)
        except ParseFailure:
            self.leaf = "stop"
            return True
        value.keys = keys
        kinds, shown = _at(self.root, keys)
        return self._display(out, value, keys, created, kinds, shown)

    def _text_still(self, value: OpenValue, top: Options) -> bool:
        """Whether a finished value written as text is text still, its text longer."""
        keys = value.keys
        assert keys is not None
        if value.newlines - value.tail.endswith("\n") > 0:
            return True  # (several lines)
        self.work += value.size  # (its text joined)
        lines, given = value.lines(finished=True)
        replace(self.root, keys, value.pointer, lines, top, set(), given)
        return _at(self.root, keys)[1].__class__ is str

    def _show(self, out: list[str], top: Options, value: OpenValue) -> bool:
        """The unfinished value shows (or shows as something else): where it goes (put
        in the object to see, and taken out again)."""
        root = self.root
        self.work += value.size  # (its text joined)
        lines, given = value.lines(finished=False)
        try:
            keys, created = insert(root, value.pointer, lines, top, None, given)
        except ParseFailure:
            self.passed = value  # (not in the partial either, until it is finished)
            return True
        kinds, shown = _at(root, keys)
        holder = _at(root, keys[:created])[1]
        if holder.__class__ is dict:
            del holder[keys[created]]
        else:
            holder.pop()
        return self._display(out, value, keys, created, kinds, shown)

    def _display(
        self,
        out: list[str],
        value: OpenValue,
        keys: list[str | int],
        created: int,
        kinds: list[type],
        shown: Any,
    ) -> bool:
        """``value`` is ``shown`` at ``keys`` (made from depth ``created`` on)."""
        cls = shown.__class__
        if cls is dict or cls is list:
            return False
        if self.owner is value:  # (already there: text growing, or a number become text)
            if self.leaf == "text":
                if cls is not str:
                    return False
                _more(out, value)
                return True
            if cls is str:
                out.append(("" if self.first else ", ") + _key(keys[-1], kinds[-1]))
                self._text(out, value, shown)
            else:
                self.leaf_value = shown
            return True
        chain = self.chain
        if chain and (len(chain) <= created or keys[:created] != chain[:created]):
            self.leaf = "stop"  # (it goes into an object already written)
            return True
        if chain:  # the value before is followed: write it out, close its containers
            if self.leaf == "text":
                out.append('"')
            else:
                out.append(("" if self.first else ", ") + _key(chain[-1], self.kinds[-1]))
                out.append(_dumps(self.leaf_value))
            out.extend("}" if kind is dict else "]" for kind in self.kinds[created + 1 :][::-1])
        first = not chain
        if created < len(keys) - 1:  # containers made for it: shown open
            out.append(("" if first else ", ") + _key(keys[created], kinds[created]))
            for depth in range(created + 1, len(keys) - 1):
                out.append(_opener(kinds[depth]) + _key(keys[depth], kinds[depth]))
            out.append(_opener(kinds[-1]))
            first = True
        self.chain, self.kinds, self.first, self.owner = keys, kinds, first, value
        if cls is str:
            out.append(("" if first else ", ") + _key(keys[-1], kinds[-1]))
            self._text(out, value, shown)
        else:
            self.leaf, self.leaf_value = "scalar", shown
        return True

    def _text(self, out: list[str], value: OpenValue, text: str) -> None:
        """The value's string opens, as far as it is written."""
        out.append('"' + _escaped(text))
        self.leaf = "text"
        held = value.size - value.stable()
        value.unsent = value.tail[len(value.tail) - held :] if held else ""
