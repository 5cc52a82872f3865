"""A one-line progress bar on standard error, drawn only when that is a terminal.

No dependency: a carriage return and an erase-line, at most ``RATE`` redraws a second.
It is cleared before output that goes to the same terminal and at the end.
"""

from __future__ import annotations

import time
from typing import TextIO

from .model import plural

RATE = 10
WIDTH = 24


def human_bytes(count: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if count < 1000 or unit == "GB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1000
    return f"{count:.1f} GB"  # pragma: no cover - the loop returns


class Progress:
    """Files done out of a total, bytes, blocks and errors so far. A disabled one
    (``err`` is ``None``: not a terminal) counts and draws nothing."""

    def __init__(self, err: TextIO | None, total_files: int, total_bytes: int | None) -> None:
        self.err = err
        self.total_files = total_files
        self.total_bytes = total_bytes
        self.files = self.bytes = self.blocks = self.errors = 0
        self.last = 0.0
        self.shown = False

    def line(self) -> str:
        done = self.files / self.total_files if self.total_files else 1.0
        if self.total_bytes:
            done = min(1.0, self.bytes / self.total_bytes)
        filled = round(done * WIDTH)
        bar = "█" * filled + "░" * (WIDTH - filled)
        size = human_bytes(self.bytes)
        if self.total_bytes:
            size += f"/{human_bytes(self.total_bytes)}"
        return (
            f"{bar} {self.files}/{self.total_files} files · {size} · "
            f"{plural(self.blocks, 'block')} · {plural(self.errors, 'error')}"
        )

    def update(self, *, force: bool = False) -> None:
        if self.err is None:
            return
        now = time.monotonic()
        if force or now - self.last >= 1 / RATE:
            self.last = now
            self.err.write("\r\x1b[K" + self.line())
            self.err.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown and self.err is not None:
            self.err.write("\r\x1b[K")
            self.err.flush()
            self.shown = False


__all__ = ["Progress", "human_bytes"]
