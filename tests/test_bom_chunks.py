"""A byte-order mark opening the stream is visible text and the first line starts after
it, however the chunks fall: empty chunks before it, the mark alone, the mark with the
marker (a lean step once took the mark as deciding the line)."""

from __future__ import annotations

import pytest

from streamblocks import BlockRegistry, StreamBlockProcessor

TEXT = "\ufeff!!b1:note\nx\n!!end\nafter"


def _chunkings() -> list[list[str]]:
    cuts = [[TEXT[:i], TEXT[i:]] for i in range(len(TEXT) + 1)]
    return [
        ["", "\ufeff", TEXT[1:]],
        ["", "", "\ufeff", "", TEXT[1:]],
        ["\ufeff", TEXT[1:]],
        ["", TEXT],
        list(TEXT),
        ["", *TEXT],
        *cuts,
        *(["", *cut] for cut in cuts),
    ]


@pytest.mark.parametrize("adapter", [None, "auto"])
@pytest.mark.parametrize("chunks", _chunkings())
def test_a_bom_opening_the_stream_keeps_the_first_line_a_line(
    chunks: list[str], adapter: str | None
) -> None:
    registry = BlockRegistry()
    registry.register("note")
    session = StreamBlockProcessor(registry, input_adapter=adapter).session()
    events = [e for chunk in chunks for e in session.feed(chunk)] + session.close()
    assert [e.block.content for e in events if e.type == "BLOCK_END"] == ["x\n"]
    assert "".join(e.text for e in events if e.type == "TEXT_DELTA") == "\ufeffafter"
