"""Runs to rows on Ray Data, on Dask and by ``extract --jobs``: files/s and MB/s by workers.

    python benchmarks/bench_scale.py [--files 1000] [--rounds 5] [--workers 1 2 4] [--tasks N]

Generates the 1,000 mixed transcripts of ``bench_cli.py`` (Claude Code runs with and without
partial messages, a Codex run, Anthropic, OpenAI and Gemini streams). For each worker
count it starts a local Ray cluster (``num_cpus=N``), then a Dask ``LocalCluster`` of N
worker processes — one at a time, as an idle cluster costs CPU too — runs the engine once
untimed (its workers import pyarrow and streamblocks then), and times, interleaved in each
round: ``streamblocks extract DIR/*.jsonl --jobs N --out FILE`` in a new process, the
engine (Ray ``read_runs(paths).write_parquet(DIR)``, Dask ``write_parquet(read_runs(paths),
DIR)``, each cutting the files into as many tasks as it does by default for the
cluster's CPUs — ``streamblocks.batch.split.task_count`` — or into ``--tasks`` tasks at
every worker count), and a bare loop in this process that reads each
file and parses its lines (the floor, one core). Prints medians of the rounds, and checks
once per engine and worker count that the engine's rows equal the rows of the command's
``--json`` output.

Besides the wall time it counts the CPU time of every process involved (this one, the
clusters' processes, the command and its pool, whether they live on or were reaped):
files per CPU second is what a case costs whatever else runs on the machine, and
``files/s ÷ min(workers, cores)`` is the per-core rate the scaling target compares.
``at most`` is the best ``÷ 1 worker`` those CPU seconds allow: the case cannot take less
than its CPU seconds ÷ min(workers, cores), so its ratio to the 1-worker wall time is at
most that wall time × min(workers, cores) ÷ CPU seconds. The
``driver`` column is this process's share: the Ray driver, or the Dask client with the
scheduler ``LocalCluster`` runs in it.

And it says how the engines ran their tasks (Ray's ``ray.timeline()``, Dask's task
stream): how many tasks, how many ran at once on average over a run (``busy``: their
seconds ÷ the run's), and how long a run went before a second task ran beside the first
(``alone``): time in which N workers do the work of one.
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


def _own_cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


Timing = tuple[float, float, float]
"""Wall, CPU and this process's CPU seconds."""


def _timed(work: Callable[[], Any]) -> Timing:
    cpu, own, start = cpu_seconds(), _own_cpu(), time.perf_counter()
    work()
    return time.perf_counter() - start, cpu_seconds() - cpu, _own_cpu() - own


Span = tuple[float, float]
"""A task's start and end (seconds since the epoch)."""


def concurrency(tasks: list[Span], start: float, end: float) -> tuple[int, float, float]:
    """The tasks of a run from ``start`` to ``end``: how many; their seconds ÷ the run's;
    the seconds from ``start`` until two of them ran at once (all of it if never)."""
    inside = [(a, b) for a, b in tasks if start <= a <= end]
    busy = sum(b - a for a, b in inside) / max(end - start, 1e-9)
    running, alone = 0, end - start
    for moment, step in sorted([(a, 1) for a, _ in inside] + [(b, -1) for _, b in inside]):
        running += step
        if running >= 2:
            alone = moment - start
            break
    return len(inside), busy, alone


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
    """A local Ray cluster of ``workers`` CPUs, reading in ``tasks`` tasks. Its tasks'
    spans come from ``ray.timeline()``."""

    name = "ray"

    def __init__(self, workers: int, tasks: int | None) -> None:
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

        blocks = {"override_num_blocks": self.tasks} if self.tasks else {}
        read_runs(paths, ReadOptions(), **blocks).write_parquet(str(out))

    def spans(self) -> list[Span]:
        time.sleep(2)  # workers report task events about every second
        return [
            (event["ts"] / 1e6, (event["ts"] + event["dur"]) / 1e6)
            for event in self.ray.timeline()
            if event.get("ph") == "X" and event["name"].endswith("_map_task")
        ]

    def close(self) -> None:
        self.ray.shutdown()


class Dask:
    """A Dask ``LocalCluster`` of ``workers`` single-threaded processes, ``tasks``
    partitions."""

    name = "dask"

    def __init__(self, workers: int, tasks: int | None) -> None:
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
        self.tasks_seen: list[Span] = []

    def run(self, paths: list[str], out: Path) -> None:
        from dask.distributed import get_task_stream

        from streamblocks.batch.dask import read_runs, write_parquet

        per = -(-len(paths) // self.tasks) if self.tasks else None
        with get_task_stream(self.client) as stream:
            write_parquet(read_runs(paths, ReadOptions(), files_per_partition=per), str(out))
        self.tasks_seen += [
            (part["start"], part["stop"])
            for task in stream.data
            if "streamblocks" in str(task["key"])
            for part in task["startstops"]
            if part["action"] == "compute"
        ]

    def spans(self) -> list[Span]:
        return self.tasks_seen

    def close(self) -> None:
        self.client.close()
        self.cluster.close()


Timings = dict[tuple[str, int], list[Timing]]


def _check(folder: Path, engine: str) -> None:
    """Whether the engine's rows of the first round equal those of ``extract --json``."""
    lines = folder.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()
    expected = comparable(list(rows_from_records(json.loads(line) for line in lines)))
    got = comparable(pq.read_table(folder / engine).to_pylist())
    verdict = "identical" if got == expected else "DIFFERENT"
    print(f"   {engine} rows vs extract --json's: {verdict} ({len(got)} rows)")


def measure(
    folder: Path, files: int, rounds: int, counts: list[int], tasks: int | None
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
                windows = []
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
                        begun = time.time()
                        results.setdefault((name, workers), []).append(_timed(work))
                        if name == kind.name:
                            windows.append((begun, time.time()))
                _check(folder / f"out-{kind.name}-{workers}-0", kind.name)
                spans = engine.spans()
                runs = [concurrency(spans, *window) for window in windows]
                ran, busy, alone = (statistics.median(r[i] for r in runs) for i in range(3))
                alone_text = f", alone for the first {alone:.2f} s" if workers > 1 else ""
                print(
                    f"   {kind.name} tasks per run {ran:.0f}, busy {busy:.2f} of {workers} "
                    f"workers{alone_text} (medians)"
                )
            finally:
                engine.close()
            print(f"   load average after: {os.getloadavg()}")
    return results, len(paths), megabytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument(
        "--tasks",
        type=int,
        help="Ray blocks, Dask partitions at every worker count (default: the integrations')",
    )
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
        f"command), {args.tasks or 'default'} tasks, {cores} cores; "
        f"load average {os.getloadavg()}"
    )
    print(
        "| case | workers | s | files/s | MB/s | ÷ 1 worker | at most | per core | CPU s "
        "| driver s | files/CPU s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (name, workers), timings in results.items():
        wall, cpu, own = (statistics.median(t[i] for t in timings) for i in range(3))
        one = statistics.median(t[0] for t in results.get((name, 1), timings))
        used = 1 if name == "bare loop" else min(workers, cores)
        driver = f"{own:.2f}" if name in ("ray", "dask") else "—"
        bound = f"{one * used / cpu:.2f}×" if workers > 1 and name != "bare loop" else "—"
        print(
            f"| {name} | {workers} | {wall:.2f} | {count / wall:,.0f} | "
            f"{megabytes / wall:.2f} | {one / wall:.2f}× | {bound} | "
            f"{count / wall / used:,.0f} | {cpu:.2f} | {driver} | {count / cpu:,.0f} |"
        )


if __name__ == "__main__":
    main()
