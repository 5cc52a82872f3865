"""A gadget's ``BlockDelta.partial`` and its arguments' JSON text, read as its deltas
arrive, each piece once.

A gadget records its deltas in a log (:class:`GadgetSource`): ``("", pointer)`` when an
``!!!ARG:`` line begins a value, ``(text, pointer)`` for the value's text. Two readers
follow the log, and both keep what they built and extend it with each new piece:

* the source's own, for ``partial``: the object of the finished values is built once,
  value by value (copying only the containers on the way to a new value that an earlier
  partial holds); the value being written is judged by counts kept as it grows (its
  newlines, its first and last characters), its text joined only when a read shows it;
* :class:`~streamblocks.syntaxes.gadget_json.GadgetJson`, for AG-UI's tool-call
  arguments: the JSON text that :func:`~streamblocks.core.json_prefix.json_prefix` of
  each delta's partial adds to the one before, worked out from the new piece alone (a
  growing value's new characters, escaped) and, when a value begins, from the place
  it takes.

So the AG-UI output, which writes the arguments on every delta, takes time linear in
the gadget's length; a reader of every ``partial`` pays for each read the widths of the
containers on the way to the unfinished value and that value's text so far (as for a
JSON call's partials), never a rebuild of the object.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress
from typing import Any

from mypy_extensions import mypyc_attr

from ..core.partials import PartialAt, Path, Source
from ..core.registry import BlockType
from .arguments import Options, child_options, insert, normalize_pointer, split_pointer, value_of
from .base import ParseFailure

__all__ = ["GadgetSource", "OpenValue", "follow", "replace"]

_LITERALS = ("true", "false", "null")


@mypyc_attr(allow_interpreted_subclasses=True)
class OpenValue:
    """The text of the value being written, in pieces, and what decides what it is."""

    __slots__ = ("head", "keys", "newlines", "pieces", "pointer", "size", "tail", "unsent")

    def __init__(self, pointer: str) -> None:
        self.pointer = pointer
        self.pieces: list[str] = []
        self.size = 0
        self.newlines = 0
        self.head = ""  # its first characters (up to 5: the longest literal)
        self.tail = ""  # its last two characters
        self.unsent = ""  # (GadgetJson) text after the part of it sent
        self.keys: list[str | int] | None = None  # where it was put, once finished

    def add(self, text: str) -> None:
        self.pieces.append(text)
        self.size += len(text)
        self.newlines += text.count("\n")
        if len(self.head) < 5:
            self.head = (self.head + text)[:5]
        self.tail = (self.tail + text)[-2:]

    def text(self) -> str:
        pieces = self.pieces
        if len(pieces) > 1:
            pieces[:] = ["".join(pieces)]  # (the next join takes only what came since)
        return pieces[0] if pieces else ""

    def stable(self) -> int:
        """How much of the text is the value's, when the value is text: all but a last
        newline and a ``\\r`` before it (or last)."""
        size, tail = self.size, self.tail
        if tail.endswith("\n"):
            size -= 1
            tail = tail[:-1]
        return size - 1 if tail.endswith("\r") else size

    def shown(self) -> bool:
        """Whether the unfinished value is in the partial object: once it has a newline,
        or when it can only be text (not a number, ``true``/``false``/``null`` or JSON
        so far)."""
        if self.newlines:
            return True
        head = self.head
        if not head or head[0] in "-0123456789[{":
            return False
        return not (self.size <= 5 and any(word.startswith(head) for word in _LITERALS))

    def lines(self, finished: bool) -> tuple[list[str], Any]:
        """What :func:`~.arguments.insert` takes for the value: its lines, or the text
        itself when it is certainly text (several lines; or, unfinished and shown, one
        line without its newline yet). ``(lines, None)`` for a line the schema types."""
        newline_last = self.tail.endswith("\n")
        several = self.newlines - newline_last > 0
        if several or (not finished and not self.newlines):
            return [], self.text()[: self.stable()]
        text = self.text()
        return [text[:-1] if newline_last else text], None


@mypyc_attr(allow_interpreted_subclasses=True)
class GadgetSource(Source):
    """``BlockDelta.partial`` of a gadget: the argument object built from the pointers
    read so far. A value is complete once the next ``!!!ARG:`` line is read; the one
    being written is in the object when it can only be text (several lines, or a
    line that cannot become a number, ``true``/``false``/``null`` or JSON), or once
    its line is complete (``15`` is ``15`` after its newline; should more lines
    follow, it becomes text: the one place a gadget's partial changes a value). Pointers
    that conflict hold the object of the ones before the first conflict. Each read is a
    new object; the finished values in it are shared with earlier reads (treat a
    partial as read-only)."""

    __slots__ = ("block_type", "broken", "done", "finished", "log", "pairs")

    def __init__(self, block_type: BlockType | None) -> None:
        super().__init__()
        self.block_type = block_type  # (a snapshot writes it as a reference)
        self.log: list[tuple[str, str | None]] = []  # ("", path) begins, (text, path) adds
        self.done: dict[str, Any] = {}  # the object of the finished values read
        self.broken = False  # a finished value conflicted: nothing more is added
        self.pairs: list[OpenValue] = []  # the values begun, in order
        self.finished = 0  # how many of them are in ``done`` (all but the last)

    def begin(self, path: str) -> None:
        self.log.append(("", path))

    def add(self, text: str, path: str | None) -> PartialAt:
        log = self.log
        log.append((text, path))
        return PartialAt(self, len(log))

    def top(self) -> Options:
        model = self.block_type.content if self.block_type is not None else None
        return (model,) if model is not None else None

    def value_at(self, index: int) -> tuple[Any, Path | None]:
        if self.read_to > index:  # (an earlier delta read after a later one: start again)
            self.read_to, self.done, self.broken, self.pairs, self.finished = 0, {}, False, [], 0
        owned: set[int] = set()  # containers made by this read, not handed out yet
        top = self.top()
        pairs = self.pairs
        for pair, _ in follow(self.log, self.read_to, index, pairs):
            if pair.keys is not None:  # (finished already: a line of it came late)
                lines, given = pair.lines(finished=True)
                replace(self._own(owned), pair.keys, pair.pointer, lines, top, owned, given)
        self.read_to = index
        while self.finished < len(pairs) - 1:
            self._finish(pairs[self.finished], owned, top)
            self.finished += 1
        value = pairs[-1] if pairs else None
        partial = self.done.copy()
        if value is not None and not self.broken and value.shown():
            lines, given = value.lines(finished=False)
            with suppress(ParseFailure):  # (else the object of the values before it)
                insert(partial, value.pointer, lines, top, {id(partial)}, given)
        return partial, _open(value.pointer) if value is not None else None

    def _own(self, owned: set[int]) -> dict[str, Any]:
        """``done``, copied first when an earlier read holds it."""
        done = self.done
        if id(done) not in owned:
            done = self.done = done.copy()
            owned.add(id(done))
        return done

    def _finish(self, value: OpenValue, owned: set[int], top: Options) -> None:
        """A value is complete (another began after it): into ``done``."""
        if self.broken:
            return
        lines, given = value.lines(finished=True)
        try:
            value.keys = insert(self._own(owned), value.pointer, lines, top, owned, given)[0]
        except ParseFailure:
            self.broken = True


def follow(
    log: list[tuple[str, str | None]], start: int, stop: int, pairs: list[OpenValue]
) -> Iterator[tuple[OpenValue, str]]:
    """Read ``log[start:stop]`` into ``pairs`` (the values begun, in order), entry by
    entry: a value begins, or text is added to the value it belongs to, which is then
    given with that text (the reader may stop there)."""
    for text, path in log[start:stop]:
        if not text:
            pairs.append(OpenValue(path or ""))
            continue
        pair = _pair_of(pairs, path)
        if pair is not None:
            pair.add(text)
            yield pair, text


def _pair_of(pairs: list[OpenValue], path: str | None) -> OpenValue | None:
    """The value a delta's text belongs to: the last begun with its pointer (a chunk
    may show the next ``!!!ARG:`` line before the end of the value above it)."""
    for pair in reversed(pairs):
        if pair.pointer == path:
            return pair
    return None


def replace(
    root: dict[str, Any],
    keys: list[str | int],
    pointer: str,
    lines: list[str],
    top: Options,
    owned: set[int],
    given: str | None = None,
) -> None:
    """Put the value of ``pointer`` again at ``keys``, where :func:`insert` put it (its
    text grew), copying the containers on the way that are not ``owned``."""
    node: Any = root
    schema = top
    for depth, token in enumerate(split_pointer(normalize_pointer(pointer))):
        schema = child_options(schema, token)
        key = keys[depth]
        if depth == len(keys) - 1:
            node[key] = value_of(lines, schema) if given is None else given
            return
        child = node[key]
        if id(child) not in owned:
            child = node[key] = child.copy()
            owned.add(id(child))
        node = child


def _open(pointer: str) -> Path | None:
    """The place of the value being written (a gadget never knows it is complete)."""
    try:
        tokens = split_pointer(pointer)
    except ParseFailure:
        return None
    return tuple(int(t) if t.isdigit() and (t == "0" or t[0] != "0") else t for t in tokens)
