"""Runs past one machine: the records and rows of runs, for any engine.

:func:`records` gives exactly what ``streamblocks extract --json`` writes (the command
runs it), :func:`rows` one flat row per block with stable columns (:data:`COLUMNS`) for
Parquet and data frames. The Ray Data and Dask integrations (:mod:`streamblocks.batch.ray`,
:mod:`streamblocks.batch.dask`, extras ``ray`` and ``dask``) are built on these.
"""

from __future__ import annotations

from ..runs.records import STDIN, InputError, ReadOptions, RunReader, records
from .rows import COLUMNS, UNREADABLE, Row, rows, rows_from_records, run_rows, unreadable_row

__all__ = [
    "COLUMNS",
    "STDIN",
    "UNREADABLE",
    "InputError",
    "ReadOptions",
    "Row",
    "RunReader",
    "records",
    "rows",
    "rows_from_records",
    "run_rows",
    "unreadable_row",
]
