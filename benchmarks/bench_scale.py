"""Runs to rows on Ray Data, on Dask and by ``extract --jobs``: files/s and MB/s by workers.

    python benchmarks/bench_scale.py [--files 1000] [--rounds 5] [--workers 1 2 4] [--tasks 16]

Generates the 1,000 mixed transcripts of ``bench_cli.py`` (Claude Code runs with and without
partial messages, a Codex run, Anthropic, OpenAI and Gemini streams). For each worker
count it starts a local Ray cluster (``num_cpus=N``), then a Dask ``LocalCluster`` of N
worker processes — one at a time, as an idle cluster costs CPU too — runs the engine once
untimed (its workers import pyarrow and streamblocks then), and times, interleaved in each
round: ``streamblocks extract DIR/*.jsonl --jobs N --out FILE`` in a new process, the
engine (Ray ``read_runs(paths).write_parquet(DIR)``, Dask ``write_parquet(read_runs(paths),
DIR)``, both in ``--tasks`` tasks at every worker count, so that each count does the same
work), and a bare loop in this process that reads each file and parses its lines (the
floor, one core). Prints medians of the rounds, and checks once per engine and worker count
that the engine's rows equal the rows of the command's ``--json`` output.

Besides the wall time it counts the CPU time of every process involved (this one, the
clusters' processes, the command and its pool, whether they live on or were reaped):
files per CPU second is what a case costs whatever else runs on the machine, and
``files/s ÷ min(workers, cores)`` is the per-core rate the scaling target compares.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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

import psutil
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cli import generate

from streamblocks.batch import ReadOptions, rows_from_records

SOURCE = str(Path(__file__).resolve().parent.parent / "src")


def cpu_seconds() -> float:
    """CPU time of this process and all its descendants, living or reaped."""
    total = 0.0
    for process in [psutil.Process(), *psutil.Process().children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.Error:  # gone in between
            continue
        total += times.user + times.system
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    return total + reaped.ru_utime + reaped.ru_stime


def _timed(work: Callable[[], Any]) -> tuple[float, float]:
    """Wall and CPU seconds of ``work``."""
    cpu, start = cpu_seconds(), time.perf_counter()
    work()
    return time.perf_counter() - start, cpu_seconds() - cpu


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


class Ray:
    """A local Ray cluster of ``workers`` CPUs, reading in ``tasks`` tasks."""

    name = "ray"

    def __init__(self, workers: int, tasks: int) -> None:
        import ray

        self.ray, self.workers, self.tasks = ray, workers, tasks
        ray.init(
            num_cpus=workers,
            include_dashboard=False,
            object_store_memory=200 * 1024 * 1024,
            log_to_driver=False,
            configure_logging=False,
        )
        ray.data.DataContext.get_current().enable_progress_bars = False

    def run(self, paths: list[str], out: Path) -> None:
        from streamblocks.batch.ray import read_runs

        options = ReadOptions()
        read_runs(paths, options, override_num_blocks=self.tasks).write_parquet(str(out))

    def close(self) -> None:
        self.ray.shutdown()


class Dask:
    """A Dask ``LocalCluster`` of ``workers`` single-threaded processes, ``tasks``
    partitions."""

    name = "dask"

    def __init__(self, workers: int, tasks: int) -> None:
        from dask.distributed import Client, LocalCluster

        self.workers, self.tasks = workers, tasks
        self.cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=40,
        )
        self.client = Client(self.cluster)

    def run(self, paths: list[str], out: Path) -> None:
        from streamblocks.batch.dask import read_runs, write_parquet

        per = -(-len(paths) // self.tasks)
        write_parquet(read_runs(paths, ReadOptions(), files_per_partition=per), str(out))

    def close(self) -> None:
        self.client.close()
        self.cluster.close()


Timings = dict[tuple[str, int], list[tuple[float, float]]]


def _check(folder: Path, engine: str) -> None:
    """Whether the engine's rows of the first round equal those of ``extract --json``."""
    lines = folder.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()
    expected = comparable(list(rows_from_records(json.loads(line) for line in lines)))
    got = comparable(pq.read_table(folder / engine).to_pylist())
    verdict = "identical" if got == expected else "DIFFERENT"
    print(f"   {engine} rows vs extract --json's: {verdict} ({len(got)} rows)")


def measure(
    folder: Path, files: int, rounds: int, counts: list[int], tasks: int
) -> tuple[Timings, int, float]:
    """The wall and CPU seconds of every case, by case and worker count; the files and
    megabytes. One cluster runs at a time (an idle cluster's processes cost CPU too):
    each engine's rounds interleave it with the bare loop and the command."""
    (folder / "runs").mkdir()
    size = generate(folder / "runs", files)
    paths = sorted(str(p) for p in (folder / "runs").glob("*.jsonl"))
    megabytes = size / 1e6
    print(f"{len(paths)} files, {megabytes:.1f} MB; load average {os.getloadavg()}")
    results: Timings = {}
    for workers in counts:
        for kind in (Ray, Dask):
            start = time.perf_counter()
            engine = kind(workers, tasks)
            try:
                started = time.perf_counter() - start
                warm = _timed(partial(engine.run, paths, folder / f"warm-{kind.name}-{workers}"))
                print(
                    f"== {kind.name}, {workers} workers: started in {started:.1f} s, "
                    f"first run (workers importing) {warm[0]:.1f} s"
                )
                for round_ in range(rounds):
                    out = folder / f"out-{kind.name}-{workers}-{round_}"
                    cases = {
                        "bare loop": partial(bare, paths),
                        "extract --jobs": partial(
                            extract, paths, workers, out.with_suffix(".jsonl")
                        ),
                        kind.name: partial(engine.run, paths, out / kind.name),
                    }
                    for name, work in cases.items():
                        results.setdefault((name, workers), []).append(_timed(work))
                _check(folder / f"out-{kind.name}-{workers}-0", kind.name)
            finally:
                engine.close()
            print(f"   load average after: {os.getloadavg()}")
    return results, len(paths), megabytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--tasks", type=int, default=16, help="Ray blocks, Dask partitions")
    args = parser.parse_args()
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [SOURCE, os.environ.get("PYTHONPATH")]))

    folder = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    try:
        results, count, megabytes = measure(
            folder, args.files, args.rounds, args.workers, args.tasks
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    cores = os.cpu_count() or 1
    print(
        f"\nmedians of {args.rounds} rounds ({2 * args.rounds} for the bare loop and the "
        f"command), {args.tasks} tasks, {cores} cores; load average {os.getloadavg()}"
    )
    print("| case | workers | s | files/s | MB/s | ÷ 1 worker | per core | CPU s | files/CPU s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (name, workers), timings in results.items():
        wall = statistics.median(t[0] for t in timings)
        cpu = statistics.median(t[1] for t in timings)
        one = statistics.median(t[0] for t in results.get((name, 1), timings))
        used = 1 if name == "bare loop" else min(workers, cores)
        print(
            f"| {name} | {workers} | {wall:.2f} | {count / wall:,.0f} | "
            f"{megabytes / wall:.2f} | {one / wall:.2f}× | {count / wall / used:,.0f} | "
            f"{cpu:.2f} | {count / cpu:,.0f} |"
        )


if __name__ == "__main__":
    main()
