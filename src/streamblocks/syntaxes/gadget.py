"""``!!!GADGET_START:<name>`` / ``!!!ARG:<pointer>`` + value lines / ``!!!GADGET_END``.

A gadget is a tool call written as plain text, so any text model can make one::

    !!!GADGET_START:Calculator
    !!!ARG:operation
    multiply
    !!!ARG:a
    15
    !!!GADGET_END

The block's ``type`` is the gadget name (a registered type), its ``attrs`` are
``{"name": <name as written>}`` and its ``content`` is the argument object built from
the pointers (see :mod:`streamblocks.syntaxes.arguments`), or the ``content`` model's
instance. Each value streams as ``BLOCK_DELTA`` whose ``path`` is the argument's
pointer; ``!!!ARG:`` lines are structure and are not streamed.

A finished gadget maps to a tool call as ``{"id": block.id, "name": block.type,
"arguments": block.content}`` (``block.content.model_dump()`` when it is a model); the
id is the session's deterministic ``block-<n>``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from ..core.registry import BlockType
from ..prompts import listing
from .arguments import build_arguments, normalize_pointer
from .base import Header, LineParser, ParseFailure, Syntax, TypeTable, Verdict, set_starts_with
from .gadget_partial import GadgetSource

_NAME = re.compile(r"[A-Za-z0-9_.\-]+")
_NAME_SO_FAR = re.compile(r"[A-Za-z0-9_.\-]*\s*")


@mypyc_attr(allow_interpreted_subclasses=True)
class _GadgetBlock(LineParser):
    """One gadget being read: classifies ``!!!ARG:`` lines, value lines and the end."""

    def __init__(self, header: Header, syntax: GadgetSyntax, names: tuple[str, ...]) -> None:
        self.header = header
        self.started = True
        self.syntax = syntax
        self.names = names
        self.arguments = 0
        # Until the first argument every line is asked about (text there is an error,
        # not a value); afterwards only lines that can start a marker are.
        self.marker_starts = None
        self._starts = syntax.end_prefix[0] + syntax.arg_prefix[0]
        self._partial: GadgetSource | None = None

    def partial_source(self) -> GadgetSource:
        """The source of the block's ``BlockDelta.partial`` (its ``!!!ARG:`` lines
        are told to it as they are read)."""
        block_type = self.header.block_type if self.header is not None else None
        self._partial = GadgetSource(block_type)
        return self._partial

    def on_line(self, line: str, complete: bool) -> Verdict:
        syntax = self.syntax
        end = _end_verdict(line, complete, syntax.end_prefix, self.names)
        if end is Verdict.CLOSE:
            return end
        arg = syntax.arg_prefix
        if line.startswith(arg):
            if not complete:
                return Verdict.PENDING
            self.arguments += 1
            self.path = normalize_pointer(line[len(arg) :])
            if self._partial is not None:
                self._partial.begin(self.path)
            self.marker_starts = self._starts
            return Verdict.BODY
        if end is Verdict.PENDING or (not complete and arg.startswith(line)):
            return Verdict.PENDING
        return Verdict.CONTENT if self.path is not None else Verdict.BODY

    def parse(self, body: str) -> Any:
        arg = self.syntax.arg_prefix
        pairs: list[tuple[str, list[str]]] = []
        lines = body.split("\n")
        if lines[-1] == "":
            lines.pop()
        values: list[str] | None = None
        for line in lines:
            if line.startswith(arg):
                values = []
                pairs.append((line[len(arg) :].rstrip("\r"), values))
            elif values is not None:
                values.append(line)
            elif line.strip():
                raise ParseFailure(f"Text before the first argument: {line.strip()!r}")
        if len(pairs) != self.arguments:
            raise ParseFailure(f"An argument line ({arg}...) is longer than the marker size limit")
        block_type = self.header.block_type if self.header is not None else None
        model = block_type.content if block_type is not None else None
        return build_arguments(pairs, model)


def _end_verdict(line: str, complete: bool, prefix: str, names: tuple[str, ...]) -> Verdict:
    """Is ``line`` the end marker: ``prefix``, then optionally the gadget's name
    (after an optional ``:``), then only whitespace?"""
    if len(line) < len(prefix) or not line.startswith(prefix):
        if not complete and prefix.startswith(line):
            return Verdict.PENDING
        return Verdict.REJECT
    tail = line[len(prefix) :].lstrip()
    if tail.startswith(":"):
        tail = tail[1:].lstrip()
    if complete:
        return Verdict.CLOSE if not tail or tail.rstrip() in names else Verdict.REJECT
    if not tail or any(
        name.startswith(tail) or (tail.startswith(name) and not tail[len(name) :].strip())
        for name in names
    ):
        return Verdict.PENDING
    return Verdict.REJECT


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class GadgetSyntax(Syntax):
    """Tool calls as text: a start line naming the gadget, ``!!!ARG:<pointer>`` lines
    each followed by the argument's value lines, and an end line.

    * ``start_prefix`` + the gadget name (a registered type), alone on its line.
    * ``arg_prefix`` + a JSON pointer (RFC 6901; no leading ``/``, one is tolerated):
      ``path``, ``config/timeout``, ``items/0``, ``users/0/name``, ``a~1b`` (key
      ``a/b``). The value is every line up to the next marker.
    * ``end_prefix``, optionally followed by the gadget's name (``!!!GADGET_END``,
      ``!!!GADGET_END:Calculator``, ``<<<END:Calculator``); a line naming another
      gadget is a value line.

    Markers start a line, are case-sensitive, and tolerate trailing whitespace. A
    value line cannot start with a marker prefix. Errors (``Duplicate pointer: <p>``,
    ``Array index gap: expected <n>, got <m>``, conflicting or malformed pointers, text
    before the first argument) reject the block with ``PARSE_FAILED`` when it closes.
    """

    start_prefix: str = "!!!GADGET_START:"
    end_prefix: str = "!!!GADGET_END"
    arg_prefix: str = "!!!ARG:"

    def __post_init__(self) -> None:
        prefixes = (self.start_prefix, self.end_prefix, self.arg_prefix)
        for label, prefix in zip(
            ("start_prefix", "end_prefix", "arg_prefix"), prefixes, strict=True
        ):
            if not isinstance(prefix, str) or not prefix.strip() or prefix != prefix.lstrip():
                raise ValueError(
                    f"GadgetSyntax.{label} must be text starting a line, got {prefix!r}"
                )
            if "\n" in prefix or "\r" in prefix:
                raise ValueError(f"GadgetSyntax.{label} must be on one line, got {prefix!r}")
        if self.arg_prefix.startswith(self.end_prefix) or self.end_prefix.startswith(
            self.arg_prefix
        ):
            raise ValueError(
                "GadgetSyntax.arg_prefix and end_prefix must not be prefixes of each other"
            )
        # The session's prefilter reads ``starts_with``; with custom markers it is the
        # first character of this instance's start prefix.
        set_starts_with(self, self.start_prefix[0])

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        prefix = self.start_prefix
        if not line.startswith(prefix):
            if not complete and prefix.startswith(line):
                return Verdict.PENDING
            return Verdict.REJECT
        rest = line[len(prefix) :]
        if not complete:
            return Verdict.PENDING if _could_name(rest.lstrip(), types) else Verdict.REJECT
        written = rest.strip()
        if written not in types.markers and (
            types.unknown == "text" or not _NAME.fullmatch(written)
        ):
            return Verdict.REJECT
        block_type = types.resolve(written)
        names = (
            (written,) if block_type is None else tuple(dict.fromkeys((written, block_type.name)))
        )
        header = Header(
            name=written,
            block_type=block_type,
            block_id=None,
            attrs={"name": written},
            metadata=None,
        )
        return _GadgetBlock(header, self, names)

    def describe(self, types: Sequence[BlockType]) -> str:
        start, arg, end = self.start_prefix, self.arg_prefix, self.end_prefix
        intro = (
            "You can call the following gadgets (tools). To call one, write a line "
            f"`{start}<gadget name>`, then for each argument a line `{arg}<argument>` "
            f"followed by the argument's value on the next line(s), then a line `{end}`. "
            "Markers start a line. Nested fields and list items are addressed with `/` "
            "(`config/timeout`, `items/0`, `items/1`, `users/0/name`); list items are "
            "numbered from 0 without gaps. A value on a single line is read as a number or "
            "true/false when it looks like one; a value spanning several lines is kept as "
            "text, exactly as written. Example:\n"
            f"{start}{types[0].marker}\n{arg}<argument>\n<value>\n"
            f"{arg}<list argument>/0\n<first line>\n<second line>\n{end}\n"
            "Gadgets:"
        )
        return listing(intro, types, lambda block_type: block_type.marker, content_label="argument")


# Class attributes set after the class: mypyc would make a dataclass field of a
# ClassVar written in the class body.
GadgetSyntax.name = "gadget"


def _could_name(so_far: str, types: TypeTable) -> bool:
    """Can a start line whose name part (left-stripped) is ``so_far`` still open?"""
    for marker in types.markers:
        if marker.startswith(so_far) or (
            so_far.startswith(marker) and not so_far[len(marker) :].strip()
        ):
            return True
    return types.unknown != "text" and _NAME_SO_FAR.fullmatch(so_far) is not None
