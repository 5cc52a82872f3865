"""Reading many inputs: globs, one processor run per file, worker processes for ``--jobs``.

Each file's records come out together and in order, whatever the number of workers
(``Executor.map`` keeps the order of the files). A worker sends records — plain JSON-able
dicts — and its warnings back; the parent prints them, so output never interleaves.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..core.processor import StreamBlockProcessor
from .errors import CLIError
from .inputs import Source, open_source
from .model import Record, event_dict
from .reading import Warn, warn_on_stderr
from .registries import registry_for

GLOB_CHARACTERS = frozenset("*?[")

OnBytes = Callable[[int], None]
"""Told the bytes read so far of the current input (for a progress bar)."""


@dataclass(frozen=True)
class ReadOptions:
    """How every input is read (picklable: workers receive it)."""

    adapter: str | None = None
    chunk: int | None = None
    encoding: str = "utf-8"
    registry: str | None = None
    unknown: str | None = None
    delay: float = 0.0
    markup: str | None = None
    partial: bool = False


def expand(patterns: Sequence[str]) -> list[str]:
    """Paths and glob patterns (``runs/*.jsonl``, ``**`` too) → paths, each pattern's
    matches sorted; for shells that leave a pattern as it is. A pattern matching nothing
    is a usage error; a name that exists is taken as it is even with ``*`` in it."""
    paths: list[str] = []
    for pattern in patterns:
        if pattern == "-" or os.path.exists(pattern) or not GLOB_CHARACTERS & set(pattern):
            paths.append(pattern)
            continue
        import glob

        matches = sorted(p for p in glob.glob(pattern, recursive=True) if os.path.isfile(p))
        if not matches:
            raise CLIError(f"no file matches {pattern}")
        paths.extend(matches)
    return paths


def _paced(items: Iterable[Any], delay: float) -> Iterator[Any]:
    for item in items:
        if delay:
            time.sleep(delay)
        yield item


class Reader:
    """Turns one input after another into records; the registry is built once."""

    def __init__(self, options: ReadOptions) -> None:
        self.options = options
        self.registry, self.unknown = registry_for(options.registry, options.unknown)

    def events(self, path: str, warn: Warn = warn_on_stderr) -> Iterator[tuple[Source, Any]]:
        """Every processor event of ``path`` (``-``: stdin), with the source it came
        from, as the input arrives (a pipe's lines as they are written). Problems with
        the whole input raise :class:`CLIError`; a bad line is a ``warn`` and skipped."""
        options = self.options
        source = open_source(
            path,
            adapter=options.adapter,
            chunk=options.chunk,
            encoding=options.encoding,
            warn=warn,
        )
        try:
            processor = StreamBlockProcessor(
                self.registry,
                input_adapter=source.adapter,
                unknown=self.unknown,
                markup=options.markup,
            )
            for event in processor.process(_paced(source.items, options.delay)):
                yield source, event
        finally:
            source.close()

    def records(
        self, path: str, warn: Warn = warn_on_stderr, on_bytes: OnBytes | None = None
    ) -> Iterator[Record]:
        """:meth:`events` as records (the ``--json`` objects) naming their ``source``.
        ``on_bytes`` hears how many bytes have been read, after each record."""
        for source, event in self.events(path, warn):
            record = event_dict(event, partial=self.options.partial)
            record["source"] = source.name
            yield record
            if on_bytes is not None and source.reader is not None:
                on_bytes(source.reader.position)


@dataclass
class FileResult:
    """One file read by a worker: its records, warnings and the error that stopped it."""

    path: str
    records: list[Record] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None


_reader: Reader | None = None


def _start_worker(options: ReadOptions) -> None:
    global _reader
    _reader = Reader(options)


def _read_whole(path: str) -> FileResult:
    assert _reader is not None, "the worker was started without options"
    result = FileResult(path)
    try:
        for record in _reader.records(path, result.warnings.append):
            result.records.append(record)
    except CLIError as exc:
        result.error = str(exc)
    return result


def _replay(result: FileResult, warn: Warn) -> Iterator[Record]:
    for message in result.warnings:
        warn(message)
    yield from result.records
    if result.error is not None:
        raise CLIError(result.error)


def read_all(
    paths: Sequence[str],
    options: ReadOptions,
    *,
    jobs: int,
    warn: Warn,
    on_bytes: OnBytes | None = None,
) -> Generator[tuple[str, Iterator[Record]], None, None]:
    """``(path, records)`` for each input in order. With one job the records stream as
    the file is read (a live pipe shows at once); with more, files are read by worker
    processes and each one's records arrive whole. A :class:`CLIError` raised while
    iterating a file's records concerns that file only."""
    reader = Reader(options)  # a bad --registry is one error here, not one per worker
    if jobs <= 1 or len(paths) <= 1 or "-" in paths:  # workers cannot read our stdin
        for path in paths:
            yield path, reader.records(path, warn, on_bytes)
        return
    chunksize = max(1, min(16, len(paths) // (jobs * 4)))
    pool = ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(options,))
    try:
        for result in pool.map(_read_whole, paths, chunksize=chunksize):
            yield result.path, _replay(result, warn)
    finally:  # the reader left early (`| head`, Ctrl-C): drop the files not started
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["FileResult", "ReadOptions", "Reader", "expand", "read_all"]
