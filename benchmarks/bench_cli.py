"""``streamblocks extract`` over a directory of 1,000 transcripts: files per second.

    python benchmarks/bench_cli.py [--files 1000] [--rounds 5] [--jobs 1 4]

Generates ``--files`` JSON Lines files in a temporary directory by cycling through the
test suite's recorded fixtures (Claude Code runs with and without partial messages, a
Codex run, and Anthropic, OpenAI and Gemini streams with blocks), then times, interleaved
in each round, the command as a user runs it (``extract DIR/*.jsonl --out FILE`` in a new
process, for each ``--jobs``) and a bare loop in this process that only reads each file
and parses its lines (the floor: what any tool pays to read the input). Prints the
median of the rounds for each, in files per second, and the ratio to the bare loop.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from adapters import transcripts
from streamblocks.testing import MockProvider, MockReply, MockToolCall

REPLY = MockReply(
    text="Checking.\n!!n1:note\nThe disk is 91% full.\n!!end\nDone.\n",
    thinking="Look at df first.",
    tool_calls=[MockToolCall("df", {"path": "/"})],
)


def fixtures() -> list[str]:
    """The bodies the files cycle through, as JSON Lines."""
    runs: list[list[dict[str, Any]]] = [
        transcripts.claude_tool_run(),
        transcripts.claude_partial_run(),
        transcripts.codex_run(),
    ]
    bodies = ["".join(json.dumps(line) + "\n" for line in run) for run in runs]
    for provider in ("anthropic", "openai", "gemini"):
        bodies.append(MockProvider([], provider=provider).dump(REPLY))
    return bodies


def generate(folder: Path, count: int) -> int:
    """``count`` files in ``folder``; their total size in bytes."""
    bodies = fixtures()
    total = 0
    for index in range(count):
        body = bodies[index % len(bodies)]
        (folder / f"run-{index:04d}.jsonl").write_text(body, encoding="utf-8")
        total += len(body.encode("utf-8"))
    return total


def time_command(folder: Path, jobs: int, out: Path) -> float:
    command = [sys.executable, "-m", "streamblocks", "extract", str(folder / "*.jsonl")]
    start = time.perf_counter()
    subprocess.run(
        [*command, "--jobs", str(jobs), "--out", str(out)], check=True, stderr=subprocess.DEVNULL
    )
    return time.perf_counter() - start


def time_bare(folder: Path) -> float:
    start = time.perf_counter()
    for path in sorted(folder.glob("*.jsonl")):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                json.loads(line)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 4])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp, "runs")
        folder.mkdir()
        size = generate(folder, args.files)
        out = Path(tmp, "out.jsonl")
        times: dict[str, list[float]] = {"bare loop": []}
        times.update({f"--jobs {jobs}": [] for jobs in args.jobs})
        for _ in range(args.rounds):
            times["bare loop"].append(time_bare(folder))
            for jobs in args.jobs:
                times[f"--jobs {jobs}"].append(time_command(folder, jobs, out))
        records = sum(1 for _ in out.open(encoding="utf-8"))
    print(
        f"{args.files} files, {size / 1e6:.1f} MB, {records} records out; median of {args.rounds}"
    )
    bare = statistics.median(times["bare loop"])
    for name, values in times.items():
        median = statistics.median(values)
        rate = args.files / median
        print(f"{name:>10}: {median:6.2f} s  {rate:8.0f} files/s  {median / bare:6.1f}x bare loop")


if __name__ == "__main__":
    main()
