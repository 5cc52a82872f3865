"""Python calls per block (and per chunk) of a ``bench_v2`` case, counted with cProfile.

    PYTHONPATH=src python benchmarks/calls_v2.py mixed-1k [--top 30]

The count is deterministic (unlike timings): the Python functions called while one
session reads the case's chunks (built-in functions such as ``len`` are listed apart),
divided by the blocks it finishes and by the chunks it is fed.
"""

from __future__ import annotations

import cProfile
import pstats

import bench_v2


def main() -> None:
    args, proc, pieces = bench_v2.warmed_case(0, "list the most called functions")
    profile = cProfile.Profile()
    profile.enable()
    _, blocks = bench_v2._session(proc, pieces)
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    python = sum(row[1] for (path, _, _), row in stats.items() if path != "~")
    builtin = sum(row[1] for (path, _, _), row in stats.items() if path == "~")
    per = max(blocks, 1)
    print(
        f"{args.case}: {blocks} blocks, {len(pieces)} chunks; Python calls "
        f"{python / per:.1f} per block, {python / len(pieces):.2f} per chunk "
        f"(built-in calls {builtin / per:.1f} per block)"
    )
    rows = sorted(stats.items(), key=lambda item: -item[1][1])[: args.top]
    for (path, line, name), row in rows:
        print(f"{row[1] / per:9.2f}  {path.rsplit('/', 1)[-1]}:{line} {name}")


if __name__ == "__main__":
    main()
