"""Reading what ``streamblocks extract`` is given: raw text, NDJSON or SSE of provider events.

The format is decided from the first non-blank line: a JSON object means one provider
event per line (NDJSON, as a JSONL log, ``claude -p --output-format stream-json`` or
``codex exec --json`` writes them), a JSON array of objects means one document holding
the events (``claude -p --output-format json --verbose``), ``data:``/``event:`` lines
mean a server-sent-events body, anything else is text. The provider is then detected from
the first event, as the processor does for live streams.
"""

from __future__ import annotations

import codecs
import importlib
import importlib.util
import json
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import IO, Any

from ..adapters import ENTRY_POINT_GROUP, IdentityInputAdapter, InputAdapter, detect_input_adapter
from ..core.errors import AdapterWarning
from ..core.registry import BlockRegistry

BINARY_SNIFF = 8192
READ_SIZE = 65536
_ARRAY_OF_OBJECTS = re.compile(r'\[\s*\{\s*"')


class CLIError(Exception):
    """A problem the user can fix; printed as one line, exit code 2."""


@dataclass
class Source:
    """An opened input: its stream of items (text chunks or provider events) and how
    it was read."""

    items: Iterator[Any]
    format: str
    """``"text"``, ``"ndjson"``, ``"json"`` (one array of events) or ``"sse"``."""
    adapter: InputAdapter | None
    """``None`` for text."""
    size: int | None
    """Bytes, when known (a regular file)."""


def adapter_names() -> list[str]:
    return sorted({ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)})


def load_adapter(name: str) -> InputAdapter:
    """The adapter registered under the entry point ``name``."""
    found = [ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not found:
        names = ", ".join(["text", *adapter_names()])
        raise CLIError(f"unknown adapter {name!r}; choose one of: {names}")
    try:
        obj = found[0].load()
    except ImportError as exc:
        raise CLIError(f"adapter {name!r} cannot be loaded: {exc}") from exc
    adapter = obj() if isinstance(obj, type) else obj
    if not (hasattr(adapter, "categorize") and hasattr(adapter, "extract_text")):
        raise CLIError(f"entry point {name!r} ({found[0].value}) is not an input adapter")
    return adapter  # type: ignore[no-any-return]


def load_registry(spec: str) -> BlockRegistry:
    """``path/to/file.py:attr`` or ``package.module:attr`` → the registry it names.

    ``attr`` may be dotted, and may name a function returning a registry.
    """
    target, sep, attr = spec.rpartition(":")
    if not sep or not target or not attr:
        raise CLIError(f"--registry wants FILE.py:NAME or MODULE:NAME, got {spec!r}")
    try:
        if target.endswith(".py") or "/" in target or "\\" in target:
            path = Path(target)
            if not path.is_file():
                raise CLIError(f"--registry: no such file: {target}")
            name = f"_streamblocks_registry_{abs(hash(str(path.resolve())))}"
            spec_obj = importlib.util.spec_from_file_location(name, path)
            if spec_obj is None or spec_obj.loader is None:
                raise CLIError(f"--registry: cannot import {target}")
            module = importlib.util.module_from_spec(spec_obj)
            sys.modules[name] = module
            spec_obj.loader.exec_module(module)
        else:
            module = importlib.import_module(target)
        obj: Any = module
        for part in attr.split("."):
            obj = getattr(obj, part)
        if not isinstance(obj, BlockRegistry) and callable(obj):
            obj = obj()
    except CLIError:
        raise
    except Exception as exc:
        raise CLIError(f"cannot load registry {spec!r}: {type(exc).__name__}: {exc}") from exc
    if not isinstance(obj, BlockRegistry):
        raise CLIError(f"{spec!r} is a {type(obj).__name__}, not a BlockRegistry")
    return obj


def _open(path: str) -> tuple[IO[bytes], int | None]:
    if path == "-":
        return sys.stdin.buffer, None
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the reader
    except OSError as exc:
        raise CLIError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        size: int | None = Path(path).stat().st_size
    except OSError:
        size = None
    return handle, size


class _Reader:
    """Buffered binary reading with a byte counter (for the progress bar)."""

    def __init__(self, handle: IO[bytes], name: str) -> None:
        self.handle = handle
        self.name = name
        self.head = handle.read(BINARY_SNIFF)
        self.position = 0
        self.on_progress: Callable[[int], None] | None = None
        if b"\x00" in self.head:
            raise CLIError(f"{name} looks like a binary file (it contains NUL bytes)")

    def _advance(self, count: int) -> None:
        self.position += count
        if self.on_progress is not None:
            self.on_progress(self.position)

    def blocks(self) -> Iterator[bytes]:
        if self.head:
            head, self.head = self.head, b""
            self._advance(len(head))
            yield head
        while True:
            data = self.handle.read(READ_SIZE)
            if not data:
                return
            self._advance(len(data))
            yield data

    def text(self) -> Iterator[str]:
        decoder = codecs.getincrementaldecoder("utf-8")()
        offset = 0
        for data in self.blocks():
            try:
                text = decoder.decode(data)
            except UnicodeDecodeError as exc:
                raise CLIError(
                    f"{self.name} is not UTF-8 text (byte {offset + exc.start})"
                ) from None
            offset += len(data)
            if text:
                yield text
        try:
            tail = decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            raise CLIError(f"{self.name} is not UTF-8 text (it ends inside a character)") from None
        if tail:
            yield tail

    def lines(self) -> Iterator[str]:
        parts: list[str] = []  # the current line's pieces: no quadratic joins
        for text in self.text():
            if "\n" not in text:
                parts.append(text)
                continue
            first, *complete, last = text.split("\n")
            parts.append(first)
            yield "".join(parts)
            yield from complete
            parts = [last] if last else []
        if parts:
            yield "".join(parts)

    def close(self) -> None:
        if self.handle is not sys.stdin.buffer:
            self.handle.close()


def _first_line(head: bytes) -> str:
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def sniff(head: bytes) -> str:
    """``"ndjson"``, ``"json"``, ``"sse"`` or ``"text"``, from the first bytes of an input."""
    line = _first_line(head)
    if line.startswith(("data:", "event:")):
        return "sse"
    if line.startswith("["):
        # An array of event objects, on one line or pretty-printed over many. Anything
        # else starting with a bracket (a markdown link, a list of numbers) is text.
        text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
        return "json" if _ARRAY_OF_OBJECTS.match(text) else "text"
    if line.startswith("{"):
        try:
            value = json.loads(line)
        except ValueError:
            # A cut line (the sniffed head ends mid-line) or a broken log: JSON-looking
            # text is only treated as events when it says so with a quoted key.
            return "ndjson" if line.startswith('{"') else "text"
        return "ndjson" if isinstance(value, dict) else "text"
    return "text"


def _json_items(lines: Iterator[str], name: str, sse: bool) -> Iterator[Any]:
    for number, line in enumerate(lines, 1):
        line = line.strip().lstrip("\ufeff")
        if not line:
            continue
        if sse:
            if line.startswith(("event:", "id:", "retry:", ":")):
                continue
            if not line.startswith("data:"):
                raise CLIError(f"{name}, line {number}: not a server-sent-events line")
            line = line[5:].strip()
            if line == "[DONE]" or not line:
                continue
        try:
            value = json.loads(line)
        except ValueError as exc:
            raise CLIError(f"{name}, line {number}: invalid JSON ({exc})") from None
        if isinstance(value, list) and all(isinstance(item, dict) for item in value):
            yield from value  # a whole transcript as one array on one line
            continue
        if not isinstance(value, dict):
            raise CLIError(
                f"{name}, line {number}: expected a JSON object, got {type(value).__name__}"
            )
        yield value


def _array_items(texts: Iterator[str], name: str) -> Iterator[Any]:
    """The events of an input that is one JSON array (read whole: it is one document)."""
    try:
        value = json.loads("".join(texts).lstrip("\ufeff"))
    except ValueError as exc:
        raise CLIError(f"{name}: invalid JSON ({exc})") from None
    if not isinstance(value, list):
        raise CLIError(f"{name}: expected a JSON array of events, got {type(value).__name__}")
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise CLIError(
                f"{name}, item {index}: expected a JSON object, got {type(item).__name__}"
            )
        yield item


def _detected(items: Iterator[Any], name: str, forced: InputAdapter | None) -> Source | None:
    """Peek the first event, choose the adapter; ``None`` for an empty input."""
    try:
        first = next(items)
    except StopIteration:
        return None
    adapter = forced
    if adapter is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AdapterWarning)
            adapter = detect_input_adapter(first)
        if isinstance(adapter, IdentityInputAdapter):
            keys = ", ".join(sorted(first)[:6])
            raise CLIError(
                f"{name}: unknown event format (first event has keys: {keys}); "
                "choose an adapter with --adapter NAME (see `streamblocks adapters`)"
            )

    def chained() -> Iterator[Any]:
        yield first
        yield from items

    return Source(chained(), "ndjson", adapter, None)


def open_source(
    path: str, *, adapter: str | None = None, chunk: int | None = None
) -> tuple[Source, _Reader]:
    """Open ``path`` (``-`` for stdin) and decide how to read it."""
    handle, size = _open(path)
    name = "<stdin>" if path == "-" else path
    reader = _Reader(handle, name)
    forced = load_adapter(adapter) if adapter not in (None, "text") else None
    kind = "text" if adapter == "text" else sniff(reader.head)
    if forced is not None and kind == "text":
        kind = "ndjson"  # an adapter was asked for: the input must be events
    if kind == "text":
        size_chunk = chunk or 4096
        source = Source(_rechunk(reader.text(), size_chunk), "text", None, size)
    else:
        if kind == "json":
            items = _array_items(reader.text(), name)
        else:
            items = _json_items(reader.lines(), name, sse=kind == "sse")
        found = _detected(items, name, forced)
        if found is None:
            source = Source(iter(()), kind, forced, size)
        else:
            found.format, found.size = kind, size
            source = found
    return source, reader


def _rechunk(texts: Iterator[str], size: int) -> Iterator[str]:
    for text in texts:
        for start in range(0, len(text), size):
            yield text[start : start + size]


__all__ = ["CLIError", "Source", "load_adapter", "load_registry", "open_source", "sniff"]
