"""The markup reader of every family, on its own (the session's part is tested in
test_markup_processor.py): the table of cases at every chunking, conservation, and
linear work on runs of marker characters."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from markup_cases import CASES, call_of, found_outcome
from streamblocks.markup import FAMILIES, Markup
from streamblocks.markup.formats import GRAMMARS
from streamblocks.markup.reader import Reader


def read(markup: Markup, chunks: list[str], *, cut: bool = False) -> list[tuple[Any, ...]]:
    reader = Reader(
        GRAMMARS[markup.family], markup.schemas, starts_in_thinking=markup.starts_in_thinking
    )
    pieces = []
    for chunk in chunks:
        pieces.extend(reader.feed(chunk))
    pieces.extend(reader.finish(cut=cut))
    return pieces


def summary(pieces: list[tuple[Any, ...]]) -> dict[str, Any]:
    """What the pieces say: visible text, thinking texts, calls, errors; and the input
    put back together from every attributed piece."""
    text, thinking, calls, errors, whole = [], [], [], [], []
    raw: list[str] = []
    kind = ""
    for piece in pieces:
        tag = piece[0]
        if tag in ("text", "marker", "content", "hide"):
            whole.append(piece[1])
        if tag == "text":
            assert not kind, "visible text inside a block"
            text.append(piece[1])
        elif tag in ("marker", "content"):
            raw.append(piece[1])
        elif tag == "start":
            assert not kind, "a block opened inside another"
            kind = piece[1]
            if kind == "thinking":
                thinking.append([])
        elif tag == "end":
            if kind == "thinking":
                thinking[-1] = "".join(p[1] for p in pieces_of(pieces, piece))
            else:
                calls.append(call_of(piece[1], piece[2]))
            kind, raw = "", []
        elif tag == "fail":
            errors.append((piece[2], "".join(raw)))
            kind, raw = "", []
    return found_outcome(text, thinking, calls, errors, whole)


def pieces_of(pieces: list[tuple[Any, ...]], end: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """The content pieces of the thinking block that ``end`` closes."""
    at = next(i for i, p in enumerate(pieces) if p is end)
    start = max(i for i, p in enumerate(pieces[:at]) if p[0] == "start")
    return [p for p in pieces[start:at] if p[0] == "content"]


def chunkings(text: str) -> list[list[str]]:
    found = [[text], list(text)]
    for size in (2, 3, 4, 7):
        found.append([text[i : i + size] for i in range(0, len(text), size)])
    for seed in range(3):
        rnd, at, chunks = random.Random(seed), 0, []
        while at < len(text):
            size = rnd.randint(1, 9)
            chunks.append(text[at : at + size])
            at += size
        found.append(chunks)
    return found


def markup_of(family: str, expected: dict[str, Any]) -> Markup:
    return Markup(
        family,
        starts_in_thinking=expected.get("starts_in_thinking", False),
        tools=expected.get("tools"),
    )


@pytest.mark.parametrize(("family", "text", "expected"), CASES)
def test_case_at_every_chunking(family: str, text: str, expected: dict[str, Any]) -> None:
    markup = markup_of(family, expected)
    for chunks in chunkings(text):
        found = summary(read(markup, chunks, cut=expected.get("cut", False)))
        assert found["whole"] == text  # conservation: every character attributed once
        assert found["text"] == expected["text"], chunks
        assert found["thinking"] == expected["thinking"], chunks
        assert found["calls"] == expected["calls"], chunks
        assert found["errors"] == expected["errors"], chunks


def test_every_family_has_cases() -> None:
    covered = {Markup(family).family for family, _, _ in CASES}
    assert covered == set(FAMILIES)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_random_chunkings_agree(data: st.DataObject) -> None:
    family, text, expected = data.draw(st.sampled_from(CASES))
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=12)))
    chunks = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    markup = markup_of(family, expected)
    whole = summary(read(markup, [text], cut=expected.get("cut", False)))
    assert summary(read(markup, chunks, cut=expected.get("cut", False))) == whole


@settings(max_examples=80, deadline=None)
@given(
    family=st.sampled_from(FAMILIES),
    text=st.text(
        alphabet=st.sampled_from(list('<>|/{}[]"\\:=_ \nthinkTOOL_CALLS｜▁DSMLa1')), max_size=60
    ),
    seed=st.integers(0, 10),
)
def test_any_text_is_conserved_and_chunk_blind(family: str, text: str, seed: int) -> None:
    """Marker characters in any order: nothing lost, and the same at any chunking."""
    markup = Markup(family)
    whole = summary(read(markup, [text]))
    assert whole["whole"] == text
    rnd, at, chunks = random.Random(seed), 0, []
    while at < len(text):
        size = rnd.randint(1, 5)
        chunks.append(text[at : at + size])
        at += size
    assert summary(read(markup, chunks)) == whole


def test_unicode_markers_split_inside_a_character_run() -> None:
    text = "a<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{}<｜tool▁call▁end｜>"
    markup = Markup("deepseek")
    for chunks in chunkings(text):
        assert summary(read(markup, chunks))["calls"] == [("f", {})]


RUNS = ["<", "[", "<|", "<｜", "{", '"', "|", "</", "<think", "[TOOL_CALLS]", "<tool_call>"]
UNCLOSED = [
    ("qwen3", '<tool_call>{"name": "f", "arguments": {"a": "'),
    ("qwen3", "<think>"),
    ("deepseek", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"),
    ("glm", "<tool_call>f<arg_key>k</arg_key><arg_value>"),
    ("gemma4", '<|tool_call>call:f{a:<|"|>'),
    ("mistral", "[TOOL_CALLS]["),
    ("gpt-oss", "<|channel|>commentary to=functions.f<|message|>{"),
    ("kimi", '<|open|>tools<|sep|><|open|>call tool="f"<|sep|><|open|>argument key="k"<|sep|>'),
    ("llama", "[f(a='"),
]


def examined(family: str, text: str, size: int) -> int:
    reader = Reader(GRAMMARS[Markup(family).family], {})
    for at in range(0, len(text), size):
        reader.feed(text[at : at + size])
    reader.finish()
    return reader.examined


@pytest.mark.parametrize("size", [1, 4, 1024])
@pytest.mark.parametrize("family", FAMILIES)
def test_work_is_linear_on_marker_runs(family: str, size: int) -> None:
    """Runs of every family's marker characters, and every unclosed construct followed
    by a long body: the characters examined grow linearly (counted, not timed)."""
    inputs = [run * 500 for run in RUNS]
    inputs += [opener + "x y\n" * 250 for fam, opener in UNCLOSED if fam == family]
    for text in inputs:
        small = examined(family, text, size)
        large = examined(family, text * 4, size)
        assert large <= 4.5 * small + 64, (text[:20], small, large)
        # a held partial marker is read again with the next chunk: at most its length
        assert small <= 32 * len(text), (text[:20], small)
