"""Bytes in, text out, as it arrives: the reading under ``streamblocks extract``.

A pipe is read with one ``read1`` at a time (whatever the writer has sent, never waiting
for a full block), so a live agent's lines reach the processor when they are written.
Text is decoded incrementally; bytes that do not decode become U+FFFD with a warning
naming their offset, never a traceback.
"""

from __future__ import annotations

import codecs
import itertools
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO

from .errors import RunError

READ_SIZE = 65536
"""Most bytes taken by one read (a pipe returns what is there, often much less)."""

SNIFF_LIMIT = 8192
"""Bytes read at most before the format is decided."""

DECODE_WARNINGS = 5
"""Undecodable spots named one by one; after that, a count at the end."""

Warn = Callable[[str], None]


class BinaryInput(RunError, ValueError):
    """The input is not text (it has NUL bytes)."""


def refuse_binary(head: bytes, name: str) -> None:
    """Raise :class:`BinaryInput` when the first bytes of ``name`` hold a NUL byte."""
    if b"\x00" in head[:SNIFF_LIMIT]:
        raise BinaryInput(
            f"{name} looks like a binary file (it contains NUL bytes); for UTF-16 "
            "without a byte-order mark, pass --encoding utf-16-le (or utf-16-be)"
        )


def warn_on_stderr(message: str) -> None:
    print(f"streamblocks: warning: {message}", file=sys.stderr, flush=True)


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # (before UTF-16's: it begins with the same bytes)
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def wide_encoding(first: bytes, encoding: str) -> str | None:
    """The UTF-16 or UTF-32 encoding of an input that starts with ``first`` (its byte-order
    mark, or ``encoding`` when it names one of them), else ``None``."""
    for bom, found in _BOMS:
        if first.startswith(bom):
            return found
    name = codecs.lookup(encoding).name
    return name if name.startswith(("utf-16", "utf-32")) else None


def first_bytes(chunks: Iterator[bytes]) -> bytes:
    """At least the first four bytes of ``chunks`` (all of them when fewer), which say
    whether it is UTF-16 or UTF-32 (a pipe may give fewer at once)."""
    first = b""
    for data in chunks:
        first += data
        if len(first) >= 4:
            break
    return first


def utf8_chunks(chunks: Iterator[bytes], encoding: str = "utf-8") -> Iterator[bytes]:
    """``chunks`` as UTF-8: an input in UTF-16 or UTF-32 (a byte-order mark says so, as
    Windows PowerShell 5's ``>`` writes, or ``encoding`` names it) is decoded as it
    arrives and handed on as UTF-8 (what does not decode becomes U+FFFD); any other
    input is handed on as it is."""
    first = first_bytes(chunks)
    wide = wide_encoding(first, encoding)
    if wide is None:
        if first:
            yield first
        yield from chunks
        return
    decoder = codecs.getincrementaldecoder(wide)(errors="replace")
    for data in itertools.chain((first,), chunks):
        text = decoder.decode(data)
        if text:
            yield text.encode("utf-8")
    tail = decoder.decode(b"", final=True)
    if tail:
        yield tail.encode("utf-8")


class ByteReader:
    """An open input: its first bytes (``head``, for sniffing) and the rest, read live.
    A UTF-16 or UTF-32 input is read as UTF-8 (:func:`utf8_chunks`); ``encoding`` is
    then what decodes the bytes handed out."""

    def __init__(self, handle: IO[bytes], name: str, encoding: str = "utf-8") -> None:
        self.handle = handle
        self.name = name
        self.position = 0
        """Bytes handed out so far."""
        self._read = getattr(handle, "read1", handle.read)
        self.encoding = encoding
        raw = self._raw()
        first = first_bytes(raw)
        if wide_encoding(first, encoding) is not None:
            self.encoding = "utf-8"  # (what utf8_chunks hands out)
        self._chunks = utf8_chunks(itertools.chain((first,), raw), encoding)
        self.head = self._sniff_head()
        refuse_binary(self.head, name)

    def _raw(self) -> Iterator[bytes]:
        while True:
            data = self._read(READ_SIZE)
            if not data:
                return
            yield data

    def _sniff_head(self) -> bytes:
        """Read until the first non-blank line is complete (and the next one when it is a
        lone ``[``), the input ends, or ``SNIFF_LIMIT`` bytes: no more than sniffing needs."""
        head = b""
        while len(head) < SNIFF_LIMIT and not _enough(head):
            data = next(self._chunks, b"")
            if not data:
                break
            head += data
        return head

    def chunks(self) -> Iterator[bytes]:
        if self.head:
            head, self.head = self.head, b""
            self.position += len(head)
            yield head
        for data in self._chunks:
            self.position += len(data)
            yield data

    def close(self) -> None:
        if self.handle is not getattr(sys.stdin, "buffer", None):
            self.handle.close()


def _enough(head: bytes) -> bool:
    lines = head.lstrip().split(b"\n")
    complete = [line.strip() for line in lines[:-1] if line.strip()]
    while complete and complete[0].startswith(b":"):  # SSE comments: the next line decides
        complete.pop(0)
    if not complete:
        return False
    return complete[0] != b"[" or len(complete) > 1


class Decoder:
    """Incremental decoding that replaces what does not decode and says where."""

    def __init__(self, encoding: str, name: str, warn: Warn = warn_on_stderr) -> None:
        self.encoding = encoding
        self.decoder = codecs.getincrementaldecoder(encoding)(errors="strict")
        self.name = name
        self.warn = warn
        self.fed = 0
        """Bytes passed to the decoder so far (the offset of the next byte)."""
        self.bad = 0

    def decode(self, data: bytes, final: bool = False) -> str:
        out: list[str] = []
        while True:
            state = self.decoder.getstate()[0]
            pending = state if isinstance(state, bytes) else b""
            try:
                out.append(self.decoder.decode(data, final))
            except UnicodeDecodeError as exc:
                whole, start = pending + data, self.fed - len(pending)
                self.decoder.reset()
                out.append(whole[: exc.start].decode(self.encoding))
                out.append("\ufffd")
                self._note(start + exc.start, exc.end - exc.start, exc.reason)
                self.fed = start + exc.end
                data = whole[exc.end :]
                continue
            self.fed += len(data)
            if final and self.bad > DECODE_WARNINGS:
                self.warn(f"{self.name}: {self.bad} undecodable spots in all, each shown as �")
            return "".join(out)

    def _note(self, offset: int, length: int, reason: str) -> None:
        self.bad += 1
        if self.bad <= DECODE_WARNINGS:
            what = "byte" if length == 1 else f"{length} bytes"
            self.warn(
                f"{self.name}: undecodable {what} at byte {offset} ({reason}); replaced with �"
            )


def decoded(chunks: Iterable[bytes], decoder: Decoder) -> Iterator[str]:
    """The input's text, piece by piece as its bytes arrive."""
    for data in chunks:
        text = decoder.decode(data)
        if text:
            yield text
    tail = decoder.decode(b"", final=True)
    if tail:
        yield tail


def lines(texts: Iterator[str], limit: int | None = None) -> Iterator[str | None]:
    """Complete lines (without their newline) as soon as each one ends; no quadratic joins.
    A line longer than ``limit`` characters is not held: it comes out as ``None``."""
    parts: list[str] = []
    held = 0
    for text in texts:
        if "\n" not in text:
            if held >= 0:
                parts.append(text)
                held += len(text)
                if limit is not None and held > limit:
                    parts, held = [], -1  # dropped up to the next newline
            continue
        first, *complete, last = text.split("\n")
        parts.append(first)
        too_long = held < 0 or (limit is not None and held + len(first) > limit)
        yield None if too_long else "".join(parts)
        for line in complete:
            yield None if limit is not None and len(line) > limit else line
        parts, held = ([last], len(last)) if last else ([], 0)
        if limit is not None and held > limit:
            parts, held = [], -1
    if parts or held < 0:
        yield None if held < 0 else "".join(parts)


__all__ = [
    "BinaryInput",
    "ByteReader",
    "Decoder",
    "Warn",
    "decoded",
    "lines",
    "refuse_binary",
    "warn_on_stderr",
]
