"""MiniMax M3: ``<mm:think>…</mm:think>``; every tag of a call starts with the namespace
token ``]<]minimax[>[`` (``NS`` below): ``NS<tool_call>`` around ``NS<invoke name="NAME">``
calls, each ending at ``NS</invoke>``. An argument is an element named by its key,
``NS<city>ParisNS</city>``, whose value is text, or elements again: an object's keys, or
a list's ``NS<item>`` elements (the chat template writes values so, recursively). Text
is typed by the tool's schema. A reply that does not think starts with a bare
``</mm:think>`` (the template's adaptive mode): never visible."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ..grammar import Call, CallFormat, Grammar, Section, need
from ..scan import EndSpec, Literals
from ..schema import ToolSchemas, is_text, property_schema, typed, types_of
from ..tagged import Stepwise, escaped

NS = "]<]minimax[>["
_HEAD = re.compile(r'\A\s*name="([^"]*)"\s*>')
_TAG = re.compile(r"\s*<(/?)([^<>]*)>")
_UNFINISHED = re.compile(r"\s*(?:<[^<>]*)?\Z")  # a tag after NS still arriving
_MAX_DEPTH = 100

Schema = Mapping[str, Any] | None


class Element:
    """An element of a call's body: its name, the elements in it, the text around them."""

    __slots__ = ("children", "name", "texts")

    def __init__(self, name: str) -> None:
        self.name = name
        self.children: list[Element] = []
        self.texts: list[str] = []


def elements(text: str, name: str = "") -> Element:
    """``text`` (an element's content) as an element named ``name``; ``ValueError`` when
    its tags do not nest."""
    root = Element(name)
    stack = [root]
    parts = text.split(NS)
    root.texts.append(parts[0])
    for part in parts[1:]:
        tag = _TAG.match(part)
        need(tag is not None, f"a tag that does not read: {part[:40]!r}")
        assert tag is not None
        key = tag.group(2).strip()
        if tag.group(1):
            need(len(stack) > 1 and stack[-1].name == key, f"</{key}> closes no open <{key}>")
            stack.pop()
        else:
            need(len(stack) < _MAX_DEPTH, "the arguments nest too deep")
            element = Element(key)
            stack[-1].children.append(element)
            stack.append(element)
        stack[-1].texts.append(part[tag.end() :])
    need(len(stack) == 1, f"<{stack[-1].name}> is not closed")
    return root


def value(element: Element, schema: Schema) -> Any:
    """What an element holds: text typed by ``schema``, a list of ``item`` elements, or
    an object of the elements by name."""
    text = "".join(element.texts)
    kinds = types_of(schema)
    if not element.children:
        if not text.strip() and "string" not in kinds:  # an empty object or list
            for kind in kinds:
                if kind == "object":
                    return {}
                if kind == "array":
                    return []
        return typed(text, schema)
    need(not text.strip(), f"text beside the elements of <{element.name}>: {text.strip()[:40]!r}")
    items = all(child.name == "item" for child in element.children)
    if "array" in kinds and (items or "object" not in kinds):
        listed = True
    else:
        listed = items and "object" not in kinds  # the template writes a list so
    if listed:
        return [value(c, _item_schema(schema, i)) for i, c in enumerate(element.children)]
    found: dict[str, Any] = {}
    twice: set[str] = set()
    for child in element.children:
        member = value(child, _member_schema(schema, child.name))
        if child.name in found:  # a key written twice: both kept, as a list (as vLLM, SGLang)
            if child.name not in twice:
                found[child.name] = [found[child.name]]
                twice.add(child.name)
            found[child.name].append(member)
        else:
            found[child.name] = member
    return found


def _shape(schema: Schema, kind: str) -> Mapping[str, Any] | None:
    """The part of ``schema`` that describes its ``kind`` values (an ``anyOf`` option)."""
    if schema is None:
        return None
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list):
            for option in options:
                if isinstance(option, Mapping) and kind in types_of(option):
                    return option
    return schema


def _item_schema(schema: Schema, index: int) -> Schema:
    shape = _shape(schema, "array")
    if shape is None:
        return None
    prefix = shape.get("prefixItems")
    items = prefix[index] if isinstance(prefix, list) and index < len(prefix) else None
    if not isinstance(items, Mapping):
        items = shape.get("items")
    return items if isinstance(items, Mapping) else None


def _member_schema(schema: Schema, key: str) -> Schema:
    shape = _shape(schema, "object")
    if shape is None:
        return None
    properties = shape.get("properties")
    member = properties.get(key) if isinstance(properties, Mapping) else None
    if not isinstance(member, Mapping):
        member = shape.get("additionalProperties")
    return member if isinstance(member, Mapping) else None


def _invoke(body: str, schemas: ToolSchemas) -> list[Call]:
    """``name="NAME">`` + the argument elements (the body after ``NS<invoke``)."""
    head = _HEAD.match(body)
    need(head is not None, "the call has no tool name")
    assert head is not None
    name = head.group(1).strip()
    root = elements(body[head.end() :])
    rest = "".join(root.texts).strip()
    need(not rest, f"text beside the arguments: {rest[:40]!r}")
    arguments: dict[str, Any] = {}
    for element in root.children:
        key = element.name
        need(key not in arguments, f"the argument {key!r} is written twice")
        arguments[key] = value(element, property_schema(schemas, name, key))
    return [Call(name, arguments)]


_OPEN = re.compile(re.escape(NS) + r"\s*<([^/<>][^<>]*)>")
_NS = Literals((NS,))
_LIMIT = 4096  # text between arguments longer than this is no argument: streaming stops
_OUT, _FRESH, _STRING, _HOLD, _STOP = range(5)


class ElementArguments(Stepwise):
    """A call's body in, the JSON text of its arguments out: ``{"key": `` when an
    argument's tag is whole, a text value's characters as they arrive (once its first
    one shows it is no element), any other value whole at its closing tag."""

    __slots__ = ("_depth", "_key", "_keys", "_scanned", "_schema", "_schemas", "_state")

    def __init__(self, schemas: ToolSchemas) -> None:
        super().__init__()
        self._schemas = schemas
        self._state = _OUT
        self._keys: set[str] = set()
        self._key = ""
        self._schema: Schema = None
        self._depth = 0  # elements open inside a held value
        self._scanned = 0  # how far into ``_buf`` a held value was read

    def named(self, tool: str) -> None:
        self._tool = tool.strip()

    def feed(self, text: str) -> str:
        state = self._state
        if state == _STOP:
            return ""
        if state == _STRING and not self._buf and NS[0] not in text:  # (the common case)
            piece = escaped(text)
            self._sent.append(piece)
            return piece
        return self._more(text)

    def _step(self, out: list[str]) -> bool:
        state, buf = self._state, self._buf
        if state == _OUT:
            found = _OPEN.search(buf)
            if found is None:
                if len(buf) > _LIMIT:
                    self._stop("")
                return False
            key = found.group(1).strip()
            if key in self._keys:
                self._stop(f"the argument {key!r} is written twice")
                return False
            out.append((", " if self._keys else "{") + json.dumps(key, ensure_ascii=False) + ": ")
            self._keys.add(key)
            assert self._tool is not None
            self._key, self._schema = key, property_schema(self._schemas, self._tool, key)
            self._buf, self._scanned, self._depth = buf[found.end() :], 0, 0
            self._state = _FRESH if is_text(self._schema) else _HOLD
            return True
        if state == _FRESH:
            return self._fresh(out, buf)
        if state == _STRING:
            return self._string(out, buf)
        return self._held(out, buf)

    def _fresh(self, out: list[str], buf: str) -> bool:
        """A value that is text unless it starts with an element: its first character."""
        at = self._scanned
        while at < len(buf) and buf[at].isspace():
            at += 1
        self._scanned = at
        rest = buf[at:]
        if NS.startswith(rest):
            return False  # blanks, or the start of a tag: not known yet
        if rest.startswith(NS):
            tag = rest[len(NS) :].lstrip()
            if tag in ("", "<"):
                return False
            if tag.startswith("<") and not tag.startswith("</"):
                self._state, self._scanned = _HOLD, 0  # elements: held to their end
                return True
        out.append('"')
        self._state = _STRING
        return True

    def _string(self, out: list[str], buf: str) -> bool:
        """A text value's characters up to the prefix of a tag; its closing tag ends it.
        Before any other tag the text read is handed on all the same, then the stream
        stops: what was sent does not depend on where chunks were cut."""
        at = buf.find(NS)
        if at < 0:
            safe = _NS.held(buf, 0)
            if safe:
                out.append(escaped(buf[:safe]))
                self._buf = buf[safe:]
            return False
        if at:
            out.append(escaped(buf[:at]))
            self._buf = buf = buf[at:]
        tag = _TAG.match(buf, len(NS))
        if tag is None:
            if _UNFINISHED.match(buf, len(NS)) is None:
                self._stop("")  # (the call's parse says why)
            return False
        if not tag.group(1) or tag.group(2).strip() != self._key:
            self._stop("")  # an element after text, a wrong closer: the parse says why
            return False
        out.append('"')
        self._buf, self._state = buf[tag.end() :], _OUT
        return True

    def _held(self, out: list[str], buf: str) -> bool:
        """A value that is no text: read to its closing tag (what is read kept aside),
        then written whole."""
        i = self._scanned
        while True:
            at = buf.find(NS, i)
            if at < 0:
                self._keep(_NS.held(buf, i))
                self._scanned = 0
                return False
            tag = _TAG.match(buf, at + len(NS))
            if tag is None:
                if _UNFINISHED.match(buf, at + len(NS)) is None:
                    self._stop("")
                    return False
                self._keep(at)
                self._scanned = 0
                return False
            i = tag.end()
            if not tag.group(1):
                self._depth += 1
                continue
            if self._depth:
                self._depth -= 1
                continue
            try:
                found = value(elements(self._kept(buf[:at]), self._key), self._schema)
            except ValueError:
                self._stop("")
                return False
            out.append(json.dumps(found, ensure_ascii=False))
            self._buf, self._state = buf[i:], _OUT
            return True

    def _stop(self, problem: str) -> None:
        self._state, self._buf, self._problem, self._value = _STOP, "", problem, []


INVOKE = CallFormat(
    NS + "<invoke",
    # (an argument named "invoke" holds its own NS</invoke>)
    EndSpec(closers=(NS + "</invoke>",), regions=((NS + "<invoke>", (NS + "</invoke>",)),)),
    _invoke,
    name=re.compile(r'\A\s*name="(?P<name>[^"]*)"'),
    name_ends='"',
    stream=ElementArguments,
)

MINIMAX_M3 = Grammar(
    thinking=(("<mm:think>", "</mm:think>"),),
    sections=(Section(NS + "<tool_call>", NS + "</tool_call>", (INVOKE,)),),
    hidden=("</mm:think>",),
)
