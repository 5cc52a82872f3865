"""CommonMark fenced code blocks: recognising fences, and showing the ones that are
not blocks as visible text in which no marker is recognised."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import ClassVar, Final, NamedTuple

from mypy_extensions import mypyc_attr

from ..core.registry import BlockType
from .base import (
    CLOSE,
    END_TEXT,
    PENDING,
    REJECT,
    TEXT,
    LineParser,
    Syntax,
    TypeTable,
    Verdict,
)

FENCE_STARTS: Final = " `~"


class Fence(NamedTuple):
    char: str
    length: int
    info: str


def fence_prefix(prefix: str) -> Verdict:
    """``PENDING`` while a partial line could still be an opening fence, else ``REJECT``."""
    rest = prefix.lstrip(" ")
    if len(prefix) - len(rest) > 3:
        return REJECT
    if not rest:
        return PENDING
    char = rest[0]
    if char not in "`~":
        return REJECT
    run = len(rest) - len(rest.lstrip(char))
    if run == len(rest):
        return PENDING
    if run < 3 or (char == "`" and "`" in rest[run:]):
        return REJECT
    return PENDING


_OPENING_FENCE = re.compile(r" {0,3}(`{3,}(?=[^`]*\Z)|~{3,})(.*)", re.DOTALL)
"""An opening fence line: up to three spaces, three or more backticks (none in the
info string after them) or tildes, the info string."""


def opening_fence(line: str) -> Fence | None:
    """The fence a complete line opens, if it is an opening fence."""
    found = _OPENING_FENCE.fullmatch(line)
    if found is None:
        return None
    run, info = found.groups()
    return Fence(run[0], len(run), info.strip())


def closing_fence(line: str, fence: Fence, complete: bool) -> Verdict:
    """``CLOSE`` for a line closing ``fence``; ``PENDING`` while a partial line could
    still be one; ``REJECT`` otherwise."""
    rest = line.lstrip(" ")
    if len(line) - len(rest) > 3:
        return REJECT
    run = len(rest) - len(rest.lstrip(fence.char))
    tail = rest[run:]
    if tail and (run < fence.length or tail.strip(" \t\r")):
        return REJECT
    if not complete:
        return PENDING
    return CLOSE if run >= fence.length else REJECT


@functools.lru_cache(maxsize=64)
def closing_fence_pattern(char: str, length: int) -> re.Pattern[str]:
    """The :attr:`LineParser.closing_line` of a block in a fence of ``length``
    ``char`` characters: the lines :func:`closing_fence` closes it with."""
    run = "(?:" + re.escape(char) + "){" + str(length) + ",}"
    return re.compile("\n {0,3}" + run + "[ \t\r]*\n")


@mypyc_attr(allow_interpreted_subclasses=True)
class ShownFence(LineParser):
    """A fence the model shows as code: visible text up to its closing fence."""

    visible = True
    marker_starts: str | None = FENCE_STARTS

    def __init__(self, fence: Fence) -> None:
        self.fence = fence
        self.closing_line = closing_fence_pattern(fence.char, fence.length)

    def on_line(self, line: str, complete: bool) -> Verdict:
        verdict = closing_fence(line, self.fence, complete)
        if verdict is CLOSE:
            return END_TEXT
        return PENDING if verdict is PENDING else TEXT


@mypyc_attr(allow_interpreted_subclasses=True)
class CodeFenceAwareness(Syntax):
    """Not a block syntax: makes fenced code visible text in which markers are not
    recognised. Added last by the processor when ``code_aware=True``."""

    name: ClassVar[str] = "code-fence"
    starts_with: str | None = FENCE_STARTS

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        if not complete:
            return fence_prefix(line)
        fence = opening_fence(line)
        return REJECT if fence is None else ShownFence(fence)

    def describe(self, types: Sequence[BlockType]) -> str:
        return ""

    def __eq__(self, other: object) -> bool:
        return type(other) is CodeFenceAwareness

    def __hash__(self) -> int:
        return hash(CodeFenceAwareness)
