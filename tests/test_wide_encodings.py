"""UTF-16 and UTF-32 inputs (what Windows PowerShell 5's ``>`` writes) are read by
``extract`` and ``view``: a byte-order mark says so, or ``--encoding`` (issue 39,
item 2)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import json_events, run
from streamblocks.runs.reading import utf8_chunks

REPLY = "héllo ✓ 👩\u200d💻"
LINES = [
    {"type": "thread.started", "thread_id": "t1"},
    {"type": "turn.started"},
    {
        "type": "item.completed",
        "item": {"id": "i1", "type": "agent_message", "text": REPLY},
    },
    {"type": "turn.completed", "usage": {"input_tokens": 1, "output_tokens": 1}},
]
TEXT = "".join(json.dumps(line, ensure_ascii=False) + "\r\n" for line in LINES)


def texts(out: str) -> str:
    return "".join(e["text"] for e in json_events(out) if e["type"] == "TEXT_DELTA")


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_extract_reads_a_file_with_a_byte_order_mark(
    capsys: Any, tmp_path: Path, codec: str
) -> None:
    path = tmp_path / "run.jsonl"
    bom = {"utf-16": b"", "utf-16-be": b"\xfe\xff", "utf-32": b""}[codec]
    path.write_bytes(bom + TEXT.encode(codec))
    code, out, err = run(capsys, "extract", str(path), "--json")
    assert (code, err) == (0, "")
    assert texts(out) == REPLY


def test_extract_honours_encoding_utf16_without_a_mark(capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(TEXT.encode("utf-16-le"))
    code, out, err = run(capsys, "extract", str(path), "--json", "--encoding", "utf-16-le")
    assert (code, err) == (0, "")
    assert texts(out) == REPLY
    code, _, err = run(capsys, "extract", str(path), "--json")
    assert code == 2 and "pass --encoding utf-16-le" in err  # not a mystery


def test_a_text_file_in_utf16_keeps_its_blocks(capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / "reply.txt"
    path.write_bytes("a\n!!n1:note\nx\n!!end\nz\n".encode("utf-16"))
    code, out, _ = run(capsys, "extract", str(path), "--json")
    events = json_events(out)
    assert code == 0 and texts(out) == "a\nz\n"
    assert [e["block"]["content"] for e in events if e["type"] == "BLOCK_END"] == ["x\n"]


def test_utf16_cut_anywhere_arrives_whole() -> None:
    data = b"\xff\xfe" + TEXT.encode("utf-16-le")
    pieces = [data[i : i + 3] for i in range(0, len(data), 3)]  # mid-character everywhere
    assert b"".join(utf8_chunks(iter(pieces))).decode("utf-8") == TEXT
    plain = [b"a", b"bc", b"", b"def"]
    assert b"".join(utf8_chunks(iter(plain))) == b"abcdef"  # anything else as it is


def test_view_reads_utf16() -> None:
    from streamblocks.runs import live as source

    read = source.read(io.BytesIO(TEXT.encode("utf-16")))
    assert [item["type"] for item in read] == [line["type"] for line in LINES]
    read = source.read(io.BytesIO(TEXT.encode("utf-16-le")), encoding="utf-16-le")
    assert [item["type"] for item in read][-1] == "turn.completed"
