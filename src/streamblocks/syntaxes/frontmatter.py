"""``!!start`` / ``---`` YAML frontmatter ``---`` / content / ``!!end`` blocks, and the
YAML reading shared by the frontmatter syntaxes."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from ..core.errors import ErrorCode
from ..core.registry import BlockType
from ..core.yaml_text import load_yaml_mapping
from ..prompts import listing
from .base import (
    CLOSE,
    CONTENT,
    HOLD,
    PENDING,
    REJECT,
    START,
    Header,
    LineParser,
    LineSyntax,
    OpenedBlock,
    ParseFailure,
    TypeTable,
    Verdict,
    WholeBlock,
    literal_line,
    literal_line_pattern,
    new_tuple,
    set_starts_with,
)

FRONTMATTER_FENCE = "---"
_OPENING = re.compile(r"(?:[^\S\n]*\n)*---[^\S\n]*\n")
"""What follows a start line up to the frontmatter: blank lines, then ``---``."""
FRONTMATTER_CLOSING = literal_line_pattern(FRONTMATTER_FENCE)
"""A frontmatter's closing line, with the ``"\\n"`` before it."""


def frontmatter_header(
    text: str,
    first_line: int,
    types: TypeTable,
    *,
    fallback: BlockType | None = None,
    strict: bool = False,
) -> Header | None:
    """The header a frontmatter describes, or ``None`` when it is not a block.

    ``fallback`` is the registered type named by a fence's info string: it applies when
    the frontmatter has no ``block_type`` or is malformed (the frontmatter wins when both
    name a type). Without a fallback, a malformed frontmatter or a missing
    ``block_type`` is a broken block reported when it closes when ``strict`` (``!!start``
    blocks), and not a block at all otherwise (a fence showing YAML).
    """
    try:
        mapping = load_yaml_mapping(text, "frontmatter", first_line)
    except ParseFailure as exc:
        if fallback is not None:
            return Header(fallback.marker, fallback, None, {}, {}, _failed(exc))
        return _broken(str(exc)) if strict else None
    named = mapping.get("block_type")
    if named is None:
        if fallback is not None:
            return new_tuple(Header, (fallback.marker, fallback, _id(mapping), {}, mapping, None))
        return _broken("the frontmatter has no block_type") if strict else None
    block_type = types.resolve(str(named))
    if block_type is None and types.unknown == "text":
        return None
    return new_tuple(Header, (str(named), block_type, _id(mapping), {}, mapping, None))


def _id(mapping: Mapping[str, Any]) -> str | None:
    raw_id = mapping.get("id")
    return None if raw_id is None or raw_id == "" else str(raw_id)


def _failed(exc: ParseFailure) -> tuple[ErrorCode, str]:
    return (ErrorCode.PARSE_FAILED, str(exc))


def _broken(message: str) -> Header:
    return Header("", None, None, {}, None, (ErrorCode.PARSE_FAILED, message))


@mypyc_attr(allow_interpreted_subclasses=True)
class _FrontmatterBlock(LineParser):
    """``!!start`` was read; a ``---`` line must follow, then YAML up to ``---``."""

    committed = False
    marker_starts = None  # the line after !!start must be asked: not `---` rejects

    def __init__(self, types: TypeTable, end_marker: str) -> None:
        self.types = types
        self.end_marker = end_marker
        self.lines: list[str] = []
        self.in_frontmatter = False
        self.blank_lines = 0

    def held(self, piece: str) -> None:
        self.lines.append(piece)

    def on_line(self, line: str, complete: bool) -> Verdict:
        if self.started:
            verdict = literal_line(line, self.end_marker, complete)
            return CONTENT if verdict is REJECT else verdict
        if not self.in_frontmatter:
            if not line.strip():  # blank lines may stand before the opening ---
                self.blank_lines += complete
                return HOLD if complete else PENDING
            verdict = literal_line(line, FRONTMATTER_FENCE, complete)
            if verdict is CLOSE:
                self.in_frontmatter = self.committed = True
                self.marker_starts = "-" + self.end_marker[0]
                return HOLD
            return verdict  # PENDING or REJECT
        if literal_line(line, self.end_marker, complete) is CLOSE:
            self.error = "the frontmatter was not closed with --- before " + self.end_marker
            return CLOSE
        verdict = literal_line(line, FRONTMATTER_FENCE, complete)
        if verdict is PENDING:
            return verdict
        if verdict is REJECT:
            if literal_line(line, self.end_marker, complete) is PENDING:
                return PENDING
            return HOLD
        text = "".join(self.lines)
        skip = 2 + self.blank_lines  # the start line, the blank lines, the opening ---
        at = 0
        for _ in range(skip):
            at = text.index("\n", at) + 1
        header = frontmatter_header(text[at:], skip + 1, self.types, strict=True)
        if header is None:
            return REJECT
        self.begin(header)
        return START

    def begin(self, header: Header) -> None:
        """The frontmatter is read: the block's content follows."""
        self.header = header
        self.in_frontmatter = self.committed = True
        self.marker_starts = self.end_marker[0]
        self.closing_line = literal_line_pattern(self.end_marker)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class DelimiterFrontmatterSyntax(LineSyntax):
    """A line ``!!start``, a YAML frontmatter between ``---`` lines (with ``id`` and
    ``block_type``), content lines, a line ``!!end``.

    Blank lines may stand between ``!!start`` and the opening ``---``. The block starts
    when the frontmatter's closing ``---`` arrives; the whole frontmatter mapping is the
    metadata. ``!!start`` not followed by ``---`` is text. ``delimiter`` (default
    ``"!!"``) is the prefix of both markers: ``delimiter="@@"`` reads ``@@start`` …
    ``@@end``.
    """

    start_marker: str = "!!start"
    end_marker: str = "!!end"
    delimiter: str = "!!"

    def __post_init__(self) -> None:
        delimiter = self.delimiter
        if not isinstance(delimiter, str) or not delimiter or any(c.isspace() for c in delimiter):
            raise ValueError(f"delimiter must be text with no whitespace, got {delimiter!r}")
        if delimiter != "!!":
            if self.start_marker == "!!start":
                object.__setattr__(self, "start_marker", delimiter + "start")
            if self.end_marker == "!!end":
                object.__setattr__(self, "end_marker", delimiter + "end")
        # the scanner offers this syntax the lines starting like its start marker
        set_starts_with(self, self.start_marker[0])

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        verdict = literal_line(line, self.start_marker, complete)
        if verdict is CLOSE:
            return _FrontmatterBlock(types, self.end_marker)
        return verdict

    def read_whole(
        self, text: str, start: int, line_end: int, types: TypeTable
    ) -> WholeBlock | OpenedBlock | Verdict | None:
        line = text[start:line_end]
        if (
            literal_line(line[:-1] if line[-1:] == "\r" else line, self.start_marker, True)
            is not CLOSE
        ):
            return REJECT
        opened = _OPENING.match(text, line_end + 1)
        if opened is None:
            return None
        at = opened.end()
        closed = FRONTMATTER_CLOSING.search(text, at - 1)
        if closed is None:
            return None
        end_line = literal_line_pattern(self.end_marker)
        if end_line.search(text, at - 1, closed.start() + 1) is not None:
            return None  # (the end marker inside the frontmatter: a broken block)
        body = closed.end()
        ended = end_line.search(text, body - 1)
        skip = text.count("\n", line_end, at)  # (the start line, blank lines, ---)
        header = frontmatter_header(text[at : closed.start() + 1], skip + 1, types, strict=True)
        if header is None:
            return None
        if ended is None:  # (the content runs on: the block starts with its frontmatter)
            parser = _FrontmatterBlock(types, self.end_marker)
            parser.started = True
            parser.blank_lines = skip - 2
            parser.begin(header)
            return new_tuple(OpenedBlock, (parser, body))
        return new_tuple(WholeBlock, (header, body, ended.start() + 1, ended.end()))

    def describe(self, types: Sequence[BlockType]) -> str:
        intro = (
            f"You can write the following blocks, each as a line `{self.start_marker}`, a YAML "
            "frontmatter between two `---` lines with `id` and `block_type`, the content "
            f"lines, then a line `{self.end_marker}`. Example:\n{self.start_marker}\n---\n"
            f"id: b1\nblock_type: {types[0].marker}\n---\n...\n{self.end_marker}\n"
            "Block types:"
        )
        return listing(intro, types, lambda block_type: block_type.marker)


# Class attributes set after the class: mypyc would make a dataclass field of a
# ClassVar written in the class body.
DelimiterFrontmatterSyntax.name = "delimiter_frontmatter"
