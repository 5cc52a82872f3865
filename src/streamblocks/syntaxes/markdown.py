"""Fenced code blocks that carry a block: a registered info string, or a YAML
frontmatter naming a registered ``block_type`` as the fence's first lines."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from ..core.registry import BlockType
from ..prompts import listing
from .base import (
    CLOSE,
    CONTENT,
    HOLD,
    PENDING,
    REJECT,
    START,
    VERBATIM,
    Header,
    LineParser,
    LineSyntax,
    OpenedBlock,
    TypeTable,
    Verdict,
    WholeBlock,
    literal_line,
    new_tuple,
    set_starts_with,
)
from .fences import (
    FENCE_STARTS,
    Fence,
    ShownFence,
    closing_fence,
    closing_fence_pattern,
    fence_prefix,
    opening_fence,
)
from .frontmatter import FRONTMATTER_CLOSING, FRONTMATTER_FENCE, frontmatter_header

_FIRST, _FRONTMATTER = 0, 1
_FRONTMATTER_OPENING = re.compile(r"---[^\S\n]*\n")
"""A frontmatter's opening line (what :func:`literal_line` takes for ``---``)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class _FenceBlock(LineParser):
    """An opening fence was read; the next line says whether a frontmatter follows."""

    marker_starts = None

    def __init__(self, fence: Fence, types: TypeTable, info_type: BlockType | None) -> None:
        self.fence = fence
        self.types = types
        self.info_type = info_type
        self.committed = info_type is not None
        self.phase = _FIRST
        self.attrs: dict[str, Any] = {"info": fence.info} if fence.info else {}
        self.lines: list[str] = []

    def held(self, piece: str) -> None:
        self.lines.append(piece)

    def on_line(self, line: str, complete: bool) -> Verdict:
        closing = closing_fence(line, self.fence, complete)
        if self.started:
            if closing is REJECT:
                return CONTENT
            return closing
        frontmatter = literal_line(line, FRONTMATTER_FENCE, complete)
        if PENDING in (closing, frontmatter):
            return PENDING
        if closing is CLOSE:
            return self._without_frontmatter(then=CLOSE)
        if self.phase == _FIRST:
            if frontmatter is CLOSE:
                self.phase = _FRONTMATTER
                self.marker_starts = "-" + FENCE_STARTS
                return HOLD
            return self._without_frontmatter(then=CONTENT)
        if frontmatter is not CLOSE:
            return HOLD
        held = "".join(self.lines)
        body = held[held.index("\n", held.index("\n") + 1) + 1 :]
        header = frontmatter_header(body, 3, self.types, fallback=self.info_type)
        if header is None:
            return self._shown(closed=False)
        self.begin(header._replace(attrs=self.attrs), None)
        return START

    def _without_frontmatter(self, then: Verdict) -> Verdict:
        info_type = self.info_type
        if info_type is None:
            return self._shown(closed=then is CLOSE)
        self.begin(Header(info_type.marker, info_type, None, self.attrs, None), then)
        return START

    def begin(self, header: Header, then: Verdict | None) -> None:
        """The header is read (``then``: what the current line is, see ``START``)."""
        self.header = header
        self.opener_lines = 1
        self.then = then
        self.marker_starts = FENCE_STARTS
        self.closing_line = closing_fence_pattern(self.fence.char, self.fence.length)

    def _shown(self, closed: bool) -> Verdict:
        self.continuation = None if closed else ShownFence(self.fence)
        return VERBATIM

    def on_end(self) -> Verdict:
        if self.started or self.committed:
            return CLOSE
        return VERBATIM

    def on_overflow(self) -> Verdict:
        return self._shown(closed=False)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class MarkdownFrontmatterSyntax(LineSyntax):
    """A fenced code block (CommonMark fence rules) that is a block when its
    frontmatter's ``block_type`` or, failing that, its info string names a registered
    type. Every other fence stays visible text, and no marker inside it is recognised.

    An optional YAML frontmatter between ``---`` lines may open the fence; it is the
    block's metadata and its ``id`` the block id. The content is the text between the
    frontmatter (or the opening fence) and the closing fence.
    """

    def __post_init__(self) -> None:
        set_starts_with(self, FENCE_STARTS)

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        if not complete:
            return fence_prefix(line)
        fence = opening_fence(line)
        if fence is None:
            return REJECT
        info_name = fence.info.split(maxsplit=1)[0] if fence.info else ""
        return _FenceBlock(fence, types, types.markers.get(info_name))

    def read_whole(
        self, text: str, start: int, line_end: int, types: TypeTable
    ) -> WholeBlock | OpenedBlock | Verdict | None:
        line = text[start:line_end]
        fence = opening_fence(line[:-1] if line[-1:] == "\r" else line)
        if fence is None:
            return REJECT
        info_type = types.markers.get(fence.info.split(maxsplit=1)[0]) if fence.info else None
        attrs: dict[str, Any] = {"info": fence.info} if fence.info else {}
        closing = closing_fence_pattern(fence.char, fence.length)
        body = line_end + 1
        opened = _FRONTMATTER_OPENING.match(text, body)
        if opened is None:  # (the first line is content, or the fence is shown)
            if info_type is None:  # (a shown fence, to its closing line: all visible)
                shown = closing.search(text, line_end)
                if shown is None:
                    return None
                return new_tuple(WholeBlock, (None, body, shown.start() + 1, shown.end()))
            header = new_tuple(Header, (info_type.marker, info_type, None, attrs, None, None))
        else:
            at = opened.end()
            closed = FRONTMATTER_CLOSING.search(text, at - 1)
            if closed is None or closing.search(text, body - 1, closed.start() + 1) is not None:
                return None  # (no end of the frontmatter in hand, or the fence closes first)
            found = frontmatter_header(text[at : closed.start() + 1], 3, types, fallback=info_type)
            if found is None:
                return None  # (a fence showing YAML)
            name, block_type, block_id, _, metadata, error = found
            header = new_tuple(Header, (name, block_type, block_id, attrs, metadata, error))
            body = closed.end()
        ended = closing.search(text, body - 1)
        if ended is None:  # (the content runs on: the block starts with its header)
            parser = _FenceBlock(fence, types, info_type)
            parser.started = True
            if opened is None:
                parser.begin(header, CONTENT)
            else:
                parser.phase = _FRONTMATTER
                parser.begin(header, None)
            return new_tuple(OpenedBlock, (parser, body))
        return new_tuple(WholeBlock, (header, body, ended.start() + 1, ended.end()))

    def describe(self, types: Sequence[BlockType]) -> str:
        intro = (
            "You can write the following blocks as fenced code blocks whose info string is "
            "the block type, optionally opening with a YAML frontmatter between two `---` "
            f"lines (for example an `id`). Example:\n```{types[0].marker}\n---\nid: b1\n---\n"
            "...\n```\nBlock types:"
        )
        return listing(intro, types, lambda block_type: block_type.marker)


# Class attributes set after the class: mypyc would make a dataclass field of a
# ClassVar written in the class body.
MarkdownFrontmatterSyntax.name = "markdown_frontmatter"
MarkdownFrontmatterSyntax.shows_code_fences = True  # fences that are not blocks stay visible
