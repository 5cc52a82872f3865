"""The invariants of DESIGN.md as property tests over generated documents."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import (
    blocks,
    conserved,
    errors,
    normalise,
    run,
    split_random,
    visible_text,
)
from streamblocks import (
    BlockRegistry,
    BlockStart,
    DelimiterFrontmatterSyntax,
    Limits,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
)

PROSE = st.lists(
    st.sampled_from([*"abc xyz!-:`~\t\r\n", "é", "東", "🙂", "e\u0301"]), max_size=30
).map("".join)
NEAR_MISSES = st.sampled_from(
    [
        "!!",
        "!!en\n",
        "!!end\n",
        "say !!b1:note\n",
        "```\n",
        "```python\n",
        "``` inline ``` text\n",
        "~~~\n",
        "---\n",
        "!!start\n",
        "!!b9:nope\n",
        "\r\n",
        "  ```\n",
        "!!b1:note:" + "p" * 20 + "\n",
        "!!end" + " " * 20 + "\n",
        "```code" + " " * 20 + "\n",
    ]
)


@st.composite
def block_text(draw: st.DrawFn) -> str:
    body = draw(PROSE).replace("!!end", "!!e")
    body = body if body.endswith("\n") or not body else body + "\n"
    kind = draw(st.sampled_from(["preamble", "frontmatter", "fence", "fence-fm", "broken"]))
    ident = draw(st.sampled_from(["b1", "x-2", "n.3"]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    if kind == "preamble":
        return f"!!{ident}:note{newline}{body}!!end{newline}"
    if kind == "frontmatter":
        return f"!!start\n---\nid: {ident}\nblock_type: task\n---\n{body}!!end\n"
    code = body.replace("`", "'")
    if kind == "fence":
        return f"```code\n{code}```\n"
    if kind == "fence-fm":
        return f"```\n---\nid: {ident}\nblock_type: code\n---\n{code}```\n"
    return draw(st.sampled_from(["!!b1:note\nno end", "!!start\n---\nid: [\n---\nx\n!!end\n"]))


DOCUMENTS = st.lists(st.one_of(PROSE, NEAR_MISSES, block_text()), max_size=8).map("".join)


def processor(limits: Limits | None = None) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    registry.register("task", syntax=DelimiterFrontmatterSyntax())
    registry.register("code", syntax=MarkdownFrontmatterSyntax())
    return StreamBlockProcessor(registry, input_adapter=None, limits=limits)


PROCESSOR = processor()
SMALL_LIMITS = processor(Limits(max_block_chars=40, max_marker_chars=16, max_metadata_chars=24))
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(DOCUMENTS, st.integers(0, 10_000))
def test_chunking_invariance(text: str, seed: int) -> None:
    whole = normalise(run(PROCESSOR, [text]))
    assert normalise(run(PROCESSOR, list(text))) == whole
    assert normalise(run(PROCESSOR, split_random(text, seed))) == whole


@SETTINGS
@given(DOCUMENTS, st.integers(0, 10_000))
def test_conservation(text: str, seed: int) -> None:
    assert conserved(run(PROCESSOR, split_random(text, seed))) == text


@SETTINGS
@given(DOCUMENTS, st.integers(0, 10_000))
def test_invariants_hold_under_tight_limits(text: str, seed: int) -> None:
    whole = run(SMALL_LIMITS, [text])
    assert conserved(whole) == text
    assert normalise(run(SMALL_LIMITS, split_random(text, seed))) == normalise(whole)
    assert normalise(run(SMALL_LIMITS, list(text))) == normalise(whole)


@SETTINGS
@given(DOCUMENTS)
def test_block_raw_matches_offsets_and_each_start_is_closed_once(text: str) -> None:
    events = run(PROCESSOR, [text])
    for block in blocks(events):
        assert text[block.start : block.end] == block.raw
    started = [e.block_id for e in events if isinstance(e, BlockStart)]
    closed = [b.id for b in blocks(events)] + [e.block_id for e in errors(events)]
    for block_id in started:
        assert block_id in closed


@SETTINGS
@given(DOCUMENTS)
def test_text_emitted_early_is_never_retracted(text: str) -> None:
    """Text released while the stream is still open is final: it is always a prefix
    of the visible text of the whole run."""
    final = visible_text(run(PROCESSOR, [text]))
    session = PROCESSOR.session()
    emitted = ""
    for char in text:
        emitted += visible_text(session.feed(char))
        assert final.startswith(emitted)
    session.close()


def test_start_is_emitted_by_the_feed_that_completes_the_opener() -> None:
    for opener, follow in [
        ("!!b1:note\n", "x"),
        ("!!start\n---\nid: t\nblock_type: task\n---\n", "x"),
        ("```code\n", "x"),
    ]:
        session = PROCESSOR.session()
        for char in opener[:-1]:
            assert not [e for e in session.feed(char) if isinstance(e, BlockStart)]
        if opener.startswith("```"):
            # a fence is a block once the next line shows there is no frontmatter
            assert not [e for e in session.feed(opener[-1]) if isinstance(e, BlockStart)]
            assert [e for e in session.feed(follow) if isinstance(e, BlockStart)]
        else:
            assert [e for e in session.feed(opener[-1]) if isinstance(e, BlockStart)]


def test_text_that_cannot_be_a_marker_is_released_at_once() -> None:
    session = PROCESSOR.session()
    assert visible_text(session.feed("Hello")) == "Hello"
    assert visible_text(session.feed(" world\n")) == " world\n"
    assert visible_text(session.feed("!")) == ""
    assert visible_text(session.feed("!b")) == ""  # `!!b` could still open a block...
    assert visible_text(session.feed("1 x")) == "!!b1 x"  # ...until the space rules it out
    assert visible_text(session.feed("\n!!b2:zz")) == "\n!!b2:zz"  # no type starts with zz


@pytest.mark.parametrize(
    "unit",
    ["word ", "!!b1:note\n" + "x" * 50 + "\n", "```code\n" + "y" * 30 + "\n", "!" * 7],
)
def test_work_is_linear_no_rescans(unit: str) -> None:
    """Invariant 3, counted rather than timed (the full matrix is in test_linear.py):
    the characters the scanner looks at grow linearly with the input, whatever the
    chunk size."""
    for size in (1, 3, 1024):
        counts = []
        for repeat in (500, 2_000):
            session = PROCESSOR.session()
            text = unit * repeat
            for i in range(0, len(text), size):
                session.feed(text[i : i + size])
            session.close()
            counts.append(session.examined)
        small, large = counts
        assert large <= 4.2 * small, (size, small, large)
        assert large <= 8 * len(unit) * 2_000, (size, large)


def test_bounded_memory_rejects_oversized_block_and_keeps_text() -> None:
    limited = processor(Limits(max_block_chars=1_000))
    text = "!!b1:note\n" + "y" * 5_000 + "\n!!end\nafter\n"
    events = run(limited, list(text))
    (error,) = errors(events)
    assert error.code.value == "TOO_LARGE"
    assert len(error.raw) == 1_000
    assert conserved(events) == text
    assert visible_text(events).endswith("!!end\nafter\n")
