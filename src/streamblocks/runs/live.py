"""Reading a run live, as ``streamblocks view`` shows it: a file or a pipe, as it arrives.

``streamblocks extract`` opens its input through :mod:`.inputs`, which sniffs up to an
8 KB head before the first event and stops at the first malformed line. A live page
needs the opposite on both counts: every line handed on the moment its newline arrives
(``os.read`` returns what the pipe holds), the format decided from the first line, and a
bad line reported as a warning row while the rest goes on. The bytes are decoded, split
into lines and refused when binary by :mod:`.reading`, as ``extract``'s are; an
undecodable byte is a :class:`UnicodeWarning` naming its offset (the viewer shows it as
a warning row).

The items are text chunks (plain text with blocks), event dicts (NDJSON, an SSE body, a
JSON array of events) or whole :class:`~streamblocks.content.Message` documents (a file
the viewer exported). Bad input becomes a :class:`BadInput` item, never an exception.
"""

from __future__ import annotations

import gc
import json
import os
import re
import select
import time
import warnings
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import IO, Any, NamedTuple, cast

from ..sse import looks_like_sse, sse_messages
from .reading import SNIFF_LIMIT, Decoder, lines, refuse_binary, utf8_chunks
from .reading import decoded as decoded_with

READ_SIZE = 65536
MAX_PAUSE = 5.0
"""The longest pause a paced replay makes between two items, in seconds."""
DEFAULT_GAP = 0.025
"""The gap between items of a paced replay when the input carries no timestamps."""
_TIME_KEYS = ("timestamp", "ts", "time", "created_at")
_DOCUMENT_START = re.compile(r'^(?:[\[{]\s*$|\{\s*"|\[\s*[\[{"])')
"""A first line that opens a pretty-printed JSON document: ``{`` or ``[`` alone, ``{"…``,
``[{…``. Other lines that start with a bracket (a markdown link, ``[TOOL_CALLS]``, a
Llama call list, ``{`` and prose) are text."""


class BadInput(NamedTuple):
    """Input that could not be read: shown on the page as a warning row."""

    message: str


class Document(NamedTuple):
    """A whole exported run (a content-model ``Message`` as JSON)."""

    message: dict[str, Any]


class Waits:
    """Tells the reader when reading is about to wait (a pipe with nothing to read yet,
    a paced replay's pause): :attr:`hook` is called first. The viewer publishes what it
    made then, so a live page is never behind what was read, while a file read at once
    is published in large batches.

    With :attr:`collector_paused` (the viewer's own process, see
    :func:`~streamblocks.view.runs.without_gc_while`) the garbage collector is on only
    while the reader waits: a live run that idles for hours still has its server's
    garbage collected, and input in hand is read without the collector."""

    def __init__(self) -> None:
        self.hook: Callable[[], None] | None = None
        self.collector_paused = False

    def __call__(self) -> None:
        if self.collector_paused:
            gc.enable()
        if self.hook is not None:
            self.hook()

    def resumed(self) -> None:
        """Reading has input again."""
        if self.collector_paused:
            gc.disable()


class Items(Iterator[Any]):
    """The items of an input (:func:`read`), with its :class:`Waits`. A reader that
    takes many items reads :attr:`items`, the iterator itself (no call of
    ``__next__`` in Python per line of a transcript)."""

    def __init__(self, items: Iterator[Any], waits: Waits) -> None:
        self.items = items
        self.waits = waits

    def __next__(self) -> Any:
        return next(self.items)


def _ready(fd: int) -> bool:
    """Whether reading ``fd`` returns at once (a regular file always does)."""
    try:
        return bool(select.select([fd], [], [], 0)[0])
    except (OSError, ValueError):
        return False


def _read_once(handle: IO[bytes], fd: int | None) -> bytes:
    return os.read(fd, READ_SIZE) if fd is not None else handle.read(READ_SIZE)


def raw_chunks(handle: IO[bytes], waits: Waits | None = None) -> Iterator[bytes]:
    """The bytes of ``handle`` as they become available (a pipe hands over each write);
    ``waits`` is called before a read that would wait, and told when it has returned."""
    fileno: Callable[[], int] | None = getattr(handle, "fileno", None)
    try:
        fd = fileno() if fileno is not None else None
    except (OSError, ValueError):
        fd = None
    while True:
        if waits is not None and (fd is None or not _ready(fd)):
            waits()
            data = _read_once(handle, fd)
            waits.resumed()
        else:
            data = _read_once(handle, fd)
        if not data:
            return
        yield data


def _warn(message: str) -> None:
    warnings.warn(message, UnicodeWarning, stacklevel=2)


def decoded(chunks: Iterator[bytes]) -> Iterator[str]:
    """UTF-8 text without its byte-order mark; an undecodable byte becomes U+FFFD (and a
    warning) rather than stopping the page."""
    first = True
    for text in decoded_with(chunks, Decoder("utf-8", "the input", _warn)):
        if first:
            text, first = text.lstrip("\ufeff"), False
            if not text:
                continue
        yield text


def is_message(value: Any) -> bool:
    """Whether ``value`` looks like an exported ``Message`` (role + content list)."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("role"), str)
        and isinstance(value.get("content"), list)
        and "type" not in value
    )


def _decided(head: str, ended: bool) -> bool:
    """Whether the format can be told yet (text is told by its first character, so a
    text stream without newlines is shown at once)."""
    if not head:
        return False
    if ended or head[0] not in "{[de":
        return True
    return head[0] in "de" and len(head) >= len("event:")


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _looks_like_events(first: str) -> bool:
    """Whether the first line starts events: SSE, a JSON line, or a JSON document."""
    stripped = first.strip()
    if stripped.startswith(("data:", "event:")):
        return True
    if not stripped.startswith(("{", "[")):
        return False
    return bool(_DOCUMENT_START.match(stripped)) or _is_json(stripped)


def items(texts: Iterator[str]) -> Iterator[Any]:
    """Decide the format from the first non-blank line, then read the rest that way.

    A first line that is not JSON, SSE or the start of a JSON document means plain text:
    every chunk is handed on as it came, so a live text stream stays live.
    """
    pending: list[str] = []
    head = ""  # the first characters of the input's first non-blank line
    ended = False  # whether that line's newline has arrived
    for text in texts:
        pending.append(text)
        if not head:
            head = text.lstrip()[:16]
            ended = "\n" in text.lstrip()
        else:
            head = head if len(head) >= 16 else (head + text)[:16]
            ended = ended or "\n" in text
        if head.startswith(":"):  # SSE comments first: the first other line decides
            if looks_like_sse("".join(pending).splitlines()[:-1]) is not None:
                break
        elif _decided(head, ended):
            break
    joined = "".join(pending)
    if not joined.strip():
        return
    content = joined.lstrip()
    end = content.find("\n")
    first = content if end < 0 else content[:end]

    def rest() -> Iterator[str]:
        yield joined
        yield from texts

    sse = bool(looks_like_sse(content.splitlines()))
    if not (sse or _looks_like_events(first)):
        yield from rest()
        return
    yield from _structured(first, rest(), sse)


_scan = cast(Any, json.JSONDecoder()).scan_once
"""``json.loads``'s own scanner, called without ``loads``' three Python calls: a whole
line it reads is what ``json.loads`` gives; anything else is read by :func:`_value`."""


def _structured(first: str, texts: Iterator[str], sse: bool) -> Iterator[Any]:
    stripped = first.strip()
    if stripped.startswith(("{", "[")) and not _is_json(stripped):
        # A pretty-printed document (an exported run, an array of events): read it whole.
        yield from _document("".join(texts))
        return
    if sse:
        for message in sse_messages(texts):
            data = message.data.strip()
            if data and data != "[DONE]":
                yield from _value(data, message.line)
        return
    scan = _scan
    for number, line in enumerate(lines(texts), 1):
        line = line.strip() if line is not None else ""
        if not line:
            continue
        if line[0] == "{":  # an event a line, the common case: read here as json.loads reads it
            try:
                value, end = scan(line, 0)
            except Exception:
                end = -1  # (read again below, to report the fault)
            if (
                end == len(line)
                and value.__class__ is dict
                and ("type" in value or not is_message(value))
            ):
                yield value
                continue
        yield from _value(line, number)


def _document(text: str) -> Iterator[Any]:
    try:
        value = json.loads(text)
    except ValueError as exc:
        yield BadInput(
            f"the input starts like a JSON document but is not valid JSON ({exc}); "
            "it is shown as text"
        )
        yield text
        return
    if is_message(value):
        yield Document(value)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict):
                yield item
            else:
                yield BadInput(f"item {index}: expected a JSON object, got {type(item).__name__}")
    elif isinstance(value, dict):
        yield value
    else:
        yield BadInput(f"expected a JSON object or array, got {type(value).__name__}")


def _value(line: str, number: int) -> Iterator[Any]:
    """The item(s) of one NDJSON line or SSE message's data."""
    try:
        value = json.loads(line)
    except ValueError as exc:
        yield BadInput(f"line {number}: invalid JSON ({exc}): {line[:80]!r}")
        return
    except RecursionError:
        yield BadInput(f"line {number}: JSON nested too deeply to read: {line[:80]!r}")
        return
    if is_message(value):
        yield Document(value)
    elif isinstance(value, dict):
        yield value
    elif isinstance(value, list) and all(isinstance(item, dict) for item in value):
        yield from value
    else:
        yield BadInput(f"line {number}: expected a JSON object, got {type(value).__name__}")


def timestamp(item: Any) -> float | None:
    """Seconds since the epoch from an event's own time field, when it has one."""
    if not isinstance(item, dict):
        return None
    for key in _TIME_KEYS:
        value = item.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            return float(value) / 1000 if value > 1e11 else float(value)
        if isinstance(value, str):
            try:
                return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
            except ValueError:
                continue
    return None


def paced(
    source: Iterator[Any],
    speed: float,
    sleep: Callable[[float], None] = time.sleep,
    waits: Waits | None = None,
) -> Iterator[Any]:
    """``source`` replayed at ``speed`` × the pace of its timestamps (without timestamps,
    :data:`DEFAULT_GAP` between items); no pause is longer than :data:`MAX_PAUSE`.
    ``waits`` is called before each pause."""
    last: float | None = None

    def pause(seconds: float) -> None:
        if waits is None:
            sleep(seconds)
            return
        waits()
        sleep(seconds)
        waits.resumed()

    for item in source:
        now = timestamp(item)
        if last is None or now is None:
            gap = 0.0 if last is None and now is not None else DEFAULT_GAP
        else:
            gap = max(0.0, now - last)
        if now is not None:
            last = now
        if isinstance(item, str):  # text is replayed a line at a time
            for piece in item.splitlines(keepends=True):
                pause(min(DEFAULT_GAP / speed, MAX_PAUSE))
                yield piece
            continue
        if gap > 0:
            pause(min(gap / speed, MAX_PAUSE))
        yield item


def not_binary(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """``chunks``, refused with :class:`~.reading.BinaryInput` when the first has a NUL
    byte (as ``extract`` refuses a binary file)."""
    first = True
    for data in chunks:
        if first:
            refuse_binary(data[:SNIFF_LIMIT], "the input")
        first = False
        yield data


def read(
    handle: IO[bytes], *, text: bool = False, speed: float | None = None, encoding: str = "utf-8"
) -> Items:
    """The items of an input: its format sniffed (or plain ``text``), and replayed at
    ``speed`` × its own pace when a speed is given. UTF-16 and UTF-32 (a byte-order
    mark, or ``encoding``) are read as ``extract`` reads them."""
    waits = Waits()
    texts = decoded(not_binary(utf8_chunks(raw_chunks(handle, waits), encoding)))
    found: Iterator[Any] = iter(texts) if text else items(texts)
    return Items(found if speed is None else paced(found, speed, waits=waits), waits)
