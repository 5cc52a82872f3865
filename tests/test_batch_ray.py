"""Ray Data: a real local cluster of worker processes gives the rows of ``extract --json``,
also when a worker is killed in the middle of the job."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="the ray extra is not installed: pip install '.[ray]'")
pytest.importorskip("ray.data", reason="the ray extra is not installed: pip install '.[ray]'")

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from batch_runs import counting_registry, expected_rows, killed_process, without_ids, write_runs  # noqa: E402
from streamblocks.batch import ReadOptions, rows  # noqa: E402
from streamblocks.batch.arrow import schema  # noqa: E402
from streamblocks.batch.ray import read_parquet_runs, read_runs  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # Ray's own

COPIES = 4
SOURCE = str(Path(__file__).resolve().parent.parent / "src")


def _start(attempts: int = 2) -> None:
    """``ray.init`` of a local cluster. Ray waits a fixed 30 s for its node to start; a
    machine loaded past that gets a second try, then the tests skip saying why."""
    for attempt in range(attempts):
        try:
            ray.init(
                num_cpus=2,
                include_dashboard=False,
                object_store_memory=100 * 1024 * 1024,
                log_to_driver=False,
                configure_logging=False,
            )
            return
        except Exception as exc:
            ray.shutdown()
            if "timed out during startup" not in str(exc):
                raise
            if attempt == attempts - 1:
                pytest.skip(f"Ray's local cluster did not start in time on this machine: {exc}")


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """Two worker processes on this machine, small: 2 CPUs and 100 MB of object store."""
    path = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [SOURCE, path]))  # the workers'
    try:
        _start()
        ray.data.DataContext.get_current().enable_progress_bars = False
        yield
    finally:
        ray.shutdown()
        if path is None:
            os.environ.pop("PYTHONPATH")
        else:
            os.environ["PYTHONPATH"] = path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("runs")
    write_runs(path, copies=COPIES)
    return path


def test_rows_equal_extracts(cluster: None, folder: Path, capsys: Any, tmp_path: Path) -> None:
    paths = sorted(folder.iterdir())
    target = tmp_path / "rows"
    read_runs([str(p) for p in paths]).write_parquet(str(target))
    written = pq.read_table(target)
    assert written.schema.remove_metadata() == schema()
    expected = expected_rows(paths, capsys)
    assert without_ids(written.to_pylist()) == expected
    assert sum(row["kind"] == "run" for row in expected) == len(paths)


def test_a_glob_a_folder_or_a_list_of_them(cluster: None, folder: Path, tmp_path: Path) -> None:
    paths = sorted(folder.iterdir())
    jsonl = [str(p) for p in paths if p.suffix == ".jsonl"]

    def rows(dataset: Any) -> list[dict[str, Any]]:
        return sorted(without_ids(dataset.take_all()), key=repr)

    by_list = rows(read_runs(jsonl))
    assert by_list and {row["source"] for row in by_list} == set(jsonl)
    assert rows(read_runs(str(folder / "*.jsonl"))) == by_list
    assert rows(read_runs(str(folder))) == rows(read_runs([str(p) for p in paths]))
    with pytest.raises(FileNotFoundError, match="no files in the folder"):
        read_runs(str(tmp_path))  # an empty folder


def test_a_killed_worker_gives_the_same_rows_once(
    cluster: None, folder: Path, capsys: Any, tmp_path: Path
) -> None:
    paths = sorted(folder.iterdir())
    options = ReadOptions(registry=counting_registry(tmp_path, kill_at=3), unknown="block")
    dataset = read_runs([str(p) for p in paths], options, override_num_blocks=6)
    got = without_ids(dataset.take_all())
    killed_process(tmp_path, 3)
    keys = [(row["source"], row["row"]) for row in got]
    assert len(keys) == len(set(keys))
    assert got == expected_rows(paths, capsys)


def test_parquet_tables_of_runs(cluster: None, folder: Path, tmp_path: Path) -> None:
    paths = [p for p in sorted(folder.iterdir()) if p.suffix in (".jsonl", ".txt")][:12]
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in paths]
    table = pa.table({"source": [p.name for p in paths], "lines": [t.splitlines() for t in texts]})
    pq.write_table(table, tmp_path / "runs.parquet")
    got = without_ids(read_parquet_runs(str(tmp_path / "runs.parquet"), content="lines").take_all())
    given = zip(paths, table["lines"].to_pylist(), strict=True)
    direct = [row for p, lines in given for row in rows(lines, source=p.name)]
    assert got == without_ids(direct)
