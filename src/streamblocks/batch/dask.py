"""Dask: runs in, rows out, on every worker of a cluster (``pip install '.[dask]'``).

:func:`partition_rows` is a Bag partition function (paths or ``(source, run)`` pairs →
row dicts) and :func:`frame_rows` a DataFrame one (a frame of runs → a frame of rows with
Arrow types). :func:`read_runs` reads files of runs (one run per file, as ``extract``
reads them), :func:`read_parquet_runs` Parquet tables of runs (one run per row), and
:func:`write_parquet` writes rows with the fixed schema. A task whose worker dies is run
again by the scheduler: reading a run has no side effect, so the retry gives the same
rows, once.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from typing import Any

from ..extras import missing_extra

try:
    import dask.dataframe as dd
    import distributed
    import fsspec
    import pandas as pd
    import pyarrow as pa
except ImportError as exc:
    raise missing_extra("streamblocks.batch.dask", "dask", exc) from exc

from ..runs.records import ReadOptions
from .arrow import Runs, runs_of, schema, table
from .paths import expand
from .rows import Row
from .split import task_count


def _run(item: str | tuple[str, Any]) -> tuple[str, Any]:
    if isinstance(item, str):
        with fsspec.open(item, "rb") as handle:
            return item, handle.read()
    return item


def partition_rows(
    items: Iterable[str | tuple[str, Any]], options: ReadOptions | None = None
) -> list[Row]:
    """``bag.map_partitions(partition_rows, options)``: the rows of a partition of
    paths (files read with fsspec) or of ``(source, run)`` pairs (a run's bytes, text
    or lines)."""
    return Runs(options).rows(_run(item) for item in items)


def _frame(rows: pa.Table) -> pd.DataFrame:
    return rows.to_pandas(types_mapper=pd.ArrowDtype)


def meta() -> pd.DataFrame:
    """An empty frame of rows: the ``meta`` of Dask frames of rows."""
    return _frame(schema().empty_table())


def frame_rows(
    frame: pd.DataFrame,
    options: ReadOptions | None = None,
    *,
    source: str = "source",
    content: str = "text",
) -> pd.DataFrame:
    """``runs.map_partitions(frame_rows, options, meta=meta())``: a frame of runs —
    ``source`` names each, ``content`` holds it — as a frame of their rows."""
    runs = runs_of(
        pa.Table.from_pandas(frame[[source, content]], preserve_index=False), source, content
    )
    return _frame(Runs(options).table(runs))


def _files_frame(paths: Sequence[str], options: ReadOptions | None) -> pd.DataFrame:
    return _frame(table(partition_rows(paths, options)))


def _workers() -> int:
    """The threads of the current Dask client's workers (this machine's cores if
    there is no client)."""
    try:
        client = distributed.get_client()
    except ValueError:
        return os.cpu_count() or 1
    return sum(client.nthreads().values()) or 1


def read_runs(
    paths: str | Sequence[str],
    options: ReadOptions | None = None,
    *,
    files_per_partition: int | None = None,
) -> dd.DataFrame:
    """A frame of the rows of files of runs, one run per file, ``files_per_partition``
    files to a partition (by default, the files cut into
    :func:`~streamblocks.batch.split.task_count` partitions for the client's workers).
    ``paths``: a glob (``"runs/*.jsonl"``), a folder, a file, or a list of them
    (:func:`~streamblocks.batch.paths.expand`)."""
    paths = expand(paths)
    if files_per_partition is None:
        files_per_partition = math.ceil(len(paths) / task_count(len(paths), _workers()))
    step = max(1, files_per_partition)
    parts = [list(paths[start : start + step]) for start in range(0, len(paths), step)]
    return dd.from_map(_files_frame, parts, options=options, meta=meta(), label="streamblocks-runs")


def read_parquet_runs(
    path: str | Sequence[str],
    options: ReadOptions | None = None,
    *,
    source: str = "source",
    content: str = "text",
    **read_args: Any,
) -> dd.DataFrame:
    """A frame of the rows of Parquet tables of runs, one run per row."""
    runs = dd.read_parquet(path, columns=[source, content], **read_args)
    return runs.map_partitions(frame_rows, options, source=source, content=content, meta=meta())


def write_parquet(rows: dd.DataFrame, path: str, **write_args: Any) -> None:
    """Write a frame of rows as Parquet files with the rows' schema."""
    rows.to_parquet(path, schema=schema(), write_index=False, **write_args)


__all__ = [
    "frame_rows",
    "meta",
    "partition_rows",
    "read_parquet_runs",
    "read_runs",
    "write_parquet",
]
