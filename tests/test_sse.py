"""The one SSE reader (``streamblocks.sse``) on the examples of the specification's
"Server-sent events" section, in any chunking, and the two commands that use it."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli_helpers import json_events, run
from streamblocks.runs import live as source
from streamblocks.sse import SSEDecoder, SSEMessage, sse_messages


def read(body: str, **kw: Any) -> list[tuple[str, str, str | None]]:
    return [(m.event, m.data, m.id) for m in sse_messages([body], **kw)]


def test_spec_stock_example_multiline_data_is_joined_with_newlines() -> None:
    body = "data: YHOO\ndata: +2\ndata: 10\n\n"
    assert read(body) == [("message", "YHOO\n+2\n10", None)]


def test_spec_comment_and_last_event_id() -> None:
    body = (
        ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n"
    )
    assert read(body, complete_only=True) == [
        ("message", "first event", "1"),
        ("message", "second event", ""),  # "id" alone resets the last id
    ]
    # a recorded body cut before its last blank line: still read (one choice beyond the spec)
    assert read(body)[-1] == ("message", " third event", "")


def test_spec_empty_data_lines() -> None:
    body = "data\n\ndata\ndata\n\ndata:\n"
    assert read(body, complete_only=True) == [("message", "", None), ("message", "\n", None)]


def test_spec_one_space_after_the_colon_is_dropped() -> None:
    body = "data:test\n\ndata: test\n\n"
    assert read(body) == [("message", "test", None), ("message", "test", None)]


def test_event_names_retry_unknown_fields_and_a_nul_id() -> None:
    body = (
        "event: add\ndata: 73857293\n\n"
        "event: remove\ndata: 2153\nretry: 1500\nfoo: bar\n\n"
        "data: x\nid: a\x00b\nretry: 2s\n\n"
    )
    messages = list(sse_messages([body]))
    assert [(m.event, m.data) for m in messages] == [
        ("add", "73857293"),
        ("remove", "2153"),
        ("message", "x"),
    ]
    assert [m.retry for m in messages] == [None, 1500, 1500]
    assert messages[2].id is None  # an id holding NUL is ignored


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_every_line_end_and_a_bom(end: str) -> None:
    body = "\ufeff" + end.join(["event: e", "data: a", "data: b", "", "data: c", "", ""])
    assert read(body) == [("e", "a\nb", None), ("message", "c", None)]


@given(
    st.lists(st.integers(min_value=0, max_value=60), max_size=8),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_any_chunking_gives_the_same_messages(cuts: list[int], end: str) -> None:
    body = end.join(
        ["\ufeff: hi", "event: x", 'data: {"a": 1}', "data: 2", "id: 7", "", "data: z", "", ""]
    )
    whole = list(sse_messages([body]))
    points = sorted({min(c, len(body)) for c in cuts})
    pieces = [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]
    assert list(sse_messages(pieces)) == whole
    assert [m.line for m in whole] == [2, 7]


def test_a_decoder_hands_out_each_message_when_its_blank_line_arrives() -> None:
    decoder = SSEDecoder()
    assert decoder.feed("data: a\r") == []
    assert decoder.feed("\n") == []  # the LF of the CRLF, not a blank line
    assert decoder.feed("\r\n") == [SSEMessage("a", line=1)]
    assert decoder.close() == []


BODY = (
    ": keep-alive\n\n"
    "event: message_start\n"
    'data: {"type": "message_start", "message": {"id": "m1", "type": "message",\n'
    'data: "role": "assistant", "content": [], "model": "claude-x",\n'
    'data: "usage": {"input_tokens": 3, "output_tokens": 1}}}\n\n'
    "event: content_block_start\n"
    'data: {"type": "content_block_start", "index": 0,'
    ' "content_block": {"type": "text", "text": ""}}\n\n'
    "event: content_block_delta\nid: 3\nretry: 100\n"
    'data: {"type": "content_block_delta", "index": 0,'
    ' "delta": {"type": "text_delta", "text": "Hello"}}\n\n'
    'data: {"type": "message_stop"}\n\n'
    "data: [DONE]\n\n"
)


def test_extract_reads_a_multiline_data_body(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "body.sse"
    path.write_bytes(BODY.replace("\n", "\r\n").encode())
    code, out, err = run(capsys, "extract", "--json", str(path))
    assert (code, err) == (0, "")
    records = json_events(out)
    assert "".join(r["text"] for r in records if r["type"] == "TEXT_DELTA") == "Hello"


def test_the_viewer_reads_the_same_body_the_same_way() -> None:
    items = list(source.read(io.BytesIO(BODY.encode())))
    assert [item["type"] for item in items] == [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "message_stop",
    ]
    assert items[0]["message"]["usage"] == {"input_tokens": 3, "output_tokens": 1}


def test_a_bad_message_is_one_warning_naming_its_first_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    body = BODY.replace('data: {"type": "message_stop"}', "data: {oops\ndata: more")
    path = tmp_path / "body.sse"
    path.write_text(body, encoding="utf-8")
    code, out, err = run(capsys, "extract", "--json", str(path))
    assert code == 0
    assert err.count("warning") == 1 and "line 16: invalid JSON" in err
    assert json.loads(out.splitlines()[-1])["type"] == "STREAM_FINISHED"


def test_an_sse_body_starting_with_comments_is_sse(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "body.sse"
    path.write_text(": OPENROUTER PROCESSING\n\n: again\n" + BODY, encoding="utf-8")
    code, out, _ = run(capsys, "extract", "--json", str(path))
    assert code == 0
    assert "".join(r["text"] for r in json_events(out) if r["type"] == "TEXT_DELTA") == "Hello"
    assert len(list(source.read(io.BytesIO(path.read_bytes())))) == 4


def test_text_starting_with_a_colon_stays_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert source.read(io.BytesIO(b":) fine\nthanks\n")).__next__() == ":) fine\nthanks\n"
