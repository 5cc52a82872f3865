"""A live pipe: each event is printed when its input arrives, not when a block fills."""

from __future__ import annotations

import json
import os
import pty
import subprocess

import pytest

from cli_helpers import COMMAND, DEADLINE, LineReader, spawn
from streamblocks.testing import MockProvider, MockReply

RENDERS = ["json", "plain", "rich"]


@pytest.mark.parametrize("render", RENDERS)
def test_text_is_printed_while_the_pipe_stays_open(render: str) -> None:
    if render == "rich":
        pytest.importorskip("rich")
    child = spawn(
        ["extract", "--render", render],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    try:
        reader = LineReader(child.stdout)
        child.stdin.write("first words\n")
        child.stdin.flush()
        reader.wait_for("first words")  # printed while the writer still holds the pipe
        child.stdin.write("!!n1:note\nbody\n!!end\n")
        child.stdin.flush()
        reader.wait_for("n1")
        child.stdin.close()
        assert child.wait(DEADLINE) == 0
    finally:
        child.kill()
        child.wait()


def test_transcript_lines_are_events_as_they_arrive() -> None:
    """An agent's JSON lines (here an Anthropic stream, as a recording would hold it):
    the text of the first delta is out before the next line is written."""
    body = MockProvider([], provider="anthropic").dump(MockReply(text="Hello there\n"))
    lines = [line + "\n" for line in body.splitlines()]
    delta = next(i for i, line in enumerate(lines) if "text_delta" in line)
    first_text = json.loads(lines[delta])["delta"]["text"]
    child = spawn(["extract", "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None)
    assert child.stdin is not None and child.stdout is not None
    try:
        reader = LineReader(child.stdout)
        child.stdin.writelines(lines[: delta + 1])
        child.stdin.flush()
        seen = reader.wait_for("TEXT_DELTA")
        assert json.loads(seen[-1]) == {
            "type": "TEXT_DELTA",
            "text": first_text,
            "source": "<stdin>",
        }
        child.stdin.writelines(lines[delta + 1 :])
        child.stdin.close()
        assert "STREAM_FINISHED" in reader.wait_for("STREAM_FINISHED")[-1]
        assert child.wait(DEADLINE) == 0
    finally:
        child.kill()
        child.wait()


def test_a_terminal_on_stdin_gets_usage_not_silence() -> None:
    parent, child_end = pty.openpty()
    try:
        done = subprocess.run(
            [*COMMAND, "extract"],
            stdin=child_end,
            capture_output=True,
            text=True,
            timeout=DEADLINE,
            check=False,
        )
    finally:
        os.close(parent)
        os.close(child_end)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("usage: streamblocks extract")
    assert "standard input is a terminal" in done.stderr
