"""Reading many inputs: globs, one run per file, worker processes for ``--jobs``.

Each file is read by :class:`streamblocks.batch.RunReader` (what :func:`streamblocks.batch.records`
runs), so the command writes exactly the records any engine gets. Each file's records come
out together and in order, whatever the number of workers (``Executor.map`` keeps the
order of the files). A worker sends records — plain JSON-able dicts — and its warnings
back; the parent prints them, so output never interleaves. For ``--json`` a worker writes
the lines itself and sends them with only the records the command counts: the parent,
which every record passes through, has little left to do, so more workers read faster.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..runs.errors import RunError
from ..runs.model import Record
from ..runs.reading import Warn
from ..runs.records import OnBytes, ReadOptions, RunReader
from .errors import CLIError
from .render import COUNTED, json_line

GLOB_CHARACTERS = frozenset("*?[")

Reader = RunReader
"""The reader of ``extract``'s inputs (kept under its old name)."""


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


@dataclass
class FileResult:
    """One file read by a worker: its records, warnings and the error that stopped it."""

    path: str
    records: list[Record] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    lines: str | None = None
    """With ``--json``: every record's line, and ``records`` only the :data:`COUNTED` ones."""


_reader: RunReader | None = None
_lines = False


def _start_worker(options: ReadOptions, lines: bool) -> None:
    global _reader, _lines
    _reader, _lines = RunReader(options), lines


def _read_whole(path: str) -> FileResult:
    assert _reader is not None, "the worker was started without options"
    result = FileResult(path)
    try:
        for record in _reader.records(path, result.warnings.append):
            result.records.append(record)
    except RunError as exc:
        result.error = str(exc)
    if _lines:
        result.lines = "".join(map(json_line, result.records))
        result.records = [record for record in result.records if record["type"] in COUNTED]
    return result


@dataclass
class Input:
    """One input's records as they come, and, when a worker wrote them, their lines."""

    path: str
    records: Iterator[Record]
    lines: str | None = None


def _replay(result: FileResult, warn: Warn) -> Iterator[Record]:
    for message in result.warnings:
        warn(message)
    yield from result.records
    if result.error is not None:
        raise RunError(result.error)


def read_all(
    paths: Sequence[str],
    options: ReadOptions,
    *,
    jobs: int,
    warn: Warn,
    on_bytes: OnBytes | None = None,
    lines: bool = False,
) -> Generator[Input, None, None]:
    """Each input in order. With one job the records stream as the file is read (a live
    pipe shows at once); with more, files are read by worker processes and each one's
    records arrive whole — with ``lines`` (``--json``), written as lines by the worker,
    with only the :data:`COUNTED` records. A :class:`RunError` raised while iterating a
    file's records concerns that file only."""
    reader = RunReader(options)  # a bad --registry is one error here, not one per worker
    if jobs <= 1 or len(paths) <= 1 or "-" in paths:  # workers cannot read our stdin
        for path in paths:
            yield Input(path, reader.records(path, warn, on_bytes))
        return
    chunksize = max(1, min(16, len(paths) // (jobs * 4)))
    reader.preload()  # once here, not in every worker (on Linux they are forked from us)
    pool = ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(options, lines))
    try:
        for result in pool.map(_read_whole, paths, chunksize=chunksize):
            if result.lines is not None:  # its warnings before its lines, as before
                for message in result.warnings:
                    warn(message)
                result.warnings.clear()
            yield Input(result.path, _replay(result, warn), result.lines)
    finally:  # the reader left early (`| head`, Ctrl-C): drop the files not started
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["FileResult", "Input", "ReadOptions", "Reader", "expand", "read_all"]
