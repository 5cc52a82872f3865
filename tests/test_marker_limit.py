"""A marker line longer than ``max_marker_chars`` is decided the same way whether it
arrives whole in one chunk or a character at a time (chunking invariance)."""

from __future__ import annotations

from helpers import assert_invariant, blocks, errors, visible_text
from streamblocks import (
    BlockRegistry,
    ErrorCode,
    Limits,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    collect,
)
from streamblocks.core.events import BlockError
from streamblocks.testing import normalise, run_chunks


def _processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    return StreamBlockProcessor(registry, input_adapter=None, limits=Limits(max_marker_chars=16))


def test_overlong_opener_in_one_chunk_is_marker_too_large() -> None:
    text = "!!n1:note:" + "x" * 30 + "\nbody\n!!end\nafter\n"
    events = assert_invariant(_processor(), text)
    (error,) = errors(events)
    assert error.code is ErrorCode.MARKER_TOO_LARGE
    assert error.raw == text[:16]
    assert visible_text(events) == text[16:]
    assert not blocks(events)


def test_overlong_closer_in_one_chunk_is_content() -> None:
    closer = "!!end" + " " * 30 + "\n"
    text = "!!n1:note\n" + closer + "!!end\n"
    events = assert_invariant(_processor(), text)
    (block,) = blocks(events)
    assert block.content == closer


def test_overlong_opener_at_end_of_stream() -> None:
    text = "!!n1:note:" + "x" * 30
    events = assert_invariant(_processor(), text)
    assert [e.code for e in errors(events)] == [ErrorCode.MARKER_TOO_LARGE]


def test_long_first_line_of_a_fence_is_asked_once() -> None:
    registry = BlockRegistry()
    registry.register("code", syntax=MarkdownFrontmatterSyntax())
    proc = StreamBlockProcessor(
        registry,
        input_adapter=None,
        limits=Limits(max_block_chars=40, max_marker_chars=16, max_metadata_chars=24),
    )
    events = assert_invariant(proc, "```code\n" + "a" * 17 + "\n```\n")
    (block,) = blocks(events)
    assert block.content == "a" * 17 + "\n"


def _call_after_thinking(name_length: int) -> str:
    name = "n" * name_length
    return '<think>x</think>\n<tool_call>{"name": "' + name + '", "arguments": {}}</tool_call>'


def test_a_call_head_after_a_closer_is_limited_from_its_own_start_at_every_cut() -> None:
    # The head of a call (``<tool_call>`` up to its name) is an opening marker: its limit
    # counts from its own start, whether the thinking before it closed in the same
    # chunk or an earlier one.
    processor = StreamBlockProcessor(
        BlockRegistry(), markup="qwen3", limits=Limits(max_marker_chars=64)
    )
    for name_length, fits in ((30, True), (40, True), (53, False), (60, False)):
        text = _call_after_thinking(name_length)
        events = run_chunks(processor, [text])
        whole = normalise(events)
        for cut in range(1, len(text)):
            chunks = [text[:cut], text[cut:]]
            assert normalise(run_chunks(processor, chunks)) == whole, (name_length, cut)
        codes = [e.code for e in events if isinstance(e, BlockError)]
        assert codes == ([] if fits else [ErrorCode.MARKER_TOO_LARGE]), name_length
        assert [c.name for c in collect(events).tool_calls] == (["n" * name_length] if fits else [])
