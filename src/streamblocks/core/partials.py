"""``BlockDelta.partial``: the object a block has written so far, computed when read.

A block whose body is an object (a tool call's argument JSON, a gadget's ``!!!ARG:``
values) gets one *source* when it starts. Emitting a delta only records the delta's
text in the source and gives the event a :class:`PartialAt` (the source and the
delta's place); nothing is parsed. Reading ``delta.partial`` advances the source's one
reader up to that place (each piece of text is read once, in order) and takes the
value there. Reading an earlier delta after a later one re-reads from the start: read
them in order.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from .partial_json import PartialJson

__all__ = ["JsonSource", "PartialAt", "Path", "Source", "source_for"]

Path = tuple[str | int, ...]
"""Keys and indexes from the top of a value down to one place in it."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Source:
    """The pieces one block has streamed, and a reader over them."""

    __slots__ = ("read_to", "reader")

    def __init__(self) -> None:
        self.read_to = 0
        self.reader: Any = None

    def add(self, text: str, path: str | None) -> PartialAt:  # pragma: no cover - abstract
        raise NotImplementedError

    def value_at(self, index: int) -> tuple[Any, Path | None]:  # pragma: no cover - abstract
        """The value after the first ``index`` deltas, and where its unfinished part is."""
        raise NotImplementedError


@mypyc_attr(allow_interpreted_subclasses=True)
class JsonSource(Source):
    """A block whose deltas are JSON text (tool-call arguments, structured output)."""

    __slots__ = ("pieces",)

    def __init__(self) -> None:
        super().__init__()
        self.pieces: list[str] = []

    def add(self, text: str, path: str | None) -> PartialAt:
        pieces = self.pieces
        pieces.append(text)
        return PartialAt(self, len(pieces))

    def value_at(self, index: int) -> tuple[Any, Path | None]:
        reader = self.reader
        if reader is None or self.read_to > index:
            reader = self.reader = PartialJson()
            self.read_to = 0
        pieces = self.pieces
        start = self.read_to
        for piece in pieces[start:index]:
            reader.feed(piece)
        self.read_to = index
        return reader.value(), reader.open_path()


class PartialAt:
    """The place of one delta in its block's :class:`Source`; the value is computed on
    first read and kept. Pickling (or copying) one keeps just the value."""

    __slots__ = ("_open", "_value", "index", "source")

    def __init__(
        self, source: Source | None, index: int, value: Any = None, open_path: Path | None = None
    ) -> None:
        self.source = source
        self.index = index
        self._value = value
        self._open = open_path

    def _read(self) -> None:
        source = self.source
        if source is not None:
            self._value, self._open = source.value_at(self.index)
            self.source = None

    @property
    def value(self) -> Any:
        """The object written up to this delta."""
        self._read()
        return self._value

    @property
    def open_path(self) -> Path | None:
        """Where the value's unfinished part is (keys and indexes from the top), or
        ``None`` when the value is complete: the typed views forgive what fails there."""
        self._read()
        return self._open

    def __reduce__(self) -> tuple[Any, ...]:
        return (PartialAt, (None, self.index, self.value, self._open))

    def __repr__(self) -> str:
        return "PartialAt(...)" if self.source is not None else f"PartialAt({self._value!r})"


def source_for(syntax: str, block_type: str, parser: Any) -> Source | None:
    """The source for a block: a native or model-markup tool call reads JSON; a line
    syntax whose parser builds an object (the gadget) gives its own."""
    if parser is None:  # (an inline or whole block: no attribute to look for)
        return JsonSource() if block_type == "tool_call" and syntax == "native" else None
    if block_type == "tool_call" and syntax == "native":
        return JsonSource()
    make = getattr(parser, "partial_source", None)
    return make() if make is not None else None
