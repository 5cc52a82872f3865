"""An inline syntax of your own: ``[[cite:SOURCE]]quoted text[[/cite]]``, anywhere in a line.

Run it: ``python examples/cite_syntax.py``. Written only against the inline-syntax
protocol (:mod:`streamblocks.core.syntax`): the scanner finds the opener ``[[cite:`` in
visible text, hands the reader every character from there on, once, in order, and the
reader says what each one is. The block's content is an object: the source and the
quote.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from streamblocks import BlockEnd, BlockRegistry, ErrorCode, StreamBlockProcessor
from streamblocks.core.registry import BlockType, TypeTable
from streamblocks.core.syntax import (
    GO_ON,
    NOT_MINE,
    Header,
    InlineOut,
    InlineReader,
    InlineSyntax,
)
from streamblocks.prompts import listing

OPENER, SOURCE_END, CLOSER = "[[cite:", "]]", "[[/cite]]"


class CiteReader(InlineReader):
    """One ``[[cite:…]]…[[/cite]]``: the source up to ``]]``, then the quote up to the
    first ``[[/cite]]``. Kept between chunks: the phase, the source and quote read so
    far, and how much of the closer has been seen (held, not attributed yet)."""

    def __init__(self, types: TypeTable) -> None:
        self.types = types
        self.skip = len(OPENER)  # opener characters still to pass over
        self.source: list[str] = []
        self.brackets = 0  # "]" seen after the source
        self.quote: list[str] | None = None  # set once the block has started
        self.matched = 0  # characters of CLOSER seen and held

    def read(self, text: str, start: int, stop: int, out: InlineOut) -> int:
        i = start
        if self.skip:
            taken = min(self.skip, stop - i)
            self.skip, i = self.skip - taken, i + taken
        while i < stop and self.quote is None:  # the source
            char = text[i]
            i += 1
            if char == "]":
                self.brackets += 1
                if self.brackets == len(SOURCE_END) and not self._start(out):
                    return NOT_MINE
            elif self.brackets or char in "[\n":  # "]x", a bracket or a line break
                return NOT_MINE  # prose, not a citation
            else:
                self.source.append(char)
        while i < stop:  # the quote
            if not self.matched:  # quote text up to a possible closer, in one piece
                at = text.find("[", i, stop)
                end = stop if at < 0 else at
                self._quote(out, text[i:end])
                if at < 0:
                    return GO_ON
                i = at
            while self.matched and text[i] != CLOSER[self.matched]:
                # not the closer: hand back the held characters that cannot begin it
                held = CLOSER[: self.matched]
                shift = next(k for k in range(1, len(held) + 1) if CLOSER.startswith(held[k:]))
                self._quote(out, held[:shift])
                self.matched -= shift
            if text[i] == CLOSER[self.matched]:
                self.matched += 1
                if self.matched == len(CLOSER):
                    out.marker(len(CLOSER))
                    out.end({"source": self._source(), "quote": "".join(self.quote or [])})
                    return i + 1
            else:
                self._quote(out, text[i])
            i += 1
        return GO_ON

    def _source(self) -> str:
        return "".join(self.source).strip()

    def _start(self, out: InlineOut) -> bool:
        block_type = self.types.resolve("cite")
        if not self._source() or block_type is None:
            return False
        out.marker(len(OPENER) + len("".join(self.source)) + len(SOURCE_END))
        out.start(Header("cite", block_type, None, {"source": self._source()}, None))
        self.quote = []
        return True

    def _quote(self, out: InlineOut, text: str) -> None:
        if text:
            out.content(len(text))
            assert self.quote is not None
            self.quote.append(text)

    def close(self, out: InlineOut, stop_reason: object) -> None:
        if out.block_open:  # a closer cut off by the end is quote text
            self._quote(out, CLOSER[: self.matched])
            out.fail(ErrorCode.UNCLOSED, "the stream ended inside [[cite:…]] before [[/cite]]")


@dataclass(frozen=True)
class CiteSyntax(InlineSyntax):
    """``[[cite:SOURCE]]quote[[/cite]]`` anywhere in visible text; the block's content is
    ``{"source": …, "quote": …}``."""

    name: ClassVar[str] = "cite"

    def openers(self, types: TypeTable) -> Sequence[str]:
        return (OPENER,)

    def reader(self, opener: str, types: TypeTable) -> InlineReader:
        return CiteReader(types)

    def describe(self, types: Sequence[BlockType]) -> str:
        intro = "Cite a source inline as [[cite:SOURCE]]quoted text[[/cite]]:"
        return listing(intro, types, lambda block_type: block_type.marker)


def demo() -> list[Any]:
    registry = BlockRegistry()
    registry.register("cite", syntax=CiteSyntax(), description="A quoted source.")
    processor = StreamBlockProcessor(registry, input_adapter=None)
    reply = "As [[cite:RFC 9110]]a request method token[[/cite]] says, GET is safe."
    events = processor.process(reply[i : i + 3] for i in range(0, len(reply), 3))
    return [event.block for event in events if isinstance(event, BlockEnd)]


if __name__ == "__main__":
    for block in demo():
        print(block.type, block.attrs, block.content)
