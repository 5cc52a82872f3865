"""A block that a chunk boundary cuts: its syntax reads its header at once when the
header is in hand and the closing line is not (``OpenedBlock``, ``whole._opened``), and
the chunk that holds the closing line reads to it in one step. The events, feed by
feed, are the line step's: at every two- and three-piece chunking, under tight limits,
with the lean steps on and off, and across a snapshot taken in the block."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import fast_feeds as feeds
from streamblocks import DelimiterPreambleSyntax, StreamBlockProcessor
from streamblocks.core.events import BlockDelta, StreamStarted
from streamblocks.syntaxes.frontmatter import DelimiterFrontmatterSyntax
from streamblocks.syntaxes.markdown import MarkdownFrontmatterSyntax
from streamblocks.testing import normalise, run_chunks
from test_whole_readers import DOCUMENTS, PROCESSORS

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _same_at_every_cut(processor: StreamBlockProcessor, text: str, pieces: int) -> None:
    """Every way to cut ``text`` into ``pieces`` chunks (the second cut after the
    first, a step apart), against the line step alone, and all of it against the text
    read a character at a time (no closing line ever in a chunk)."""
    reference = normalise(run_chunks(processor, list(text)))
    n = len(text)
    step = max(1, n // 12)
    cuts: list[list[int]] = [[a] for a in range(1, n)]
    if pieces == 3:
        cuts = [[a, b] for a in range(1, n, step) for b in range(a + 1, n, step)]
    for points in cuts:
        bounds = [0, *points, n]
        chunks = [text[bounds[k] : bounds[k + 1]] for k in range(len(bounds) - 1)]
        line_step = feeds(processor, chunks, whole=False, lean=False)
        assert normalise(run_chunks(processor, chunks)) == reference, chunks
        for whole, lean in ((True, True), (True, False)):
            assert feeds(processor, chunks, whole=whole, lean=lean) == line_step, chunks


@SETTINGS
@given(DOCUMENTS, st.integers(0, len(PROCESSORS) - 1))
def test_a_block_cut_in_two_reads_as_line_by_line(text: str, which: int) -> None:
    _same_at_every_cut(PROCESSORS[which], text, 2)


@SETTINGS
@given(DOCUMENTS, st.integers(0, len(PROCESSORS) - 1))
def test_a_block_cut_in_three_reads_as_line_by_line(text: str, which: int) -> None:
    _same_at_every_cut(PROCESSORS[which], text, 3)


def _resumed(processor: StreamBlockProcessor, chunks: list[str], at: int) -> list[list[object]]:
    """The events of each feed with a snapshot taken and restored after ``at`` feeds."""
    session = processor.session()
    out = [session.feed(chunk) for chunk in chunks[:at]]
    resumed = processor.restore(session.snapshot())
    out += [resumed.feed(chunk) for chunk in chunks[at:]] + [resumed.close()]
    return [
        [
            (e, e.partial) if isinstance(e, BlockDelta) else e
            for e in events
            if not isinstance(e, StreamStarted)
        ]
        for events in out
    ]


@SETTINGS
@given(DOCUMENTS, st.integers(0, len(PROCESSORS) - 1), st.data())
def test_a_snapshot_in_a_cut_block_resumes_as_line_by_line(
    text: str, which: int, data: st.DataObject
) -> None:
    processor = PROCESSORS[which]
    cut = data.draw(st.integers(0, len(text)))
    then = data.draw(st.integers(cut, len(text)))
    chunks = [text[:cut], text[cut:then], text[then:]]
    expected = feeds(processor, chunks, whole=False, lean=False)
    for at in (1, 2):
        assert _resumed(processor, chunks, at) == expected


CUT = [
    ("say\n!!b1:note:x\nline one\nline t", "wo\n!!end\nafter\n", DelimiterPreambleSyntax),
    (
        "say\n!!start\n\n---\nid: t1\nblock_type: task\n---\nline one\nli",
        "ne two\n!!end\nafter\n",
        DelimiterFrontmatterSyntax,
    ),
    (
        "say\n```code\n---\nid: c1\n---\nline one\nline",
        " two\n```\nafter\n",
        MarkdownFrontmatterSyntax,
    ),
    ("say\n```code\nline one\nline", " two\n```\nafter\n", MarkdownFrontmatterSyntax),
]


@pytest.mark.parametrize(("first", "second", "syntax"), CUT)
def test_a_cut_block_opens_without_its_syntax_asked_about_lines(
    monkeypatch: pytest.MonkeyPatch,
    first: str,
    second: str,
    syntax: type,
) -> None:
    """The opener of a block cut in its content is read by its syntax's reader alone:
    ``open`` is never asked. The block starts in the first feed, with the content in
    hand, and ends in the second."""
    processor = PROCESSORS[0]
    expected = feeds(processor, [first, second], whole=False, lean=False)

    def refuse(*args: object) -> object:
        raise AssertionError("the line step read the opener")

    monkeypatch.setattr(syntax, "open", refuse)
    got = feeds(processor, [first, second], whole=True)
    assert got == expected
    kinds = [(e[0] if type(e) is tuple else e).type for e in got[0]]  # type: ignore[union-attr]
    assert kinds[:2] == ["TEXT_DELTA", "BLOCK_START"] and kinds[-1] == "BLOCK_DELTA"
    assert "BLOCK_END" in [(e[0] if type(e) is tuple else e).type for e in got[1]]  # type: ignore[union-attr]
