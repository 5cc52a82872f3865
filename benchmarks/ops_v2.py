"""Bytecodes per chunk of a ``bench_v2`` case, by function, counted with ``sys.settrace``
opcode events (deterministic, unlike timings; slow: run it on one case at a time).

    PYTHONPATH=src python benchmarks/ops_v2.py mixed-4 [--top 30]

The second of two runs in one process is counted (the first compiles the searches):
every bytecode the session and the benchmark's own loop execute, and each function's
share with the number of its calls.
"""

from __future__ import annotations

import sys
from collections import Counter
from types import FrameType
from typing import Any

import bench_v2


def main() -> None:
    args, proc, pieces = bench_v2.warmed_case(30, "list the functions with most")
    ops: Counter[str] = Counter()
    calls: Counter[str] = Counter()

    def called(frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        name = f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_name}"
        calls[name] += 1
        frame.f_trace_opcodes = True

        def step(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "opcode":
                ops[name] += 1
            return step

        return step

    sys.settrace(called)
    bench_v2.blocks_read(proc, pieces)
    sys.settrace(None)
    total = sum(ops.values())
    print(
        f"{args.case}: {total} bytecodes, {total / len(pieces):.1f} per chunk "
        f"({len(pieces)} chunks), {sum(calls.values())} Python calls"
    )
    for name, count in ops.most_common(args.top):
        print(f"{count:10d} {calls[name]:8d}  {name}")


if __name__ == "__main__":
    main()
