"""A folder of mixed runs for the batch tests: agent transcripts, provider streams in
NDJSON, SSE and one JSON array, raw text (one run longer than a read, with multi-byte
characters), a run with bad lines, one with undecodable bytes, an empty file and one
that cannot be read at all."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from adapters import transcripts
from streamblocks.testing import MockProvider, MockReply, MockToolCall

REPLY = MockReply(
    text="Checking.\n!!n1:note\nThe disk is 91% full.\n!!end\nDone.\n",
    thinking="Look at df first.",
    tool_calls=[MockToolCall("df", {"path": "/"})],
)

UNREADABLE = "zz-unknown.jsonl"
"""The file no adapter recognises: ``extract`` reports it and writes no records."""


def _jsonl(events: list[dict[str, object]]) -> str:
    return "".join(json.dumps(event, ensure_ascii=False) + "\n" for event in events)


def _sse(body: str) -> str:
    return "".join(f"event: x\ndata: {line}\n\n" for line in body.splitlines())


def write_runs(folder: Path, copies: int = 1) -> list[Path]:
    """The runs (each ``copies`` times, under other names), sorted by name."""
    anthropic = MockProvider([], provider="anthropic").dump(REPLY)
    bad = anthropic.splitlines()
    bad[2:2] = ['{"broken', "[1, 2]", "  "]
    bodies: dict[str, str | bytes] = {
        "claude.jsonl": _jsonl(transcripts.claude_tool_run()),
        "claude-partial.jsonl": _jsonl(transcripts.claude_partial_run()),
        "claude-error.jsonl": _jsonl(transcripts.claude_error_run()),
        "codex.jsonl": _jsonl(transcripts.codex_run()),
        "anthropic.jsonl": anthropic,
        "openai.jsonl": MockProvider([], provider="openai").dump(REPLY),
        "gemini.jsonl": MockProvider([], provider="gemini").dump(REPLY),
        "openai-sse.txt": _sse(MockProvider([], provider="openai").dump(REPLY)),
        "claude-array.json": json.dumps(transcripts.claude_tool_run(), indent=2),
        "reply.txt": "Some text.\r\n<thinking>hmm</thinking>\n!!n1:note\nbody\n!!end\nend",
        "long.txt": ("café ✓ " * 20 + "\n!!n2:note\nx\n!!end\n") * 600,
        "bad-lines.jsonl": "\n".join(bad) + "\n",
        "undecodable.jsonl": anthropic.encode("utf-8").replace(b"91%", b"91\xff%"),
        "empty.jsonl": "",
        UNREADABLE: '{"mystery": 1}\n',
    }
    paths = []
    for copy in range(copies):
        for name, body in bodies.items():
            path = folder / (name if copies == 1 else f"{copy:04d}-{name}")
            if isinstance(body, bytes):
                path.write_bytes(body)
            else:
                path.write_text(body, encoding="utf-8", newline="")
            paths.append(path)
    return sorted(paths)


def without_ids(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows sorted by run and position, without the stream ids (new at every reading)."""
    ordered = sorted(rows, key=lambda row: (row["source"], row["row"]))
    return [{k: v for k, v in row.items() if k != "stream_id"} for row in ordered]


def expected_rows(paths: list[Path], capsys: Any) -> list[dict[str, Any]]:
    """The rows of ``extract --json`` on ``paths`` (in one command), and the one row of
    each input the command reports as unreadable (it writes no records for it)."""
    from cli_helpers import json_events, run
    from streamblocks.batch import rows_from_records, unreadable_row

    capsys.readouterr()  # what an engine printed before
    code, out, err = run(capsys, "extract", *map(str, paths), "--json")
    assert code == (2 if any(p.name.endswith(UNREADABLE) for p in paths) else 0), err
    found = list(rows_from_records(json_events(out)))
    for line in err.splitlines():
        source, _, message = line.removeprefix("streamblocks: ").partition(": ")
        if source.endswith(UNREADABLE):
            found.append(unreadable_row(source, f"{source}: {message}"))
    return without_ids(found)


def counting_registry(folder: Path, kill_at: int) -> str:
    """A ``--registry`` spec whose module, loaded by every reader a worker builds, kills
    its process (SIGKILL) the ``kill_at``-th time it is loaded in all: a worker dies in
    the middle of a job, once. Each load writes its process id to ``folder / "loads"``."""
    module = folder / "killing_registry.py"
    module.write_text(
        "import os, signal\n"
        "from streamblocks.runs.registries import default_registry\n"
        f"with open({str(folder / 'loads')!r}, 'ab') as loads:\n"
        "    loads.write(b'%10d\\n' % os.getpid())\n"
        "    loads.flush()\n"
        "    count = os.fstat(loads.fileno()).st_size // 11\n"
        f"if count == {kill_at}:\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "registry = default_registry()\n",
        encoding="utf-8",
    )
    return f"{module}:registry"


def killed_process(folder: Path, kill_at: int) -> int:
    """The process :func:`counting_registry` killed, after checking that it is gone."""
    pids = [int(line) for line in (folder / "loads").read_text().split()]
    assert len(pids) > kill_at, pids  # the readers built after the kill
    pid = pids[kill_at - 1]
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return pid
    raise AssertionError(f"process {pid} is still alive")
