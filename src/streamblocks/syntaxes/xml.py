"""Inline XML-tag blocks: ``<tag attr="v">content</tag>`` and ``<tag/>``, anywhere in a
line, for registered tags only.

Unlike the line syntaxes, an XML tag may open in the middle of a line, so this syntax
does not classify lines: the session runs the visible text outside blocks through an
inline scanner built from the helpers below. This module holds the grammar (pure
functions over a string and an offset); the session owns the state and the events.

The grammar, chosen so that prose never stalls the stream:

* an opening tag is ``<name`` then any number of `` name="value"`` or `` name='value'``
  attributes (spaces or tabs before each, no spaces around ``=``), optional spaces or
  tabs, then ``>`` or ``/>``; a tag header never spans lines;
* a closing tag is ``</name>``, with optional spaces or tabs before ``>``;
* names are XML-like: a letter or ``_``, then letters, digits, ``_ . : -``.

So ``<think about it`` is released as text at the space after ``about`` (an attribute
name must be followed by ``=``), ``a < b`` and ``<3`` at once, ``<div>`` when its ``>``
shows it is a complete tag that is not registered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar, NamedTuple

from ..core.registry import BlockType
from ..prompts import describe_model_fields
from .base import Header, LineParser, Syntax, TypeTable, Verdict

_NAME = r"[A-Za-z_][A-Za-z0-9_.:\-]*"
_WS = r"[ \t]"
_NAME_AT = re.compile(_NAME)
_SPACES = re.compile(r"[ \t]*")
_ATTR = re.compile(rf"({_NAME})=(?:\"([^\"\n]*)\"|'([^'\n]*)')")
_ATTR_ANYWHERE = re.compile(rf"(?<![A-Za-z0-9_.:\-])({_NAME})=(?:\"([^\"\n]*)\"|'([^'\n]*)')")
_ATTR_PREFIX = re.compile(rf"{_NAME}(?:=(?:\"[^\"\n]*|'[^'\n]*)?)?")
_CLOSE_TAG = re.compile(rf"</({_NAME}){_WS}*>")
_CLOSE_PREFIX = re.compile(rf"</(?:({_NAME}){_WS}*)?")
_ENTITY = re.compile(r"&(amp|lt|gt|quot|apos|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


class Found(IntEnum):
    """What the scanner found at a ``<`` (or a backtick run)."""

    NOTHING = 0
    """Not a tag: the ``<`` is text (or content)."""
    PENDING = 1
    """Could still become a tag: hold the text from ``<`` and look again with more."""
    OPEN = 2
    """A complete registered opening tag (``end`` is the offset after its ``>``)."""
    CLOSE = 3
    """The closing tag of the open block."""
    TOO_LARGE = 4
    """A tag header still incomplete after ``max_marker_chars`` characters."""


class Tag(NamedTuple):
    """A complete opening tag."""

    name: str
    attrs: dict[str, str]
    self_closing: bool
    end: int


def decode_entities(value: str) -> str:
    """Decode the five XML entities and numeric character references."""
    if "&" not in value:
        return value
    return _ENTITY.sub(_entity, value)


def _entity(found: re.Match[str]) -> str:
    name = found.group(1)
    if name[0] != "#":
        return _ENTITIES[name]
    code = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
    try:
        return chr(code)
    except (ValueError, OverflowError):
        return found.group(0)


def parse_attrs(text: str) -> dict[str, str]:
    """The attributes in ``text`` (``name="v"``/``name='v'``), in the order written,
    entities decoded (a repeated name keeps its first position and its last value)."""
    attrs: dict[str, str] = {}
    for found in _ATTR_ANYWHERE.finditer(text):  # tried at name starts only: linear
        double, single = found.group(2), found.group(3)
        attrs[found.group(1)] = decode_entities(double if double is not None else single)
    return attrs


class _Scan(NamedTuple):
    found: Found  # OPEN (complete), PENDING (a valid prefix up to stop) or NOTHING
    name: str | None
    typing_name: bool  # the name runs up to stop: more name characters may follow
    attrs: dict[str, str]
    self_closing: bool
    end: int
    quote: str = ""  # PENDING inside an attribute value: its quote character


def _scan_open(text: str, at: int, stop: int) -> _Scan:
    """Read an opening tag at ``text[at] == "<"`` within ``text[:stop]``, token by
    token (each token is a simple regex, so nothing backtracks across tokens)."""
    attrs: dict[str, str] = {}
    name_found = _NAME_AT.match(text, at + 1, stop)
    if name_found is None:
        return _Scan(
            Found.PENDING if at + 1 == stop else Found.NOTHING, None, False, attrs, False, 0
        )
    name, i = name_found.group(), name_found.end()
    if i == stop:
        return _Scan(Found.PENDING, name, True, attrs, False, 0)
    while True:
        j = _SPACES.match(text, i, stop).end()  # type: ignore[union-attr]
        if j == stop:
            return _Scan(Found.PENDING, name, False, attrs, False, 0)
        char = text[j]
        if char == ">":
            return _Scan(Found.OPEN, name, False, attrs, False, j + 1)
        if char == "/":
            if j + 1 == stop:
                return _Scan(Found.PENDING, name, False, attrs, False, 0)
            closed = text[j + 1] == ">"
            return _Scan(Found.OPEN if closed else Found.NOTHING, name, False, attrs, True, j + 2)
        if j == i:  # an attribute must follow whitespace
            return _Scan(Found.NOTHING, name, False, attrs, False, 0)
        attr = _ATTR.match(text, j, stop)
        if attr is None:
            if _ATTR_PREFIX.fullmatch(text, j, stop) is None:
                return _Scan(Found.NOTHING, name, False, attrs, False, 0)
            eq = text.find("=", j, stop)
            quote = text[eq + 1] if 0 <= eq < stop - 1 else ""
            return _Scan(Found.PENDING, name, False, attrs, False, 0, quote)
        double, single = attr.group(2), attr.group(3)
        attrs[attr.group(1)] = decode_entities(double if double is not None else single)
        i = attr.end()


def _fits(name: str | None, typing_name: bool, marker: str) -> bool:
    """Whether a tag name read so far can still be ``marker``."""
    if name is None:
        return True
    return marker.startswith(name) if typing_name else name == marker


def opening_tag(text: str, at: int, limit: int, types: TypeTable) -> tuple[Found, Tag | None, str]:
    """Look at the ``<`` at ``text[at]`` outside blocks.

    Only the first ``limit`` characters from ``at`` are considered, so the answer does
    not depend on how much text has arrived beyond them (chunking invariance). With
    ``PENDING`` comes the quote character when the text ends inside an attribute value
    (``""`` otherwise): more text without that quote or a newline leaves it pending.
    """
    stop = min(len(text), at + limit)
    scan = _scan_open(text, at, stop)
    if scan.found is Found.NOTHING:
        return Found.NOTHING, None, ""
    if scan.found is Found.OPEN:
        assert scan.name is not None
        if not types.accepts(scan.name):
            return Found.NOTHING, None, ""
        return Found.OPEN, Tag(scan.name, scan.attrs, scan.self_closing, scan.end), ""
    name = scan.name
    if (
        types.unknown == "text"
        and name is not None
        and name not in (types.prefixes if scan.typing_name else types.markers)
    ):
        return Found.NOTHING, None, ""  # names no registered tag, whatever follows
    if stop - at < limit:
        return Found.PENDING, None, scan.quote
    return Found.TOO_LARGE, None, ""


def inner_tag(text: str, at: int, limit: int, marker: str) -> tuple[Found, int]:
    """Look at the ``<`` at ``text[at]`` inside a block whose tag is ``marker``.

    ``CLOSE`` for its closing tag, ``OPEN`` for a nested opening tag of the same name
    (not self-closing), ``PENDING`` while it could still be one of them (only while
    shorter than ``limit``); the offset returned is where to go on.
    """
    stop = min(len(text), at + limit)
    if text.startswith("</", at):
        found = _CLOSE_TAG.match(text, at, stop)
        if found is not None:
            if found.group(1) == marker:
                return Found.CLOSE, found.end()
            return Found.NOTHING, at + 1
        prefix = _CLOSE_PREFIX.fullmatch(text, at, stop)
        pending = prefix is not None and _fits(prefix.group(1), prefix.end(1) == stop, marker)
    else:
        scan = _scan_open(text, at, stop)
        if scan.found is Found.OPEN:
            if scan.name == marker and not scan.self_closing:
                return Found.OPEN, scan.end
            return Found.NOTHING, at + 1
        pending = scan.found is Found.PENDING and _fits(scan.name, scan.typing_name, marker)
    if pending and stop - at < limit:
        return Found.PENDING, at
    return Found.NOTHING, at + 1


class XMLBlock(LineParser):
    """The state of one open XML block: its tag and how deeply it nests in itself.

    The session feeds it text directly (it is inline, not line-based), so
    :meth:`on_line` is never asked.
    """

    started = True

    def __init__(self, header: Header, marker: str, self_closing: bool = False) -> None:
        self.header = header
        self.marker = marker
        self.self_closing = self_closing
        self.depth = 0

    def on_line(self, line: str, complete: bool) -> Verdict:  # pragma: no cover
        raise AssertionError("XML blocks are fed inline, not by lines")


def xml_header(tag: Tag, types: TypeTable) -> Header:
    """The block header of an opening tag: the ``id`` attribute is the block id and the
    attributes are the metadata mapping (announced with ``BLOCK_METADATA`` when there
    are attributes or the type has a metadata model)."""
    block_id = tag.attrs.get("id") or None
    block_type = types.resolve(tag.name)
    described = tag.attrs or (block_type is not None and block_type.metadata is not None)
    return Header(tag.name, block_type, block_id, tag.attrs, tag.attrs if described else None)


@dataclass(frozen=True)
class XMLTagSyntax(Syntax):
    """Inline XML-like tags: ``<tag attr="v">content</tag>`` and ``<tag/>``.

    Only registered tags are blocks; everything else that looks like markup stays
    visible text. The content of a block is the text between its tags (a ``str``, or
    the ``content`` model's instance); its attributes (entities decoded, in the order
    written) are ``BlockStart.attrs``/``Block.attrs`` and the metadata mapping, and an
    ``id`` attribute is the block id.

    ``code_aware`` (default ``True``): tags in inline code spans (backtick runs) and in
    fenced code blocks the model shows are text. ``prefilled``: a registered tag that
    is already open when the stream starts (the prompt ended with ``<think>``), so the
    text up to its first closing tag is that block.

    A processor uses one XML configuration: block types registered with unequal
    ``XMLTagSyntax`` instances are rejected when the processor builds its plan.
    """

    name: ClassVar[str] = "xml"
    starts_with: ClassVar[str | None] = ""  # never offered a line: it scans inline
    inline: ClassVar[bool] = True
    code_aware: bool = True
    prefilled: str | None = None

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        return Verdict.REJECT

    def describe(self, types: Sequence[BlockType]) -> str:
        lines = ["You can use the following XML tags in your output:"]
        for block_type in types:
            lines.append(_entry(block_type))
        return "\n".join(lines)


def _entry(block_type: BlockType) -> str:
    parts = [text for text in (block_type.description, block_type.instructions) if text]
    entry = f"- <{block_type.marker}>: " + "\n  ".join(part.replace("\n", "\n  ") for part in parts)
    if block_type.metadata is not None:
        entry += "\n  " + describe_model_fields("Attributes", block_type.metadata)
    if block_type.content is not None:
        entry += "\n  " + describe_model_fields("Content", block_type.content, schema=True)
    return entry
