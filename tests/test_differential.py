"""Every fast path against the reference reading (``reference=True``), feed by feed: the
same events, ``partial`` values, ``examined`` and stream offsets, for each fast path alone
and all together, at every chunking :func:`~streamblocks.testing.differential.chunkings`
makes and across snapshots — over the corpora of the other tests: the line syntaxes,
inline tags and gadgets, shown fences and code spans, whole-block readers, every markup
family, and the benchmarks' reference documents (DESIGN.md, invariant 7)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import test_lean_visible
import test_properties
import test_shown_spans
import test_whole_blocks
import test_whole_readers
import test_xml_properties
from markup_cases import CASES
from streamblocks import BlockRegistry, DelimiterPreambleSyntax, StreamBlockProcessor, TextDelta
from streamblocks.core.line_syntax import WholeBlock
from streamblocks.markup import FAMILIES, Markup
from streamblocks.testing.differential import FAST_PATHS, assert_same_feeds, chunkings, feeds
from test_markup_lean import WORDS
from test_markup_properties import COMMON, FRAGMENTS, registry

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _markup(family: str) -> tuple[StreamBlockProcessor, st.SearchStrategy[str]]:
    pieces = st.sampled_from(FRAGMENTS[family] + COMMON + WORDS)
    processor = StreamBlockProcessor(registry(False), input_adapter=None, markup=Markup(family))
    return processor, st.lists(pieces, max_size=24).map("".join)


CORPORA: dict[str, tuple[list[StreamBlockProcessor], st.SearchStrategy[str]]] = {
    "line syntaxes": (
        [test_properties.PROCESSOR, test_properties.SMALL_LIMITS],
        test_properties.DOCUMENTS,
    ),
    "shown fences": (
        [test_properties.PROCESSOR, test_properties.SMALL_LIMITS],
        test_whole_blocks.SHOWN_DOCUMENTS,
    ),
    "whole readers": (test_whole_readers.PROCESSORS, test_whole_readers.DOCUMENTS),
    "inline tags": (test_xml_properties.PROCESSORS, test_xml_properties.texts),
    "line starts, gadgets": (test_lean_visible.PROCESSORS, test_lean_visible.TEXTS),
    "code spans": (test_shown_spans.PROCESSORS, test_shown_spans.SPANS),
    **{f"markup {family}": ([_markup(family)[0]], _markup(family)[1]) for family in FAMILIES},
}


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_fast_paths_read_as_the_reference(corpus: str) -> None:
    processors, texts = CORPORA[corpus]

    @SETTINGS
    @given(texts, st.integers(0, 10_000), st.integers(0, len(processors) - 1))
    def check(text: str, seed: int, which: int) -> None:
        assert_same_feeds(processors[which], text, seed=seed, randoms=2, cuts=24)

    check()


def _benchmark_documents() -> Any:
    path = Path(__file__).parents[1] / "benchmarks" / "documents.py"
    spec = importlib.util.spec_from_file_location("benchmark_documents", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_documents_read_as_the_reference() -> None:
    documents = _benchmark_documents()
    for processor, text in (
        (documents.processor(), documents.document(3_000)),
        (documents.xml_processor(), documents.xml_document(3_000)),
    ):
        assert_same_feeds(processor, text, cuts=40)


@pytest.mark.parametrize(("family", "source"), [(family, source) for family, source, _ in CASES])
def test_every_markup_reply_reads_as_the_reference(family: str, source: str) -> None:
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=None, markup=Markup(family))
    assert_same_feeds(processor, source, cuts=30)


def test_the_reference_processor_takes_no_fast_path() -> None:
    processor = StreamBlockProcessor(BlockRegistry(), input_adapter=None, reference=True)
    scan = processor.session()._scan
    assert (scan.lean, scan.whole, scan.to_closing, scan.shown_spans, scan.reference) == (
        False,
        False,
        False,
        {},
        True,
    )
    fast = StreamBlockProcessor(BlockRegistry(), input_adapter=None).session()._scan
    assert (fast.lean, fast.whole, fast.to_closing, fast.reference) == (True, True, True, False)


def test_the_chunkings_cover_sizes_randoms_and_every_cut() -> None:
    text = "abcdefghij"
    found = list(chunkings(text, randoms=2))
    assert found[0] == [text]
    assert [len(chunks[0]) for chunks in found[1:9]] == list(range(1, 9))
    assert all("".join(chunks) == text for chunks in found)
    assert [chunks for chunks in found if len(chunks) == 2 and len(chunks[0]) > 0][-9:] == [
        [text[:at], text[at:]] for at in range(1, 10)
    ]


class _Lying(DelimiterPreambleSyntax):
    """A syntax whose ``read_whole`` reports a block one character short: the line step
    reads it right, so the harness must find the fast path that does not."""

    def open(self, line: str, complete: bool, types: Any) -> Any:  # (read_whole's pair)
        return super().open(line, complete, types)

    def read_whole(self, text: str, start: int, end: int, types: Any) -> Any:
        found = super().read_whole(text, start, end, types)
        if isinstance(found, WholeBlock):
            return found._replace(closer=found.closer - 1, end=found.end - 1)
        return found


def test_a_fast_path_that_disagrees_is_named() -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=_Lying())
    processor = StreamBlockProcessor(registry, input_adapter=None)
    text = "say\n!!b1:note\nbody\n!!end\nmore\n"
    assert feeds(processor, [text], paths=())[0].events[1] == TextDelta("say\n")
    with pytest.raises(AssertionError, match="fast paths whole differ"):
        assert_same_feeds(processor, text, paths=FAST_PATHS)
