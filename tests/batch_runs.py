"""A folder of mixed runs for the batch tests: agent transcripts, provider streams in
NDJSON, SSE and one JSON array, raw text (one run longer than a read, with multi-byte
characters), a run with bad lines, one with undecodable bytes, an empty file and one
that cannot be read at all."""

from __future__ import annotations

import json
from pathlib import Path

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
