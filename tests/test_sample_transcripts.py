"""The sample runs shipped in ``examples/transcripts/`` (issue 39, item 10): the same as
the test suite's transcripts, and every command the docs give on them works.

To write them again after a change to ``tests/adapters/transcripts.py``::

    cd tests && python -c "from test_sample_transcripts import write; write()"
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from adapters.rollout_lines import codex_rollout_run
from adapters.transcripts import claude_partial_run, claude_tool_run, codex_run, jsonl
from cli_helpers import run

ROOT = Path(__file__).parents[1]
FOLDER = ROOT / "examples" / "transcripts"
SAMPLES = {
    "claude-code.jsonl": claude_tool_run,
    "claude-code-partial.jsonl": claude_partial_run,
    "codex.jsonl": codex_run,
    "codex-rollout.jsonl": codex_rollout_run,
}
DOCS = ["docs/transcripts.md", "docs/cli.md", "docs/viewer.md"]
COMMAND = re.compile(
    r"^(?:cat (examples/transcripts/\S+) \| )?streamblocks (extract|view) (.*?)(?:\s+#.*)?$"
)


def write() -> None:
    for name, lines in SAMPLES.items():
        (FOLDER / name).write_text(jsonl(lines()), encoding="utf-8", newline="\n")


def documented() -> list[tuple[str, str, list[str]]]:
    """(page, command, its arguments) of each command on the samples in the docs."""
    found = []
    for page in DOCS:
        for line in (ROOT / page).read_text("utf-8").splitlines():
            matched = COMMAND.match(line.strip())
            if matched and "examples/transcripts/" in line:
                found.append((page, matched[2], [matched[1] or "-", *shlex.split(matched[3])]))
    return found


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_samples_are_the_test_transcripts(name: str) -> None:
    assert (FOLDER / name).read_text("utf-8") == jsonl(SAMPLES[name]())


def test_every_page_uses_them() -> None:
    assert {page for page, _, _ in documented()} == set(DOCS)


@pytest.mark.parametrize(
    ("page", "args"),
    [(page, args) for page, command, args in documented() if command == "extract"],
)
def test_a_documented_extract_command_works(
    page: str, args: list[str], capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    piped, rest = args[0], args[1:]
    if piped != "-":  # `cat FILE | streamblocks extract …`: FILE on standard input
        monkeypatch.setattr(sys, "stdin", open(piped, encoding="utf-8"))  # noqa: SIM115
    code, out, err = run(capsys, "extract", *rest)
    if piped != "-":
        sys.stdin.close()
    assert (code, err) == (0, ""), page
    assert "end_turn" in out, page


@pytest.mark.parametrize(
    "path", sorted({args[1] for _, command, args in documented() if command == "view"})
)
def test_a_documented_view_command_shows_the_run(path: str) -> None:
    pytest.importorskip("starlette", reason="the [view] extra is not installed")
    process = subprocess.Popen(
        [sys.executable, "-m", "streamblocks", "view", "--no-open", path],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = re.search(r"http://127\.0\.0\.1:\d+/", process.stdout.readline())
        assert url, process.stderr.read() if process.stderr else ""
        with urllib.request.urlopen(url.group(0) + "events", timeout=20) as response:
            body = response.read().decode("utf-8")
        assert ("RUN_FINISHED" in body and "TOOL_CALL_START" in body) or "CUSTOM" in body
    finally:
        process.terminate()
        process.wait(15)
