"""A case's steady state, for callgrind: one run for first use, then three counted.

    PYTHONHASHSEED=0 PYTHONPATH=SRC valgrind --tool=callgrind \\
        --toggle-collect=functools_reduce python benchmarks/steady_v2.py CASE

The count divided by three is one run with nothing made once (the syntaxes' patterns
compiled on first use, caches) and no harness ``gc.collect()``. CASE is a ``bench_v2``
case, or ``mixed@SIZE``: the mixed document of ``bench_v2`` in chunks of SIZE
characters (``mixed@1000000``: in one chunk, every block in hand).
"""

from __future__ import annotations

import functools
import sys

import bench_v2
from documents import chunks, document, processor


def main() -> None:
    name = sys.argv[1]
    if name.startswith("mixed@"):
        proc, pieces = processor(), chunks(document(bench_v2.SIZE), int(name[6:]))
    else:
        proc, pieces = bench_v2._cases()[name]()

    def run(_: object = None, __: object = None) -> int:
        return bench_v2.blocks_read(proc, pieces)

    print(f"{name}: {run()} blocks, {len(pieces)} chunks", file=sys.stderr)
    functools.reduce(run, range(4))


if __name__ == "__main__":
    main()
