"""Runs to rows on Ray Data, on Dask and by ``extract --jobs``: files/s and MB/s by workers.

    python benchmarks/bench_scale.py [--files 1000] [--rounds 3] [--workers 1 2 4]

Generates the 1,000 mixed transcripts of ``bench_cli.py`` (Claude Code runs with and without
partial messages, a Codex run, Anthropic, OpenAI and Gemini streams). For each worker
count it starts a local Ray cluster (``num_cpus=N``) and a Dask ``LocalCluster`` of N
worker processes (their start-up is timed apart), then times, interleaved in each round:
``streamblocks extract DIR/*.jsonl --jobs N --out FILE`` in a new process, Ray
``read_runs(paths).write_parquet(DIR)`` and Dask ``write_parquet(read_runs(paths), DIR)``,
and a bare loop in this process that reads each file and parses its lines (the floor,
one core). Prints medians of the rounds, and checks once per worker count that both
engines' rows equal the rows of the command's ``--json`` output.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cli import generate

from streamblocks.batch import ReadOptions, rows_from_records

SOURCE = str(Path(__file__).resolve().parent.parent / "src")


def _timed(work: Callable[[], Any]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def bare(paths: list[str]) -> None:
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                json.loads(line)


def extract(paths: list[str], jobs: int, out: Path) -> None:
    command = [sys.executable, "-m", "streamblocks", "extract", *paths, "--jobs", str(jobs)]
    subprocess.run([*command, "--out", str(out)], check=True, stderr=subprocess.DEVNULL)


def comparable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ordered = sorted(rows, key=lambda row: (row["source"], row["row"]))
    return [{k: v for k, v in row.items() if k != "stream_id"} for row in ordered]


class Engines:
    """A Ray and a Dask cluster of ``workers`` processes each."""

    def __init__(self, workers: int) -> None:
        import ray
        from dask.distributed import Client, LocalCluster

        self.ray = ray
        start = time.perf_counter()
        ray.init(
            num_cpus=workers,
            include_dashboard=False,
            object_store_memory=200 * 1024 * 1024,
            log_to_driver=False,
            configure_logging=False,
        )
        ray.data.DataContext.get_current().enable_progress_bars = False
        self.ray_start = time.perf_counter() - start
        start = time.perf_counter()
        self.cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=40,
        )
        self.client = Client(self.cluster)
        self.dask_start = time.perf_counter() - start
        self.workers = workers

    def run_ray(self, paths: list[str], out: Path) -> None:
        from streamblocks.batch.ray import read_runs

        read_runs(paths, ReadOptions(), override_num_blocks=8 * self.workers).write_parquet(
            str(out)
        )

    def run_dask(self, paths: list[str], out: Path) -> None:
        from streamblocks.batch.dask import read_runs, write_parquet

        per = max(1, len(paths) // (8 * self.workers))
        write_parquet(read_runs(paths, ReadOptions(), files_per_partition=per), str(out))

    def close(self) -> None:
        self.client.close()
        self.cluster.close()
        self.ray.shutdown()


def _cases(engines: Engines, paths: list[str], out: Path) -> dict[str, Callable[[], Any]]:
    return {
        "bare loop": partial(bare, paths),
        "extract --jobs": partial(extract, paths, engines.workers, out.with_suffix(".jsonl")),
        "ray": partial(engines.run_ray, paths, out / "ray"),
        "dask": partial(engines.run_dask, paths, out / "dask"),
    }


def measure(
    folder: Path, files: int, rounds: int, counts: list[int]
) -> tuple[dict[tuple[str, int], list[float]], int, float]:
    """The timings of every case, by case and worker count; the files and megabytes."""
    (folder / "runs").mkdir()
    size = generate(folder / "runs", files)
    paths = sorted(str(p) for p in (folder / "runs").glob("*.jsonl"))
    megabytes = size / 1e6
    print(f"{len(paths)} files, {megabytes:.1f} MB; load average {os.getloadavg()}")
    results: dict[tuple[str, int], list[float]] = {}
    for workers in counts:
        engines = Engines(workers)
        print(
            f"== {workers} workers: Ray started in {engines.ray_start:.1f} s, "
            f"Dask in {engines.dask_start:.1f} s"
        )
        try:
            for round_ in range(rounds):
                cases = _cases(engines, paths, folder / f"out-{workers}-{round_}")
                for name, work in cases.items():
                    results.setdefault((name, workers), []).append(_timed(work))
            first = folder / f"out-{workers}-0"
            lines = first.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()
            expected = comparable(list(rows_from_records(json.loads(line) for line in lines)))
            for engine in ("ray", "dask"):
                got = comparable(pq.read_table(first / engine).to_pylist())
                verdict = "identical" if got == expected else "DIFFERENT"
                print(f"   {engine} rows vs extract --json's: {verdict} ({len(got)} rows)")
        finally:
            engines.close()
        print(f"   load average after: {os.getloadavg()}")

    return results, len(paths), megabytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [SOURCE, os.environ.get("PYTHONPATH")]))

    folder = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    try:
        results, count, megabytes = measure(folder, args.files, args.rounds, args.workers)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print()
    print("| case | workers | median s | files/s | MB/s | ÷ 1 worker |")
    print("|---|---|---|---|---|---|")
    for (name, workers), times in results.items():
        median = statistics.median(times)
        one = statistics.median(results.get((name, 1), times))
        print(
            f"| {name} | {workers} | {median:.2f} | {count / median:,.0f} | "
            f"{megabytes / median:.2f} | {one / median:.2f}× |"
        )


if __name__ == "__main__":
    main()
