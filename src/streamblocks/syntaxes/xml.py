"""Inline XML-tag blocks: ``<tag attr="v">content</tag>`` and ``<tag/>``, anywhere in a
line, for registered tags only — an inline syntax (:mod:`streamblocks.core.syntax`).

The grammar, chosen so that prose never stalls the stream for long:

* an opening tag is ``<name``, then attributes, each after whitespace: ``name="value"``,
  ``name='value'``, ``name=value`` (unquoted: up to whitespace or ``>``) or a bare
  ``name`` (value ``""``); then optional whitespace and ``>`` or ``/>``. The tag may span
  lines (the scanner bounds it by ``max_marker_chars``);
* a closing tag is ``</name>``, with optional spaces or tabs before ``>``; a block ends
  at the *first* closing tag of its name (same-name tags do not nest);
* names are XML-like: a letter or ``_``, then letters, digits, ``_ . : -``.

So ``a < b`` and ``<3`` are text at once, ``<div>`` when its ``>`` shows a complete tag
that is not registered, ``<note, …`` at the comma. With ``code_aware`` a backtick run
opens an inline code span, visible text up to the closing run of the same length or
the end of the line, in which no tag is recognised. The reader keeps its state between chunks
(how much of a tag it has seen), so each character is looked at once whatever the chunking.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from ..core.errors import ErrorCode, RegistryError
from ..core.registry import BlockType, TypeTable
from ..core.syntax import GO_ON, NOT_MINE, Header, InlineOut, InlineReader, InlineSyntax
from ..prompts import describe_model_fields
from .code_spans import CodeSpan, code_span_end

_ENTITY = re.compile(r"&(amp|lt|gt|quot|apos|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_ATTR_ANYWHERE = re.compile(
    r"(?<![A-Za-z0-9_.:\-])([A-Za-z_][A-Za-z0-9_.:\-]*)=(?:\"([^\"]*)\"|'([^']*)')"
)
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_CHAR = _NAME_START | frozenset("0123456789.:-")
_SPACE = frozenset(" \t\r\n")
_UNQUOTED_STOP = frozenset(" \t\r\n>\"'=<`")
_NAME_RUN = re.compile(r"[A-Za-z0-9_.:\-]*")
HTML_VOID_ELEMENTS = frozenset(
    "area base br col embed hr img input keygen link meta param source track wbr".split()  # noqa: SIM905
)
"""HTML elements without a closing tag: a block only when registered (never generic)."""

# states of the opening-tag reader (from _DONE on: it is decided)
_START, _LT, _NAME, _SPACE_, _ANAME, _EQ, _VALUE, _AFTER, _SLASH, _DONE, _SELF, _BAD = range(12)


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
    """The quoted attributes in ``text`` (``name="v"``/``name='v'``), in the order
    written, entities decoded (a repeated name keeps its first position, last value)."""
    attrs: dict[str, str] = {}
    for found in _ATTR_ANYWHERE.finditer(text):
        double, single = found.group(2), found.group(3)
        attrs[found.group(1)] = decode_entities(double if double is not None else single)
    return attrs


def xml_header(name: str, attrs: dict[str, str], types: TypeTable) -> Header:
    """The block header of an opening tag: the ``id`` attribute is the block id and the
    attributes are the metadata mapping (announced with ``BLOCK_METADATA`` when there
    are attributes or the type has a metadata model)."""
    block_type = types.resolve(name)
    described = attrs or (block_type is not None and block_type.metadata is not None)
    return Header(name, block_type, attrs.get("id") or None, attrs, attrs if described else None)


@mypyc_attr(allow_interpreted_subclasses=True)
class _Element(InlineReader):
    """One ``<tag …>…</tag>``: the opening tag, then the body up to the closing tag."""

    __slots__ = (
        "attr",
        "attrs",
        "closer",
        "k",
        "name",
        "quote",
        "read_len",
        "space",
        "state",
        "types",
        "value",
    )

    def __init__(self, types: TypeTable, opened: str | None = None) -> None:
        self.types = types
        self.state = _START
        self.name = ""
        self.attrs: dict[str, str] = {}
        self.attr = ""
        self.quote = ""  # the quote of the value being read ("" for unquoted)
        self.value: list[str] = []
        self.read_len = 0  # characters of the opening tag read so far
        self.closer = ""  # "</name" once in the body
        self.k = 0  # characters of the closing tag matched (held, not attributed)
        self.space = 0
        if opened is not None:  # a prefilled tag: the body from the first character
            self.name, self.closer = opened, "</" + opened

    def read(self, text: str, start: int, stop: int, out: InlineOut) -> int:
        if self.closer:
            if not out.block_open and self.read_len == 0:  # (prefilled: open at once)
                out.start(xml_header(self.name, {}, self.types))
                self.read_len = -1
            return self._body(text, start, stop, out)
        i = start
        while i < stop:
            j = self._step(text, i, stop)
            self.read_len += j - i
            i = j
            state = self.state
            if state >= _DONE:
                if state == _BAD:
                    return NOT_MINE
                return self._opened(text, i, stop, out)
        return GO_ON

    def _step(self, text: str, i: int, stop: int) -> int:
        """Advance the opening-tag machine from ``text[i]``; returns where it stopped
        (the state says whether the tag is complete, ``_DONE``/``_SELF``, or not a
        tag, ``_BAD``)."""
        state, char = self.state, text[i]
        if state == _VALUE:
            if self.quote:
                end = text.find(self.quote, i, stop)
                if end < 0:
                    self.value.append(text[i:stop])
                    return stop
                self.value.append(text[i:end])
                self._attr_done("".join(self.value))
                self.state = _AFTER
                return end + 1
            if char in _UNQUOTED_STOP:
                if char in " \t\r\n>":
                    self._attr_done("".join(self.value))
                    self.state = _SPACE_
                else:
                    self.state = _BAD
                return i
            self.value.append(char)
            return i + 1
        if state == _START:  # the "<" itself
            self.state = _LT
            return i + 1
        if state == _LT:
            self.state = _NAME if char in _NAME_START else _BAD
            return i
        if state == _NAME:
            return self._name(text, i, stop)
        if state == _ANAME:
            run = _NAME_RUN.match(text, i, stop).end()  # type: ignore[union-attr]
            self.attr += text[i:run]
            if run == stop:
                return stop
            if text[run] == "=":
                self.state = _EQ
                return run + 1
            self._attr_done("")
            self.state = _SPACE_ if text[run] in _SPACE or text[run] in ">/" else _BAD
            return run
        if state == _EQ:
            if char in "\"'":
                self.quote, self.value, self.state = char, [], _VALUE
            elif char in _UNQUOTED_STOP:
                self.state = _BAD
                return i
            else:
                self.quote, self.value, self.state = "", [char], _VALUE
            return i + 1
        if state == _SLASH:
            self.state = _SELF if char == ">" else _BAD
            return i + 1 if char == ">" else i
        # _SPACE_ or _AFTER: whitespace, an attribute (after whitespace), > or />
        if char in _SPACE:
            self.state = _SPACE_
        elif char == ">":
            self.state = _DONE
        elif char == "/":
            self.state = _SLASH
        elif state == _SPACE_ and char in _NAME_START:
            self.attr, self.state = "", _ANAME
            return i
        else:
            self.state = _BAD
            return i
        return i + 1

    def _name(self, text: str, i: int, stop: int) -> int:
        run = _NAME_RUN.match(text, i, stop).end()  # type: ignore[union-attr]
        self.name += text[i:run]
        types = self.types
        if types.unknown == "text" and self.name not in types.prefixes:
            self.state = _BAD  # names no registered tag, whatever follows
            return run
        if run == stop:
            return stop
        if self.name not in types.markers and (
            types.unknown == "text" or self.name.lower() in HTML_VOID_ELEMENTS
        ):
            self.state = _BAD
            return run
        char = text[run]
        self.state = _SPACE_ if char in _SPACE or char in ">/" else _BAD
        return run

    def _attr_done(self, value: str) -> None:
        self.attrs.setdefault(self.attr, "")
        self.attrs[self.attr] = decode_entities(value)

    def _opened(self, text: str, i: int, stop: int, out: InlineOut) -> int:
        """The opening tag is complete (``read_len`` characters, ending at ``i``)."""
        out.marker(self.read_len)
        header = xml_header(self.name, self.attrs, self.types)
        if self.state == _SELF:  # <tag/>
            out.start(header, empty=True)
            out.end()
            return i
        out.start(header)
        self.closer = "</" + self.name
        return self._body(text, i, stop, out)

    def _body(self, text: str, i: int, stop: int, out: InlineOut) -> int:
        """Content up to the first ``</name>`` (spaces or tabs allowed before ``>``)."""
        closer = self.closer
        size = len(closer)
        k = self.k
        while i < stop:
            if k == 0:
                at = text.find(closer, i, stop)
                if at < 0:
                    lt = text.rfind("<", max(i, stop - size + 1), stop)
                    if lt >= 0 and closer.startswith(text[lt:stop]):
                        out.content(lt - i)
                        k = stop - lt
                    else:
                        out.content(stop - i)
                    i = stop
                    break
                out.content(at - i)
                i, k, self.space = at + size, size, 0
            elif k < size:  # a partial closer held from the last chunk
                need = closer[k:]
                while i < stop and k < size and text[i] == need[0]:
                    i, k, need = i + 1, k + 1, need[1:]
                if k < size and i < stop:  # not the closer: what was held is content
                    out.content(k)
                    k = 0
            else:
                while i < stop and text[i] in " \t":
                    i, self.space = i + 1, self.space + 1
                if i == stop:
                    break
                if text[i] == ">":
                    out.content(0)
                    out.marker(k + self.space + 1)
                    out.end()
                    self.k = 0
                    return i + 1
                out.content(k + self.space)
                k = self.space = 0
        self.k = k
        return GO_ON

    def close(self, out: InlineOut, stop_reason: object) -> None:
        if not self.closer:
            return  # an opening tag cut off by the stream's end: text
        if self.read_len == 0 and not out.block_open:
            out.start(xml_header(self.name, {}, self.types))  # (prefilled, empty stream)
        held = self.k + (self.space if self.k == len(self.closer) else 0)
        out.content(held)  # a closing tag cut off: content
        name = self.name
        out.fail(ErrorCode.UNCLOSED, f"the stream ended inside <{name}> before its </{name}>")


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class XMLTagSyntax(InlineSyntax):
    """Inline XML-like tags: ``<tag attr="v">content</tag>`` and ``<tag/>``.

    Only registered tags are blocks; other markup stays visible text. With ``unknown="block"``
    (or ``"error"``) an unregistered tag is a generic block too, except an HTML void element
    (``img``, ``br``, ``input``…, :data:`HTML_VOID_ELEMENTS`), which never closes. The content
    is the text between the tags (a ``str``, or the ``content`` model's instance); the
    attributes (entities decoded, in order) are ``BlockStart.attrs``/``Block.attrs`` and
    the metadata mapping; an ``id`` attribute is the block id.

    ``code_aware`` (default ``True``): tags in inline code spans (backtick runs) and in
    fenced code blocks the model shows are text. ``prefilled``: a registered tag that
    is already open when the stream starts (the prompt ended with ``<think>``), so the
    text up to its first closing tag is that block.

    A processor uses one XML configuration: unequal ``XMLTagSyntax`` instances are rejected.
    """

    code_aware: bool = True
    prefilled: str | None = None

    def openers(self, types: TypeTable) -> Sequence[str]:
        return ("<", "`") if self.code_aware else ("<",)

    def reader(self, opener: str, types: TypeTable) -> InlineReader:
        return _Element(types) if opener == "<" else CodeSpan()

    def initial(self, types: TypeTable) -> InlineReader | None:
        return None if self.prefilled is None else _Element(types, self.prefilled)

    def read_shown(self, opener: str, text: str, start: int, stop: int) -> int:
        return code_span_end(text, start, stop) if opener == "`" else -1

    def check(self, types: TypeTable) -> None:
        if self.prefilled is not None and self.prefilled not in types.markers:
            raise RegistryError(f"prefilled tag {self.prefilled!r} is not a registered XML tag")

    def describe(self, types: Sequence[BlockType]) -> str:
        lines = ["You can use the following XML tags in your output:"]
        for block_type in types:
            lines.append(_entry(block_type))
        return "\n".join(lines)


XMLTagSyntax.name = "xml"  # not in the body: mypyc makes a dataclass field of a ClassVar
XMLTagSyntax.shown_openers = ("`",)  # (a code span: XMLTagSyntax.read_shown)


def _entry(block_type: BlockType) -> str:
    parts = [text for text in (block_type.description, block_type.instructions) if text]
    entry = f"- <{block_type.marker}>: " + "\n  ".join(part.replace("\n", "\n  ") for part in parts)
    if block_type.metadata is not None:
        entry += "\n  " + describe_model_fields("Attributes", block_type.metadata)
    if block_type.content is not None:
        entry += "\n  " + describe_model_fields("Content", block_type.content, schema=True)
    return entry
