"""How many tasks an engine cuts a list of files into.

Every task costs the engine tens of milliseconds of CPU (scheduling it, a Parquet file
written) whatever it reads, so tasks should be large; but the last ones leave workers
idle, so there should be a few per worker. The Ray and Dask integrations both use
:func:`task_count` unless told otherwise.
"""

from __future__ import annotations

import math

FILES_PER_TASK = 512
"""The most files one task reads (about a second of reading on one core)."""

MIN_FILES_PER_TASK = 32
"""The fewest files per task when spreading the files over the workers."""

TASKS_PER_WORKER = 2
"""The tasks per worker (CPU, or Dask thread), files allowing."""


def task_count(files: int, workers: int) -> int:
    """Tasks for ``files`` files on ``workers`` workers: :data:`TASKS_PER_WORKER` per
    worker while each gets at least :data:`MIN_FILES_PER_TASK` files, more when a task
    would get more than :data:`FILES_PER_TASK`."""
    spread = min(TASKS_PER_WORKER * max(1, workers), math.ceil(files / MIN_FILES_PER_TASK))
    return max(1, spread, math.ceil(files / FILES_PER_TASK))


__all__ = ["FILES_PER_TASK", "MIN_FILES_PER_TASK", "TASKS_PER_WORKER", "task_count"]
