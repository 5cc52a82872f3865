"""Runs as tables: one flat row per block, per rejected block, and one per run.

The columns and their types never change with the runs (:data:`COLUMNS`): a column that
does not apply is ``None``, and nested values (tool arguments, metadata, usage) are JSON
text, so every batch of rows — from any worker, any engine — has the same schema and
Parquet files written from them concatenate.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..runs.model import Record
from ..runs.records import InputError, ReadOptions, RunReader

Row = dict[str, Any]

COLUMNS: dict[str, str] = {
    "source": "string",
    "stream_id": "string",
    "session_id": "string",
    "row": "int64",
    "kind": "string",
    "block_id": "string",
    "block_type": "string",
    "syntax": "string",
    "start": "int64",
    "end": "int64",
    "name": "string",
    "call_id": "string",
    "arguments": "string",
    "result": "string",
    "is_error": "bool",
    "content": "string",
    "metadata": "string",
    "attrs": "string",
    "raw": "string",
    "error_code": "string",
    "error": "string",
    "stop_reason": "string",
    "input_tokens": "int64",
    "output_tokens": "int64",
    "cost_usd": "float64",
    "usage": "string",
    "chars": "int64",
    "blocks": "int64",
    "errors": "int64",
    "warnings": "int64",
    "warning_messages": "string",
}
"""Every row's columns, in order, with their Arrow type names (documented in docs/scale.md)."""

UNREADABLE = "unreadable"
"""The ``stop_reason`` of the run row of an input that could not be read at all."""

_EMPTY: Row = dict.fromkeys(COLUMNS)


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def _text(value: Any) -> str | None:
    """Text content as it is, structured content as JSON."""
    return value if isinstance(value, str) or value is None else _json(value)


class _Run:
    """The state of one run while its records go by."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.stream_id: str | None = None
        self.session_id: str | None = None
        self.index = 0
        self.text: list[str] = []

    def row(self, kind: str, **values: Any) -> Row:
        row = {
            **_EMPTY,
            "source": self.source,
            "stream_id": self.stream_id,
            "session_id": self.session_id,
            "row": self.index,
            "kind": kind,
            **values,
        }
        self.index += 1
        return row

    def block(self, block: Mapping[str, Any]) -> Row:
        attrs = block.get("attrs") or {}
        kind, content = block.get("type"), block.get("content")
        values: Row = {}
        if kind == "tool_call":
            values = {"name": attrs.get("name"), "call_id": block.get("id")}
            values["arguments"], content = _json(content), None
        elif kind == "tool_result":
            values = {"name": attrs.get("name"), "call_id": attrs.get("tool_call_id")}
            values["result"], content = _text(content), None
            values["is_error"] = attrs.get("is_error")
        return self.row(
            "block",
            block_id=block.get("id"),
            block_type=kind,
            syntax=block.get("syntax"),
            start=block.get("start"),
            end=block.get("end"),
            content=_text(content),
            metadata=_json(block.get("metadata")),
            attrs=_json(attrs or None),
            raw=block.get("raw"),
            **values,
        )

    def error(self, record: Mapping[str, Any]) -> Row:
        return self.row(
            "error",
            block_id=record.get("block_id"),
            block_type=record.get("block_type"),
            error_code=record.get("code"),
            error=record.get("message"),
            raw=record.get("raw"),
        )

    def finished(self, record: Mapping[str, Any]) -> Row:
        usage = record.get("usage") or {}
        counts = record.get("counts") or {}
        warnings = record.get("warnings") or {}
        return self.row(
            "run",
            content="".join(self.text),
            error=record.get("error"),
            stop_reason=record.get("stop_reason"),
            input_tokens=usage.get("input_tokens"),
            output_tokens=usage.get("output_tokens"),
            cost_usd=usage.get("cost_usd"),
            usage=_json(record.get("usage")),
            chars=counts.get("chars"),
            blocks=counts.get("blocks"),
            errors=counts.get("errors"),
            warnings=warnings.get("count", 0),
            warning_messages=_json(warnings.get("messages", [])),
        )


def rows_from_records(records: Iterable[Record]) -> Iterator[Row]:
    """The rows of ``extract --json`` records (several runs, each named by ``source``):
    per run, a row for each block and each rejected block in order, then the run's row."""
    run: _Run | None = None
    for record in records:
        kind = record["type"]
        if kind == "STREAM_STARTED" or run is None:
            run = _Run(record.get("source") or "")
            run.stream_id, run.session_id = record.get("stream_id"), record.get("session_id")
        if kind == "TEXT_DELTA":
            run.text.append(record["text"])
        elif kind == "BLOCK_END":
            yield run.block(record["block"])
        elif kind == "BLOCK_ERROR":
            yield run.error(record)
        elif kind == "STREAM_FINISHED":
            yield run.finished(record)
            run = None


def unreadable_row(source: str, message: str) -> Row:
    """The one row of an input that could not be read: ``stop_reason`` ``"unreadable"``,
    the reason in ``error`` — the run is in the table, not lost."""
    return _Run(source).row("run", stop_reason=UNREADABLE, error=message)


def run_rows(reader: RunReader, run: bytes | str | Iterable[str], source: str) -> list[Row]:
    """The rows of one run however an engine holds it: the bytes of a file (decoded
    as ``extract`` decodes it), its whole text, or its lines. Never raises for bad input:
    an unreadable run is one :func:`unreadable_row`."""
    if isinstance(run, bytes):
        found = reader.data_records(run, source=source)
    else:
        lines = [run] if isinstance(run, str) else run
        found = reader.line_records(lines, source=source)
    out: list[Row] = []
    try:
        out.extend(rows_from_records(found))
    except InputError as exc:
        out.append({**unreadable_row(source, str(exc)), "row": len(out)})
    return out


def rows(
    lines: Iterable[str],
    adapter: str | None = "auto",
    markup: Any = None,
    registry: Any = None,
    *,
    source: str = "<stdin>",
    unknown: str | None = None,
    chunk: int | None = None,
) -> Iterator[Row]:
    """One flat dict per block of the run held in ``lines`` (as :func:`records` reads
    them), with the columns of :data:`COLUMNS`, and a last row (``kind`` ``"run"``)
    for the run itself: its visible text, stop reason, usage, counts and warnings."""
    options = ReadOptions(
        adapter=adapter, markup=markup, registry=registry, unknown=unknown, chunk=chunk
    )
    yield from run_rows(RunReader(options), lines, source)


__all__ = [
    "COLUMNS",
    "UNREADABLE",
    "Row",
    "rows",
    "rows_from_records",
    "run_rows",
    "unreadable_row",
]
