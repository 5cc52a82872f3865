"""The viewer's input reader and the re-opening of an exported run, without a server."""

from __future__ import annotations

import gc
import io
import json
import os
import threading
from typing import Any

import pytest

from streamblocks import content as c
from streamblocks.runs import live as source
from streamblocks.runs.live import BadInput, Document
from streamblocks.runs.reading import BinaryInput
from streamblocks.view.message import message_events


def _items(*chunks: str) -> list[Any]:
    return list(source.items(iter(chunks)))


def test_text_is_handed_on_before_its_first_line_ends() -> None:
    seen = []
    for item in source.items(iter(["Hello ", "wor", "ld\n"])):
        seen.append(item)
        if len(seen) == 1:
            assert item == "Hello "  # decided from the first character: text
    assert "".join(seen) == "Hello world\n"


def test_json_lines_are_read_one_by_one_and_bad_ones_become_warnings() -> None:
    items = _items('{"a": 1}\n{"b"', ': 2}\nnot json\n[1]\n\n{"c": 3}')
    assert items[0] == {"a": 1}
    assert items[1] == {"b": 2}
    assert isinstance(items[2], BadInput) and items[2].message.startswith("line 3: invalid JSON")
    assert isinstance(items[3], BadInput) and "got list" in items[3].message
    assert items[4] == {"c": 3}  # the last line, without a newline


def test_sse_bodies_and_event_arrays() -> None:
    assert _items('event: x\ndata: {"a": 1}\n\ndata: [DONE]\n') == [{"a": 1}]
    assert _items('[{"a": 1},\n {"b": 2}]\n') == [{"a": 1}, {"b": 2}]
    assert _items('[{"a": 1}, {"b": 2}]') == [{"a": 1}, {"b": 2}]


def test_an_exported_run_is_a_document_on_one_line_or_many() -> None:
    message = c.Message(content=[c.TextBlock("hi")]).model_dump(mode="json")
    assert _items(json.dumps(message)) == [Document(message)]
    assert _items(json.dumps(message, indent=2)) == [Document(message)]


def test_a_broken_document_is_a_warning_and_shown_as_text() -> None:
    warning, text = _items('{\n  "role": "assistant",\n')
    assert isinstance(warning, BadInput) and "not valid JSON" in warning.message
    assert text == '{\n  "role": "assistant",\n'


@pytest.mark.parametrize(
    "text",
    [
        "[the docs](https://example.com) say so.\nMore.\n",
        '[TOOL_CALLS][{"name": "add", "arguments": {"a": 1}}]\n',
        '[get_weather(city="Paris"), get_time()]\n',
        "{ a brace, then prose\nand more prose\n",
    ],
)
def test_text_whose_first_line_only_looks_like_json_is_text(text: str) -> None:
    assert "".join(_items(text)) == text  # every item a string: no warning, no event


def test_text_starting_with_a_bracket_stays_live() -> None:
    chunks = iter(["[link](x) first line\n", "second"])
    first = next(source.items(chunks))
    assert first == "[link](x) first line\n"  # handed on before the input ends


def test_a_binary_input_is_refused() -> None:
    with pytest.raises(BinaryInput, match="NUL bytes"):
        list(source.read(io.BytesIO(b"\x7fELF\x02\x01\x00\x00 binary")))


def test_undecodable_bytes_do_not_stop_the_input() -> None:
    with pytest.warns(UnicodeWarning, match=r"undecodable byte at byte 6 .*replaced with �"):
        read = list(source.read(io.BytesIO(b"caf\xc3\xa9 \xff ok\n")))
    assert "".join(read) == "café \ufffd ok\n"


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ({"timestamp": "2025-01-01T00:00:01Z"}, 1735689601.0),
        ({"ts": 1735689601500}, 1735689601.5),  # milliseconds
        ({"time": 1735689601.25}, 1735689601.25),
        ({"created_at": "not a time"}, None),
        ({"timestamp": True}, None),
        ("text", None),
    ],
)
def test_timestamps(value: Any, seconds: float | None) -> None:
    assert source.timestamp(value) == seconds


def test_a_paced_replay_follows_the_timestamps_scaled_and_capped() -> None:
    pauses: list[float] = []
    events = [{"ts": 100.0}, {"ts": 101.0}, {"ts": 101.5}, {"x": 1}, {"ts": 200.0}]
    replayed = list(source.paced(iter(events), 2.0, sleep=pauses.append))
    assert replayed == events
    gap = source.DEFAULT_GAP / 2
    assert pauses == [0.5, 0.25, gap, source.MAX_PAUSE]


def test_every_content_block_opens_again_as_it_was_saved() -> None:
    message = c.Message(
        content=[
            c.ThinkingBlock("hmm", signature="sig"),
            c.TextBlock("Reading.\n"),
            c.ToolCallBlock(id="c1", name="Read", arguments={"path": "a.py"}),
            c.ToolResultBlock(tool_call_id="c1", content="x = 1", is_error=True),
            c.CodeBlock(
                code="x = 1\n", language="python", path="a.py", start_line=1, total_lines=1
            ),
            c.CommandBlock(command="pytest", output="1 failed\n", exit_code=1, status="failed"),
            c.FileChangeBlock(path="a.py", kind="update", diff="-x\n+y\n"),
            c.FileChangeBlock(path="b.py", kind="add", content="new\n"),
            c.TodoBlock(items=[c.TodoItem(text="ship", status="pending")]),
            c.CustomBlock(tag="note", content="remember", attrs={"id": "n1", "level": 2}),
            c.TextBlock("Done."),
        ]
    )
    events = message_events(message.model_dump(mode="json"))
    assert c.MessageAccumulator().add_all(events) == message


def test_an_invalid_export_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="content"):
        list(message_events({"role": "assistant", "content": [{"type": "nope"}]}))


def test_a_paused_collector_is_on_only_while_the_reader_waits() -> None:
    """The viewer's reader keeps the garbage collector off while it has input in hand
    and turns it back on while a live pipe has nothing to read."""
    read_end, write_end = os.pipe()
    waiting = threading.Event()
    states: list[tuple[str, bool]] = []

    def on_wait() -> None:
        states.append(("waiting", gc.isenabled()))
        waiting.set()

    def write_when_waited() -> None:
        waiting.wait(10)  # (the reader found the pipe empty and said so)
        os.write(write_end, b"two\n")
        os.close(write_end)

    writer = threading.Thread(target=write_when_waited)
    os.write(write_end, b"one\n")
    was_enabled = gc.isenabled()
    with open(read_end, "rb", buffering=0) as handle:
        items = source.read(handle, text=True)
        items.waits.collector_paused = True
        items.waits.hook = on_wait
        writer.start()
        gc.disable()
        try:
            texts = []
            for item in items:
                states.append(("reading", gc.isenabled()))
                texts.append(item)
        finally:
            if was_enabled:
                gc.enable()
    writer.join()
    assert "".join(texts) == "one\ntwo\n"
    assert ("waiting", True) in states
    assert all(enabled is False for state, enabled in states if state == "reading")
