"""``streamblocks extract RUN --markdown [--redact]``: a run as a Markdown transcript.

Every transcript is parsed back with a CommonMark parser (markdown-it-py): what the run
holds must come out of its fences exactly, so a reader sees it as written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from adapters.transcripts import claude_tool_run, codex_run, jsonl
from streamblocks import (
    Block,
    BlockEnd,
    BlockStart,
    Counts,
    StopReason,
    StreamFinished,
    StreamStarted,
    TextDelta,
)
from streamblocks.cli import main
from streamblocks.cli.markdown import fenced, transcript
from usage_runs import claude_session, codex_two_turns
from view import fixtures

PARSER = MarkdownIt("commonmark")


def _fences(markdown: str) -> list[tuple[str, str]]:
    """``(info, content)`` of every fence, at any depth of quotes."""
    return [(t.info, t.content) for t in PARSER.parse(markdown) if t.type == "fence"]


def _extract(tmp_path: Path, name: str, text: str, *args: str, capsys: Any) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["extract", str(path), "--markdown", *args]) == 0
    return str(capsys.readouterr().out)


def test_a_claude_run_as_turns_calls_results_and_usage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    markdown = _extract(tmp_path, "claude.jsonl", jsonl(claude_tool_run()), capsys=capsys)
    tokens = PARSER.parse(markdown)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings[0] == "claude.jsonl" and headings[1] == "Turn 1" and headings[-1] == "Usage"
    fences = _fences(markdown)
    assert ("json", '{\n  "file_path": "/repo/calc.py"\n}\n') in fences  # a call's arguments
    assert any(info == "python" and "return a - b" in content for info, content in fences)
    thinking = [t for t in tokens if t.type == "blockquote_open"]
    assert thinking  # thinking as a quote
    assert "| input tokens | 120 |" in markdown and "| stop reason | end_turn |" in markdown


def test_each_turn_says_its_tokens_and_time_and_the_end_their_sum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    markdown = _extract(tmp_path, "session.jsonl", jsonl(claude_session()), capsys=capsys)
    tokens = PARSER.parse(markdown)
    under = [  # the paragraph right under each turn's heading
        tokens[i + 4].content
        for i, t in enumerate(tokens)
        if t.type == "heading_open" and tokens[i + 1].content.startswith("Turn ")
    ]
    assert under == [
        "*in 3 · out 96 · cached 12,000 · cache write 4,200 · took 2.50 s*",
        "*in 6 · out 1,234 · cached 16,200 · cache write 310 · took 4.25 s*",
        "*in 4 · out 12 · cached 16,510 · cache write 120 · took 1.50 s*",
    ]
    # the run states no total: the usage at the end sums its turns
    assert "| out tokens | 1,342 |" in markdown and "| model time | 8.25 s |" in markdown
    assert "| turns metered | 3 |" in markdown


def test_a_run_without_usage_per_turn_says_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "# Notes\n\nJust text.\n"
    markdown = _extract(tmp_path, "notes.md", text, capsys=capsys)
    assert "took" not in markdown and "turns metered" not in markdown
    codex = _extract(tmp_path, "codex.jsonl", jsonl(codex_two_turns()), capsys=capsys)
    # two replies with no tool between are one turn: what both added to the running total
    assert "*in 50,001 · out 300 · cached 49,024 (2 model calls)*" in codex


def test_a_codex_run_shows_its_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    markdown = _extract(tmp_path, "codex.jsonl", jsonl(codex_run()), capsys=capsys)
    # its one `codex exec` turn is several turns here: its usage covers them all
    last = markdown.count("## Turn ")
    assert last > 1 and f"*turns 1–{last}: in 1,200 · out 345 · cached 200*" in markdown
    assert any(
        info == "console" and content.startswith("$ ") for info, content in _fences(markdown)
    )


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="`ab\n~ ", max_size=40))
def test_a_fence_holds_any_text_exactly(text: str) -> None:
    (found,) = _fences(fenced(text, "text"))
    assert found == ("text", text if text.endswith("\n") or not text else text + "\n")


def test_results_with_backtick_fences_inside_stay_in_their_fence() -> None:
    result = "````\n```python\nx = 1\n```\n````\n"
    block = Block("r1", "tool_result", "native", None, result, {"tool_call_id": "c1"})
    events = [
        StreamStarted("s"),
        BlockStart("r1", "tool_result", "native", {"tool_call_id": "c1"}),
        BlockEnd(block),
        TextDelta("after\n"),
        StreamFinished(StopReason.end_turn, None, Counts(0, 1, 0)),
    ]
    markdown = transcript(events, "run")
    assert ("text", result) in _fences(markdown)
    assert "`````text\n" in markdown


def test_sub_agents_are_nested_under_their_call() -> None:
    markdown = transcript(fixtures.subagent_events(), "agents")
    tokens = PARSER.parse(markdown)
    depth, depths = 0, {}
    for token in tokens:
        depth += {"blockquote_open": 1, "blockquote_close": -1}.get(token.type, 0)
        if token.type == "inline":
            depths[token.content] = depth
    assert depths["I'll delegate the search."] == 0
    assert depths["SUBAGENT TEXT: reading calc.py"] == 1
    assert depths["NESTED TEXT: running grep"] == 2
    assert depths["Done: add() subtracts."] == 0
    fences = _fences(markdown)
    assert ("text", "grep: tests/: No such file\n") in fences  # the nested error result
    assert "**Result** (error)" in markdown


def test_redact_masks_the_transcript_and_says_what(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "Use OPENAI_API_KEY=sk-proj-4f9Qx2LmN8vR1tZ6wY3bC7dE0hJ5kP9sA2uF in /home/ana/app\n"
    markdown = _extract(tmp_path, "reply.md", text, "--redact", capsys=capsys)
    assert "sk-proj" not in markdown and "/home/ana" not in markdown
    assert "OPENAI_API_KEY=[REDACTED secret] in ~/app" in markdown
    assert markdown.rstrip().endswith("*Redacted: 1 secret, 1 home directory.*")


def test_redact_alone_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.txt"
    path.write_text("x\n")
    assert main(["extract", str(path), "--redact"]) == 2
    assert "--markdown" in capsys.readouterr().err


def test_each_tool_output_is_written_once(capsys: pytest.CaptureFixture[str]) -> None:
    """Claude Code's Bash, Read, Edit, Write and TodoWrite results come as a result and
    then the typed row they stand for: the transcript writes the typed row alone, and
    says when the result was an error."""
    path = Path(__file__).parents[1] / "examples" / "transcripts" / "claude-code.jsonl"
    assert main(["extract", str(path), "--markdown"]) == 0
    markdown = capsys.readouterr().out
    assert "**Result**" not in markdown
    assert markdown.count("$ pytest -q\n") == 1
    assert "**Command** (error)\n" in markdown
    assert markdown.count("return a - b") == 2  # the code read, and the diff's line
    assert "**File modify**" in markdown and "**Plan**" in markdown
