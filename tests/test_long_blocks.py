"""A long block fed in token-sized chunks under a raised size limit: the work of
holding it grows linearly (counted, not timed), and its content is held once."""

from __future__ import annotations

import pytest

from streamblocks import BlockRegistry, Limits, StreamBlockProcessor

LIMITS = Limits(max_block_chars=64 * 2**20)


def _feed(processor: StreamBlockProcessor, head: str, body: str, tail: str) -> tuple[str, int, int]:
    """Feed ``head + body + tail`` in 4-character chunks; returns the closed block's
    content, the size of its held content spans while it was open, and the characters
    its compaction had joined (``OpenBlock.compacted``)."""
    session = processor.session()
    events = session.feed(head)
    text = body
    for at in range(0, len(text), 4):
        events += session.feed(text[at : at + 4])
    region = session._scan.region
    block = region.block if region is not None else session._scan.block
    assert block is not None
    spans = len(block.spans) if region is not None else 0
    copied = block.compacted
    events += session.feed(tail) + session.close()
    (end,) = [event for event in events if event.type == "BLOCK_END"]
    return end.block.content, spans, copied


@pytest.mark.parametrize("size", [50_000, 200_000])
def test_thinking_is_held_once_and_copied_once(size: int) -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup="qwen3", limits=LIMITS)
    body = ("thinking about the weather and data files " * (size // 40 + 1))[:size]
    content, spans, copied = _feed(processor, "<think>", body, "</think>answer")
    assert content == body
    assert spans == 2  # one span of the raw text, not a second copy of the content
    # every character is joined at most once by compaction, whatever the block's length
    assert size * 0.9 <= copied <= size + 8


@pytest.mark.parametrize("size", [50_000, 200_000])
def test_a_long_line_block_is_copied_once(size: int) -> None:
    registry = BlockRegistry()
    registry.register("note")
    processor = StreamBlockProcessor(registry, limits=LIMITS, input_adapter=None)
    line = "a line of the note, long enough to span many chunks\n"
    body = (line * (size // len(line) + 1))[:size]
    body = body[: body.rindex("\n") + 1]
    content, _, copied = _feed(processor, "!!b1:note\n", body, "!!end\n")
    assert content == body
    assert len(body) * 0.9 <= copied <= len(body) + 64
