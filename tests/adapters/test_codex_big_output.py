"""A Codex command's output is the provider's structure, not text the model wrote: an
output of any size is kept whole in the ``command`` block (issue 39, item 1), streamed as
deltas only up to ``STREAMED_AT_MOST`` characters."""

from __future__ import annotations

import json
from typing import Any

from streamblocks import BlockRegistry, EventType, StreamBlockProcessor
from streamblocks.content import CommandBlock, MessageAccumulator
from streamblocks.ext.codex_cli import CodexCLIInputAdapter
from streamblocks.ext.codex_cli.adapter import STREAMED_AT_MOST

LOG = "".join(f"line {i} of the build log {'.' * 40}\n" for i in range(30_000))  # ~2 MB


def command(kind: str, output: str, **extra: Any) -> dict[str, Any]:
    item = {"id": "item_1", "type": "command_execution", "command": "make"}
    return {"type": kind, "item": {**item, "aggregated_output": output, **extra}}


def run(lines: list[dict[str, Any]], as_text: bool) -> list[Any]:
    lines = [
        {"type": "thread.started", "thread_id": "t1"},
        {"type": "turn.started"},
        *lines,
        {"type": "turn.completed", "usage": {"input_tokens": 1, "output_tokens": 1}},
    ]
    source: Any = ["".join(json.dumps(line) + "\n" for line in lines)] if as_text else lines
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=CodexCLIInputAdapter())
    return list(processor.process(source))


def only_command(events: list[Any]) -> CommandBlock:
    assert [e for e in events if e.type is EventType.BLOCK_ERROR] == []
    acc = MessageAccumulator()
    acc.add_all(events)
    (block,) = [b for b in acc.message.content if isinstance(b, CommandBlock)]
    return block


def test_a_2mb_output_reported_at_the_end_is_kept_whole() -> None:
    assert len(LOG) > 2 * 1_048_576 * 0.9
    for as_text in (False, True):
        events = run(
            [
                command("item.started", "", status="in_progress"),
                command("item.completed", LOG, exit_code=0, status="completed"),
            ],
            as_text,
        )
        block = only_command(events)
        assert (block.output, block.exit_code, block.status) == (LOG, 0, "completed")
        assert events[-1].counts.errors == 0


def test_an_output_growing_past_the_stream_bound_ends_whole() -> None:
    first, second = LOG[:1000], LOG[: STREAMED_AT_MOST + 5000]
    events = run(
        [
            command("item.started", "", status="in_progress"),
            command("item.updated", first, status="in_progress"),
            command("item.updated", second, status="in_progress"),
            command("item.completed", LOG, exit_code=2, status="failed"),
        ],
        as_text=False,
    )
    deltas = [e.text for e in events if e.type is EventType.BLOCK_DELTA]
    assert deltas == [first]  # what streamed stayed under the bound
    block = only_command(events)
    assert (block.output, block.exit_code, block.status) == (LOG, 2, "failed")


def test_a_small_output_still_streams_as_it_grows() -> None:
    events = run(
        [
            command("item.started", "", status="in_progress"),
            command("item.updated", "..F\n", status="in_progress"),
            command("item.completed", "..F\n1 failed\n", exit_code=1, status="failed"),
        ],
        as_text=False,
    )
    assert [e.text for e in events if e.type is EventType.BLOCK_DELTA] == ["..F\n", "1 failed\n"]
    assert only_command(events).output == "..F\n1 failed\n"
