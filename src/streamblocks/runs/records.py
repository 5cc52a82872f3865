"""One run in, its records out: the reading under ``streamblocks extract --json``.

A run is one input: a file, standard input, bytes read by an engine, or lines from
Python. Every kind goes through the same path — the bytes are sniffed, decoded and split
as a file's are — so a run gives the same records whoever reads it. ``extract`` is one of
the readers; Ray Data and Dask workers are others.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..core.processor import StreamBlockProcessor
from ..core.registry import BlockRegistry
from .errors import RunError
from .inputs import Source, open_source, open_stream
from .loading import check_adapter_name
from .model import Record, event_dict
from .reading import Warn, warn_on_stderr
from .registries import registry_for
from .usage import metered

WARNINGS_KEPT = 100
"""A run's warning messages kept in its ``STREAM_FINISHED`` record (all are counted)."""

STDIN = "<stdin>"
"""The name of a run read from standard input or given as lines."""

OnBytes = Callable[[int], None]
"""Told the bytes read so far of the current input (for a progress bar)."""


class InputError(RunError, ValueError):
    """An input that cannot be read at all (binary, unknown event format, not JSON):
    no run comes out of it. ``extract`` reports it and reads the other inputs."""


@dataclass(frozen=True)
class ReadOptions:
    """How every run is read: the options of ``extract`` (picklable, for workers).

    ``adapter``: ``None`` or ``"auto"`` detects it, ``"text"`` reads raw text, else an
    installed adapter's name. ``registry``: a :class:`BlockRegistry`, a spec
    (``file.py:NAME``, ``module:NAME``) loaded where the runs are read, or ``None`` for the
    command's default types. ``markup``: a family name, a ``Markup`` or ``"auto"``.
    """

    adapter: str | None = None
    chunk: int | None = None
    encoding: str = "utf-8"
    registry: str | BlockRegistry | None = None
    unknown: str | None = None
    delay: float = 0.0
    markup: Any = None
    partial: bool = False


def _paced(items: Iterable[Any], delay: float) -> Iterator[Any]:
    for item in items:
        if delay:
            time.sleep(delay)
        yield item


class _LinesIO:
    """Lines as a binary file: ``read1(n)`` gives ``n`` bytes as a regular file does, so
    lines are sniffed, decoded and chunked exactly as the file holding them would be."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)
        self._buffer = bytearray()
        self._pending: str | None = next(self._lines, None)

    def _fill(self, size: int) -> None:
        while len(self._buffer) < size and self._pending is not None:
            line, self._pending = self._pending, next(self._lines, None)
            if self._pending is not None and not line.endswith(("\n", "\r")):
                line += "\n"  # a line given without its ending (``splitlines()``)
            self._buffer += line.encode("utf-8", "surrogatepass")

    def read1(self, size: int = -1) -> bytes:
        self._fill(size)
        data = bytes(self._buffer[:size])
        del self._buffer[:size]
        return data

    read = read1

    def close(self) -> None:
        close = getattr(self._lines, "close", None)
        if close is not None:
            close()


class RunReader:
    """Reads runs into records with one set of options; the registry is built once."""

    def __init__(self, options: ReadOptions | None = None) -> None:
        self.options = options = options or ReadOptions()
        self.unknown: str | dict[str, str]
        if isinstance(options.registry, BlockRegistry):
            self.registry, self.unknown = options.registry, options.unknown or "text"
        else:
            self.registry, self.unknown = registry_for(options.registry, options.unknown)
        self._adapter = None if options.adapter == "auto" else options.adapter
        if self._adapter is not None:  # a misspelt name fails here, not once per run
            try:
                check_adapter_name(self._adapter)
            except RunError as exc:
                raise InputError(str(exc)) from None

    def preload(self) -> None:
        """Import now what reading any input needs — the installed adapters (their entry
        points scanned, ~70 ms) and the markup families — instead of at the first input.
        Worker processes forked afterwards (``extract --jobs``) start with them."""
        from ..adapters import discovery
        from ..markup import families  # noqa: F401 - imported for its side effect

        discovery.plugins().load()

    def _open(self, path: str, warn: Warn) -> Source:
        options = self.options
        return open_source(
            path, adapter=self._adapter, chunk=options.chunk, encoding=options.encoding, warn=warn
        )

    def _open_handle(self, handle: Any, name: str, warn: Warn, encoding: str) -> Source:
        options = self.options
        return open_stream(
            handle, name, adapter=self._adapter, chunk=options.chunk, encoding=encoding, warn=warn
        )

    def _events(
        self, opener: Callable[[], Source], usage: bool = False
    ) -> Iterator[tuple[Source, Any]]:
        try:
            source = opener()
            try:
                processor = StreamBlockProcessor(
                    self.registry,
                    input_adapter=source.adapter,
                    unknown=self.unknown,
                    markup=self.options.markup,
                )
                items = _paced(source.items, self.options.delay)
                events = metered(processor.process, items) if usage else processor.process(items)
                for event in events:
                    yield source, event
            finally:
                source.close()
        except InputError:
            raise
        except RunError as exc:
            raise InputError(str(exc)) from None

    def events(
        self, path: str, warn: Warn = warn_on_stderr, *, usage: bool = False
    ) -> Iterator[tuple[Source, Any]]:
        """Every processor event of the file ``path`` (``-``: stdin), with the source it
        came from, as the input arrives (a pipe's lines as they are written); ``usage``:
        with each model turn's :class:`~.usage.TurnUsage` among them. An input that
        cannot be read raises :class:`InputError`; a bad line is a ``warn``."""
        return self._events(lambda: self._open(path, warn), usage)

    def _records(
        self, opener: Callable[[Warn], Source], warn: Warn | None, on_bytes: OnBytes | None
    ) -> Iterator[Record]:
        heard: list[str] = []
        count = 0

        def note(message: str) -> None:
            nonlocal count
            count += 1
            if len(heard) < WARNINGS_KEPT:
                heard.append(message)
            if warn is not None:
                warn(message)

        from ..markup.families import MarkupHint  # (here: the command starts without it)

        hint = MarkupHint() if self.options.markup is None else None
        for source, event in self._events(lambda: opener(note)):
            record = event_dict(event, partial=self.options.partial)
            if hint is not None and record["type"] == "TEXT_DELTA":
                found = hint.feed(record["text"])
                if found is not None:
                    note(f"{source.name}: {found}")
            if record["type"] == "STREAM_FINISHED":
                record["warnings"] = {"count": count, "messages": list(heard)}
            record["source"] = source.name
            yield record
            if on_bytes is not None and source.reader is not None:
                on_bytes(source.reader.position)

    def records(
        self, path: str, warn: Warn | None = warn_on_stderr, on_bytes: OnBytes | None = None
    ) -> Iterator[Record]:
        """The ``--json`` records of the file ``path`` (``-``: stdin), naming it in
        ``source``. ``on_bytes`` hears how many bytes have been read, after each record."""
        return self._records(lambda note: self._open(path, note), warn, on_bytes)

    def line_records(
        self, lines: Iterable[str], *, source: str = STDIN, warn: Warn | None = None
    ) -> Iterator[Record]:
        """The records of a run given as lines (see :func:`records`)."""
        return self._records(
            lambda note: self._open_handle(_LinesIO(lines), source, note, "utf-8"), warn, None
        )

    def data_records(
        self, data: bytes, *, source: str, warn: Warn | None = None
    ) -> Iterator[Record]:
        """The records of a run held as bytes (a file an engine read), decoded with the
        options' encoding exactly as ``extract`` decodes the file."""
        encoding = self.options.encoding
        return self._records(
            lambda note: self._open_handle(io.BytesIO(data), source, note, encoding), warn, None
        )


def records(
    lines: Iterable[str],
    adapter: str | None = "auto",
    markup: Any = None,
    registry: str | BlockRegistry | None = None,
    *,
    source: str = STDIN,
    unknown: str | None = None,
    chunk: int | None = None,
) -> Iterator[Record]:
    """Exactly the dicts ``streamblocks extract --json`` writes for a file holding
    ``lines``, in order (``source`` names the run, ``<stdin>`` as for a pipe).

    ``lines`` as iterating a file gives them (each with its line ending); a line without
    one gets ``\\n`` unless it is the last. Bad lines are skipped and counted in the
    ``warnings`` of the ``STREAM_FINISHED`` record; an input that cannot be read at all
    raises :class:`InputError`.
    """
    options = ReadOptions(
        adapter=adapter, markup=markup, registry=registry, unknown=unknown, chunk=chunk
    )
    return RunReader(options).line_records(lines, source=source)


__all__ = [
    "STDIN",
    "WARNINGS_KEPT",
    "InputError",
    "OnBytes",
    "ReadOptions",
    "RunReader",
    "records",
]
