"""Ctrl-C during ``extract`` closes an open block's drawing with a closing line."""

from __future__ import annotations

import io
import signal
import subprocess
import sys

import pytest

from cli_helpers import DEADLINE, LineReader, spawn
from streamblocks.cli.render import PlainRenderer


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
def test_ctrl_c_inside_a_block_draws_its_closing_line() -> None:
    child = spawn(
        ["extract", "--render", "plain", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    try:
        lines = LineReader(child.stdout)
        child.stdin.write("Before.\n!!n1:note\nhalf a note\n")
        child.stdin.flush()
        lines.wait_for("half a note")
        child.send_signal(signal.SIGINT)
        rest = lines.wait_for("cut off")
        assert rest[-1] == "└─ note n1 cut off: the input stopped inside it\n"
        assert child.wait(DEADLINE) == 130
        assert "interrupted" in child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_close_after_a_normal_end_adds_nothing() -> None:
    out = io.StringIO()
    renderer = PlainRenderer(out)
    renderer(
        {"type": "BLOCK_START", "block_id": "n1", "block_type": "note", "syntax": "x", "attrs": {}}
    )
    renderer(
        {
            "type": "BLOCK_ERROR",
            "block_id": "n1",
            "block_type": "note",
            "code": "UNCLOSED",
            "message": "m",
            "raw": "",
        }
    )
    before = out.getvalue()
    renderer.close()
    assert out.getvalue() == before
