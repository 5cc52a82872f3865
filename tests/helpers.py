"""Shared test helpers: run a processor over chunkings and normalise events."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from streamblocks import (
    BlockEnd,
    BlockError,
    StreamBlockProcessor,
    TextDelta,
)
from streamblocks.testing import conserved, normalise, split_random
from streamblocks.testing import run_chunks as run


def split_every(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def chunkings(text: str) -> Iterable[list[str]]:
    """Whole, one character at a time, token-sized, and random splits."""
    yield [text]
    yield list(text)
    for size in (2, 3, 4, 7, 16):
        yield split_every(text, size)
    for seed in range(3):
        yield split_random(text, seed)


def visible_text(events: Iterable[Any]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def blocks(events: Iterable[Any]) -> list[Any]:
    return [e.block for e in events if isinstance(e, BlockEnd)]


def errors(events: Iterable[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, BlockError)]


def assert_invariant(processor: StreamBlockProcessor, text: str) -> list[Any]:
    """Every chunking gives the same normalised events, and nothing is lost."""
    reference = normalise(run(processor, [text]))
    assert conserved(reference) == text
    for chunks in chunkings(text):
        got = normalise(run(processor, chunks))
        assert got == reference, f"chunking {chunks!r} differs"
    return reference
