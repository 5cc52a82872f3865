"""The lean visible steps at 4-character chunks (``Session.feed``, ``core/lean.py``): a
chunk is tested for the one or two characters inline openers begin with before it is
searched, and a line start that a marker may begin is held without the full step (after
a newline in the chunk, or at the chunk's start). They decide what the full step
decides (``test_differential`` compares them with the reference on ``TEXTS``), and they
do take those chunks."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import streamblocks
from streamblocks import (
    BlockRegistry,
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    GadgetSyntax,
    Limits,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    XMLTagSyntax,
)
from streamblocks.core.scan_plan import opener_stops
from streamblocks.core.session import Session
from streamblocks.testing.differential import FAST_PATHS
from test_markup_lean import WITHOUT_LEAN, feeds
from test_properties import PROCESSOR, SMALL_LIMITS

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def all_five(limits: Limits | None = None) -> StreamBlockProcessor:
    """Every line syntax and two inline ones: openers beginning with ``<``, a backtick
    (the code-aware XML syntax) and ``[`` (gadgets)."""
    registry = BlockRegistry()
    registry.register("note", syntax=DelimiterPreambleSyntax())
    registry.register("task", syntax=DelimiterFrontmatterSyntax())
    registry.register("code", syntax=MarkdownFrontmatterSyntax())
    registry.register("cite", syntax=XMLTagSyntax())
    return StreamBlockProcessor(registry, input_adapter=None, limits=limits)


def with_gadgets() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note", syntax=DelimiterPreambleSyntax())
    registry.register("cite", syntax=XMLTagSyntax())
    registry.register("Search", syntax=GadgetSyntax())
    return StreamBlockProcessor(registry, input_adapter=None)


PROCESSORS = [
    PROCESSOR,
    SMALL_LIMITS,
    all_five(),
    all_five(Limits(max_block_chars=40, max_marker_chars=16, max_metadata_chars=24)),
    with_gadgets(),
]

# Lines a marker may begin, complete or not, between prose: held at a line start while
# they may still be markers, then opened or released as text.
LINE_STARTS = st.sampled_from(
    [
        "!!n1:note\nbody\n!!end\n",
        "!!n1:no",
        "!!x",
        "!!start\n---\nid: t1\nblock_type: task\n---\nbody\n!!end\n",
        "```code\nx = 1\n```\n",
        "```python\nshown <cite>x</cite>\n```\n",
        "<cite>a `b` c</cite>",
        "`code` and <ci",
        '[Search(query="x")]',
        "---\n",
        "!",
        "\n",
        "\r\n",
    ]
)
PROSE = st.sampled_from(["the text ", "a\nb", "say <", "x`y", "é 東 🙂 ", "tail\n"])
TEXTS = st.lists(st.one_of(LINE_STARTS, PROSE), max_size=14).map("".join)


def test_the_characters_openers_begin_with() -> None:
    def search(text: str, pos: int = 0) -> None:
        return None

    assert opener_stops((), search)[:2] == ("", "")
    assert opener_stops(("<", "`"), search)[:2] == ("<", "`")
    assert opener_stops(("<think>", "<tool_call>"), search)[:2] == ("<", "")
    assert opener_stops(("<", "`", "["), search)[:2] == ("", "")  # (three: the search)
    assert opener_stops(("\n<x>", "<"), search)[:2] == ("", "")  # (a newline: the search)


@pytest.mark.skipif(streamblocks.compiled, reason="compiled code calls these methods natively")
def test_a_line_start_a_marker_may_begin_takes_no_full_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After visible text, a chunk holding the newline and the start of a marker line
    (``\\n!!n``), and a chunk at a line start that begins one (``!!n1``), are held
    without the full step; the chunk that completes the marker line takes it."""
    text = "the text goes on\n!!n1:note\nbody\n!!end\nmore text\n!!n2:note\nbody\n!!end\n"
    chunks = [text[i : i + 4] for i in range(0, len(text), 4)]
    slow = Session._feed
    full: list[str] = []

    def counted(self: Session, chunk: str, text: bool = False) -> list[object]:
        full.append(chunk)
        return slow(self, chunk, text)  # type: ignore[return-value]

    monkeypatch.setattr(Session, "_feed", counted)
    session = PROCESSOR.session()
    for chunk in chunks:
        session.feed(chunk)
    session.close()
    assert "\n!!n" in chunks and "\n!!n" not in full  # (the first marker: after a newline)
    assert "!!n2" in chunks and "!!n2" not in full  # (the second: at a line start)
    assert "1:no" not in full and ":not" not in full  # (still held)
    assert "te\nb" in full and "e\nbo" in full  # (the lines complete: the blocks open)
    monkeypatch.undo()
    assert feeds(PROCESSOR, chunks, lean=True) == feeds(PROCESSOR, chunks, lean=False)


def test_a_syntax_raising_on_a_held_line_breaks_the_session_as_the_full_step_does() -> None:
    class Raising(DelimiterPreambleSyntax):
        def open(self, line, complete, table):  # type: ignore[no-untyped-def]
            if line.startswith("!!boom"):
                raise RuntimeError("boom")
            return super().open(line, complete, table)

    registry = BlockRegistry()
    registry.register("note", syntax=Raising())
    processor = StreamBlockProcessor(registry, input_adapter=None)
    for lean in (True, False):
        session = processor.session()
        session.use(FAST_PATHS if lean else WITHOUT_LEAN)
        session.feed("text")
        with pytest.raises(RuntimeError):
            for chunk in ("\n!!b", "oom"):
                session.feed(chunk)
        assert session.broken
        assert session.close()[-1].stop_reason == "error"  # type: ignore[attr-defined]
