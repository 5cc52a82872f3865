"""The server's reader on one input file, for instruction counts (callgrind).

    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/count_reader.py FILE
        [--part viewer] [--setup]

Imports everything and reads the file's first line once (so what is made once is made),
then reads the whole file as ``bench_view.py --reader`` does: the library alone
(``--part library``, the default) or the whole reader (``--part viewer``). ``--setup``
stops after the one-line read: the whole count less the setup's is the reading's.
``benchmarks/callgrind_view.sh`` does the subtraction.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bench_view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--part", choices=["library", "viewer"], default="library")
    parser.add_argument("--setup", action="store_true", help="only the one-line warm-up")
    args = parser.parse_args()
    with args.file.open("rb") as handle:
        first = handle.readline()
    with tempfile.TemporaryDirectory() as folder:
        one = Path(folder, "one.jsonl")
        one.write_bytes(first)
        bench_view.reader_cpu(one, args.part)
        if not args.setup:
            bench_view.reader_cpu(args.file, args.part)


if __name__ == "__main__":
    main()
