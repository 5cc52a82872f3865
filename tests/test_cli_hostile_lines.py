"""``extract`` survives any single input line: too deeply nested, too long, not
decodable. Each is one warning naming the line, and the lines after it are read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import run
from streamblocks.runs import inputs, reading

START = {
    "type": "message_start",
    "message": {
        "id": "m1",
        "type": "message",
        "role": "assistant",
        "content": [],
        "model": "claude-x",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    },
}


def delta(text: str) -> str:
    event = {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "text_delta", "text": text},
    }
    return json.dumps(event)


def nested(depth: int, open_: str = "[", close: str = "]") -> str:
    return '{"type": "ping", "x": ' + open_ * depth + close * depth + "}"


def extract(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, body: bytes
) -> tuple[int, str, str]:
    path = tmp_path / "run.ndjson"
    path.write_bytes(body)
    return run(capsys, "extract", str(path))


@pytest.mark.parametrize("depth", [150, 500, 990, 5000, 200_000])
def test_a_deeply_nested_line_is_skipped_with_one_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, depth: int
) -> None:
    body = "\n".join([json.dumps(START), delta("Hello"), nested(depth), delta(" there"), ""])
    code, out, err = extract(capsys, tmp_path, body.encode())
    assert code == 0
    assert out.startswith("Hello there")
    assert err.count("warning") == 1 and "line 3: JSON nested" in err


def test_nesting_up_to_the_limit_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body = "\n".join([json.dumps(START), nested(inputs.MAX_DEPTH - 2), delta("ok"), ""])
    code, out, err = extract(capsys, tmp_path, body.encode())
    assert (code, err) == (0, "") and out.startswith("ok")


def test_an_overlong_line_is_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inputs, "MAX_LINE", 1000)
    long = json.dumps({"type": "ping", "pad": "x" * 5000})
    body = "\n".join([json.dumps(START), delta("a"), long, delta("b"), ""])
    code, out, err = extract(capsys, tmp_path, body.encode())
    assert code == 0 and out.startswith("ab")
    assert err.count("warning") == 1 and "line 3: longer than 1000 characters" in err


def test_undecodable_bytes_in_a_line_are_one_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = delta("a#").encode().replace(b"#", b"\xff")  # not UTF-8
    body = b"\n".join([json.dumps(START).encode(), bad, delta("b").encode(), b""])
    code, out, err = extract(capsys, tmp_path, body)
    assert code == 0 and out.startswith("a\ufffdb")
    assert err.count("warning") == 1 and "undecodable byte" in err


@pytest.mark.parametrize("size", [1, 3, 7, 64])
def test_lines_drops_only_the_long_line_in_any_chunking(size: int) -> None:
    text = "short\n" + "y" * 50 + "\nlast\n" + "z" * 30
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    assert list(reading.lines(iter(chunks), 20)) == ["short", None, "last", None]
    assert list(reading.lines(iter(chunks))) == text.split("\n")
