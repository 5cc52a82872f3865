"""A block whose closing line is in the chunk is read at once (``core/whole.py``), and
the lean steps take the bulk of the rest: the same events, split into the same feeds,
as the line step reading it all line by line, at every chunking, under tight limits,
and across a snapshot."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import split_random
from streamblocks import StreamBlockProcessor
from streamblocks.core.events import BlockDelta, StreamStarted
from test_properties import DOCUMENTS, PROCESSOR, SMALL_LIMITS
from test_xml_properties import PROCESSORS, texts

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def feeds(
    processor: StreamBlockProcessor, chunks: list[str], *, whole: bool, lean: bool = True
) -> list[list[object]]:
    """The events of each ``feed`` and of ``close``, each delta with its ``partial``."""
    session = processor.session()
    session._scan.whole = whole
    session._scan.lean = lean
    out = [session.feed(chunk) for chunk in chunks] + [session.close()]
    return [
        [
            (e, e.partial) if isinstance(e, BlockDelta) else e
            for e in events
            if not isinstance(e, StreamStarted)
        ]
        for events in out
    ]


def same_feeds(processor: StreamBlockProcessor, text: str, seed: int) -> None:
    """Whole blocks and the lean steps, each on or off, against the line step alone."""
    chunkings = [[text], split_random(text, seed, 6), split_random(text, seed, 40), list(text)]
    for chunks in chunkings:
        line_step = feeds(processor, chunks, whole=False, lean=False)
        for whole, lean in ((True, True), (True, False), (False, True)):
            assert feeds(processor, chunks, whole=whole, lean=lean) == line_step


@SETTINGS
@given(DOCUMENTS, st.integers(0, 10_000))
def test_line_blocks_read_whole_as_line_by_line(text: str, seed: int) -> None:
    same_feeds(PROCESSOR, text, seed)


@SETTINGS
@given(DOCUMENTS, st.integers(0, 10_000))
def test_the_same_under_tight_limits(text: str, seed: int) -> None:
    same_feeds(SMALL_LIMITS, text, seed)


@SETTINGS
@given(texts, st.integers(0, 10_000), st.integers(0, len(PROCESSORS) - 1))
def test_the_same_among_inline_blocks(text: str, seed: int, which: int) -> None:
    same_feeds(PROCESSORS[which], text, seed)


def test_a_whole_block_is_one_delta_and_closes_in_its_feed() -> None:
    text = "say\n!!b1:note\nline one\n!!not the end\nline two\n!!end  \nafter\n"
    session = PROCESSOR.session()
    events = session.feed(text)[1:]
    kinds = [e.type for e in events]
    assert kinds == [
        "TEXT_DELTA",
        "BLOCK_START",
        "BLOCK_METADATA",
        "BLOCK_DELTA",
        "BLOCK_END",
        "TEXT_DELTA",
    ]
    end = events[4].block  # type: ignore[attr-defined]
    assert end.raw == "!!b1:note\nline one\n!!not the end\nline two\n!!end  \n"
    assert (end.start, end.end) == (4, 4 + len(end.raw))
    assert end.content == "line one\n!!not the end\nline two\n"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENTS, st.integers(0, 10_000))
def test_a_snapshot_between_feeds_resumes_the_same(text: str, seed: int) -> None:
    chunks = split_random(text, seed, 6)
    expected = feeds(PROCESSOR, chunks, whole=False)
    half = len(chunks) // 2
    session = PROCESSOR.session()
    out = [session.feed(chunk) for chunk in chunks[:half]]
    resumed = PROCESSOR.restore(session.snapshot())
    out += [resumed.feed(chunk) for chunk in chunks[half:]] + [resumed.close()]
    got = [
        [
            (e, e.partial) if isinstance(e, BlockDelta) else e
            for e in events
            if not isinstance(e, StreamStarted)
        ]
        for events in out
    ]
    assert got == expected
