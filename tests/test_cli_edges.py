"""The rough edges a new user meets: each one a clear message and the right exit status."""

from __future__ import annotations

import argparse
import json
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import json_events, run
from streamblocks.cli import build_parser
from streamblocks.testing import MockProvider

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def reply(tmp_path: Path) -> Path:
    path = tmp_path / "reply.txt"
    path.write_text("hi\n!!n1:note\nx\n!!end\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("argv", "option", "allowed"),
    [
        (["extract", "--chunk", "-5"], "--chunk", "≥ 1"),
        (["extract", "--chunk", "0"], "--chunk", "≥ 1"),
        (["extract", "--chunk", "many"], "--chunk", "≥ 1"),
        (["extract", "--jobs", "0"], "--jobs", "from 1 to 256"),
        (["extract", "--delay", "-1"], "--delay", "from 0 to 60"),
        (["extract", "--delay", "nan"], "--delay", "from 0 to 60"),
        (["demo", "--delay", "inf"], "--delay", "from 0 to 60"),
        (["run", "--provider", "openai", "--model", "m", "--max-tokens", "0", "hi"],
         "--max-tokens", "from 1 to"),
    ],
)  # fmt: skip
def test_numbers_out_of_range_are_usage_errors(
    argv: list[str], option: str, allowed: str, capsys: Any
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1  # one line, naming the option and the range
    assert f"argument {option}" in err and allowed in err


def test_unknown_adapter_lists_the_installed_ones(reply: Path, capsys: Any) -> None:
    code, out, err = run(capsys, "extract", str(reply), "--adapter", "nope")
    assert code == 2
    assert out == ""
    assert err.startswith("streamblocks: unknown adapter 'nope'; installed adapters: text, ")
    for name in ("openai", "anthropic", "claude_cli", "codex_cli"):
        assert name in err


def test_a_wrong_adapter_gets_one_warning_naming_the_right_one(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "anthropic.jsonl"
    path.write_text(MockProvider([], provider="anthropic").dump("hi there"), encoding="utf-8")
    code, _, err = run(capsys, "extract", str(path), "--adapter", "openai", "--json")
    assert code == 0
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "--adapter openai does not recognise the first event" in lines[0]
    assert 'type "message_start"' in lines[0]
    assert "the anthropic adapter would match it" in lines[0]
    assert run(capsys, "extract", str(path), "--adapter", "openai", "--strict")[0] == 1


def test_malformed_lines_are_warned_skipped_and_counted(tmp_path: Path, capsys: Any) -> None:
    lines = MockProvider([], provider="anthropic").dump("hello").splitlines()
    lines.insert(2, '{"broken')
    lines.insert(4, "[1, 2]")
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "extract", str(path), "--json")
    assert code == 0
    assert err.splitlines() == [
        f"streamblocks: warning: {path}, line 3: invalid JSON "
        "(Unterminated string starting at: line 1 column 2 (char 1)); skipped",
        f"streamblocks: warning: {path}, line 5: expected a JSON object, got list; skipped",
    ]
    events = json_events(out)
    assert "".join(e["text"] for e in events if e["type"] == "TEXT_DELTA") == "hello"
    assert events[-1]["stop_reason"] == "end_turn"
    assert run(capsys, "extract", str(path), "--json", "--strict")[0] == 1


def test_default_syntaxes_cover_all_five(tmp_path: Path, capsys: Any) -> None:
    text = (
        "!!n1:note\na\n!!end\n"
        "!!start\n---\nid: p1\nblock_type: patch\n---\nb\n!!end\n"
        "```shell\nls\n```\n"
        'see <cite src="x">c</cite>\n'
        "!!!GADGET_START:Lookup\n!!!ARG:q\nd\n!!!GADGET_END\n"
    )
    path = tmp_path / "all.txt"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(path), "--json")
    assert code == 0
    ends = [e["block"] for e in json_events(out) if e["type"] == "BLOCK_END"]
    assert [(b["type"], b["syntax"]) for b in ends] == [
        ("note", "delimiter_preamble"),
        ("patch", "delimiter_frontmatter"),
        ("shell", "markdown_frontmatter"),
        ("cite", "xml"),
        ("Lookup", "gadget"),  # an unregistered gadget: a generic block
    ]
    help_text = build_parser()._subparsers._group_actions[0].choices["extract"].format_help()  # type: ignore[union-attr]
    assert "all five syntaxes" in help_text and "!!!GADGET_START" in help_text


def test_summary_plurals(tmp_path: Path, capsys: Any) -> None:
    one = tmp_path / "one.txt"
    one.write_text("!!n1:note\nx\n!!end\n!!n2:note\nopen", encoding="utf-8")
    two = tmp_path / "two.txt"
    two.write_text("!!n1:note\nopen\n!!n2:note\n", encoding="utf-8")
    _, out, _ = run(capsys, "extract", str(one), "--plain")
    assert "— 1 block, 1 error, 32 chars · stop: unknown" in out
    _, out, _ = run(capsys, "extract", "--plain", str(two))
    assert "— 0 blocks, 1 error," in out


def test_summary_shows_usage_and_the_adapters_cost(tmp_path: Path, capsys: Any) -> None:
    from adapters import transcripts

    path = tmp_path / "claude.jsonl"
    path.write_text(
        "".join(json.dumps(line) + "\n" for line in transcripts.claude_tool_run()),
        encoding="utf-8",
    )
    _, out, _ = run(capsys, "extract", str(path), "--plain", "--hide-text")
    summary = out.splitlines()[-1]
    assert "tokens: " in summary and "cost: $0.0421" in summary


def test_a_price_table_gives_the_cost_the_adapter_does_not(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "openai.jsonl"
    path.write_text(MockProvider([], provider="openai").dump("hi"), encoding="utf-8")
    _, out, _ = run(capsys, "extract", str(path), "--json")
    usage = json_events(out)[-1]["usage"]
    prices = tmp_path / "prices.yaml"
    prices.write_text("input: 3\noutput: 15\n", encoding="utf-8")
    _, out, _ = run(capsys, "extract", str(path), "--plain", "--prices", str(prices))
    expected = (usage["input_tokens"] * 3 + usage["output_tokens"] * 15) / 1e6
    assert f"cost: ≈${expected:.4f}" in out.splitlines()[-1]
    prices.write_text("input: 3\nouptut: 15\n", encoding="utf-8")
    code, _, err = run(capsys, "extract", str(path), "--plain", "--prices", str(prices))
    assert code == 2
    assert "unknown key 'ouptut'" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--debug", "extract", "{path}"],
        ["extract", "--debug", "{path}"],
        ["extract", "{path}", "--debug"],
    ],
)
def test_debug_works_in_any_position(argv: list[str], tmp_path: Path) -> None:
    path = tmp_path / "input.jsonl"
    path.write_text('{"a": 1}\n', encoding="utf-8")
    from streamblocks.cli import main
    from streamblocks.runs import RunError

    with pytest.raises(RunError, match="unknown event format"):
        main([arg.format(path=path) for arg in argv])


@pytest.mark.parametrize("where", ["before", "after"])
def test_no_color_works_in_any_position(where: str, reply: Path, capsys: Any) -> None:
    pytest.importorskip("rich")
    argv = ["extract", str(reply), "--render", "rich"]
    argv = ["--no-color", *argv] if where == "before" else [*argv, "--no-color"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "note" in out and "\x1b[" not in out


def test_no_docs_url_that_goes_nowhere(capsys: Any) -> None:
    urls = metadata.metadata("streamblocks").get_all("Project-URL") or []
    assert not [url for url in urls if ".invalid" in url]
    assert ".invalid" not in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    _, out, _ = run(capsys, "--help")
    assert ".invalid" not in out and "docs/cli.md" in out


def test_rich_only_on_a_terminal_unless_asked(reply: Path, capsys: Any) -> None:
    pytest.importorskip("rich")
    _, out, _ = run(capsys, "extract", str(reply))  # captured: not a terminal
    assert "┌─ note n1" in out and "╭" not in out
    _, out, _ = run(capsys, "extract", str(reply), "--render", "rich")
    assert "╭" in out and "┌─" not in out


def test_undecodable_bytes_are_replaced_and_located(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("café au lait\nthé\n".encode("latin-1"))
    code, out, err = run(capsys, "extract", str(path), "--json")
    assert code == 0
    text = "".join(e["text"] for e in json_events(out) if e["type"] == "TEXT_DELTA")
    assert text == "caf\ufffd au lait\nth\ufffd\n"
    assert err.splitlines() == [
        f"streamblocks: warning: {path}: undecodable byte at byte 3 (invalid continuation "
        "byte); replaced with �",
        f"streamblocks: warning: {path}: undecodable byte at byte 15 (invalid continuation "
        "byte); replaced with �",
    ]
    code, out, err = run(capsys, "extract", str(path), "--json", "--encoding", "latin-1")
    assert (code, err) == (0, "")
    text = "".join(e["text"] for e in json_events(out) if e["type"] == "TEXT_DELTA")
    assert text == "café au lait\nthé\n"
    code, _, err = run(capsys, "extract", str(path), "--encoding", "klingon")
    assert code == 2 and "unknown encoding 'klingon'" in err


def test_undecodable_offsets_across_reads() -> None:
    """A character cut between two reads, and a bad byte right after it."""
    from streamblocks.runs.reading import Decoder

    notes: list[str] = []
    decoder = Decoder("utf-8", "x", notes.append)
    data = "aé".encode() + b"\xff" + "ü".encode()
    pieces = [decoder.decode(data[i : i + 1]) for i in range(len(data))]
    assert "".join(pieces) + decoder.decode(b"", final=True) == "aé\ufffdü"
    assert notes == ["x: undecodable byte at byte 3 (invalid start byte); replaced with �"]
    decoder = Decoder("utf-8", "y", notes.append)
    assert decoder.decode(b"ok\xc3", final=True) == "ok\ufffd"
    assert notes[-1] == "y: undecodable byte at byte 2 (unexpected end of data); replaced with �"


def _command_names() -> list[str]:
    """Every subcommand the parser knows (the built-in ones and `view`)."""
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(commands.choices)


@pytest.mark.parametrize("command", _command_names())
def test_unknown_options_are_usage_errors_everywhere(command: str, capsys: Any) -> None:
    required = {"run": ["--provider", "openai", "--model", "m", "hi"]}.get(command, [])
    code, out, err = run(capsys, command, *required, "--unknown-flag")
    assert code == 2
    assert out == ""
    assert "--unknown-flag" in err


def test_abbreviated_options_are_refused(reply: Path, capsys: Any) -> None:
    code, _, err = run(capsys, "extract", str(reply), "--enc", "utf-8")
    assert code == 2
    assert "unrecognized arguments: --enc" in err


def test_out_that_cannot_be_written(reply: Path, tmp_path: Path, capsys: Any) -> None:
    code, out, err = run(capsys, "extract", str(reply), "--out", str(tmp_path))  # a folder
    assert (code, out) == (2, "")
    assert err.startswith(f"streamblocks: --out: cannot write {tmp_path}: ")
    assert err.count("\n") == 1
