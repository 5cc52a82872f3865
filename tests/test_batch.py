"""``streamblocks.batch``: records are exactly ``extract --json``'s; rows are flat and stable."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from batch_runs import UNREADABLE, write_runs
from cli_helpers import json_events, run
from streamblocks import BlockRegistry
from streamblocks.batch import (
    COLUMNS,
    InputError,
    ReadOptions,
    RunReader,
    records,
    rows,
    rows_from_records,
    run_rows,
)
from streamblocks.batch.split import (
    FILES_PER_TASK,
    MIN_FILES_PER_TASK,
    TASKS_PER_WORKER,
    task_count,
)

PYTHON_TYPES = {"string": str, "int64": int, "float64": float, "bool": bool}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("runs")
    write_runs(path)
    return path


def _extract(capsys: Any, *paths: Path) -> list[dict[str, Any]]:
    code, out, _ = run(capsys, "extract", *map(str, paths), "--json")
    assert code in (0, 1, 2)  # (1: some of the runs failed, 2: some were unreadable)
    return json_events(out)


def _extract_out(capsys: Any, path: Path) -> str:
    return run(capsys, "extract", str(path), "--json")[1]


def _same(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Without the stream ids, new for every reading."""
    return [{k: v for k, v in r.items() if k != "stream_id"} for r in records]


def _lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(handle)


def test_records_of_a_files_lines_are_what_extract_writes(folder: Path, capsys: Any) -> None:
    for path in sorted(folder.iterdir()):
        if path.name in (UNREADABLE, "undecodable.jsonl"):
            continue
        expected = _extract(capsys, path)
        assert _same(list(records(_lines(path), source=str(path)))) == _same(expected), path


def test_lines_without_endings_and_stdin_naming(folder: Path, capsys: Any) -> None:
    path = folder / "claude.jsonl"
    bare = path.read_text(encoding="utf-8").splitlines()
    given = list(records(bare))
    assert {r["source"] for r in given} == {"<stdin>"}
    expected = _extract(capsys, path)
    assert _same([{**r, "source": str(path)} for r in given]) == _same(expected)


def test_bytes_are_decoded_as_the_command_decodes_the_file(folder: Path, capsys: Any) -> None:
    path = folder / "undecodable.jsonl"
    reader = RunReader()
    given = list(reader.data_records(path.read_bytes(), source=str(path)))
    assert _same(given) == _same(_extract(capsys, path))
    warnings = given[-1]["warnings"]
    assert warnings["count"] == 1
    assert "undecodable byte at byte 1934" in warnings["messages"][0]


def test_bad_lines_are_counted_in_the_run_not_lost(folder: Path, capsys: Any) -> None:
    path = folder / "bad-lines.jsonl"
    code, out, err = run(capsys, "extract", str(path), "--json")
    assert code == 0
    finished = json_events(out)[-1]
    whole = json_events(_extract_out(capsys, folder / "anthropic.jsonl"))[-1]
    assert finished["type"] == "STREAM_FINISHED"
    assert (finished["counts"], finished["stop_reason"]) == (whole["counts"], "tool_use")
    assert finished["warnings"] == {
        "count": 2,
        "messages": [line.removeprefix("streamblocks: warning: ") for line in err.splitlines()],
    }
    [last] = [row for row in rows(_lines(path), source=str(path)) if row["kind"] == "run"]
    assert last["warnings"] == 2
    assert json.loads(last["warning_messages"]) == finished["warnings"]["messages"]
    assert (last["blocks"], last["errors"]) == (whole["counts"]["blocks"], 0)


def test_an_unreadable_input_raises_for_records_and_is_one_row(folder: Path) -> None:
    path = folder / UNREADABLE
    with pytest.raises(InputError, match="unknown event format"):
        list(records(_lines(path)))
    [row] = rows(_lines(path), source="x")
    assert (row["kind"], row["stop_reason"], row["row"]) == ("run", "unreadable", 0)
    assert "unknown event format" in row["error"]


def test_rows_have_every_column_with_its_type(folder: Path) -> None:
    reader = RunReader()
    table = [
        row for path in sorted(folder.iterdir()) for row in run_rows(reader, path.read_bytes(), "s")
    ]
    for row in table:
        assert list(row) == list(COLUMNS)
        for name, kind in COLUMNS.items():
            value = row[name]
            assert value is None or type(value) is PYTHON_TYPES[kind], (name, value)
    assert sum(row["kind"] == "run" for row in table) == len(list(folder.iterdir()))


def test_rows_of_a_claude_run(folder: Path) -> None:
    table = list(rows(_lines(folder / "claude.jsonl"), source="claude.jsonl"))
    assert [row["row"] for row in table] == list(range(len(table)))
    assert {row["session_id"] for row in table} == {"5c1d8e4a-2f7b-4c4e-9a59-0d6f7e1b2a33"}
    call = next(row for row in table if row["block_type"] == "tool_call")
    assert (call["name"], call["call_id"]) == ("Read", "toolu_read")
    assert json.loads(call["arguments"]) == {"file_path": "/repo/calc.py"}
    assert call["content"] is None and call["result"] is None
    failed = next(row for row in table if row["block_type"] == "tool_result" and row["is_error"])
    assert (failed["name"], failed["call_id"]) == ("Bash", "toolu_bash")
    assert failed["result"] == "1 failed"
    note = next(row for row in table if row["block_type"] == "note")
    assert (note["content"], note["start"], note["end"]) == ("remember the tests\n", 25, 60)
    assert json.loads(note["metadata"])["id"] == "n1"
    last = table[-1]
    assert (last["kind"], last["stop_reason"], last["input_tokens"], last["cost_usd"]) == (
        "run",
        "end_turn",
        120,
        0.0421,
    )
    assert last["blocks"] == len(table) - 1


def test_a_rejected_block_is_an_error_row() -> None:
    registry = BlockRegistry()
    registry.register("note")
    table = list(rows(["a\n", "!!n1:note\n", "x\n", "!!end\n", "!!n2:note"], registry=registry))
    assert [row["kind"] for row in table] == ["block", "error", "run"]
    error = table[1]
    assert (error["block_id"], error["error_code"]) == ("n2", "UNCLOSED")
    assert error["raw"] == "!!n2:note"
    assert table[-1]["content"] == "a\n"


def test_rows_from_extracts_json_equal_rows(folder: Path, capsys: Any) -> None:
    paths = sorted(p for p in folder.iterdir() if p.name != UNREADABLE)
    from_command = list(rows_from_records(_extract(capsys, *paths)))
    reader = RunReader(ReadOptions())
    direct = [row for p in paths for row in run_rows(reader, p.read_bytes(), str(p))]
    assert _same(from_command) == _same(direct)


def test_an_unknown_adapter_fails_at_once() -> None:
    with pytest.raises(InputError, match="unknown adapter 'opneai'"):
        RunReader(ReadOptions(adapter="opneai"))


def test_after_preload_reading_imports_nothing(folder: Path) -> None:
    """``extract --jobs`` preloads before forking its workers: after it, reading a
    transcript, provider streams and model markup imports no module of streamblocks."""
    import subprocess
    import sys

    from cli_helpers import environment

    inputs = [folder / name for name in ("claude.jsonl", "gemini.jsonl", "reply.txt")]
    script = (
        "import sys\n"
        "from streamblocks.batch import RunReader\n"
        "reader = RunReader()\n"
        "reader.preload()\n"
        "before = set(sys.modules)\n"
        "for path in sys.argv[1:]:\n"
        "    list(reader.records(path, None))\n"
        "print(sorted(m for m in set(sys.modules) - before if m.startswith('streamblocks')))\n"
    )
    command = [sys.executable, "-c", script, *map(str, inputs)]
    done = subprocess.run(command, capture_output=True, text=True, env=environment(), check=True)
    assert done.stdout == "[]\n"


@given(files=st.integers(1, 200_000), workers=st.integers(1, 512))
def test_files_are_cut_into_few_large_tasks_a_few_per_worker(files: int, workers: int) -> None:
    tasks = task_count(files, workers)
    assert 1 <= tasks <= files
    assert math.ceil(files / tasks) <= FILES_PER_TASK  # no task too long to retry
    if files >= MIN_FILES_PER_TASK * TASKS_PER_WORKER * workers:
        assert tasks >= TASKS_PER_WORKER * workers  # every worker busy to the end
    if tasks > math.ceil(files / FILES_PER_TASK):  # cut finer only to spread them
        assert tasks <= math.ceil(files / MIN_FILES_PER_TASK)
