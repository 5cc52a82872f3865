"""The ``streamblocks`` command, driven in-process through ``main(argv)``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from streamblocks.cli import default_registry, demo_events, main
from streamblocks.cli.render import event_dict
from streamblocks.runs.inputs import sniff
from streamblocks.testing import MockProvider, MockReply, MockToolCall

REPLY = MockReply(
    text="Hi\n!!n1:note\nbody\n!!end\n!!w1:widget\nw\n!!end\nbye\n",
    thinking="hmm",
    tool_calls=[MockToolCall("ls", {"path": "/tmp"})],
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def json_events(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "anthropic", "gemini", "agui"])
def test_extract_detects_each_provider(
    provider: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recording = tmp_path / "stream.ndjson"
    recording.write_text(MockProvider([], provider=provider).dump(REPLY), encoding="utf-8")
    code, out, err = run(capsys, "extract", str(recording), "--json")
    assert code == 0, err
    events = json_events(out)
    assert events[0]["type"] == "STREAM_STARTED"
    assert events[-1]["type"] == "STREAM_FINISHED"
    assert events[-1]["stop_reason"] == "tool_use"
    ends = [e["block"] for e in events if e["type"] == "BLOCK_END"]
    assert [(b["type"], b["syntax"]) for b in ends] == [
        ("thinking", "native"),
        ("note", "delimiter_preamble"),
        ("widget", "delimiter_preamble"),  # unknown type: a generic block by default
        ("tool_call", "native"),
    ]
    assert ends[-1]["content"] == {"path": "/tmp"}
    text = "".join(e["text"] for e in events if e["type"] == "TEXT_DELTA")
    assert text == "Hi\nbye\n"


def test_extract_text_and_stdin(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    import io

    data = "a\n!!n1:note\nx\n!!end\nz"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode())))
    code, out, _ = run(capsys, "extract", "--plain")
    assert code == 0
    assert "┌─ note n1" in out
    assert "1 block, 0 errors" in out


def test_extract_sse(tmp_path: Path, capsys: Any) -> None:
    body = MockProvider([], provider="anthropic").dump(REPLY)
    sse = "".join(f"event: x\ndata: {line}\n\n" for line in body.splitlines()) + "data: [DONE]\n"
    path = tmp_path / "body.sse"
    path.write_text(sse, encoding="utf-8")
    code, out, err = run(capsys, "extract", str(path), "--json")
    assert code == 0, err
    assert json_events(out)[-1]["counts"]["blocks"] == 4


def test_forced_adapter_and_text(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "events.ndjson"
    path.write_text(MockProvider([], provider="openai").dump("x"), encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(path), "--json", "--adapter", "openai")
    assert code == 0
    assert json_events(out)[-1]["stop_reason"] == "end_turn"
    code, out, _ = run(capsys, "extract", str(path), "--json", "--adapter", "text")
    assert code == 0
    assert "chat.completion.chunk" in "".join(
        e.get("text", "") for e in json_events(out)
    )  # read as plain text
    code, _, err = run(capsys, "extract", str(path), "--adapter", "nope")
    assert code == 2
    assert "unknown adapter 'nope'" in err
    assert "openai" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x7fELF\x00\x00binary", "binary file"),
        (b'{"a": 1}\n', "unknown event format"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    content: bytes, message: str, tmp_path: Path, capsys: Any
) -> None:
    path = tmp_path / "input"
    path.write_bytes(content)
    code, _, err = run(capsys, "extract", str(path), "--plain")
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert err.count("\n") == 1


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    path = tmp_path / "input"
    path.write_bytes(b'{"a": 1}\n')
    with pytest.raises(Exception, match="unknown event format"):
        main(["--debug", "extract", str(path)])


def test_missing_file(capsys: Any, tmp_path: Path) -> None:
    code, _, err = run(capsys, "extract", str(tmp_path / "nope.txt"))
    assert code == 2
    assert "cannot read" in err


def test_strict_exit_code(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "reply.txt"
    path.write_text("!!n1:note\nunclosed", encoding="utf-8")
    assert run(capsys, "extract", str(path), "--plain")[0] == 0
    code, out, _ = run(capsys, "extract", str(path), "--plain", "--strict")
    assert code == 1
    assert "✗ UNCLOSED note n1" in out
    failed = tmp_path / "failed.ndjson"
    failed.write_text(
        MockProvider([], provider="anthropic").dump(MockReply(text="x", stop_reason="error")),
        encoding="utf-8",
    )
    assert run(capsys, "extract", str(failed), "--json", "--strict")[0] == 1


REGISTRY_FILE = """
from streamblocks import BlockRegistry

registry = BlockRegistry()
registry.register("task", description="A task to do.")

def make():
    return registry
"""


def test_registry_from_file_and_module(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "blocks.py").write_text(REGISTRY_FILE, encoding="utf-8")
    spec = f"{tmp_path / 'blocks.py'}:registry"
    code, out, _ = run(capsys, "prompt", "--registry", spec)
    assert code == 0
    assert "task: A task to do." in out
    code, out, _ = run(capsys, "prompt", "--registry", f"{tmp_path / 'blocks.py'}:make")
    assert "task" in out
    reply = tmp_path / "reply.txt"
    reply.write_text("!!t1:task\nx\n!!end\n!!n1:note\ny\n!!end\n", encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(reply), "--json", "--registry", spec)
    ends = [e["block"]["type"] for e in json_events(out) if e["type"] == "BLOCK_END"]
    assert ends == ["task"]  # with --registry, unknown types stay text
    code, out, _ = run(capsys, "prompt", "--registry", "streamblocks.cli:default_registry")
    assert code == 0
    assert "cite" in out


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nocolon", "wants FILE.py:NAME"),
        ("missing_file.py:registry", "no such file"),
        ("streamblocks:__version__", "not a BlockRegistry"),
        ("no_such_module_xyz:registry", "no module 'no_such_module_xyz' in the current folder"),
    ],
)
def test_bad_registry(spec: str, message: str, capsys: Any) -> None:
    code, _, err = run(capsys, "prompt", "--registry", spec)
    assert code == 2
    assert message in err


def test_prompt_default(capsys: Any) -> None:
    code, out, _ = run(capsys, "prompt")
    assert code == 0
    assert out == default_registry().system_prompt().rstrip("\n") + "\n"


def test_adapters(capsys: Any) -> None:
    code, out, _ = run(capsys, "adapters", "--plain")
    assert code == 0
    for name in ("openai", "anthropic", "gemini", "agui"):
        assert name in out
    assert "streamblocks.ext.openai:OpenAIInputAdapter" in out
    code, out, _ = run(capsys, "adapters", "--json")
    records = {r["name"]: r for r in json_events(out)}
    assert records["openai"]["loaded"] is True
    assert records["openai"]["sdk"] == "yes"
    assert records["openai"]["distribution"] == "streamblocks"


@pytest.mark.parametrize(
    ("provider", "variable"),
    [
        ("openai", "OPENAI_API_KEY"),
        ("anthropic", "ANTHROPIC_API_KEY"),
        ("gemini", "GEMINI_API_KEY"),
    ],
)
def test_run_without_key(
    provider: str, variable: str, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    code, out, err = run(capsys, "run", "--provider", provider, "--model", "m", "hello")
    assert code == 2
    assert variable in err
    assert err.count("\n") == 1
    assert out == ""


def test_run_streams_through_the_processor(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    import streamblocks.cli.commands.run as cli

    seen: dict[str, Any] = {}

    def fake(provider: str, model: str, prompt: str, system: str, max_tokens: int) -> Any:
        seen.update(provider=provider, model=model, prompt=prompt, system=system)
        return MockProvider([REPLY], provider=provider).stream()

    monkeypatch.setattr(cli, "provider_stream", fake)
    code, out, _ = run(capsys, "run", "--provider", "anthropic", "--model", "m", "hi", "--json")
    assert code == 0
    assert seen["system"] == default_registry().system_prompt()
    assert json_events(out)[-1]["counts"]["blocks"] == 4


def test_demo_plain_and_json(capsys: Any) -> None:
    code, out, _ = run(capsys, "demo", "--delay", "0", "--plain")
    assert code == 0
    assert "┌─ patch p1 (delimiter_frontmatter)" in out
    assert "5 blocks, 0 errors" in out
    code, out, _ = run(capsys, "demo", "--delay", "0", "--json")
    events = json_events(out)
    assert events[-1]["usage"]["input_tokens"] == 412
    assert len(demo_events()) > 100  # a real stream of token-sized events


@pytest.mark.parametrize("render", ["plain", "rich"])
def test_demo_shows_what_the_model_wrote_under_each_block(capsys: Any, render: str) -> None:
    """Each extracted block is followed by the raw text it came from, markers included."""
    if render == "rich":
        pytest.importorskip("rich")
    code, out, _ = run(capsys, "demo", "--delay", "0", "--render", render)
    assert code == 0
    assert out.count("the model wrote:") == 4  # note, patch, shell fence, todo: not thinking
    lines = out.splitlines()
    wrote = [i for i, line in enumerate(lines) if "the model wrote:" in line]
    raw = [line.strip() for line in lines[wrote[1] + 1 : wrote[1] + 12]]
    assert raw[:3] == ["┆ !!start", "┆ ---", "┆ id: p1"]
    assert raw[10] == "┆ !!end"
    after_note = "\n".join(lines[wrote[0] : wrote[0] + 3])
    assert "┆ !!n1:note:diagnosis" in after_note
    assert "┆ ```shell" in lines[wrote[2] + 1]
    # The aside is never a record: --json stays one event per line.
    code, out, _ = run(capsys, "demo", "--delay", "0", "--json")
    assert "the model wrote" not in out
    assert len(json_events(out)) == len(out.splitlines())


def test_demo_excerpt_cuts_the_middle_of_a_long_block() -> None:
    from streamblocks.cli.commands.demo import excerpt

    raw = "!!start\n" + "".join(f"line {i}\n" for i in range(30)) + "!!end\n"
    assert excerpt("!!n1:note\nhi\n!!end\n") == ["!!n1:note", "hi", "!!end"]
    shown = excerpt(raw)
    assert len(shown) == 12
    assert shown[:2] == ["!!start", "line 0"]
    assert shown[-3:] == ["… (21 more lines)", "line 29", "!!end"]


def test_demo_without_rich_falls_back_to_plain(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setitem(sys.modules, "rich", None)  # import rich → ImportError
    code, out, _ = run(capsys, "demo", "--delay", "0")
    assert code == 0
    assert "┌─ note n1" in out


def test_rich_rendering(capsys: Any, tmp_path: Path) -> None:
    pytest.importorskip("rich")
    path = tmp_path / "reply.txt"
    path.write_text("see\n!!n1:note:x\nbody\n!!end\n!!n2:note\nopen", encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(path))
    assert code == 0
    assert "note n1" in out and "body" in out
    assert "UNCLOSED" in out
    code, out, _ = run(capsys, "extract", str(path), "--hide-text")
    assert "see" not in out


def test_sniff() -> None:
    assert sniff(b'\xef\xbb\xbf{"type": "x"}\n') == "ndjson"
    assert sniff(b"\n\ndata: {}\n") == "sse"
    assert sniff(b"{not json at all") == "text"
    assert sniff(b'{"cut in the mid') == "ndjson"
    assert sniff(b"[1, 2]") == "text"
    assert sniff(b"") == "text"


def test_json_schema_of_each_event() -> None:
    from streamblocks import BlockRegistry, StreamBlockProcessor

    registry = BlockRegistry()
    registry.register("note")
    events = list(StreamBlockProcessor(registry).process(["a\n!!n1:note\nx\n!!end\n!!n2:note"]))
    dicts = [event_dict(e) for e in events]
    json.dumps(dicts)  # all JSON-able
    by_type = {d["type"]: d for d in dicts}
    assert set(by_type["BLOCK_START"]) == {"type", "block_id", "block_type", "syntax", "attrs"}
    assert set(by_type["BLOCK_END"]["block"]) == {
        "id",
        "type",
        "syntax",
        "metadata",
        "content",
        "attrs",
        "raw",
        "start",
        "end",
    }
    assert set(by_type["BLOCK_ERROR"]) == {
        "type",
        "block_id",
        "block_type",
        "code",
        "message",
        "raw",
    }
    assert by_type["STREAM_FINISHED"]["counts"] == {"chars": 29, "blocks": 1, "errors": 1}
    assert by_type["STREAM_FINISHED"]["stop_reason"] == "unknown"


# -- agent-CLI transcripts ---------------------------------------------------------------


def _transcript(kind: str) -> list[dict[str, Any]]:
    from adapters import transcripts as t

    return {
        "claude": t.claude_tool_run,
        "claude-partial": t.claude_partial_run,
        "claude-error": t.claude_error_run,
        "codex": t.codex_run,
    }[kind]()


CLAUDE_NATIVE = [
    "thinking",
    "tool_call",
    "tool_result",
    "code",
    "tool_call",
    "tool_result",
    "command",
    "tool_call",
    "tool_result",
    "file_change",
    "tool_call",
    "tool_result",
    "file_change",
    "tool_call",
    "tool_result",
    "todo",
]


@pytest.mark.parametrize(
    ("kind", "layout"),
    [
        ("claude", "ndjson"),
        ("claude", "array"),
        ("claude", "array-pretty"),
        ("claude", "stdin"),
        ("claude-partial", "ndjson"),
        ("codex", "ndjson"),
    ],
)
def test_extract_reads_transcripts(
    kind: str,
    layout: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Claude Code and Codex transcripts are sniffed and detected with no flag, as JSON
    lines, as the one array `claude -p --output-format json --verbose` prints, or piped."""
    import io

    lines = _transcript(kind)
    if layout == "array":
        body = json.dumps(lines)
    elif layout == "array-pretty":
        body = json.dumps(lines, indent=2)
    else:
        body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    if layout == "stdin":
        stdin = io.TextIOWrapper(io.BytesIO(body.encode("utf-8")), encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", stdin)
        code, out, err = run(capsys, "extract", "--json")
    else:
        path = tmp_path / "transcript.jsonl"
        path.write_text(body, encoding="utf-8")
        code, out, err = run(capsys, "extract", str(path), "--json")
    assert code == 0, err
    events = json_events(out)  # every line is JSON: native blocks serialise
    ends = [e["block"] for e in events if e["type"] == "BLOCK_END"]
    text = "".join(e["text"] for e in events if e["type"] == "TEXT_DELTA")
    finished = events[-1]
    assert finished["type"] == "STREAM_FINISHED"
    assert finished["stop_reason"] == "end_turn"
    assert finished["counts"]["errors"] == 0
    # The model's own `!!n1:note` block is still extracted from the transcript's text.
    assert ("note", "delimiter_preamble") in [(b["type"], b["syntax"]) for b in ends]
    assert "!!n1" not in text
    if kind == "claude":
        native = [b["type"] for b in ends if b["syntax"] == "native"]
        assert native == CLAUDE_NATIVE
        assert finished["usage"]["cost_usd"] == pytest.approx(0.0421)
        code_block = next(b for b in ends if b["type"] == "code")
        assert code_block["attrs"]["language"] == "python"
        todo = next(b for b in ends if b["type"] == "todo")
        assert todo["content"]["items"][1] == {"text": "Fix add()", "status": "in_progress"}
    if kind == "claude-partial":
        assert text.count("Let me look at the code.") == 1  # deltas and snapshot: once
    if kind == "codex":
        assert {"thinking", "command", "file_change", "tool_call", "todo"} <= {
            b["type"] for b in ends
        }


def test_extract_transcript_error_turn_and_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "failed.jsonl"
    lines = _transcript("claude-error")
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(path), "--json")
    assert code == 1  # a failed run is an exit status of its own (issue 39, item 8)
    finished = json_events(out)[-1]
    assert finished["stop_reason"] == "error"
    assert run(capsys, "extract", str(path), "--json", "--allow-failed")[0] == 0
    assert "overloaded" in finished["error"]
    code, out, _ = run(capsys, "extract", str(path), "--plain", "--strict")
    assert code == 1
    assert "stop: error" in out


def test_extract_transcript_forced_adapter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--adapter codex_cli` reads the lines with that adapter; the wrong one is refused
    rather than guessed."""
    path = tmp_path / "codex.log"
    lines = _transcript("codex")
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    code, out, err = run(capsys, "extract", str(path), "--adapter", "codex_cli", "--json")
    assert code == 0, err
    assert json_events(out)[-1]["counts"]["blocks"] > 5
    code, _, err = run(capsys, "extract", str(path), "--adapter", "nope")
    assert code == 2
    assert "claude_cli" in err and "codex_cli" in err


def test_plain_rendering_shows_whole_native_blocks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tool results, code read and command output arrive whole (no deltas): the plain
    rendering still shows their content."""
    path = tmp_path / "claude.jsonl"
    lines = _transcript("claude")
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(path), "--plain", "--hide-text")
    assert code == 0
    assert "│ print(add(1, 2))\n" in out  # the code block of the Read result
    assert "│ warning: slow\n└─ command" in out  # the command's output
    assert "│ \n└─" not in out  # no empty gutter line before a block's end


def test_adapters_lists_transcript_readers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "adapters", "--json")
    assert code == 0
    records = {r["name"]: r for r in json_events(out)}
    for name in ("claude_cli", "codex_cli"):
        assert records[name]["loaded"] is True
        assert records[name]["sdk"] == "none needed"
    code, out, _ = run(capsys, "adapters", "--plain")
    assert "none needed" in out


def test_sniff_arrays() -> None:
    assert sniff(b'[{"type": "system"}]') == "json"
    assert sniff(b'\n[\n  {\n    "type": "system"') == "json"  # pretty-printed, cut
    assert sniff(b"[link](https://example.com) text") == "text"
    assert sniff(b"[]") == "text"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_extract_partial_adds_the_arguments_so_far_to_deltas_only_when_asked(
    jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reply = MockReply(text="hi", tool_calls=[MockToolCall("ls", {"path": "/tmp", "all": True})])
    recording = tmp_path / "stream.ndjson"
    recording.write_text(MockProvider([], provider="anthropic").dump(reply), encoding="utf-8")
    code, plain, err = run(capsys, "extract", str(recording), "--json", "-j", jobs)
    assert code == 0, err
    assert all("partial" not in e and "partial_at" not in e for e in json_events(plain))
    code, out, err = run(capsys, "extract", str(recording), "--json", "--partial", "-j", jobs)
    assert code == 0, err
    deltas = [e for e in json_events(out) if e["type"] == "BLOCK_DELTA"]
    calls = [e for e in deltas if "partial" in e]
    assert calls and calls[-1]["partial"] == {"path": "/tmp", "all": True}
    assert {"path": "/t"} in [e["partial"] for e in calls]

    def same(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if k not in ("partial", "stream_id")} for e in events]

    assert same(json_events(out)) == same(json_events(plain))
