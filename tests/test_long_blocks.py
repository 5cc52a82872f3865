"""A long block fed in token-sized chunks under a raised size limit: the work of
holding it grows linearly (counted, not timed), and its content is held once."""

from __future__ import annotations

import pytest

from streamblocks import BlockRegistry, Limits, StreamBlockProcessor
from streamblocks.core.open_block import COMPACT_EVERY, OpenBlock

LIMITS = Limits(max_block_chars=64 * 2**20)


@pytest.fixture
def copied(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the characters ``OpenBlock.compact`` joins (the real method runs)."""
    count = [0]
    real = OpenBlock.compact

    def counting(self: OpenBlock) -> None:
        count[0] += sum(len(piece) for piece in self.raw[self.compact_at - COMPACT_EVERY :])
        real(self)

    monkeypatch.setattr(OpenBlock, "compact", counting)
    return count


def _feed(processor: StreamBlockProcessor, head: str, body: str, tail: str) -> tuple[str, int]:
    """Feed ``head + body + tail`` in 4-character chunks; returns the closed block's
    content and the size of its held content spans while it was open."""
    session = processor.session()
    events = session.feed(head)
    text = body
    for at in range(0, len(text), 4):
        events += session.feed(text[at : at + 4])
    region = session._scan.region
    spans = len(region.block.spans) if region is not None and region.block is not None else 0
    events += session.feed(tail) + session.close()
    (end,) = [event for event in events if event.type == "BLOCK_END"]
    return end.block.content, spans


@pytest.mark.parametrize("size", [50_000, 200_000])
def test_thinking_is_held_once_and_copied_once(size: int, copied: list[int]) -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup="qwen3", limits=LIMITS)
    body = ("thinking about the weather and data files " * (size // 40 + 1))[:size]
    content, spans = _feed(processor, "<think>", body, "</think>answer")
    assert content == body
    assert spans == 2  # one span of the raw text, not a second copy of the content
    # every character is joined at most once by compaction, whatever the block's length
    assert size * 0.9 <= copied[0] <= size + 8


@pytest.mark.parametrize("size", [50_000, 200_000])
def test_a_long_line_block_is_copied_once(size: int, copied: list[int]) -> None:
    registry = BlockRegistry()
    registry.register("note")
    processor = StreamBlockProcessor(registry, limits=LIMITS, input_adapter=None)
    line = "a line of the note, long enough to span many chunks\n"
    body = (line * (size // len(line) + 1))[:size]
    body = body[: body.rindex("\n") + 1]
    content, _ = _feed(processor, "!!b1:note\n", body, "!!end\n")
    assert content == body
    assert len(body) * 0.9 <= copied[0] <= len(body) + 64
