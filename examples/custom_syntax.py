"""A block syntax of your own: ``@@ <type> <title>`` … ``@@``.

Run it: ``python examples/custom_syntax.py``. The session does the buffering, events,
limits and validation; the syntax only says what each line is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from streamblocks import Block, BlockEnd, BlockRegistry, StreamBlockProcessor
from streamblocks.core.registry import BlockType
from streamblocks.prompts import listing
from streamblocks.syntaxes import (
    Header,
    LineParser,
    Syntax,
    TypeTable,
    Verdict,
    literal_line,
    literal_line_pattern,
)

OPENER = re.compile(r"@@ ([A-Za-z]+)(?: (.*))?")


class AtBlock(LineParser):
    """One open ``@@`` block: every line is content until a bare ``@@``."""

    started = True
    marker_starts = "@"  # only lines starting with "@" can close the block
    closing_line = literal_line_pattern("@@")  # found with one search

    def __init__(self, header: Header) -> None:
        self.header = header

    def on_line(self, line: str, complete: bool) -> Verdict:
        verdict = literal_line(line, "@@", complete)  # CLOSE, PENDING or REJECT
        return Verdict.CONTENT if verdict is Verdict.REJECT else verdict


@dataclass(frozen=True)
class AtSyntax(Syntax):
    name: ClassVar[str] = "at"
    starts_with: ClassVar[str | None] = "@"

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        if not complete:  # hold "@", "@@", "@@ no…" while they could still open a block
            return Verdict.PENDING if "@@ ".startswith(line[:3]) else Verdict.REJECT
        found = OPENER.fullmatch(line.rstrip())
        block_type = types.resolve(found.group(1)) if found else None
        if found is None or block_type is None:
            return Verdict.REJECT  # not a block: the line stays visible text
        title = found.group(2) or ""
        return AtBlock(Header(found.group(1), block_type, None, {}, {"title": title}))

    def describe(self, types: Sequence[BlockType]) -> str:
        intro = "Write blocks as a line `@@ <type> <title>`, the content, then a line `@@`:"
        return listing(intro, types, lambda block_type: block_type.marker)


def demo() -> list[Block]:
    registry = BlockRegistry()
    registry.register("note", syntax=AtSyntax(), description="Something to remember.")
    processor = StreamBlockProcessor(registry, input_adapter=None)
    reply = "Noted.\n@@ note Shopping\nmilk\neggs\n@@\nAnything else?"
    events = processor.process(reply[i : i + 3] for i in range(0, len(reply), 3))
    return [event.block for event in events if isinstance(event, BlockEnd)]


if __name__ == "__main__":
    for block in demo():
        print(block.type, block.metadata, repr(block.content))
