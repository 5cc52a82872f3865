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
)


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
