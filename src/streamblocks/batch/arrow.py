"""Rows as Arrow tables with one fixed schema (pyarrow, which Ray Data and Dask bring).

Every batch of rows gets the schema of :data:`~streamblocks.batch.rows.COLUMNS`, even a
batch whose runs have no tool call or no usage: the Parquet files that workers write
read back as one table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import pyarrow as pa

from ..runs.records import ReadOptions, RunReader
from .rows import COLUMNS, Row, run_rows


@cache
def schema() -> pa.Schema:
    """The Arrow schema of the rows."""
    types = {
        "string": pa.string(),
        "int64": pa.int64(),
        "float64": pa.float64(),
        "bool": pa.bool_(),
    }
    return pa.schema([pa.field(name, types[kind]) for name, kind in COLUMNS.items()])


def table(rows: Sequence[Row]) -> pa.Table:
    """``rows`` as a table with :func:`schema`."""
    return pa.Table.from_pylist(list(rows), schema=schema())


class Runs:
    """Turns batches of runs into rows, building its reader once per worker process.

    A run is ``(source, content)``: content is a file's bytes (decoded as ``extract``
    decodes the file), a run's whole text, or its lines. Picklable: engines ship it to
    their workers with the options, and the reader (the registry) is built there.
    """

    def __init__(self, options: ReadOptions | None = None) -> None:
        self.options = options or ReadOptions()
        self._reader: RunReader | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"options": self.options}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["options"])  # type: ignore[misc]

    @property
    def reader(self) -> RunReader:
        if self._reader is None:
            self._reader = RunReader(self.options)
        return self._reader

    def rows(self, runs: Iterable[tuple[str, Any]]) -> list[Row]:
        """The rows of every run, run after run."""
        return [row for source, run in runs for row in run_rows(self.reader, run, source)]

    def table(self, runs: Iterable[tuple[str, Any]]) -> pa.Table:
        return table(self.rows(runs))


def runs_of(batch: pa.Table, source: str, content: str) -> list[tuple[str, Any]]:
    """``(source, content)`` pairs from two columns of a table of runs."""
    sources, contents = batch.column(source).to_pylist(), batch.column(content).to_pylist()
    return list(zip(sources, contents, strict=True))


__all__ = ["Runs", "runs_of", "schema", "table"]
