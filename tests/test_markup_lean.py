"""The lean steps of model markup (a region's bulk steps: thinking, a call's body): which
chunks take them, and what they keep in their books (``test_differential`` compares them
with the reference reading, feed by feed, for every family and every reply of
``markup_cases``)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import streamblocks
from helpers import fast_feeds as feeds
from markup_cases import CASES
from streamblocks import BlockRegistry, Limits, StreamBlockProcessor
from streamblocks.core import lean_regions as lean_steps
from streamblocks.core.events import BlockDelta, BlockStart, StreamStarted
from streamblocks.core.lean import THOUGHT_RUN
from streamblocks.core.region import Region
from streamblocks.core.session import Session
from streamblocks.markup import FAMILIES, Markup
from streamblocks.markup.formats import GRAMMARS
from streamblocks.markup.grammar import KEYED_ARGUMENTS, KEYED_NEEDS, CallFormat
from streamblocks.markup.syntax import MarkupRegion
from streamblocks.testing.differential import FAST_PATHS
from streamblocks.testing.invariants import split_random
from test_markup_properties import COMMON, FRAGMENTS

WITHOUT_LEAN = tuple(path for path in FAST_PATHS if path != "lean")

# Prose as thinking and call heads carry it: words, blanks of every kind at a chunk's end
# (held: thinking's text is stripped), and long stretches with no marker character.
WORDS = ["We weigh ", "the gaps", ".\n", " \t", "\u2003", "x" * 9, "get_weather", ", "]


def same_feeds(processor: StreamBlockProcessor, text: str, seed: int) -> None:
    for chunks in (list(text), [text[i : i + 4] for i in range(0, len(text), 4)]):
        assert feeds(processor, chunks, lean=True) == feeds(processor, chunks, lean=False)
    chunks = split_random(text, seed, 6)
    assert feeds(processor, chunks, lean=True) == feeds(processor, chunks, lean=False)


ARGUMENTS = {
    "path": "a/b.txt",
    "content": 'line one\n<b>"quoted"</b> \\ back\\slash </tool_call fake> {braces} [x]\n' * 3,
    "n": [1, 2.5, None, True, {"k": "v"}],
}


@pytest.mark.parametrize(
    "text",
    [
        "<think>\nweighing it up </think>\n\n<tool_call>\n"
        + json.dumps({"name": "write", "arguments": ARGUMENTS})
        + "\n</tool_call>\nthen text",
        "<tool_call>\n<function=write>\n<parameter=content>\n"
        + ARGUMENTS["content"]  # type: ignore[operator]
        + "\n</parameter>\n</function>\n</tool_call>",
    ],
)
def test_a_long_call_body_streams_the_same_lean(text: str) -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup="qwen3")
    for seed in range(20):
        same_feeds(processor, text, seed)
    lean = [e for events in feeds(processor, list(text), lean=True) for e in events]
    deltas = [e[0] for e in lean if isinstance(e, tuple) and isinstance(e[0], BlockDelta)]
    streamed = "".join(d.text for d in deltas if d.block_type == "tool_call")
    assert json.loads(streamed)["content"] == ARGUMENTS["content"]


@pytest.mark.skipif(streamblocks.compiled, reason="compiled code calls these methods natively")
def test_thinking_and_a_call_head_take_the_lean_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thinking, and a call's body before its name shows, are not read by the region's
    full step, and a chunk of thinking is not even shown to the reader (blanks at its
    end included; the tests above check that the events are the same)."""
    full: list[str] = []
    asked: list[str] = []
    step, bulk = Region.step, MarkupRegion.bulk

    def counted_step(self: Region, text: str, i: int) -> tuple[str, int]:
        full.append(text[i:])
        return step(self, text, i)

    def counted_bulk(self: MarkupRegion, text: str) -> int | None:
        asked.append(text)
        return bulk(self, text)

    monkeypatch.setattr(Region, "step", counted_step)
    monkeypatch.setattr(MarkupRegion, "bulk", counted_bulk)
    call = '{"name": "get_weather_for_a_long_while", "arguments": {"city": "Paris"}}'
    thinking = "We weigh the gaps. " * 50
    text = f"<think>\n{thinking}</think>\n\n<tool_call>\n{call}\n</tool_call>"
    chunks = [text[i : i + 4] for i in range(0, len(text), 4)]
    session = StreamBlockProcessor(BlockRegistry(), input_adapter=None, markup="qwen3").session()
    for chunk in chunks:
        session.feed(chunk)
    session.close()
    inside = [c for c in chunks[2:] if c in thinking][:-1]
    assert len(inside) > 200
    assert [c for c in full if c in inside] == ["We w"]  # (the first: blanks may lead it)
    assert len([c for c in asked if c in inside]) <= 1  # (the one after the first)
    assert not set(full) & {'me":', "t_we", "athe", "r_fo", "r_a_", "long", "_whi"}


def _full_and_lean(
    monkeypatch: pytest.MonkeyPatch, markup: str, chunks: list[str]
) -> tuple[set[int], set[int]]:
    """The indexes of the chunks that reach the region's full step, and its lean step
    (``lean_regions.region_step``; the rest are taken by ``Session.feed`` itself), in a session
    fed ``chunks``."""
    full: set[int] = set()
    leaned: set[int] = set()
    at = [0]
    step, lean = Region.step, lean_steps.region_step

    def counted_step(self: Region, text: str, i: int) -> tuple[str, int]:
        full.add(at[0])
        return step(self, text, i)

    def counted_lean(self: Region, text: str) -> object:
        leaned.add(at[0])
        return lean(self, text)

    monkeypatch.setattr(Region, "step", counted_step)
    monkeypatch.setattr(lean_steps, "region_step", counted_lean)
    session = StreamBlockProcessor(BlockRegistry(), input_adapter=None, markup=markup).session()
    for at[0], chunk in enumerate(chunks):
        session.feed(chunk)
    session.close()
    return full, leaned


@pytest.mark.skipif(streamblocks.compiled, reason="compiled code calls these methods natively")
def test_thinking_is_taken_by_the_session_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chunk of thinking with no ``<`` does not reach the region at all
    (``table.THOUGHT``), blanks at its end or held before it or not, but for one chunk
    per run of ``THOUGHT_RUN`` characters (the block brought up to date)."""
    thinking = "We weigh the gaps. " * 150
    text = f"<think>\n{thinking}</think>\n\nthe answer"
    chunks = [text[i : i + 4] for i in range(0, len(text), 4)]
    full, leaned = _full_and_lean(monkeypatch, "qwen3", chunks)
    inside = set(range(3, len(thinking) // 4))  # (from the second chunk of thinking on)
    assert not full & inside
    assert sum(chunks[k][-1] == " " for k in inside) > 100  # (blanks held by the session)
    runs = len(thinking) // THOUGHT_RUN
    assert 0 < len(leaned & inside) <= runs + 1


THOUGHTS = st.lists(
    st.sampled_from(["We weigh", " the gaps", ".", "\n\n", " \t ", "\u2003", "x" * 70, " " * 70]),
    max_size=40,
).map("".join)


@pytest.mark.skipif(streamblocks.compiled, reason="compiled code calls these methods natively")
@settings(max_examples=50, deadline=None)  # (each example snapshots after every chunk)
@given(thought=THOUGHTS, seed=st.integers(0, 999), limit=st.sampled_from([None, 90, 700]))
def test_thinking_taken_by_the_session_keeps_its_books(
    thought: str, seed: int, limit: int | None
) -> None:
    """The chunks ``Session.feed`` takes in mode ``THOUGHT`` leave the work counter, the
    stream offset and the content span to :func:`lean.thought_sync`: the events are the
    full step's, and the count of examined characters after every chunk (read, and the
    session snapshotted and restored) is the count of a session whose thinking takes
    ``lean_regions.region_step`` instead (``THOUGHT`` off); under a tight limit too."""
    text = f"<think>\n{thought}</think>\n\nthe answer"
    limits = Limits(max_block_chars=limit) if limit else Limits()
    processor = StreamBlockProcessor(
        BlockRegistry(), input_adapter=None, markup="qwen3", limits=limits
    )
    chunks = split_random(text, seed, 6)

    def run(lean: bool, read: bool) -> tuple[list[object], list[int]]:
        session = processor.session()
        session.use(FAST_PATHS if lean else WITHOUT_LEAN)
        events: list[object] = []
        counts = []
        for chunk in chunks:
            events += session.feed(chunk)
            if read:
                counts.append(session.examined)
                session = processor.restore(session.snapshot())
        events += session.close()
        counts.append(session.examined)
        return [e for e in events if not isinstance(e, StreamStarted)], counts

    events, counts = run(True, True)
    assert events == run(False, False)[0] == run(True, False)[0]
    assert counts[-1] == run(True, False)[1][-1]
    with pytest.MonkeyPatch.context() as patch:
        ready = Region.lean_ready

        def without_thought(self: Region) -> bool:
            answer = ready(self)
            self.thought = ""
            return answer

        patch.setattr(Region, "lean_ready", without_thought)
        assert run(True, True) == (events, counts)


# A call whose closer arrives in pieces: the piece that begins it after the body's last
# characters, then pieces that are still only its beginning (held, no full step).
CLOSERS_IN_PIECES = {
    "qwen3": (
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}',
        ["}\n<", "/too", "l_ca", "ll>\n", "then text"],
    ),
    "kimi": (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
        '<|tool_call_argument_begin|>{"city": "Paris"',
        ["}<|", "tool", "_cal", "l_en", "d|><|tool_calls_section_end|>then text"],
    ),
    "deepseek": (
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"',
        ["}<｜", "tool", "▁cal", "l▁e", "nd｜><｜tool▁calls▁end｜>then text"],
    ),
    "glm": (
        "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value>",
        ["\n</", "tool", "_cal", "l>then text"],
    ),
}


@pytest.mark.skipif(streamblocks.compiled, reason="compiled code calls these methods natively")
@pytest.mark.parametrize("family", sorted(CLOSERS_IN_PIECES))
def test_a_closer_in_pieces_takes_the_lean_steps(
    family: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The body's last characters with the closer's first are one lean step (the
    closer's beginning held), and each piece that leaves it a beginning is one more;
    the events are the full step's (checked here too, at every chunking above)."""
    head, pieces = CLOSERS_IN_PIECES[family]
    chunks = [head[i : i + 4] for i in range(0, len(head), 4)] + pieces
    full, _ = _full_and_lean(monkeypatch, family, chunks)
    assert not full & set(range(len(chunks) - len(pieces), len(chunks) - 2))
    processor = StreamBlockProcessor(BlockRegistry(), markup=Markup(family))
    assert feeds(processor, chunks, lean=True) == feeds(processor, chunks, lean=False)
    events = [e for es in feeds(processor, chunks, lean=True) for e in es]
    deltas = [e[0] for e in events if isinstance(e, tuple) and isinstance(e[0], BlockDelta)]
    assert json.loads("".join(d.text for d in deltas)) == {"city": "Paris"}
    for seed in range(5):
        same_feeds(processor, head + "".join(pieces), seed)


@pytest.mark.skipif(streamblocks.compiled, reason="compiled code calls these methods natively")
@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("before", ["So we look it up.", "So we look it up.\n"])
def test_an_opener_in_pieces_takes_the_lean_steps(
    family: str, before: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Visible text that ends in an opener's first character, and each next piece
    that leaves it an opener's beginning, take no full step (``lean.opening``), mid-line
    and at a line start; the piece that completes the opener does. The events are the
    full step's, each chunk's alone and at every chunking."""
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=None, markup=family)
    openers = processor.session()._scan.scanning.all_openers
    opener = max(openers, key=len)
    text = before + opener + "then more text"
    if before.endswith("\n"):  # (the opener's first character alone, at the line start)
        chunks = [before, *opener, "then more text"]
    else:  # (with the text before it)
        chunks = [before + opener[0], *opener[1:], "then more text"]
    full: list[int] = []
    slow = Session._feed
    at = [0]

    def counted(self: Session, chunk: object, text: bool = False) -> list[object]:
        full.append(at[0])
        return slow(self, chunk, text)

    monkeypatch.setattr(Session, "_feed", counted)
    session = processor.session()
    for at[0], chunk in enumerate(chunks):
        session.feed(chunk)
    session.close()
    last = len(chunks) - 2  # (the piece that completes the opener)
    assert not [k for k in full if 0 < k < last]
    monkeypatch.undo()
    assert feeds(processor, chunks, lean=True) == feeds(processor, chunks, lean=False)
    for seed in range(5):
        same_feeds(processor, text, seed)


def _named_formats() -> list[tuple[str, CallFormat]]:
    """Every call format whose ``name_ends`` spares the lean step the name search."""
    found = []
    for family, grammar in GRAMMARS.items():
        sections = [call for section in grammar.sections for call in section.calls]
        for call in (*grammar.calls, *sections, *grammar.start, *grammar.chained):
            if call.name_ends and (family, call) not in found:
                found.append((family, call))
    return found


@pytest.mark.parametrize(("family", "call"), _named_formats())
def test_a_name_ends_in_one_of_its_name_ends(family: str, call: CallFormat) -> None:
    """``name_ends`` is what lets a head chunk skip the name search: a head that has no
    name shows one only once it gains one of those characters. Checked on every head
    of the family's replies and on heads of its marker fragments."""
    assert call.name is not None
    texts = [source for fam, source, _ in CASES if fam == family]

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(FRAGMENTS.get(family, []) + COMMON + WORDS), max_size=16))
    def check(pieces: list[str]) -> None:
        _heads_name_at_an_end(call, "".join(pieces))

    for text in texts:
        _heads_name_at_an_end(call, text)
    check()


def _heads_name_at_an_end(call: CallFormat, text: str) -> None:
    assert call.name is not None
    starts = {0} | {
        i + len(call.opener) for i in range(len(text)) if text.startswith(call.opener, i)
    }
    for start in starts:
        head = text[start : start + 600]
        for end in range(1, len(head) + 1):
            if call.name.search(head[:end]) is not None:
                if end > 1:
                    assert call.name.search(head[: end - 1]) is None  # (the first such end)
                    assert head[end - 1] in call.name_ends, (head[:end], call.name_ends)
                break


def test_keyed_arguments_match_only_heads_with_their_key() -> None:
    """The argument stream tries ``KEYED_ARGUMENTS`` only on a head that holds one of
    ``KEYED_NEEDS``: every head it matches does."""
    heads = [
        '{"name": "f", "arguments": {',
        ' {"id": "c\\"1", "name": "f", "parameters": "{',
        '[{"name": "f", "arguments": {',
        '{"name": "f", "argument": {',
    ]
    heads += [source[source.find("{") :] for _, source, _ in CASES if "{" in source]
    matched = 0
    for head in heads:
        for end in range(len(head) + 1):
            if KEYED_ARGUMENTS.match(head[:end]) is not None:
                matched += 1
                assert any(need in head[:end] for need in KEYED_NEEDS)
    assert matched > 10


NAMED_HEADS = {
    "qwen3": '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n',
    "llama": '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|>',
}


@pytest.mark.skipif(streamblocks.compiled, reason="compiled code calls these methods natively")
@pytest.mark.parametrize("family", sorted(NAMED_HEADS))
@pytest.mark.parametrize("shift", range(4))
def test_the_chunk_that_shows_the_name_takes_no_full_step(
    family: str, shift: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chunk of a call's head in which the name shows, and that ends nothing, starts
    the block in the lean step (``bulk_start``), at every place of the chunk boundaries;
    the events are the full step's."""
    text = "Looking."[: 5 + shift] + NAMED_HEADS[family] + "then text"
    chunks = [text[i : i + 4] for i in range(0, len(text), 4)]
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=None, markup=family)
    lean = feeds(processor, chunks, lean=True)
    assert lean == feeds(processor, chunks, lean=False)
    started = [k for k, events in enumerate(lean) if any(isinstance(e, BlockStart) for e in events)]
    assert len(started) == 1
    full, leaned = _full_and_lean(monkeypatch, family, chunks)
    assert started[0] in leaned
    assert started[0] not in full
