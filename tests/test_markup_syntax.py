"""The markup syntax keeps the inline-syntax protocol: every case of the table through a
stand-in scanner, at every chunking, gives the reader's text, thinking, calls and errors,
and every character comes back (visible, in a block's raw, or hidden framing)."""

from __future__ import annotations

from typing import Any

import pytest

from markup_cases import CASES, call_of, found_outcome
from markup_driver import Driver
from streamblocks.core.events import StopReason
from streamblocks.markup import Markup
from streamblocks.markup.syntax import MarkupSyntax
from test_markup_reader import chunkings, markup_of


def drive(markup: Markup, chunks: list[str], *, cut: bool = False) -> list[tuple[Any, ...]]:
    driver = Driver(MarkupSyntax(markup))
    for chunk in chunks:
        driver.feed(chunk)
    return driver.close(StopReason.max_tokens if cut else StopReason.end_turn)


def outcome(events: list[tuple[Any, ...]]) -> dict[str, Any]:
    text, thinking, calls, errors, whole = [], [], [], [], []
    for event in events:
        if event[0] in ("text", "hide"):
            whole.append(event[1])
        if event[0] == "text":
            text.append(event[1])
        elif event[0] == "end":
            whole.append(event[4])
            if event[1] == "thinking":
                thinking.append(event[2])
            else:
                calls.append(call_of(event[2], event[3]))
        elif event[0] == "error":
            whole.append(event[2])
            errors.append((event[1] == "UNCLOSED", event[2]))
    return found_outcome(text, thinking, calls, errors, whole)


@pytest.mark.parametrize(("family", "text", "expected"), CASES)
def test_case_through_the_protocol(family: str, text: str, expected: dict[str, Any]) -> None:
    markup = markup_of(family, expected)
    for chunks in chunkings(text):
        found = outcome(drive(markup, chunks, cut=expected.get("cut", False)))
        assert found["whole"] == text, chunks
        for key in ("text", "thinking", "calls", "errors"):
            assert found[key] == expected[key], (key, chunks)


def test_a_call_block_starts_once_its_name_is_read() -> None:
    chunks = ['<tool_call>{"name": "get_', 'weather", "argu', 'ments": {}}</tool_call>']
    events = drive(Markup("qwen3"), chunks)
    assert events[0] == ("start", "tool_call", {"name": "get_weather"})


def test_a_reply_that_is_no_bare_call_is_text_at_once() -> None:
    driver = Driver(MarkupSyntax(Markup("llama")))
    driver.feed("Paris is")
    assert driver.events == [("text", "Paris is")]
