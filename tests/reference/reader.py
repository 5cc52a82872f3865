"""A small reference reader for the five built-in syntaxes, written from DESIGN.md.

It sees the whole text at once and walks it line by line (and, for inline tags,
character by character), deciding each construct with plain string operations. It is
slow and makes no attempt to stream: it exists so that the real core, which decides
the same things incrementally, can be checked against it for every chunking.

Scope: the block types of :class:`Types` (no models, hooks or transforms), unknown
names as text, the default ``Limits`` (the test documents stay far below every limit)
and code awareness (inline code spans and fences the model shows hide markers).

The result is a list of plain tuples (see :func:`events`), with adjacent visible text
and adjacent deltas of one block and path merged, so any chunking compares equal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

Event = tuple[Any, ...]

_NAME = re.compile(r"[A-Za-z0-9_.\-]+")
_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:\-]*")
_UNQUOTED = re.compile(r"""[^\s"'<>=`]+""")
_ENTITY = re.compile(r"&(amp|lt|gt|quot|apos|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_INDEX = re.compile(r"0|[1-9][0-9]*")
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


@dataclass
class Types:
    """The registered type names of each syntax, and the configurable prefixes."""

    preamble: tuple[str, ...] = ()
    frontmatter: tuple[str, ...] = ()
    fence: tuple[str, ...] = ()
    xml: tuple[str, ...] = ()
    gadget: tuple[str, ...] = ()
    delimiter: str = "!!"
    order: tuple[str, ...] = ("preamble", "frontmatter", "fence", "gadget")
    """The line syntaxes in registration order (ties between openers of one line)."""


class Broken(Exception):
    """A gadget's arguments do not form an object."""


@dataclass
class Line:
    text: str  # without its line ending
    start: int
    end: int  # after its line ending (or the end of the text)


@dataclass
class Reader:
    source: str
    types: Types
    out: list[Event] = field(default_factory=list)
    anonymous: int = 0

    # ------------------------------------------------------------------ output

    def text(self, piece: str) -> None:
        if not piece:
            return
        if self.out and self.out[-1][0] == "text":
            self.out[-1] = ("text", self.out[-1][1] + piece)
        else:
            self.out.append(("text", piece))

    def new_id(self, written: str | None) -> str:
        if written:
            return written
        self.anonymous += 1
        return f"block-{self.anonymous}"

    def start(self, block_id: str, kind: str, syntax: str, attrs: dict[str, Any]) -> None:
        self.out.append(("start", block_id, kind, syntax, attrs))

    def delta(self, block_id: str, path: str | None, piece: str) -> None:
        if not piece:
            return
        last = self.out[-1]
        if last[0] == "delta" and last[1:3] == (block_id, path):
            self.out[-1] = ("delta", block_id, path, last[3] + piece)
        else:
            self.out.append(("delta", block_id, path, piece))

    def end(
        self,
        block_id: str,
        kind: str,
        syntax: str,
        metadata: Any,
        content: Any,
        attrs: dict[str, Any],
        start: int,
        end: int,
    ) -> None:
        raw = self.source[start:end]
        self.out.append(("end", block_id, kind, syntax, metadata, content, attrs, raw, start, end))

    def error(
        self, block_id: str | None, kind: str | None, code: str, start: int, end: int
    ) -> None:
        self.out.append(("error", block_id, kind, code, self.source[start:end]))

    # ------------------------------------------------------------------ lines

    def line(self, at: int) -> Line:
        """The line starting at ``at``: its text without ``\\n`` or ``\\r\\n``."""
        newline = self.source.find("\n", at)
        if newline < 0:
            return Line(self.source[at:], at, len(self.source))
        text = self.source[at:newline]
        if text.endswith("\r"):
            text = text[:-1]
        return Line(text, at, newline + 1)

    def lines(self, at: int) -> list[Line]:
        """Every line from ``at`` to the end of the text."""
        found = []
        while at < len(self.source):
            line = self.line(at)
            found.append(line)
            at = line.end
        return found

    # ------------------------------------------------------------------ the walk

    def read(self) -> list[Event]:
        at = 0
        while at < len(self.source):
            for syntax in self.types.order:
                after = getattr(self, f"try_{syntax}")(at)
                if after is not None:
                    at = after
                    break
            else:
                at = self.inline(at, self.line(at).end)
        return self.out

    # ------------------------------------------------------------------ !!id:type

    def try_preamble(self, at: int) -> int | None:
        line = self.line(at)
        d = self.types.delimiter
        if not line.text.startswith(d):
            return None
        head = line.text.rstrip()[len(d) :]
        parts = head.split(":")
        if len(parts) < 2 or not all(_NAME.fullmatch(p) for p in parts[:2]):
            return None
        block_id, kind, params = parts[0], parts[1], parts[2:]
        if kind not in self.types.preamble:
            return None
        attrs: dict[str, Any] = {"params": params} if params else {}
        metadata = {"id": block_id, "block_type": kind, "params": params}
        self.start(block_id, kind, "delimiter_preamble", attrs)
        self.out.append(("metadata", block_id, metadata))
        return self.body(line, block_id, kind, "delimiter_preamble", self.is_end, metadata, attrs)

    def is_end(self, text: str) -> bool:
        return is_marker_line(text, self.types.delimiter + "end")

    def body(
        self,
        opener: Line,
        block_id: str,
        kind: str,
        syntax: str,
        closes: Any,
        metadata: Any,
        attrs: dict[str, Any],
        error: bool = False,
        silent: bool = False,
    ) -> int:
        """Content lines up to the closing line; the block's end (or its error).
        ``silent``: a block that never started streams nothing."""
        content = ""
        for line in self.lines(opener.end):
            if closes(line.text):
                if error:
                    self.error(block_id, kind, "PARSE_FAILED", opener.start, line.end)
                else:
                    self.end(
                        block_id, kind, syntax, metadata, content, attrs, opener.start, line.end
                    )
                return line.end
            piece = self.source[line.start : line.end]
            content += piece
            if not silent:
                self.delta(block_id, None, piece)
        self.error(block_id, kind, "UNCLOSED", opener.start, len(self.source))
        return len(self.source)

    # ------------------------------------------------------------------ !!start + YAML

    def try_frontmatter(self, at: int) -> int | None:
        opener = self.line(at)
        d = self.types.delimiter
        if not is_marker_line(opener.text, d + "start"):
            return None
        rest = self.lines(opener.end)
        while rest and not rest[0].text.strip():  # blank lines before the `---`
            rest.pop(0)
        if not rest or not is_marker_line(rest[0].text, "---"):
            return None
        yaml_lines: list[str] = []
        for line in rest[1:]:
            if self.is_end(line.text):  # the frontmatter was never closed
                self.error(None, None, "PARSE_FAILED", opener.start, line.end)
                return line.end
            if not is_marker_line(line.text, "---"):
                yaml_lines.append(self.source[line.start : line.end])
                continue
            mapping = load_mapping("".join(yaml_lines))
            kind = None if mapping is None else mapping.get("block_type")
            if kind is not None and str(kind) not in self.types.frontmatter:
                return None  # names no type of this syntax: `!!start` is text
            header = Line("", opener.start, line.end)
            if kind is None:  # malformed, or no block_type: a broken block, never started
                block_id = self.new_id(None)
                return self.body(
                    header, block_id, None, "", self.is_end, None, {}, error=True, silent=True
                )
            assert mapping is not None
            block_id = self.new_id(written_id(mapping))
            self.start(block_id, str(kind), "delimiter_frontmatter", {})
            self.out.append(("metadata", block_id, mapping))
            return self.body(
                header, block_id, str(kind), "delimiter_frontmatter", self.is_end, mapping, {}
            )
        # the stream ended inside the frontmatter, after its opening `---`
        self.error(None, None, "UNCLOSED", opener.start, len(self.source))
        return len(self.source)

    # ------------------------------------------------------------------ ``` fences

    def try_fence(self, at: int) -> int | None:
        opener = self.line(at)
        fence = opening_fence(opener.text)
        if fence is None:
            return None
        char, length, info = fence
        info_name = info.split()[0] if info else ""
        info_type = info_name if info_name in self.types.fence else None
        attrs: dict[str, Any] = {"info": info} if info else {}
        rest = self.lines(opener.end)

        def closes(text: str) -> bool:
            return is_closing_fence(text, char, length)

        def block(
            kind: str,
            written: str | None,
            metadata: Any,
            content_from: int,
            broken: bool = False,
        ) -> int:
            block_id = self.new_id(written)
            self.start(block_id, kind, "markdown_frontmatter", attrs)
            if metadata is not None:  # a frontmatter was read (a broken one is not announced)
                self.out.append(("metadata", block_id, metadata))
            first = Line("", opener.start, content_from)
            return self.body(
                first,
                block_id,
                kind,
                "markdown_frontmatter",
                closes,
                metadata or {},
                attrs,
                error=broken,
            )

        def shown() -> int:
            for line in rest:
                if closes(line.text):
                    self.text(self.source[opener.start : line.end])
                    return line.end
            self.text(self.source[opener.start :])
            return len(self.source)

        if not rest:  # the stream ended before the fence's first line: not started
            if info_type is None:
                return shown()
            self.error(None, None, "UNCLOSED", opener.start, len(self.source))
            return len(self.source)
        if closes(rest[0].text) or not is_marker_line(rest[0].text, "---"):
            if info_type is None:
                return shown()
            return block(info_type, None, None, opener.end)
        for line in rest[1:]:
            if closes(line.text):  # the fence closed inside the frontmatter
                if info_type is None:
                    return shown()
                return block(info_type, None, None, opener.end)
            if not is_marker_line(line.text, "---"):
                continue
            text = self.source[rest[1].start : line.start] if line is not rest[1] else ""
            mapping = load_mapping(text)
            if mapping is None:
                if info_type is None:
                    return shown()
                return block(info_type, None, None, line.end, broken=True)
            kind = mapping.get("block_type")
            if kind is None:
                if info_type is None:
                    return shown()
                return block(info_type, written_id(mapping), mapping, line.end)
            if str(kind) not in self.types.fence:
                return shown()
            return block(str(kind), written_id(mapping), mapping, line.end)
        if info_type is None:  # the stream ended inside a frontmatter: text
            return shown()
        self.error(None, None, "UNCLOSED", opener.start, len(self.source))  # not started
        return len(self.source)

    # ------------------------------------------------------------------ gadgets

    def try_gadget(self, at: int) -> int | None:
        opener = self.line(at)
        prefix = "!!!GADGET_START:"
        if not opener.text.startswith(prefix):
            return None
        name = opener.text[len(prefix) :].strip()
        if name not in self.types.gadget:
            return None
        block_id = self.new_id(None)
        attrs = {"name": name}
        self.start(block_id, name, "gadget", attrs)
        pairs: list[tuple[str, list[str]]] = []
        stray = False
        for line in self.lines(opener.end):
            if is_gadget_end(line.text, name):
                try:
                    if stray:
                        raise Broken
                    content = build(pairs)
                except Broken:
                    self.error(block_id, name, "PARSE_FAILED", opener.start, line.end)
                else:
                    self.end(block_id, name, "gadget", {}, content, attrs, opener.start, line.end)
                return line.end
            raw_line = self.source[line.start : line.end]
            if line.text.startswith("!!!ARG:"):
                pairs.append((line.text[len("!!!ARG:") :], []))
            elif pairs:
                pairs[-1][1].append(raw_line.removesuffix("\n"))
                self.delta(block_id, pairs[-1][0].strip().removeprefix("/"), raw_line)
            elif line.text.strip():
                stray = True
        self.error(block_id, name, "UNCLOSED", opener.start, len(self.source))
        return len(self.source)

    # ------------------------------------------------------------------ inline tags

    def inline(self, at: int, stop: int) -> int:
        """Visible text from ``at`` to ``stop`` (the end of its line), with inline code
        spans and XML blocks; an XML block may run past ``stop``. Returns where the
        text continues (the start of the next line)."""
        source = self.source
        i = at
        tick = 0  # the length of the backtick run that opened the current code span
        while i < stop:
            char = source[i]
            if char == "`":
                run = i
                while run < len(source) and source[run] == "`":
                    run += 1
                self.text(source[i:run])
                if tick == 0:
                    tick = run - i
                elif run - i == tick:
                    tick = 0
                i = run
            elif char == "<" and tick == 0:
                tag = opening_tag(source, i)
                if tag is None or tag[0] not in self.types.xml:
                    self.text("<")
                    i += 1
                    continue
                after = self.xml_block(i, *tag)
                if after >= stop:  # it ended on a later line: that line goes on
                    stop = self.line_end(after)
                i = after
            else:
                self.text(char)
                i += 1
        return stop

    def line_end(self, at: int) -> int:
        """The end of the line holding offset ``at`` (after its ``\\n``)."""
        newline = self.source.find("\n", at)
        return len(self.source) if newline < 0 else newline + 1

    def xml_block(self, at: int, name: str, attrs: dict[str, str], closed: bool, end: int) -> int:
        block_id = self.new_id(attrs.get("id") or None)
        self.start(block_id, name, "xml", attrs)
        if attrs:
            self.out.append(("metadata", block_id, attrs))
        if closed:
            self.end(block_id, name, "xml", attrs, "", attrs, at, end)
            return end
        closer = re.compile(rf"</{re.escape(name)}[ \t]*>").search(self.source, end)
        if closer is None:
            self.delta(block_id, None, self.source[end:])
            self.error(block_id, name, "UNCLOSED", at, len(self.source))
            return len(self.source)
        content = self.source[end : closer.start()]
        self.delta(block_id, None, content)
        self.end(block_id, name, "xml", attrs, content, attrs, at, closer.end())
        return closer.end()


# ---------------------------------------------------------------------- grammar helpers


def is_marker_line(text: str, marker: str) -> bool:
    """``marker`` followed only by whitespace."""
    return text.startswith(marker) and not text[len(marker) :].strip()


def is_gadget_end(text: str, name: str) -> bool:
    if not text.startswith("!!!GADGET_END"):
        return False
    tail = text[len("!!!GADGET_END") :].strip()
    tail = tail.removeprefix(":").strip()
    return tail in ("", name)


def opening_fence(text: str) -> tuple[str, int, str] | None:
    """(fence character, run length, info string) of an opening fence line."""
    rest = text.lstrip(" ")
    if len(text) - len(rest) > 3 or not rest or rest[0] not in "`~":
        return None
    run = len(rest) - len(rest.lstrip(rest[0]))
    info = rest[run:]
    if run < 3 or (rest[0] == "`" and "`" in info):
        return None
    return rest[0], run, info.strip()


def is_closing_fence(text: str, char: str, length: int) -> bool:
    rest = text.lstrip(" ")
    if len(text) - len(rest) > 3:
        return False
    run = len(rest) - len(rest.lstrip(char))
    return run >= length and not rest[run:].strip(" \t\r")


def load_mapping(text: str) -> dict[str, Any] | None:
    """A YAML mapping, or ``None`` when ``text`` is not one."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if value is None:
        return {}
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else None


def written_id(mapping: dict[str, Any]) -> str | None:
    found = mapping.get("id")
    return None if found is None or found == "" else str(found)


def opening_tag(source: str, at: int) -> tuple[str, dict[str, str], bool, int] | None:
    """(name, attributes, self-closing, end) of a complete opening tag at ``at``.

    ``<name``, then attributes each after whitespace (newlines included: a tag may
    span lines): ``a="v"``, ``a='v'``, ``a=v`` or a bare ``a`` (value ``""``); then
    optional whitespace and ``>`` or ``/>``.
    """
    name = _XML_NAME.match(source, at + 1)
    if name is None:
        return None
    attrs: dict[str, str] = {}
    i = name.end()
    while True:
        j = i
        while j < len(source) and source[j] in " \t\r\n":
            j += 1
        if source.startswith(">", j):
            return name.group(), attrs, False, j + 1
        if source.startswith("/>", j):
            return name.group(), attrs, True, j + 2
        attr = _XML_NAME.match(source, j)
        if j == i or attr is None:
            return None
        i = attr.end()
        if not source.startswith("=", i):
            attrs[attr.group()] = ""
            continue
        i += 1
        quote = source[i : i + 1]
        if quote in ("'", '"'):
            close = source.find(quote, i + 1)
            if close < 0:
                return None
            attrs[attr.group()] = decode(source[i + 1 : close])
            i = close + 1
        else:
            value = _UNQUOTED.match(source, i)
            if value is None:
                return None
            attrs[attr.group()] = decode(value.group())
            i = value.end()


def decode(value: str) -> str:
    def one(found: re.Match[str]) -> str:
        name = found.group(1)
        if name[0] != "#":
            return _ENTITIES[name]
        return chr(int(name[2:], 16) if name[1] in "xX" else int(name[1:]))

    return _ENTITY.sub(one, value)


# ---------------------------------------------------------------------- gadget arguments


def build(pairs: list[tuple[str, list[str]]]) -> dict[str, Any]:
    """The argument object of ``(pointer, value lines)`` pairs (no content model)."""
    root: dict[str, Any] = {}
    for pointer, lines in pairs:
        tokens = pointer.strip().removeprefix("/").split("/")
        if tokens == [""]:
            raise Broken
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in tokens]
        node: Any = root
        for depth, token in enumerate(tokens):
            last = depth == len(tokens) - 1
            if isinstance(node, list):
                if token == "-":
                    token = str(len(node))
                if not _INDEX.fullmatch(token) or int(token) > len(node):
                    raise Broken
                key: Any = int(token)
                present = key < len(node)
            else:
                key = token
                present = key in node
            if last:
                if present:
                    raise Broken
                put(node, key, value(lines))
            elif not present:
                follower = tokens[depth + 1]
                fresh: Any = [] if follower == "-" or _INDEX.fullmatch(follower) else {}
                put(node, key, fresh)
                node = fresh
            else:
                node = node[key]
                if not isinstance(node, (dict, list)):
                    raise Broken
    return root


def put(node: Any, key: Any, item: Any) -> None:
    if isinstance(node, list):
        node.append(item)
    else:
        node[key] = item


def value(lines: list[str]) -> Any:
    if not lines:
        return ""
    last = lines[-1].removesuffix("\r")
    if len(lines) > 1:
        return "\n".join([*lines[:-1], last])
    if last in ("true", "false"):
        return last == "true"
    if _INT.fullmatch(last):
        return int(last)
    if _FLOAT.fullmatch(last):
        return float(last)
    return last


def read(source: str, types: Types) -> list[Event]:
    """The events the reference reads from ``source`` (see the module docstring)."""
    return Reader(source, types).read()
