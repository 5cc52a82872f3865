"""Running the ``streamblocks`` command, in process and as a real process."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import IO, Any

import pytest

from streamblocks.cli import main

COMMAND = [sys.executable, "-m", "streamblocks"]
DEADLINE = 30.0
"""Seconds a subprocess gets to answer: long for a loaded machine, and only spent on failure."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``main(argv)`` in process: exit status, standard output, standard error. A usage
    error (argparse's ``SystemExit``) gives its status too."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def json_events(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def environment(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "", "COLUMNS": "100", **extra}
    env.pop("NO_COLOR", None)
    return env


class LineReader:
    """Lines of a child's pipe, read by a thread: ``next_line`` waits up to a deadline."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self.thread.start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, needle: str, deadline: float = DEADLINE) -> list[str]:
        """The lines up to and including the first containing ``needle``."""
        seen: list[str] = []
        end = time.monotonic() + deadline
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{needle!r} not printed within {deadline} s: {seen}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"output ended without {needle!r}: {seen}")
            seen.append(line)
            if needle in line:
                return seen


def spawn(args: Sequence[str], **kwargs: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*COMMAND, *args], text=True, encoding="utf-8", env=environment(), **kwargs
    )
