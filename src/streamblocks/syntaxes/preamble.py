"""``!!<id>:<type>[:<param>...]`` … ``!!end`` blocks."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from ..core.errors import ErrorCode
from ..core.registry import BlockType
from ..prompts import listing
from .base import (
    CONTENT,
    PENDING,
    REJECT,
    Header,
    LineParser,
    LineSyntax,
    OpenedBlock,
    TypeTable,
    Verdict,
    WholeBlock,
    literal_line,
    literal_line_pattern,
    new_tuple,
    set_starts_with,
)

_NAME_CHARS = r"[A-Za-z0-9_.\-]"
_STANDARD = ("id", "block_type", "params")
_KEYED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.DOTALL)


@functools.lru_cache(maxsize=16)
def _patterns(delimiter: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The opener line (``<delimiter><id>:<type>[:<param>...]``), and what a partial
    opener line may be (every prefix of one, the parameters running to the line end)."""
    partial = rf"(?:{_NAME_CHARS}+(?::(?:{_NAME_CHARS}+(?::.*|\s*))?)?)?"
    for char in reversed(delimiter[1:]):
        partial = f"(?:{re.escape(char)}{partial})?"
    return (
        re.compile(rf"{re.escape(delimiter)}({_NAME_CHARS}+):({_NAME_CHARS}+)((?::[^:]*)*)"),
        re.compile(re.escape(delimiter[0]) + partial, re.DOTALL),
    )


def _metadata(
    block_id: str, type_name: str, params: list[str], block_type: BlockType | None
) -> tuple[dict[str, Any], list[str], str | None]:
    """The metadata mapping of an opener's parameters, the positional ones, and the
    problem when one does not fit the type's metadata model.

    ``key=value`` parameters are keys of the mapping; the others are positional: the
    ``params`` list, or, when the type's metadata model has no ``params`` field, its
    other fields in the order declared.
    """
    model = block_type.metadata if block_type is not None else None
    if not params and model is None:  # (the common opener: no parameters, no model)
        return {"id": block_id, "block_type": type_name, "params": []}, [], None
    positional: list[str] = []
    keyed: dict[str, str] = {}
    problem: str | None = None
    for param in params:
        found = _KEYED.fullmatch(param)
        if found is None:
            positional.append(param)
        elif found.group(1) in _STANDARD or found.group(1) in keyed:
            problem = problem or f"parameter {found.group(1)!r} is given twice"
        else:
            keyed[found.group(1)] = found.group(2)
    mapping: dict[str, Any] = {"id": block_id, "block_type": type_name}
    if model is None or "params" in model.model_fields:
        mapping["params"] = positional
    else:
        free = [name for name in model.model_fields if name not in _STANDARD]
        for name, value in zip(free, positional, strict=False):
            if name in keyed:
                problem = problem or f"parameter {name!r} is given twice"
            mapping[name] = value
        if len(positional) > len(free):
            extra = positional[len(free)]
            problem = problem or (
                f"parameter {extra!r} does not fit the metadata model {model.__name__} "
                "(no field is left for it)"
            )
    mapping.update(keyed)
    if model is not None:
        unknown = [key for key in keyed if key not in model.model_fields]
        if unknown:
            problem = problem or (
                f"parameter {unknown[0]!r} is not a field of the metadata model {model.__name__}"
            )
    return mapping, positional, problem


def _header(found: re.Match[str] | None, types: TypeTable) -> Header | None:
    """The header of an opener line (``found``: the opener pattern's match of it, or
    ``None``), or ``None`` when the line opens no block."""
    if found is None:
        return None
    block_id, marker, tail = found.groups()
    params = tail.split(":")[1:] if tail else []
    block_type = types.resolve(marker)
    if block_type is None and types.unknown == "text":
        return None
    type_name = block_type.name if block_type is not None else marker
    metadata, positional, problem = _metadata(block_id, type_name, params, block_type)
    attrs: dict[str, Any] = {"params": positional} if positional else {}
    if len(metadata) > 3 or "params" not in metadata:  # (keys other than the standard)
        for key, value in metadata.items():
            if key not in _STANDARD:
                attrs[key] = value
    error = None if problem is None else (ErrorCode.VALIDATION_FAILED, problem)
    return new_tuple(Header, (marker, block_type, block_id, attrs, metadata, error))


@mypyc_attr(allow_interpreted_subclasses=True)
class _PreambleBlock(LineParser):
    def __init__(self, header: Header, end_marker: str) -> None:
        self.header = header
        self.started = True
        self.end_marker = end_marker
        self.marker_starts = end_marker[0]
        self.closing_line = literal_line_pattern(end_marker)

    def on_line(self, line: str, complete: bool) -> Verdict:
        verdict = literal_line(line, self.end_marker, complete)
        return CONTENT if verdict is REJECT else verdict


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class DelimiterPreambleSyntax(LineSyntax):
    """A line ``!!<id>:<type>[:<param>...]``, content lines, a line ``!!end``.

    The markers start in the first column; trailing whitespace after them is ignored.
    The content is the body text, each line keeping its newline. Ids and type names use
    letters, digits, ``_``, ``.`` and ``-``; parameters are any text between colons,
    positional (``:src/app.py``) or named (``:line=12``). The metadata mapping is
    ``{"id", "block_type", "params": [positional...], <name>: <value>...}``; with a
    metadata model that has no ``params`` field, positional parameters fill its other
    fields in order. A parameter that does not fit the model is a validation error.

    ``delimiter`` (default ``"!!"``) is the prefix of both markers:
    ``DelimiterPreambleSyntax(delimiter="@@")`` reads ``@@id:type`` … ``@@end``.
    """

    end_marker: str = "!!end"
    delimiter: str = "!!"

    def __post_init__(self) -> None:
        delimiter = self.delimiter
        if not isinstance(delimiter, str) or not delimiter or delimiter != delimiter.strip():
            raise ValueError(f"delimiter must be text with no spaces, got {delimiter!r}")
        if ":" in delimiter or "\n" in delimiter or any(c.isspace() for c in delimiter):
            raise ValueError(f"delimiter must not hold ':' or whitespace, got {delimiter!r}")
        if self.end_marker == "!!end" and delimiter != "!!":
            object.__setattr__(self, "end_marker", delimiter + "end")
        # the scanner offers this syntax the lines starting with the delimiter's first
        # character (an instance attribute: the delimiter is configurable)
        set_starts_with(self, delimiter[0])

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        opener, partial = _patterns(self.delimiter)
        size = len(self.delimiter)
        if not complete:
            found = partial.fullmatch(line)
            if found is None:
                return REJECT
            if types.unknown == "text":
                rest = line[size:].partition(":")[2]
                typed = rest.partition(":")[0].rstrip()
                if rest and typed not in types.prefixes:
                    return REJECT
            return PENDING
        header = _header(opener.fullmatch(line.rstrip()), types)
        if header is None:
            return REJECT
        return _PreambleBlock(header, self.end_marker)

    def read_whole(
        self, text: str, start: int, line_end: int, types: TypeTable
    ) -> WholeBlock | OpenedBlock | Verdict | None:
        opened = _patterns(self.delimiter)[0].fullmatch(text[start:line_end].rstrip())
        if opened is None:
            return REJECT
        header = _header(opened, types)
        if header is None:
            return REJECT
        closed = literal_line_pattern(self.end_marker).search(text, line_end)
        if closed is None:  # (the content runs on: the block starts with its opener)
            return new_tuple(OpenedBlock, (_PreambleBlock(header, self.end_marker), line_end + 1))
        return new_tuple(WholeBlock, (header, line_end + 1, closed.start() + 1, closed.end()))

    def describe(self, types: Sequence[BlockType]) -> str:
        d = self.delimiter
        intro = (
            f"You can write the following blocks, each as a line `{d}<id>:<type>` (optionally "
            f"followed by `:<param>` parts), its content lines, then a line `{self.end_marker}`"
            ". Markers start a line; <id> is a short unique name (letters, digits, _ . -). "
            f"Example:\n{d}n1:{types[0].marker}\n...\n{self.end_marker}\nBlock types:"
        )
        return listing(intro, types, lambda block_type: block_type.marker)


# Class attributes set after the class: mypyc would make a dataclass field of a
# ClassVar written in the class body.
DelimiterPreambleSyntax.name = "delimiter_preamble"
