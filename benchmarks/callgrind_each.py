"""Instructions per fed item of ``bench_default`` cases, many cases in one callgrind run.

    sh benchmarks/callgrind_each.sh SRC_DIR CASE...

What ``callgrind_default.sh`` counts (a case's second stream: imports, detection and the
items' building left out), in one process instead of three per case: each case is fed
once to warm it up, then once more inside ``operator.call``, the one function callgrind
is told to collect in (``--collect-atstart=no --toggle-collect=_operator_call``) and to
dump after (``--dump-after=_operator_call``): one dump per case, in the order given.
Nothing else in the feed calls ``operator.call``. This script runs under valgrind; the
shell script starts it and reads the dumps.
"""

from __future__ import annotations

import gc
import operator
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_default import _run, sources


def main() -> None:
    blocks = int(os.environ.get("BLOCKS", "100"))
    cases = sys.argv[1:]
    names = list(dict.fromkeys(case.split("/")[0] for case in cases))
    built = sources(blocks, names)
    for case in cases:
        items = len(built[case.split("/")[0]][1])
        _run(built, case)  # (warm: imports, detection, compiled searches)
        gc.collect()
        found = operator.call(_run, built, case)
        if found != blocks:
            raise SystemExit(f"{case}: {found} blocks, expected {blocks}")
        print(case, items, flush=True)


if __name__ == "__main__":
    main()
