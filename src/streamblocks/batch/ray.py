"""Ray Data: runs in, rows out, on every worker of a cluster (``pip install '.[ray]'``).

:class:`Extract` is a ``map_batches`` callable (``batch_format="pyarrow"``): a batch of
runs becomes a table of their rows with the fixed schema. :func:`read_runs` reads files
of runs (one run per file: JSON Lines, SSE, text, as ``extract`` reads them);
:func:`read_parquet_runs` reads Parquet tables holding one run per row. Write the result
with Ray's own ``Dataset.write_parquet``. A task whose worker dies is run again by Ray:
reading a run has no side effect, so the retry gives the same rows, once.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ..extras import missing_extra

try:  # ray first: without the extra, it is the one to name
    import ray
    import ray.data
except ImportError as exc:
    raise missing_extra("streamblocks.batch.ray", "ray", exc) from exc
try:
    import pyarrow as pa
except ImportError as exc:
    raise missing_extra("streamblocks.batch.ray", "ray", exc) from exc

from ..runs.records import ReadOptions
from .arrow import Runs, runs_of
from .paths import expand
from .split import task_count

RUNS_PER_BATCH = 16
"""Runs per ``map_batches`` call on tables of runs: small enough to spread a few large
runs over workers. Files of runs are read a read task's files at a time instead (see
:func:`read_runs`)."""


class Extract:
    """``dataset.map_batches(Extract(options), batch_format="pyarrow")``: the rows of
    the runs in each batch. ``source`` and ``content`` name the batch's columns — by
    default those of ``ray.data.read_binary_files(..., include_paths=True)``."""

    def __init__(
        self, options: ReadOptions | None = None, *, source: str = "path", content: str = "bytes"
    ) -> None:
        self.runs = Runs(options)
        self.source, self.content = source, content

    def __call__(self, batch: pa.Table) -> pa.Table:
        return self.runs.table(runs_of(batch, self.source, self.content))


def _paths(paths: str | Sequence[str]) -> str | list[str]:
    return paths if isinstance(paths, str) else list(paths)


def _cpus() -> int:
    if ray.is_initialized():
        cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
        return max(1, int(cpus))
    return os.cpu_count() or 1


def read_runs(
    paths: str | Sequence[str], options: ReadOptions | None = None, **read_args: Any
) -> ray.data.Dataset:
    """The rows of files of runs, one run per file (``read_args`` go to
    ``ray.data.read_binary_files``: a filesystem, ``override_num_blocks``…).

    Each read task turns the files it read into rows itself (one batch per block, so
    Ray fuses reading and extracting into one task): the files' bytes never go through
    the object store. A list of paths is cut into
    :func:`~streamblocks.batch.split.task_count` tasks for the cluster's CPUs unless
    ``override_num_blocks`` says otherwise. The dataset's
    tasks are all handed to Ray at once rather than one per free CPU (its
    ``op_resource_reservation_enabled`` is off): Ray Data (2.60) would otherwise run
    the first second of a job one task at a time, and notice a finished task only
    0.1-0.2 s later, leaving its CPU idle that long after every task.

    ``paths``: a glob (``"runs/*.jsonl"``), a folder, a file, or a list of them
    (:func:`~streamblocks.batch.paths.expand`)."""
    files_in = expand(paths)
    if "override_num_blocks" not in read_args:
        read_args["override_num_blocks"] = task_count(len(files_in), _cpus())
    files = ray.data.read_binary_files(files_in, include_paths=True, **read_args)
    files.context.op_resource_reservation_enabled = False
    return files.map_batches(Extract(options), batch_format="pyarrow", batch_size=None)


def read_parquet_runs(
    paths: str | Sequence[str],
    options: ReadOptions | None = None,
    *,
    source: str = "source",
    content: str = "text",
    **read_args: Any,
) -> ray.data.Dataset:
    """The rows of Parquet tables of runs, one run per row: ``source`` names it,
    ``content`` holds it (its text, its lines as a list, or a file's bytes)."""
    tables = ray.data.read_parquet(_paths(paths), **read_args)
    extract = Extract(options, source=source, content=content)
    return tables.map_batches(extract, batch_format="pyarrow", batch_size=RUNS_PER_BATCH)


__all__ = ["RUNS_PER_BATCH", "Extract", "read_parquet_runs", "read_runs"]
