"""``!!<id>:<type>[:<param>...]`` … ``!!end`` blocks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..core.registry import BlockType
from ..prompts import listing
from .base import (
    CONTENT,
    PENDING,
    REJECT,
    Header,
    LineParser,
    Syntax,
    TypeTable,
    Verdict,
    literal_line,
    literal_line_pattern,
)

_NAME_CHARS = r"[A-Za-z0-9_.\-]"
_OPENER = re.compile(rf"!!({_NAME_CHARS}+):({_NAME_CHARS}+)((?::[^:]*)*)")
_OPENER_PREFIX = re.compile(
    rf"!(?:!(?:{_NAME_CHARS}+(?::(?:{_NAME_CHARS}+(?::.*|\s*))?)?)?)?", re.DOTALL
)


class _PreambleBlock(LineParser):
    marker_starts = "!"

    def __init__(self, header: Header, end_marker: str) -> None:
        self.header = header
        self.started = True
        self.end_marker = end_marker
        self.closing_line = literal_line_pattern(end_marker)

    def on_line(self, line: str, complete: bool) -> Verdict:
        verdict = literal_line(line, self.end_marker, complete)
        return CONTENT if verdict is REJECT else verdict


@dataclass(frozen=True)
class DelimiterPreambleSyntax(Syntax):
    """A line ``!!<id>:<type>[:<param>...]``, content lines, a line ``!!end``.

    The markers start in the first column; trailing whitespace after them is ignored.
    The metadata mapping is ``{"id", "block_type", "params"}``; the content is the body
    text, each line keeping its newline. Ids and type names use letters, digits, ``_``,
    ``.`` and ``-``; parameters are any text between colons.
    """

    name: ClassVar[str] = "delimiter_preamble"
    starts_with: ClassVar[str | None] = "!"
    end_marker: str = "!!end"

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        if not complete:
            found = _OPENER_PREFIX.fullmatch(line)
            if found is None:
                return REJECT
            if types.unknown == "text":
                rest = line[2:].partition(":")[2]
                typed = rest.partition(":")[0].rstrip()
                if rest and typed not in types.prefixes:
                    return REJECT
            return PENDING
        found = _OPENER.fullmatch(line.rstrip())
        if found is None:
            return REJECT
        block_id, marker, tail = found.groups()
        params = tail.split(":")[1:] if tail else []
        block_type = types.resolve(marker)
        if block_type is None and types.unknown == "text":
            return REJECT
        type_name = block_type.name if block_type is not None else marker
        header = Header(
            name=marker,
            block_type=block_type,
            block_id=block_id,
            attrs={"params": params} if params else {},
            metadata={"id": block_id, "block_type": type_name, "params": params},
        )
        return _PreambleBlock(header, self.end_marker)

    def describe(self, types: Sequence[BlockType]) -> str:
        intro = (
            "You can write the following blocks, each as a line `!!<id>:<type>` (optionally "
            f"followed by `:<param>` parts), its content lines, then a line `{self.end_marker}`"
            ". Markers start a line; <id> is a short unique name (letters, digits, _ . -). "
            f"Example:\n!!n1:{types[0].marker}\n...\n{self.end_marker}\nBlock types:"
        )
        return listing(intro, types, lambda block_type: block_type.marker)
