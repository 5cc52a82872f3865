"""Reading-order and chunking cases found by the adversarial pass (issue 39)."""

from __future__ import annotations

import json

import pytest

from helpers import chunkings
from streamblocks import (
    BlockRegistry,
    DelimiterPreambleSyntax,
    GadgetSyntax,
    StreamBlockProcessor,
    collect,
)
from streamblocks.core.events import BlockDelta, BlockError
from streamblocks.markup import Markup
from streamblocks.testing import conserved, normalise, run_chunks

CALL = '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>'


@pytest.mark.parametrize("tail", ["", "\n", " \n "])
def test_a_reply_ending_right_after_a_call_in_thinking_has_no_thinking_after_it(
    tail: str,
) -> None:
    text = "<think>I will call f.\n" + CALL + tail
    processor = StreamBlockProcessor(
        BlockRegistry(), markup=Markup("qwen3", calls_in_thinking=True)
    )
    whole = run_chunks(processor, [text])
    for chunks in chunkings(text):
        assert normalise(run_chunks(processor, chunks)) == normalise(whole), chunks
    assert conserved(whole) == text
    assert not [e for e in whole if isinstance(e, BlockError)]
    step = collect(whole)
    assert [(c.name, c.arguments) for c in step.tool_calls] == [("f", {"a": 1})]
    assert step.thinking == "I will call f."
    starts = [e.block_type for e in whole if type(e).__name__ == "BlockStart"]
    assert starts == ["thinking", "tool_call"]


def test_text_after_a_call_in_thinking_at_the_end_is_still_thinking() -> None:
    text = "<think>a" + CALL + "b"
    markup = Markup("qwen3", calls_in_thinking=True)
    events = run_chunks(StreamBlockProcessor(BlockRegistry(), markup=markup), [text])
    assert not [e for e in events if isinstance(e, BlockError)]
    assert collect(events).thinking == "ab"


def test_a_line_marker_that_starts_like_a_markup_opener_is_read_at_every_chunking() -> None:
    # ``<`` may begin ``<tool_call>``: the reader holds it after ``</think>\n``; when it
    # turns out to be no markup, the line it begins is still a line start.
    registry = BlockRegistry()
    registry.register(
        "Plan",
        syntax=GadgetSyntax(start_prefix="<<<START:", end_prefix="<<<END", arg_prefix="<<<ARG:"),
    )
    text = "<think>x</think>\n<<<START:Plan\n<<<ARG:a\n1\n<<<END\n"
    processor = StreamBlockProcessor(registry, markup=Markup("qwen3"))
    whole = run_chunks(processor, [text])
    for chunks in chunkings(text):
        assert normalise(run_chunks(processor, chunks)) == normalise(whole), chunks
    assert [c.arguments for c in collect(whole).tool_calls] == [{"a": 1}]


def test_delimiters_that_start_like_a_mistral_marker_are_read_at_every_chunking() -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=DelimiterPreambleSyntax(delimiter="[[", end_marker="[[end"))
    text = "[THINK]x[/THINK]\n[[n1:note\nbody\n[[end\n"
    processor = StreamBlockProcessor(registry, markup=Markup("mistral"))
    whole = run_chunks(processor, [text])
    for chunks in chunkings(text):
        assert normalise(run_chunks(processor, chunks)) == normalise(whole), chunks
    assert [e.block_type for e in whole if type(e).__name__ == "BlockEnd"] == ["thinking", "note"]


# Hermes calls whose "arguments" is a JSON string (double-encoded): the argument deltas
# decode it as it arrives, and a cut anywhere (inside \", \\ or \u00e9 included) gives the
# same deltas, merged, and the same call. (Reported as differing by chunking; not
# reproduced on these shapes: this holds it.)
ENCODED_ARGUMENTS = [
    {"a": 'x\\y"z é', "b": [1, {"c": "é\U0001f600"}]},
    {"path": "C:\\dir\\file", "q": 'say "hi"\n', "n": -1.5e3},
    {"s": "\\u00e9 literally", "t": "tab\there", "u": "a/b"},
    {},
]


def _encoded_calls() -> list[str]:
    texts = []
    for arguments in ENCODED_ARGUMENTS:
        for ascii_only in (True, False):
            inner = json.dumps(arguments, ensure_ascii=ascii_only)
            encoded = json.dumps(inner, ensure_ascii=ascii_only)
            texts.append('<tool_call>{"name": "f", "arguments": ' + encoded + "}</tool_call>")
    texts.append(
        '<tool_call>{"arguments": "{\\"a\\": \\"\\\\u00e9\\\\\\"\\"}", "name": "f"}</tool_call>'
    )
    return texts


@pytest.mark.parametrize("text", _encoded_calls())
def test_hermes_arguments_as_a_json_string_stream_alike_at_every_cut(text: str) -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup="hermes")
    events = run_chunks(processor, [text])
    whole = normalise(events)
    (call,) = collect(events).tool_calls
    streamed = "".join(e.text for e in events if isinstance(e, BlockDelta))
    assert json.loads(streamed) == call.arguments
    size = len(text)
    cuts = [[cut] for cut in range(1, size)] + [[cut, cut + 1] for cut in range(1, size - 1)]
    for points in cuts:
        chunks = [text[a:b] for a, b in zip([0, *points], [*points, size], strict=True)]
        assert normalise(run_chunks(processor, chunks)) == whole, points
