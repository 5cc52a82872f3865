"""One render model: JSON, plain and rich output show the same blocks, text, errors and
summary for the same input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import json_events, run
from streamblocks.cli.model import block_label, summary_text

TEXT = (
    "Intro line\n"
    "!!n1:note\nremember\n!!end\n"
    "!!start\n---\nid: p1\nblock_type: patch\nfile: a.py\n---\n+fix\n!!end\n"
    "middle words\n"
    "!!n2:note\nnever closed\n"
)


def _inputs(tmp_path: Path) -> list[Path]:
    from adapters import transcripts

    text = tmp_path / "reply.txt"
    text.write_text(TEXT, encoding="utf-8")
    claude = tmp_path / "claude.jsonl"
    claude.write_text(
        "".join(json.dumps(line) + "\n" for line in transcripts.claude_tool_run()),
        encoding="utf-8",
    )
    return [text, claude]


def _ordered(out: str, needles: list[str]) -> None:
    """Every needle appears in ``out``, in this order."""
    position = 0
    for needle in needles:
        found = out.find(needle, position)
        assert found >= 0, f"{needle!r} missing (after {position}):\n{out}"
        position = found + len(needle)


@pytest.mark.parametrize("render", ["plain", "rich"])
@pytest.mark.parametrize("which", [0, 1])
def test_every_renderer_shows_what_json_holds(
    render: str, which: int, tmp_path: Path, capsys: Any
) -> None:
    if render == "rich":
        pytest.importorskip("rich")
    path = _inputs(tmp_path)[which]
    code, out, _ = run(capsys, "extract", str(path), "--json")
    assert code == 0
    records = json_events(out)
    shown = []  # what must be seen, in order: block labels, error codes and messages
    for record in records:
        if record["type"] == "BLOCK_END":
            shown.append(block_label(record["block"]["type"], record["block"]["id"]))
        elif record["type"] == "BLOCK_ERROR":
            shown.append(block_label(record["block_type"], record["block_id"]))
            shown.append(record["message"])
    visible = "".join(r["text"] for r in records if r["type"] == "TEXT_DELTA")
    summary = summary_text(records[-1])
    assert records[-1]["type"] == "STREAM_FINISHED"

    code, out, _ = run(capsys, "extract", str(path), "--render", render, "--no-color")
    assert code == 0
    if render == "plain":  # the rich panel comes at the block's end, after its label
        _ordered(out, shown)
    for needle in shown:
        assert needle in out
    for line in visible.splitlines():
        assert line.strip() in out
    assert out.rstrip("\n").splitlines()[-1] == f"— {summary}"
    if which == 0:
        assert "UNCLOSED" in out and "a.py" in out and "remember" in out


def test_plain_output_shows_the_final_status_of_a_codex_item(tmp_path: Path, capsys: Any) -> None:
    """A Codex command starts ``in_progress``; its end line shows how it ended."""
    from adapters import transcripts

    codex = tmp_path / "codex.jsonl"
    codex.write_text(transcripts.jsonl(transcripts.codex_run()), encoding="utf-8")
    code, out, _ = run(capsys, "extract", "--plain", str(codex))
    assert code == 0
    (end,) = [line for line in out.splitlines() if line.startswith("└─ command item_1")]
    assert '"status": "failed"' in end
    assert '"exit_code": 1' in end


def test_plain_output_shows_a_big_command_output_once(tmp_path: Path, capsys: Any) -> None:
    """A 2 MB Bash result is its ``tool_result`` and its ``command`` block: the text is
    printed once, the frame lines stay short, and nothing after the repeat is lost."""
    from adapters import transcripts

    log = "".join(f"line {i} of the build log\n" for i in range(80_000))
    lines = transcripts.claude_tool_run()
    for line in lines:
        content = line.get("message", {}).get("content", [{}])[0]
        if content.get("tool_use_id") == "toolu_bash":
            content["content"] = log  # Claude Code's text: the output as a terminal shows it
            line["tool_use_result"]["stdout"] = log
    path = tmp_path / "big.jsonl"
    path.write_text(transcripts.jsonl(lines), encoding="utf-8")
    code, out, _ = run(capsys, "extract", "--plain", str(path))
    assert code == 0
    assert len(log) > 2_000_000
    assert out.count("line 79999 of the build log") == 1
    assert max(len(line) for line in out.splitlines()) < 300
    (header,) = [line for line in out.splitlines() if line.startswith("┌─ command block-")]
    assert "(2228890 chars)" in header
    _ordered(
        out,
        [
            "line 79999 of the build log",
            "└─ tool_result block-",
            "│ (the output shown above in tool_result block-",
            "│ warning: slow",  # stderr, not in the result's text: still shown
            "└─ command block-",
        ],
    )
