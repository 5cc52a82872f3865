"""XML with token-sized chunks: tags held over many chunks, closing tags split anywhere,
line starts that may or may not be markers give exactly the blocks, errors and visible
text of the whole text fed at once."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import normalise, run
from streamblocks import (
    BlockRegistry,
    DelimiterPreambleSyntax,
    Limits,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    XMLTagSyntax,
)
from test_xml_properties import FRAGMENTS, PROCESSORS, cut, make

# Tags whose headers run over many chunks (long attribute values, either quote inside
# the other), closing tags split anywhere, and line starts that may or may not be markers.
MORE = [
    '<citation url="https://example.org/a/b?c=d&amp;e=f" n=\'it"s\'>',
    '<citation url=\'https://example.org/"x"',
    '<citation a="1"b="2">',
    '<citation a="1"/>',
    "<citation\tn='1' >",
    "<done  />",
    "</citation\t>",
    "</cit",
    "ation>",
    " url=",
    '"v',
    "long plain text without markers ",
    "\n ",
    "\n  ```\n",
    "\n!",
    "\n<",
    "\n`x`",
]

texts = st.lists(st.sampled_from(FRAGMENTS + MORE), max_size=40).map("".join)


def _unknown(policy: str) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("citation", syntax=XMLTagSyntax())
    registry.register("note", syntax=[DelimiterPreambleSyntax(), MarkdownFrontmatterSyntax()])
    return StreamBlockProcessor(registry, input_adapter=None, unknown=policy)


CASES = [
    *PROCESSORS,
    _unknown("error"),
    _unknown("block"),
    make(XMLTagSyntax(), Limits(max_marker_chars=24)),
]


def check(processor: StreamBlockProcessor, chunks: list[str]) -> None:
    whole = run(processor, ["".join(chunks)])
    assert normalise(run(processor, chunks)) == normalise(whole)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=texts,
    cuts=st.lists(st.integers(min_value=0), max_size=16),
    which=st.integers(0, len(CASES) - 1),
)
def test_token_sized_chunks_give_the_events_of_the_whole_text(
    text: str, cuts: list[int], which: int
) -> None:
    processor = CASES[which]
    check(processor, cut(text, cuts))
    for size in (1, 3, 4):
        check(processor, [text[i : i + size] for i in range(0, len(text), size)])


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7, 11])
@pytest.mark.parametrize("processor", CASES[:3] + CASES[-3:])
def test_tags_held_over_many_chunks(size: int, processor: Any) -> None:
    text = (
        "a <citation url=\"https://example.org/0123456789/abcdefghij\" id='c1'>body</citation>"
        ' b <citation n="still open when the stream ends\n'
        ' c <citation n="x">d &lt; e</citation>\n!!b1:note\nx\n!!end\n <done/>'
        "<citation>a\nb</citation>!!b2:note\n"  # mid-line after the block: not a marker
    )
    check(processor, [text[i : i + size] for i in range(0, len(text), size)])


def test_a_closing_tag_split_after_a_false_one_with_spaces() -> None:
    """``</citation x`` (spaces, then not ``>``) is content; a real closing tag split
    after its ``<`` then ends the block at its ``>``, with no space counted from before."""
    text = "<citation>a </citation  b <x>y</citation>\nz"
    at = text.index("</citation>") + 1
    check(CASES[0], [text[:at], text[at:]])
    events = run(CASES[0], [text[:at], text[at:]])
    ends = [e.block for e in events if e.type == "BLOCK_END"]
    assert [block.raw for block in ends] == ["<citation>a </citation  b <x>y</citation>"]
