"""A value JSON holds never crashes a reader: integers longer than Python converts
(``sys.get_int_max_str_digits()``, 4,300 digits by default) in a gadget value, a markup
call's arguments or a native call's arguments are kept as their digits, in ``partial``,
in the block and through the AG-UI output."""

from __future__ import annotations

import json
from contextlib import nullcontext
from typing import Any

import pytest

from streamblocks import BlockRegistry, GadgetSyntax, StreamBlockProcessor
from streamblocks.core.json_values import integer, loads
from streamblocks.ext.agui import AGUIOutputAdapter

HUGE = "7" * 5000


def _fed(processor: StreamBlockProcessor, text: str, size: int) -> list[Any]:
    session = processor.session()
    events: list[Any] = []
    for i in range(0, len(text), size):
        events += session.feed(text[i : i + size])
    events += session.close()
    return events


def _read_every_partial(events: list[Any]) -> list[Any]:
    return [e.partial for e in events if e.type == "BLOCK_DELTA" and e.section == "content"]


def test_integer_and_loads_keep_the_digits() -> None:
    assert integer("12") == 12
    assert integer(HUGE) == HUGE
    assert loads('{"a": 1, "b": [2]}') == {"a": 1, "b": [2]}
    assert loads('{"n": ' + HUGE + ', "m": 3}') == {"n": HUGE, "m": 3}
    with pytest.raises(ValueError, match="Expecting"):
        loads('{"n": ' + HUGE + ",")  # what is not JSON still raises


@pytest.mark.parametrize("size", [1, 7, 64, 100_000])
def test_a_gadget_value_of_5000_digits(size: int) -> None:
    registry = BlockRegistry()
    registry.register("calc", syntax=GadgetSyntax())
    text = f"!!!GADGET_START:calc\n!!!ARG:x\n{HUGE}\n!!!ARG:y\n2\n!!!GADGET_END\nafter"
    events = _fed(StreamBlockProcessor(registry, input_adapter=None), text, size)
    partials = _read_every_partial(events)
    ends = [e.block for e in events if e.type == "BLOCK_END"]
    assert [b.content for b in ends] == [{"x": HUGE, "y": 2}]
    assert partials[-1] == {"x": HUGE, "y": 2}
    assert not [e for e in events if e.type == "BLOCK_ERROR"]


@pytest.mark.parametrize("size", [1, 5, 100_000])
def test_a_markup_call_argument_of_5000_digits_through_the_agui_output(size: int) -> None:
    arguments = '{"n": ' + HUGE + ', "s": "x"}'
    text = f'<tool_call>{{"name": "f", "arguments": {arguments}}}</tool_call>'
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=None, markup="qwen3")
    events = _fed(processor, text, size)
    _read_every_partial(events)  # reading them raises nothing
    calls = [e.block for e in events if e.type == "BLOCK_END"]
    assert [c.content for c in calls] == [{"n": HUGE, "s": "x"}]
    out = AGUIOutputAdapter()
    sent = [p for event in events for p in out.to_protocol_event(event)]
    args = "".join(e.delta for e in sent if type(e).__name__ == "ToolCallArgsEvent")
    assert json.loads(args, parse_int=str) == {"n": HUGE, "s": "x"}


@pytest.mark.parametrize(
    "line",
    [
        '{"type": "system", "n": ' + HUGE + "}",  # readable: kept, the run goes on
        '{"type": "system", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",  # too deep: skipped
    ],
)
def test_a_transcript_line_holding_a_huge_or_deep_value_does_not_stop_the_run(line: str) -> None:
    from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter

    text = {"type": "assistant", "message": {"content": [{"type": "text", "text": "Hi"}]}}
    lines = [line + "\n", json.dumps(text) + "\n"]
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=ClaudeCLIInputAdapter())
    with pytest.warns(Warning, match="nested too deeply") if "[[" in line else nullcontext():
        events = list(processor.process(lines))
    assert "".join(e.text for e in events if e.type == "TEXT_DELTA") == "Hi"
