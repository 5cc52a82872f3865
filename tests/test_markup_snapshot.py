"""A session snapshotted anywhere inside model markup — thinking, a call's head, its
body of every format, an array of calls — resumes with the events it would have given,
in either build: the reader's parts are written by attribute, the grammar's frozen
dataclasses by constructor (the compiled build refuses to set a frozen field)."""

from __future__ import annotations

import pytest

from streamblocks import BlockRegistry, StreamBlockProcessor
from streamblocks.testing import normalise
from test_markup_properties import WRITERS

ARGUMENTS = {"path": "a.txt", "content": 'x <b> "y"'}


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_snapshot_inside_a_call_resumes(writer: str) -> None:
    family, _, write = WRITERS[writer]
    arguments = {"k0": "a.txt", "k1": 'x "y"'} if writer == "llama-pythonic" else ARGUMENTS
    text = "<think>\nhm </think>" * (family == "qwen3") + write(arguments) + "\ndone"
    processor = StreamBlockProcessor(BlockRegistry(), markup=family)
    for cut in range(1, len(text), 3):
        session = processor.session()
        events = session.feed(text[:cut])
        resumed = processor.restore(session.snapshot())
        events += resumed.feed(text[cut:]) + resumed.close()
        plain = processor.session()
        expected = plain.feed(text[:cut]) + plain.feed(text[cut:]) + plain.close()
        assert normalise(events) == normalise(expected), (cut, text[:cut])


def test_a_snapshot_between_lean_steps_resumes() -> None:
    """Fed in 4-character chunks, a session is between lean steps almost everywhere:
    inside thinking (blanks held or not), a call's head and body, a closer arriving in
    pieces. Snapshotted after any chunk, it resumes with the events it would have given,
    and the resumed session takes the lean steps again."""
    call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
    text = (
        f"<think>\nWe weigh  the gaps. \n{'We weigh the gaps. ' * 3}</think>\n\n{call}\nthen text"
    )
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=None, markup="qwen3")
    for size in (3, 4):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        plain = processor.session()
        expected = [e for chunk in chunks for e in plain.feed(chunk)] + plain.close()
        for cut in range(1, len(chunks)):
            session = processor.session()
            events = [e for chunk in chunks[:cut] for e in session.feed(chunk)]
            resumed = processor.restore(session.snapshot())
            events += [e for chunk in chunks[cut:] for e in resumed.feed(chunk)] + resumed.close()
            assert normalise(events) == normalise(expected), (size, cut, chunks[cut - 1])
