"""A reusable pytest test class checking an input adapter against the contract.

Subclass :class:`AdapterConformance` in a test module, name the adapter and give
samples; pytest collects the inherited tests (the class name must start with ``Test``)::

    from streamblocks.testing import AdapterConformance, AdapterSample

    class TestMyAdapter(AdapterConformance):
        adapter_factory = MyProviderInputAdapter
        samples = [AdapterSample("hello", events=[...], text="Hello")]
        text_event = staticmethod(lambda piece: {"kind": "token", "value": piece})
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NamedTuple

from ..adapters.detection import detect_input_adapter
from ..adapters.protocols import EventCategory, InputAdapter
from ..core.events import StopReason, Usage
from .runner import run_adapter
from .splits import adversarial_splits


class AdapterSample(NamedTuple):
    """A recorded stream and what the adapter must make of it."""

    name: str
    events: Sequence[Any]
    text: str
    """The reply text, exactly once."""
    stop_reason: StopReason | None = None
    usage: Usage | None = None
    native: Sequence[tuple[str, Any]] | None = None
    """``(block_type, content)`` of each native block, in order; ``None``: not checked."""


_FOREIGN: tuple[Any, ...] = (
    "plain text",
    b"bytes",
    42,
    None,
    {},
    {"type": "not-a-known-event"},
    object(),
)


class AdapterConformance:
    """Inherited tests for an input adapter. Set the class attributes below."""

    adapter_factory: ClassVar[Callable[[], InputAdapter]]
    """Builds the adapter (usually the class itself)."""
    samples: ClassVar[Sequence[AdapterSample]] = ()
    """Recorded streams with their expected text, stop reason, usage, native blocks."""
    foreign_events: ClassVar[Sequence[Any]] = _FOREIGN
    """Events from elsewhere that ``matches`` must refuse (and not crash on)."""
    text_event: ClassVar[Callable[[str], Any] | None] = None
    """Builds one text event from a piece of text, to test arbitrary chunkings."""
    chunking_texts: ClassVar[Sequence[str]] = (
        "plain reply\n",
        "a\n!!b1:note\nx\n!!end\nz",
        '<cite id="1">q</cite> done',
        "caf\u00e9 \U0001f469\u200d\U0001f4bb e\u0301 \U0001f1eb\U0001f1f7\n",
    )
    """Texts split at adversarial points and fed through :attr:`text_event`."""
    registered: ClassVar[bool] = False
    """The adapter is installed under the ``streamblocks.adapters`` entry point:
    auto-detection must pick it for every sample."""

    def make_adapter(self) -> InputAdapter:
        return type(self).adapter_factory()

    # -- the contract ----------------------------------------------------------------

    def test_has_required_methods(self) -> None:
        adapter = self.make_adapter()
        assert callable(getattr(adapter, "categorize", None)), "categorize() is required"
        assert callable(getattr(adapter, "extract_text", None)), "extract_text() is required"

    def test_samples_give_text_exactly_once(self) -> None:
        assert self.samples, "give at least one AdapterSample"
        for sample in self.samples:
            run = run_adapter(self.make_adapter(), sample.events)
            assert not run.problems, f"{sample.name}: {run.problems}"
            assert run.text == sample.text, f"{sample.name}: text differs"

    def test_categories_are_event_categories(self) -> None:
        for sample in self.samples:
            run = run_adapter(self.make_adapter(), sample.events)
            for category in run.categories:
                assert isinstance(category, EventCategory), f"{sample.name}: {category!r}"

    def test_stop_reason_and_usage(self) -> None:
        for sample in self.samples:
            run = run_adapter(self.make_adapter(), sample.events)
            if sample.stop_reason is not None:
                assert run.stop_reason == sample.stop_reason, sample.name
            if sample.usage is not None:
                assert run.usage == sample.usage, sample.name

    def test_native_blocks(self) -> None:
        for sample in self.samples:
            if sample.native is None:
                continue
            run = run_adapter(self.make_adapter(), sample.events)
            got = [(block.block_type, block.content) for block in run.natives]
            assert got == list(sample.native), sample.name
            assert all(block.closed for block in run.natives), sample.name

    def test_tool_calls_stream_their_arguments(self) -> None:
        """A tool call's arguments arrive as deltas before its end, and the deltas joined
        are the arguments' JSON text (what ``BlockDelta.partial`` and AG-UI's
        ``TOOL_CALL_ARGS`` are made of)."""
        for sample in self.samples:
            run = run_adapter(self.make_adapter(), sample.events)
            for block in run.blocks("tool_call"):
                if not block.content:
                    continue
                assert block.deltas, f"{sample.name}: the arguments came only with the end"
                assert json.loads(block.text) == block.content, sample.name

    def test_streams_do_not_share_state(self) -> None:
        adapter = self.make_adapter()
        for sample in self.samples:
            first = run_adapter(adapter, sample.events)
            second = run_adapter(adapter, sample.events)
            assert first.text == second.text, sample.name
            assert first.stop_reason == second.stop_reason, sample.name
            assert [(b.block_type, b.content) for b in first.natives] == [
                (b.block_type, b.content) for b in second.natives
            ], sample.name

    # -- detection -------------------------------------------------------------------

    def test_matches_first_events(self) -> None:
        adapter = self.make_adapter()
        matches = getattr(adapter, "matches", None)
        if matches is None:
            return
        for sample in self.samples:
            assert matches(sample.events[0]), f"{sample.name}: first event not matched"

    def test_matches_refuses_foreign_events(self) -> None:
        adapter = self.make_adapter()
        matches = getattr(adapter, "matches", None)
        for event in self.foreign_events:
            if matches is not None:
                assert matches(event) is False, f"matched foreign event {event!r}"
            else:
                assert adapter.categorize(event) is EventCategory.SKIP, (
                    f"an adapter without matches() must answer SKIP for {event!r}"
                )

    def test_matches_imports_nothing(self) -> None:
        adapter = self.make_adapter()
        matches = getattr(adapter, "matches", None)
        if matches is None:
            return
        before = set(sys.modules)
        for sample in self.samples:
            for event in sample.events:
                matches(event)
        for event in self.foreign_events:
            matches(event)
        assert set(sys.modules) - before == set(), "matches() imported modules"

    def test_auto_detection(self) -> None:
        if not self.registered:
            return
        for sample in self.samples:
            detected = detect_input_adapter(sample.events[0])
            assert type(detected) is type(self.make_adapter()), sample.name

    # -- chunking --------------------------------------------------------------------

    def test_any_chunking_gives_the_same_text(self) -> None:
        factory = type(self).text_event
        if factory is None:
            return
        for text in self.chunking_texts:
            for pieces in adversarial_splits(text):
                events = [factory(piece) for piece in pieces]
                run = run_adapter(self.make_adapter(), events)
                assert run.text == text, f"{pieces!r}"
