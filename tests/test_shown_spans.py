"""An inline code span closed in hand is visible text read at once
(``InlineSyntax.read_shown``), with no region and no reader: the same feeds as the
reader at every chunking (``test_differential`` compares the two on ``SPANS`` and
generated XML documents; these pin the parts)."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

from streamblocks import BlockRegistry, Limits, StreamBlockProcessor, TextDelta, XMLTagSyntax
from streamblocks.core import region
from streamblocks.core.registry import TypeTable
from streamblocks.core.syntax import InlineReader

SPANS = st.lists(
    st.sampled_from(["`", "``", "```", "a", " ", "\n", "<cite>", "x</cite>", "<b>", "!!b1:note\n"]),
    max_size=24,
).map("".join)


def processor(limits: Limits | None = None) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("cite", syntax=XMLTagSyntax())
    registry.register("note")
    return StreamBlockProcessor(registry, input_adapter=None, limits=limits)


PROCESSORS = [processor(), processor(Limits(max_marker_chars=16, max_block_chars=16))]


@pytest.mark.parametrize(
    ("text", "end"),
    [("`a` b", 3), ("``a`b`` c", 7), ("`a``b` c", 6), ("`a\nb` c", -1), ("`a`", -1), ("`a", -1)],
)
def test_where_a_code_span_ends(text: str, end: int) -> None:
    assert XMLTagSyntax().read_shown("`", text, 0, len(text)) == end
    assert XMLTagSyntax().read_shown("<", "<a>", 0, 3) == -1


def test_a_code_span_in_hand_opens_no_region(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "see `<cite>x</cite>` and more"
    monkeypatch.setattr(region.Region, "__init__", _refuse)
    assert PROCESSORS[0].session().feed(text)[1:] == [TextDelta(text)]


def _refuse(self: object, *args: object, **kwargs: object) -> None:
    raise AssertionError("a region was opened")


def test_a_subclass_that_reads_regions_its_own_way_is_asked_nothing() -> None:
    class Mine(XMLTagSyntax):
        def reader(self, opener: str, types: TypeTable) -> InlineReader:
            return super().reader(opener, types)

    registry = BlockRegistry()
    registry.register("cite", syntax=Mine())
    session = StreamBlockProcessor(registry, input_adapter=None).session()
    assert session._scan.shown_spans == {}
    assert set(processor().session()._scan.shown_spans) == {"`"}
