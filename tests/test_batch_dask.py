"""Dask: a real local cluster of worker processes gives the rows of ``extract --json``,
also when a worker is killed in the middle of the job."""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "dask.distributed", reason="the dask extra is not installed: pip install '.[dask]'"
)
pq = pytest.importorskip("pyarrow.parquet", reason="the dask extra is not installed")

import pyarrow as pa  # noqa: E402
from dask.distributed import Client, LocalCluster  # noqa: E402

from batch_runs import counting_registry, expected_rows, killed_process, without_ids, write_runs  # noqa: E402
from streamblocks.batch import ReadOptions, rows  # noqa: E402
from streamblocks.batch.arrow import schema  # noqa: E402
from streamblocks.batch.dask import read_parquet_runs, read_runs, write_parquet  # noqa: E402
from streamblocks.batch.split import task_count  # noqa: E402

COPIES = 4


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        memory_limit="1GiB",
        silence_logs=40,
    )
    with cluster, Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("runs")
    write_runs(path, copies=COPIES)
    return path


def _rows(frame: Any) -> list[dict[str, Any]]:
    return without_ids(pa.Table.from_pandas(frame, preserve_index=False).to_pylist())


def test_rows_equal_extracts(client: Client, folder: Path, capsys: Any, tmp_path: Path) -> None:
    paths = sorted(folder.iterdir())
    frame = read_runs([str(p) for p in paths], files_per_partition=5)
    assert frame.npartitions == len(paths) // 5
    target = tmp_path / "rows"
    write_parquet(frame, str(target))
    written = pq.read_table(target)
    assert written.schema.remove_metadata() == schema()
    expected = expected_rows(paths, capsys)
    assert without_ids(written.to_pylist()) == expected
    runs = [row for row in expected if row["kind"] == "run"]
    assert len(runs) == len(paths)  # every run is in the table, the unreadable ones too
    assert sum(row["warnings"] or 0 for row in runs) == 3 * COPIES  # bad lines, a bad byte


def test_a_glob_a_folder_or_a_list_of_them(client: Client, folder: Path) -> None:
    # A string is a path, never its characters: a glob, a folder, or a list of either.
    paths = sorted(folder.iterdir())
    jsonl = [str(p) for p in paths if p.suffix == ".jsonl"]
    by_list = _rows(read_runs(jsonl).compute())
    assert by_list and {row["source"] for row in by_list} == set(jsonl)
    assert _rows(read_runs(str(folder / "*.jsonl")).compute()) == by_list
    whole = _rows(read_runs([str(p) for p in paths]).compute())
    assert _rows(read_runs(str(folder)).compute()) == whole
    txt = [str(p) for p in paths if p.suffix == ".txt"]
    both = _rows(read_runs([str(folder / "*.jsonl"), str(folder / "*.txt")]).compute())
    assert both == _rows(read_runs(jsonl + txt).compute())
    with pytest.raises(FileNotFoundError, match=r"no files in the pattern '.*\*\.csv'"):
        read_runs(str(folder / "*.csv"))


def test_files_are_cut_for_the_clients_workers(client: Client, folder: Path) -> None:
    paths = [str(p) for p in sorted(folder.iterdir())]
    per = math.ceil(len(paths) / task_count(len(paths), 2))  # two single-threaded workers
    assert read_runs(paths).npartitions == math.ceil(len(paths) / per)


def test_a_killed_worker_gives_the_same_rows_once(
    client: Client, folder: Path, capsys: Any, tmp_path: Path
) -> None:
    pids = set(client.run(os.getpid).values())
    paths = sorted(folder.iterdir())
    options = ReadOptions(registry=counting_registry(tmp_path, kill_at=4), unknown="block")
    frame = read_runs([str(p) for p in paths], options, files_per_partition=4)
    got = _rows(frame.compute())
    assert killed_process(tmp_path, 4) in pids  # one of the workers
    assert set(client.run(os.getpid).values()) != pids  # and it was replaced
    keys = [(row["source"], row["row"]) for row in got]
    assert len(keys) == len(set(keys))
    assert got == expected_rows(paths, capsys)


def test_parquet_tables_of_runs(client: Client, folder: Path, tmp_path: Path) -> None:
    paths = [p for p in sorted(folder.iterdir()) if p.suffix in (".jsonl", ".txt")][:12]
    runs = pa.table(
        {
            "source": [p.name for p in paths],
            "text": [p.read_text(encoding="utf-8", errors="replace") for p in paths],
        }
    )
    pq.write_table(runs, tmp_path / "runs.parquet")
    got = _rows(read_parquet_runs(str(tmp_path / "runs.parquet")).compute())
    direct = [
        row for p in paths for row in rows([runs["text"][paths.index(p)].as_py()], source=p.name)
    ]
    assert got == without_ids(direct)
