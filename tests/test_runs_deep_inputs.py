"""``batch.records`` / ``rows`` on inputs nested deeper than Python's JSON reader
recurses: the sniffing and the array reader give one warning or one ``RunError``
naming the input, never a ``RecursionError``."""

from __future__ import annotations

import json

import pytest

from streamblocks.batch import records, rows
from streamblocks.runs.errors import RunError

DEPTH = 100_000
DELTA = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}}


def deep(depth: int = DEPTH) -> str:
    return "[" * depth + "]" * depth


def test_a_first_line_nested_too_deeply_is_skipped_with_a_warning() -> None:
    lines = ['{"type": "ping", "x": ' + deep() + "}\n", json.dumps(DELTA) + "\n"]
    out = list(records(lines))
    assert "".join(r.get("text", "") for r in out if r["type"] == "TEXT_DELTA") == "hi"
    finished = out[-1]
    assert finished["type"] == "STREAM_FINISHED"
    assert any("nested too deeply" in w for w in finished["warnings"]["messages"])
    assert [row["kind"] for row in rows(lines)] == ["run"]  # no crash: one row, the run


def test_a_json_array_nested_too_deeply_is_a_run_error_naming_it() -> None:
    text = '[{"type": "ping", "x": ' + deep() + "}]\n"
    with pytest.raises(RunError, match="nested too deeply"):
        list(records([text]))
