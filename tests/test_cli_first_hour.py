"""The smaller things a newcomer hit with ``extract`` (issue 39, item 11)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import DEADLINE, run, spawn

ROOT = Path(__file__).parents[1]
CODEX = str(ROOT / "examples" / "transcripts" / "codex.jsonl")


def test_did_you_mean_for_adapter_markup_and_flags(capsys: Any) -> None:
    code, _, err = run(capsys, "extract", CODEX, "--adapter", "codex-cli")
    assert code == 2 and "did you mean 'codex_cli'?" in err
    code, _, err = run(capsys, "extract", CODEX, "--markup", "qwen")
    assert code == 2 and "did you mean 'qwen3'?" in err
    code, _, err = run(capsys, "extract", CODEX, "--hide-txt", "--jsn")
    assert code == 2
    assert "did you mean '--hide-text' for '--hide-txt', '--json' for '--jsn'?" in err


def test_partial_without_json_says_it_does_nothing(capsys: Any) -> None:
    code, _, err = run(capsys, "extract", CODEX, "--partial", "--plain")
    assert code == 0 and "--partial changes only JSON output" in err
    code, _, err = run(capsys, "extract", CODEX, "--partial", "--json")
    assert (code, err) == (0, "")


def test_plain_blocks_without_metadata_say_nothing_of_it(capsys: Any) -> None:
    code, out, _ = run(capsys, "extract", CODEX, "--plain")
    assert code == 0 and "metadata=null" not in out
    assert "└─ command item_1 ok, attrs=" in out and "└─ thinking item_0 ok\n" in out


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
def test_ctrl_c_with_out_says_the_file_is_incomplete(tmp_path: Path) -> None:
    target = tmp_path / "events.jsonl"
    child = spawn(
        ["extract", "--out", str(target), "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stderr is not None
    try:
        child.stdin.write("Before.\n!!n1:note\nhalf a note\n")
        child.stdin.flush()
        deadline = time.monotonic() + DEADLINE
        while "half a note" not in (target.read_text() if target.exists() else ""):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        assert child.wait(DEADLINE) == 130
        assert f"{target} is incomplete (interrupted)" in child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
