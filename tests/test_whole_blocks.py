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
    if not whole:  # (nor a code span read at once: its reader reads it)
        session._scan.shown_spans = {}
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


SHOWN_LINES = st.sampled_from(
    [
        "def step(x):\n",
        "    return x + 1\n",
        "  ``\n",
        "   ```\n",
        "    ```\n",
        "```` \n",
        "~~~\n",
        "``` not a closer\n",
        "```\r\n",
        "!!b1:note\n",
        "---\n",
        "\n",
        " " * 30 + "```\n",
        "```" + " " * 30 + "\n",
    ]
)


@st.composite
def shown_fences(draw: st.DrawFn) -> str:
    """Code fences the model shows (their info string names no block type), with lines
    that are nearly closing fences, among prose and blocks."""
    fence = draw(st.sampled_from(["```", "````", "~~~"]))
    info = draw(st.sampled_from(["python", "", " js x", "text"]))
    body = "".join(draw(st.lists(SHOWN_LINES, max_size=6)))
    closer = draw(st.sampled_from([fence, fence + "`", fence + "  ", "", "  " + fence]))
    return f"{fence}{info}\n{body}" + (f"{closer}\n" if closer else "")


SHOWN_DOCUMENTS = st.lists(st.one_of(DOCUMENTS, shown_fences()), max_size=5).map("".join)


@SETTINGS
@given(SHOWN_DOCUMENTS, st.integers(0, 10_000))
def test_a_shown_fence_read_whole_as_line_by_line(text: str, seed: int) -> None:
    same_feeds(PROCESSOR, text, seed)
    same_feeds(SMALL_LIMITS, text, seed)


def test_a_shown_fence_in_hand_is_read_without_its_lines(monkeypatch: object) -> None:
    """The lines of a shown fence whose closing line is in the chunk are not asked about
    one by one: the fence is visible text up to its closing line."""
    from streamblocks.syntaxes.fences import ShownFence

    asked: list[str] = []
    original = ShownFence.on_line

    def on_line(self: ShownFence, line: str, complete: bool) -> object:
        asked.append(line)
        return original(self, line, complete)

    monkeypatch.setattr(ShownFence, "on_line", on_line)  # type: ignore[attr-defined]
    text = "see\n```python\ndef step(x):\n    return x + 1\n  ```\n```\nafter\n"
    events = PROCESSOR.session().feed(text)
    assert [e.text for e in events if e.type == "TEXT_DELTA"] == [text]
    assert asked == []
