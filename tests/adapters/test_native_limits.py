"""Provider-native blocks (thinking, tool-call arguments) obey ``Limits.max_block_chars``
like text blocks: the block is rejected with ``TOO_LARGE``, its text is kept, and what a
session holds stays bounded."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from typing import Any

from streamblocks import BlockRegistry, Limits, StreamBlockProcessor
from streamblocks.core.errors import ErrorCode
from streamblocks.core.events import EventType

from . import fixtures, test_anthropic
from .sse import REPLY_PIECES, sse

ev, delta = test_anthropic.ev, test_anthropic.delta
MESSAGE = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-test",
    "content": [],
    "stop_reason": None,
    "stop_sequence": None,
    "usage": {"input_tokens": 3, "output_tokens": 1},
}
PIECE = "Let me think about this step by step. "  # 38 characters


def thinking_then_reply(pieces: int) -> list[tuple[str, dict[str, Any]]]:
    return [
        ev("message_start", message=MESSAGE),
        ev("content_block_start", index=0, content_block={"type": "thinking", "thinking": ""}),
        *(delta(0, "thinking_delta", thinking=PIECE) for _ in range(pieces)),
        delta(0, "signature_delta", signature="c2ln"),
        ev("content_block_stop", index=0),
        ev("content_block_start", index=1, content_block={"type": "text", "text": ""}),
        *(delta(1, "text_delta", text=piece) for piece in REPLY_PIECES),
        ev("content_block_stop", index=1),
        ev(
            "content_block_start",
            index=2,
            content_block={"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
        ),
        delta(2, "input_json_delta", partial_json='{"a": 1}'),
        ev("content_block_stop", index=2),
        ev("message_delta", delta={"stop_reason": "tool_use"}, usage={"output_tokens": 9}),
        ev("message_stop"),
    ]


def test_thinking_over_the_limit_is_too_large_and_its_text_is_kept() -> None:
    events = fixtures.anthropic_messages(sse(thinking_then_reply(264)))  # 10,032 characters
    registry = BlockRegistry()
    registry.register("note")
    processor = StreamBlockProcessor(registry, limits=Limits(max_block_chars=1_000))
    out = list(processor.process(events))

    errors = [e for e in out if e.type is EventType.BLOCK_ERROR]
    assert [(e.block_type, e.code) for e in errors] == [("thinking", ErrorCode.TOO_LARGE)]
    error = errors[0]
    assert "max_block_chars=1000" in error.message
    assert 1_000 < len(error.raw) <= 1_000 + len(PIECE)
    streamed = "".join(
        e.text for e in out if e.type is EventType.BLOCK_DELTA and e.block_id == error.block_id
    )
    assert error.raw.startswith(streamed) and len(streamed) <= 1_000
    # The rest of the thinking is not lost: its provider events pass through untouched.
    passed = [e.event for e in out if e.type is EventType.PASSTHROUGH]
    rest = "".join(p.delta.thinking for p in passed if p.delta.type == "thinking_delta")
    assert error.raw + rest == PIECE * 264
    # Never visible text; the reply, its block and the tool call after it are whole.
    text = "".join(e.text for e in out if e.type is EventType.TEXT_DELTA)
    assert "step by step" not in text
    ends = [e.block for e in out if e.type is EventType.BLOCK_END]
    assert [(b.type, b.content) for b in ends] == [
        ("note", "noté ✓ e\u0301\n"),
        ("tool_call", {"a": 1}),
    ]
    assert out[-1].counts.errors == 1


def test_tool_arguments_over_the_limit() -> None:
    pieces = ['{"text": "' + "x" * 700, "y" * 700, '"}']
    body = sse(
        [
            ev("message_start", message=MESSAGE),
            ev(
                "content_block_start",
                index=0,
                content_block={"type": "tool_use", "id": "toolu_9", "name": "f", "input": {}},
            ),
            *(delta(0, "input_json_delta", partial_json=piece) for piece in pieces),
            ev("content_block_stop", index=0),
            ev("message_stop"),
        ]
    )
    out = list(
        StreamBlockProcessor(BlockRegistry(), limits=Limits(max_block_chars=1_000)).process(
            fixtures.anthropic_messages(body)
        )
    )
    (error,) = [e for e in out if e.type is EventType.BLOCK_ERROR]
    assert (error.block_id, error.code, error.raw) == (
        "toolu_9",
        ErrorCode.TOO_LARGE,
        pieces[0] + pieces[1],
    )
    passed = [e.event.delta.partial_json for e in out if e.type is EventType.PASSTHROUGH]
    assert passed == [pieces[2]]
    assert not [e for e in out if e.type is EventType.BLOCK_END]


def wire_thinking(total: int, size: int) -> Iterator[dict[str, Any]]:
    """A stream of ``total`` characters of thinking, made as it is read."""
    yield {"type": "message_start", "message": MESSAGE}
    yield {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "thinking", "thinking": ""},
    }
    for _ in range(total // size):
        piece = "t" * size
        yield {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": piece},
        }
    yield {"type": "content_block_stop", "index": 0}
    yield {"type": "message_stop"}


def peak_while_reading(total: int, size: int, limits: Limits) -> tuple[int, list[Any]]:
    processor = StreamBlockProcessor(BlockRegistry(), limits=limits)
    errors: list[Any] = []
    tracemalloc.start()
    try:
        for event in processor.process(wire_thinking(total, size)):
            if event.type is EventType.BLOCK_ERROR:
                errors.append((event.code, len(event.raw)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, errors


def test_four_megabytes_of_thinking_are_read_in_bounded_memory() -> None:
    total = 4 * 1024 * 1024
    peak, errors = peak_while_reading(total, 400, Limits())
    limit = Limits().max_block_chars
    assert errors == [(ErrorCode.TOO_LARGE, (limit // 400 + 1) * 400)]
    # The session holds at most max_block_chars (1 MiB) of it, joined once for the error.
    print(f"peak {peak / 2**20:.2f} MiB")
    assert peak < 3 * 1024 * 1024, peak
    small, _ = peak_while_reading(total, 400, Limits(max_block_chars=65_536))
    print(f"peak {small / 2**20:.2f} MiB")
    assert small < 512 * 1024, small
