"""Property tests: chunking invariance and conservation with XML tags mixed with the
three line syntaxes and HTML-like noise."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import conserved, normalise, run
from streamblocks import (
    BlockRegistry,
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    Limits,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    XMLTagSyntax,
)

FRAGMENTS = [
    "<citation>",
    '<citation url="u">',
    "<citation url='a&amp;b' n=\"1\">",
    "</citation>",
    "</citation >",
    "<note>",
    "</note>",
    "<done/>",
    "<done />",
    "<think>",
    "</think>",
    "<div>",
    "</div>",
    "<foo bar='x'>",
    "a < b",
    "<3",
    "<think about it",
    "if a <b then",
    "<",
    ">",
    "/",
    "=",
    '"',
    "'",
    "`",
    "``",
    "```\n",
    "```note\n",
    "```python\n",
    "---\n",
    "!!b1:note\n",
    "!!end\n",
    "!!start\n",
    "id: f1\nblock_type: note\n",
    "!",
    "text",
    " ",
    "\n",
    "\r\n",
    "é",
]

texts = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)


def cut(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    chunks, last = [], 0
    for point in [*points, len(text)]:
        chunks.append(text[last:point])
        last = point
    return chunks


def make(
    xml: XMLTagSyntax, limits: Limits | None = None, lines: bool = True
) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("citation", syntax=xml)
    registry.register("think", syntax=xml)
    registry.register("done", syntax=xml)
    line_syntaxes = [DelimiterPreambleSyntax(), DelimiterFrontmatterSyntax()]
    if lines:
        line_syntaxes.append(MarkdownFrontmatterSyntax())
    registry.register("note", syntax=[xml, *line_syntaxes])
    return StreamBlockProcessor(registry, input_adapter=None, limits=limits)


# A tiny max_marker_chars is used without the markdown syntax: a complete fence line
# longer than the limit is read differently whole and in pieces by the line layer
# (reported to the core; not an XML matter).
PROCESSORS = [
    make(XMLTagSyntax()),
    make(XMLTagSyntax(code_aware=False)),
    make(XMLTagSyntax(prefilled="think")),
    make(XMLTagSyntax(), Limits(max_block_chars=40)),
    make(XMLTagSyntax(), Limits(max_block_chars=40, max_marker_chars=16), lines=False),
]


def check(processor: StreamBlockProcessor, text: str, chunks: list[str]) -> None:
    whole = normalise(run(processor, [text]))
    assert conserved(whole) == text
    assert normalise(run(processor, chunks)) == whole
    assert normalise(run(processor, list(text))) == whole


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=texts,
    cuts=st.lists(st.integers(min_value=0), max_size=12),
    which=st.integers(0, len(PROCESSORS) - 1),
)
def test_chunking_invariance_and_conservation(text: str, cuts: list[int], which: int) -> None:
    check(PROCESSORS[which], text, cut(text, cuts))


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet="<>/=\"' `\nabcdeinot!-", max_size=80), cuts=st.lists(st.integers(0)))
def test_random_characters(text: str, cuts: list[int]) -> None:
    check(PROCESSORS[0], text, cut(text, cuts))


def test_block_offsets_match_the_text() -> None:
    text = "x <citation>a</citation>\n!!b1:note\nb\n!!end\n<done/> `<note>` <note>c</note>"
    events: list[Any] = run(PROCESSORS[0], [text])
    for event in events:
        block = getattr(event, "block", None)
        if block is not None:
            assert text[block.start : block.end] == block.raw
