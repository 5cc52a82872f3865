"""Many inputs: globs, the source of every record, worker processes, --out, the progress bar."""

from __future__ import annotations

import json
import os
import pty
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import COMMAND, DEADLINE, environment, json_events, run
from streamblocks.testing import MockProvider, MockReply

PROVIDERS = ["anthropic", "openai", "gemini"]


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    """Three recordings of different providers, and a text file that is not a run."""
    folder = tmp_path / "runs"
    folder.mkdir()
    for index, provider in enumerate(PROVIDERS):
        reply = MockReply(text=f"run {index}\n!!n{index}:note\nbody {index}\n!!end\n")
        body = MockProvider([], provider=provider).dump(reply)
        (folder / f"{index}-{provider}.jsonl").write_text(body, encoding="utf-8")
    (folder / "notes.txt").write_text("not a run\n", encoding="utf-8")
    return folder


def _without_ids(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "stream_id"} for r in records]


def test_a_glob_names_each_source_and_keeps_each_files_events_together(
    runs: Path, capsys: Any
) -> None:
    code, out, err = run(capsys, "extract", str(runs / "*.jsonl"), "--json")  # not expanded
    assert code == 0, err
    records = json_events(out)
    sources = [r["source"] for r in records]
    expected = sorted(str(p) for p in runs.glob("*.jsonl"))
    assert list(dict.fromkeys(sources)) == expected  # each file once, in order, contiguous
    for index, path in enumerate(expected):
        own = [r for r in records if r["source"] == path]
        assert own[0]["type"] == "STREAM_STARTED" and own[-1]["type"] == "STREAM_FINISHED"
        text = "".join(r["text"] for r in own if r["type"] == "TEXT_DELTA")
        assert text == f"run {index}\n"
        [end] = [r["block"] for r in own if r["type"] == "BLOCK_END"]
        assert (end["id"], end["content"]) == (f"n{index}", f"body {index}\n")


def test_jobs_give_the_same_records_in_the_same_order(runs: Path, capsys: Any) -> None:
    paths = [str(p) for p in sorted(runs.glob("*.jsonl"))] * 3
    _, one, _ = run(capsys, "extract", *paths, "--json", "--jobs", "1")
    code, four, err = run(capsys, "extract", *paths, "--json", "--jobs", "2")
    assert code == 0, err
    assert _without_ids(json_events(four)) == _without_ids(json_events(one))


def test_out_writes_json_lines_and_the_totals_go_to_stderr(
    runs: Path, tmp_path: Path, capsys: Any
) -> None:
    target = tmp_path / "all.jsonl"
    code, out, err = run(capsys, "extract", str(runs / "*.jsonl"), "--out", str(target))
    assert code == 0
    assert out == ""
    records = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert sum(r["type"] == "BLOCK_END" for r in records) == 3
    assert err.startswith("streamblocks: 3 files · 3 blocks, 0 errors · tokens: ")


def test_plain_output_heads_each_file_and_totals(runs: Path, capsys: Any) -> None:
    code, out, _ = run(capsys, "extract", str(runs / "0-*.jsonl"), str(runs / "notes.txt"))
    assert code == 0
    assert f"══ {runs / '0-anthropic.jsonl'}\n" in out
    assert f"══ {runs / 'notes.txt'}\nnot a run\n" in out
    assert out.splitlines()[-1].startswith("══ 2 files · 1 block, 0 errors")


def test_a_bad_file_is_reported_and_the_others_are_read(runs: Path, capsys: Any) -> None:
    (runs / "bad.jsonl").write_text('{"mystery": 1}\n', encoding="utf-8")
    code, out, err = run(capsys, "extract", str(runs / "*.jsonl"), "--json")
    assert code == 2
    assert err == f"streamblocks: {runs / 'bad.jsonl'}: unknown event format (first event: " + (
        "keys: mystery); choose an adapter with --adapter NAME (see `streamblocks adapters`)\n"
    )
    assert sum(r["type"] == "STREAM_FINISHED" for r in json_events(out)) == 3


def test_a_pattern_matching_nothing_is_a_usage_error(tmp_path: Path, capsys: Any) -> None:
    code, _, err = run(capsys, "extract", str(tmp_path / "*.jsonl"))
    assert code == 2
    assert err == f"streamblocks: no file matches {tmp_path / '*.jsonl'}\n"


def _stderr_on_a_terminal(args: list[str]) -> tuple[int, str, str]:
    parent, child_end = pty.openpty()
    try:
        child = subprocess.Popen(
            [*COMMAND, *args],
            stdout=subprocess.PIPE,
            stderr=child_end,
            stdin=subprocess.DEVNULL,
            env=environment(),
            text=True,
        )
        os.close(child_end)
        seen = b""
        while True:
            try:
                data = os.read(parent, 4096)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            seen += data
        out, _ = child.communicate(timeout=DEADLINE)
    finally:
        os.close(parent)
    return child.returncode, out, seen.decode("utf-8", errors="replace")


def test_progress_bar_on_a_terminal_only(runs: Path) -> None:
    pattern = str(runs / "*.jsonl")
    code, out, err = _stderr_on_a_terminal(["extract", pattern, "--json"])
    assert code == 0
    assert len(out.splitlines()) > 10
    assert "3/3 files" in err and "3 blocks · 0 errors" in err
    assert err.endswith("\r\x1b[K")  # cleared at the end
    done = subprocess.run(
        [*COMMAND, "extract", pattern, "--json"],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=DEADLINE,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert _without_ids(json_events(done.stdout)) == _without_ids(json_events(out))


def test_output_closed_early_stops_the_workers(runs: Path) -> None:
    """`| head -1`: the command stops quietly (status 0, no traceback) without reading
    every remaining file in its workers first."""
    paths = [str(p) for p in sorted(runs.glob("*.jsonl"))] * 40
    child = subprocess.Popen(
        [*COMMAND, "extract", *paths, "--json", "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(),
    )
    assert child.stdout is not None and child.stderr is not None
    assert child.stdout.readline().startswith(b'{"type": "STREAM_STARTED"')
    child.stdout.close()
    assert child.wait(DEADLINE) == 0
    assert child.stderr.read() == b""
    child.stderr.close()


def test_python_warnings_are_one_line(tmp_path: Path, capsys: Any) -> None:
    """A warning raised while the command runs (here by a registry module as it loads)
    is one ``streamblocks: warning:`` line, not Python's file-and-line format."""
    registry = tmp_path / "noisy.py"
    registry.write_text(
        "import warnings\n"
        "from streamblocks import BlockRegistry\n"
        "warnings.warn('registry says hi', UserWarning)\n"
        "registry = BlockRegistry()\n",
        encoding="utf-8",
    )
    reply = tmp_path / "reply.txt"
    reply.write_text("hello\n", encoding="utf-8")
    code, out, err = run(capsys, "extract", str(reply), "--registry", f"{registry}:registry")
    assert code == 0
    assert out.startswith("hello\n")
    assert err == "streamblocks: warning: registry says hi\n"


def test_reader_events_for_other_tools(runs: Path) -> None:
    """The reading under `extract`, for a viewer: processor events with their source."""
    from streamblocks import BlockEnd
    from streamblocks.cli.batch import Reader, ReadOptions, expand

    notes: list[str] = []
    (runs / "x-broken.jsonl").write_text(
        (runs / "0-anthropic.jsonl").read_text(encoding="utf-8") + "{oops\n", encoding="utf-8"
    )
    reader = Reader(ReadOptions())
    seen = [
        (source.name, source.format, event.block.id)
        for path in expand([str(runs / "*.jsonl")])
        for source, event in reader.events(path, warn=notes.append)
        if isinstance(event, BlockEnd) and event.block.syntax != "native"
    ]
    names = sorted(str(p) for p in runs.glob("*.jsonl"))
    assert seen == [(name, "ndjson", f"n{i % 3}") for i, name in enumerate(names)]
    last_line = len(Path(names[-1]).read_text(encoding="utf-8").splitlines())
    assert notes == [
        f"{names[-1]}, line {last_line}: invalid JSON (Expecting property name enclosed in "
        "double quotes: line 1 column 2 (char 1)); skipped"
    ]


def test_stdin_among_files_with_jobs(
    runs: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """Worker processes cannot read the command's standard input: with `-` among the
    inputs they are not used, and stdin is read like the files."""
    import io
    import sys

    body = (runs / "0-anthropic.jsonl").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(body)))
    first = str(runs / "1-openai.jsonl")
    code, out, _ = run(capsys, "extract", first, "-", "--json", "--jobs", "2")
    assert code == 0
    records = json_events(out)
    assert list(dict.fromkeys(r["source"] for r in records)) == [first, "<stdin>"]
    stdin_text = "".join(
        r["text"] for r in records if r["source"] == "<stdin>" and r["type"] == "TEXT_DELTA"
    )
    assert stdin_text == "run 0\n"


def test_json_written_by_workers_is_what_one_process_writes(tmp_path: Path, capsys: Any) -> None:
    """With --json the workers write the lines and send only the records the command
    counts: output, warnings, totals and exit status stay those of one process, with
    bad lines, undecodable bytes, a rejected block, a failed run and an unreadable file."""
    from batch_runs import write_runs

    folder = tmp_path / "runs"
    folder.mkdir()
    write_runs(folder)
    (folder / "rejected.txt").write_text("!!n9:nosuchtype\nx\n!!end\n", encoding="utf-8")
    every = [str(p) for p in sorted(folder.iterdir())]
    clean = [str(folder / name) for name in ("claude.jsonl", "codex.jsonl", "openai.jsonl")]
    rejected, failed = str(folder / "rejected.txt"), str(folder / "claude-error.jsonl")
    # 2: an unreadable input; 1 (--strict): a rejected block, or a failed run, alone
    for paths, status in ((every, 2), ([*clean, rejected], 1), ([*clean, failed], 1)):
        outputs = []
        for jobs in ("1", "3"):
            target = tmp_path / f"out-{jobs}.jsonl"
            args = ["extract", *paths, "--strict", "--unknown", "error", "--jobs", jobs]
            code, out, err = run(capsys, *args, "--out", str(target))
            records = _without_ids(json_events(target.read_text(encoding="utf-8")))
            _, printed, _ = run(capsys, *args, "--json")
            assert _without_ids(json_events(printed)) == records
            outputs.append((code, out, err, records))
        assert outputs[1] == outputs[0]
        code, out, err, _ = outputs[0]
        assert (code, out) == (status, "")
        assert f"streamblocks: {len(paths)} files · " in err


def test_failed_and_unreadable_runs_are_counted_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 39, item 8: the totals count the runs that ended with `stop: error` and the
    # inputs that could not be read, name them, and the exit status says so.
    from adapters.transcripts import claude_error_run, claude_tool_run, jsonl

    for index in range(4):
        run_lines = claude_error_run() if index % 2 else claude_tool_run()
        (tmp_path / f"run-{index}.jsonl").write_text(jsonl(run_lines), encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(tmp_path / "*.jsonl"), "--plain", "--hide-text")
    totals = out.strip().splitlines()
    assert code == 1
    assert "4 files" in totals[-2] and "2 runs failed (stop: error)" in totals[-2]
    assert totals[-1] == f"failed: {tmp_path / 'run-1.jsonl'}, {tmp_path / 'run-3.jsonl'}"
    assert run(capsys, "extract", str(tmp_path / "*.jsonl"), "--plain", "--allow-failed")[0] == 0

    (tmp_path / "run-9.jsonl").write_bytes(b"\x00\x01binary")
    code, out, err = run(capsys, "extract", str(tmp_path / "*.jsonl"), "--plain", "--allow-failed")
    assert code == 2 and "run-9.jsonl looks like a binary file" in err
    assert "5 files" in out and "1 unreadable" in out
    assert f"unreadable: {tmp_path / 'run-9.jsonl'}" in out
