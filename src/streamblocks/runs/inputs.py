"""What ``streamblocks extract`` is given: raw text, NDJSON or SSE of provider events.

The format is decided from the first non-blank line: a JSON object means one provider
event per line (NDJSON, as a JSONL log, ``claude -p --output-format stream-json`` or
``codex exec --json`` writes them), a JSON array of objects means one document holding
the events (``claude -p --output-format json --verbose``), ``data:``/``event:`` lines
(after any ``:`` comments) mean a server-sent-events body (read by :mod:`streamblocks.sse`),
anything else is text. The provider is then detected from the first event, as the
processor does for live streams. A line that is not an event — not JSON, nested too
deeply, too long — is reported (file and line number) and skipped; the rest is read.
"""

from __future__ import annotations

import re
import sys
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..adapters import EventCategory, IdentityInputAdapter, InputAdapter, detect_input_adapter
from ..core.errors import AdapterWarning
from ..core.json_values import loads
from ..sse import looks_like_sse, sse_messages
from .errors import RunError
from .loading import adapter_name, load_adapter
from .reading import ByteReader, Decoder, Warn, decoded, lines, warn_on_stderr

DEFAULT_CHUNK = 4096
"""Characters per chunk of text input read from a file (a pipe gives what it has)."""

_ARRAY_OF_OBJECTS = re.compile(r'\[\s*\{\s*"')


@dataclass
class Source:
    """An opened input: its items (text chunks or provider events) and how it is read."""

    name: str
    items: Iterator[Any]
    format: str
    """``"text"``, ``"ndjson"``, ``"json"`` (one array of events) or ``"sse"``."""
    adapter: InputAdapter | None
    """``None`` for text."""
    size: int | None
    """Bytes, when known (a regular file)."""
    reader: ByteReader | None = field(default=None, repr=False)

    def close(self) -> None:
        if self.reader is not None:
            self.reader.close()


def _first_line(head: bytes) -> str:
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def sniff(head: bytes) -> str:
    """``"ndjson"``, ``"json"``, ``"sse"`` or ``"text"``, from the first bytes of an input."""
    if looks_like_sse(head.decode("utf-8", errors="replace").splitlines()):
        return "sse"
    line = _first_line(head)
    if line.startswith("["):
        # An array of event objects, on one line or pretty-printed over many. Anything
        # else starting with a bracket (a markdown link, a list of numbers) is text.
        text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
        return "json" if _ARRAY_OF_OBJECTS.match(text) else "text"
    if line.startswith("{"):
        try:
            value = loads(line)
        except (ValueError, RecursionError):
            # A cut line (the sniffed head ends mid-line) or a broken log: JSON-looking
            # text is only treated as events when it says so with a quoted key.
            return "ndjson" if line.startswith('{"') else "text"
        return "ndjson" if isinstance(value, dict) else "text"
    return "text"


MAX_DEPTH = 100
"""Deepest nesting of arrays and objects read in one event; a deeper line (no provider
writes one) is skipped with a warning rather than overflowing the stack later."""

MAX_LINE = 64 * 1024 * 1024
"""Most characters of one NDJSON line; a longer one is skipped with a warning."""


def _ndjson_items(lines: Iterator[str | None], name: str, warn: Warn) -> Iterator[Any]:
    for number, line in enumerate(lines, 1):
        if line is None:
            warn(f"{name}, line {number}: longer than {MAX_LINE} characters; skipped")
            continue
        line = line.strip().lstrip("\ufeff")
        if line:
            yield from json_objects(line, f"{name}, line {number}", warn)


def _sse_items(texts: Iterator[str], name: str, warn: Warn) -> Iterator[Any]:
    for message in sse_messages(texts):
        data = message.data.strip()
        if data and data != "[DONE]":
            yield from json_objects(data, f"{name}, line {message.line}", warn)


def json_objects(text: str, where: str, warn: Warn) -> Iterator[dict[str, Any]]:
    """The event object(s) one line (or SSE message) holds: an object, or an array of
    them (a whole transcript on one line). Anything else is one warning naming
    ``where``, and nothing: a line too deeply nested or too big to parse included."""
    try:
        value = loads(text)
    except ValueError as exc:
        warn(f"{where}: invalid JSON ({exc}); skipped")
        return
    except RecursionError:
        warn(f"{where}: JSON nested too deeply to read; skipped")
        return
    except MemoryError:
        warn(f"{where}: a JSON line of {len(text)} characters is too big to read; skipped")
        return
    if text.count("{") + text.count("[") > MAX_DEPTH and _depth(value) > MAX_DEPTH:
        warn(f"{where}: JSON nested more than {MAX_DEPTH} levels deep; skipped")
        return
    if isinstance(value, list) and all(isinstance(item, dict) for item in value):
        yield from value
    elif isinstance(value, dict):
        yield value
    else:
        warn(f"{where}: expected a JSON object, got {type(value).__name__}; skipped")


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and dicts (without recursion)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                todo.extend((child, level + 1) for child in item)
    return deepest


def _array_items(texts: Iterator[str], name: str, warn: Warn) -> Iterator[Any]:
    """The events of an input that is one JSON array (read whole: it is one document)."""
    try:
        value = loads("".join(texts).lstrip("\ufeff"))
    except ValueError as exc:
        raise RunError(f"{name}: invalid JSON ({exc})") from None
    except RecursionError:
        raise RunError(f"{name}: a JSON array nested too deeply to read") from None
    if not isinstance(value, list):
        raise RunError(f"{name}: expected a JSON array of events, got {type(value).__name__}")
    for index, item in enumerate(value):
        if isinstance(item, dict):
            yield item
        else:
            kind = type(item).__name__
            warn(f"{name}, item {index}: expected a JSON object, got {kind}; skipped")


def shape(event: Any) -> str:
    """A short description of an event: its ``type`` and first keys."""
    if not isinstance(event, dict):
        return type(event).__name__
    keys = ", ".join(sorted(event)[:6]) + (", …" if len(event) > 6 else "")
    kind = event.get("type")
    return (f'type "{kind}", ' if isinstance(kind, str) else "") + f"keys: {keys}"


def _auto(first: Any) -> InputAdapter:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AdapterWarning)
        return detect_input_adapter(first)


def _fits(adapter: Any, first: Any) -> bool:
    matches = getattr(adapter, "matches", None)
    if matches is not None:
        return bool(matches(first))
    return bool(adapter.categorize(first) is not EventCategory.SKIP)


def choose_adapter(first: Any, name: str, forced: str | None, warn: Warn) -> InputAdapter:
    """The adapter for a stream whose first event is ``first``: the one asked for (with
    one warning when it does not recognise the event), else the detected one."""
    detected = _auto(first)
    unknown = isinstance(detected, IdentityInputAdapter)
    if forced is None:
        if unknown:
            raise RunError(
                f"{name}: unknown event format (first event: {shape(first)}); "
                "choose an adapter with --adapter NAME (see `streamblocks adapters`)"
            )
        return detected
    adapter = load_adapter(forced)
    if not _fits(adapter, first):
        other = "no installed adapter" if unknown else f"the {adapter_name(detected)} adapter"
        warn(
            f"{name}: --adapter {forced} does not recognise the first event ({shape(first)}); "
            f"{other} would match it"
        )
    return adapter


def _events(reader: ByteReader, kind: str, decoder: Decoder, warn: Warn) -> Iterator[Any]:
    texts = decoded(reader.chunks(), decoder)
    if kind == "json":
        return _array_items(texts, reader.name, warn)
    if kind == "sse":
        return _sse_items(texts, reader.name, warn)
    return _ndjson_items(lines(texts, MAX_LINE), reader.name, warn)


def _rechunk(texts: Iterator[str], size: int) -> Iterator[str]:
    for text in texts:
        for start in range(0, len(text), size):
            yield text[start : start + size]


def _open(path: str) -> tuple[Any, str, int | None]:
    if path == "-":
        return sys.stdin.buffer, "<stdin>", None
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by Source.close
        size: int | None = Path(path).stat().st_size
    except OSError as exc:
        raise RunError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return handle, path, size


def open_source(
    path: str,
    *,
    adapter: str | None = None,
    chunk: int | None = None,
    encoding: str = "utf-8",
    warn: Warn = warn_on_stderr,
) -> Source:
    """Open ``path`` (``-`` for stdin) and decide how to read it. The items come as the
    input arrives: a pipe's lines are events as soon as each line ends."""
    handle, name, size = _open(path)
    return open_stream(
        handle, name, size=size, adapter=adapter, chunk=chunk, encoding=encoding, warn=warn
    )


def open_stream(
    handle: Any,
    name: str,
    *,
    size: int | None = None,
    adapter: str | None = None,
    chunk: int | None = None,
    encoding: str = "utf-8",
    warn: Warn = warn_on_stderr,
) -> Source:
    """:func:`open_source` for an open binary ``handle`` (with ``read1`` or ``read``;
    closed with the source unless it is stdin): bytes in memory, lines from Python."""
    try:
        reader = ByteReader(handle, name, encoding)
    except BaseException:
        if handle is not getattr(sys.stdin, "buffer", None):
            handle.close()
        raise
    try:
        return _source(reader, size, adapter, chunk, Decoder(reader.encoding, name, warn), warn)
    except BaseException:
        reader.close()
        raise


def _source(
    reader: ByteReader,
    size: int | None,
    adapter: str | None,
    chunk: int | None,
    decoder: Decoder,
    warn: Warn,
) -> Source:
    kind = "text" if adapter == "text" else sniff(reader.head)
    if adapter not in (None, "text") and kind == "text":
        kind = "ndjson"  # an adapter was asked for: the input must be events
    if kind == "text":
        items = _rechunk(decoded(reader.chunks(), decoder), chunk or DEFAULT_CHUNK)
        return Source(reader.name, items, "text", None, size, reader)
    events = _events(reader, kind, decoder, warn)
    first = next(events, None)
    if first is None:
        return Source(reader.name, iter(()), kind, None, size, reader)
    chosen = choose_adapter(first, reader.name, adapter, warn)

    def chained() -> Iterator[Any]:
        yield first
        yield from events

    return Source(reader.name, chained(), kind, chosen, size, reader)


__all__ = [
    "Source",
    "choose_adapter",
    "json_objects",
    "open_source",
    "open_stream",
    "shape",
    "sniff",
]
