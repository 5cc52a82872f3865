"""``!!start`` / ``---`` YAML frontmatter ``---`` / content / ``!!end`` blocks, and the
YAML reading shared by the frontmatter syntaxes."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import yaml

from ..core.errors import ErrorCode
from ..core.registry import BlockType
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
    ParseFailure,
    TypeTable,
    Verdict,
    literal_line,
)

FRONTMATTER_FENCE = "---"
_PLAIN_ENTRY = re.compile(
    r"([A-Za-z_][\w-]*): [ \t]*([A-Za-z_][\w./-]*|0|-?[1-9][0-9]{0,17})[ \t]*", re.ASCII
)
_YAML_WORDS = frozenset(
    word
    for base in ("yes", "no", "true", "false", "on", "off", "null")
    for word in (base, base.capitalize(), base.upper())
)
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available
MAX_YAML_DEPTH = 100
"""Deepest nesting of flow collections (``[``/``{``) a YAML text may have: deeper
texts are rejected before loading (PyYAML's cost grows with the square of the depth)."""
_BRACKETS = re.compile(r"""[\[\]{}"'\n]""")


def load_yaml_mapping(text: str, what: str, first_line: int = 1) -> dict[str, Any]:
    """Read ``text`` as a YAML mapping with the safe loader (no tag runs code).

    ``first_line`` is the block line ``text`` starts on, so errors name the line as the
    model wrote it. Raises :class:`ParseFailure`.
    """
    simple = _plain_mapping(text)
    if simple is not None:
        return simple
    _check_nesting(text, what)
    try:
        value = yaml.load(text, Loader=_SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        where = f" at line {first_line + mark.line} of the block" if mark is not None else ""
        raise ParseFailure(f"invalid YAML in {what}{where}: {problem}") from None
    except (RecursionError, ValueError, TypeError) as exc:
        raise ParseFailure(f"invalid YAML in {what}: {exc}") from None
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ParseFailure(f"{what} must be a YAML mapping, got {type(value).__name__}")
    if "*" in text:
        _check_expansion(value, len(text) + 1_000, what)
    return {str(key): item for key, item in value.items()}


def _check_nesting(text: str, what: str) -> None:
    """Reject flow collections nested deeper than :data:`MAX_YAML_DEPTH`.

    Brackets in quoted scalars do not count (a quote runs to its closing quote or the
    end of the line); a bracket in a plain scalar may, which errs on the safe side only
    for texts with over a hundred unbalanced brackets. One pass over the brackets,
    quotes and newlines: linear in the text.
    """
    if text.count("[") + text.count("{") <= MAX_YAML_DEPTH:
        return
    depth = 0
    quote = ""
    for found in _BRACKETS.finditer(text):
        char = found.group()
        at = found.start()
        if quote:
            if char == "\n" or (char == quote and (quote == "'" or _unescaped(text, at))):
                quote = ""
        elif char == "[" or char == "{":
            depth += 1
            if depth > MAX_YAML_DEPTH:
                raise ParseFailure(
                    f"invalid YAML in {what}: collections nested deeper than {MAX_YAML_DEPTH}"
                )
        elif char == "]" or char == "}":
            depth = max(depth - 1, 0)
        elif char != "\n":
            quote = char


def _unescaped(text: str, at: int) -> bool:
    """Whether the ``"`` at ``at`` is not escaped (an even run of backslashes before
    it; each run is counted by the one quote that follows it)."""
    before = at
    while before > 0 and text[before - 1] == "\\":
        before -= 1
    return (at - before) % 2 == 0


def _check_expansion(value: Any, budget: int, what: str) -> None:
    """Reject a document whose aliases expand it past ``budget`` nodes (a "billion
    laughs" document is a few hundred characters that expand to 10⁹ nodes: loading it
    is cheap, as aliases are shared, but validating or serialising it is not)."""
    stack = [value]
    while stack:
        item = stack.pop()
        budget -= 1
        if budget < 0:
            raise ParseFailure(f"invalid YAML in {what}: aliases expand it too far")
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set)):
            stack.extend(item)


def _plain_mapping(text: str) -> dict[str, Any] | None:
    """The mapping of a frontmatter made only of ``key: word`` and ``key: integer``
    lines, read without the YAML machinery (most frontmatters are; a YAML load costs
    tens of microseconds). ``None`` for anything else, which YAML then reads; words
    YAML gives a meaning to (``yes``, ``null``…) are left to YAML too."""
    mapping: dict[str, Any] = {}
    for line in text.splitlines():
        if not line:
            continue
        found = _PLAIN_ENTRY.fullmatch(line)
        if found is None:
            return None
        key, value = found.groups()
        if key in _YAML_WORDS or value in _YAML_WORDS:
            return None
        first = value[0]
        mapping[key] = int(value) if first.isdigit() or first == "-" else value
    return mapping


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
            return Header(fallback.marker, fallback, _id(mapping), {}, mapping)
        return _broken("the frontmatter has no block_type") if strict else None
    block_type = types.resolve(str(named))
    if block_type is None and types.unknown == "text":
        return None
    return Header(str(named), block_type, _id(mapping), {}, mapping)


def _id(mapping: Mapping[str, Any]) -> str | None:
    raw_id = mapping.get("id")
    return None if raw_id is None or raw_id == "" else str(raw_id)


def _failed(exc: ParseFailure) -> tuple[ErrorCode, str]:
    return (ErrorCode.PARSE_FAILED, str(exc))


def _broken(message: str) -> Header:
    return Header("", None, None, {}, None, (ErrorCode.PARSE_FAILED, message))


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
        self.header = header
        self.marker_starts = self.end_marker[0]
        return START


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

    name: ClassVar[str] = "delimiter_frontmatter"
    starts_with: ClassVar[str | None] = "!"
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
        object.__setattr__(self, "starts_with", self.start_marker[0])

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        verdict = literal_line(line, self.start_marker, complete)
        if verdict is CLOSE:
            return _FrontmatterBlock(types, self.end_marker)
        return verdict

    def describe(self, types: Sequence[BlockType]) -> str:
        intro = (
            f"You can write the following blocks, each as a line `{self.start_marker}`, a YAML "
            "frontmatter between two `---` lines with `id` and `block_type`, the content "
            f"lines, then a line `{self.end_marker}`. Example:\n{self.start_marker}\n---\n"
            f"id: b1\nblock_type: {types[0].marker}\n---\n...\n{self.end_marker}\n"
            "Block types:"
        )
        return listing(intro, types, lambda block_type: block_type.marker)
