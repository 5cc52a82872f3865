"""Shared test helpers: run a processor over chunkings and normalise events."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from streamblocks import (
    BlockEnd,
    BlockError,
    StreamBlockProcessor,
    StreamStarted,
    TextDelta,
)
from streamblocks.testing import conserved, normalise, split_random
from streamblocks.testing import run_chunks as run
from streamblocks.testing.differential import FAST_PATHS
from streamblocks.testing.differential import feeds as differential_feeds


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


def fast_feeds(
    processor: StreamBlockProcessor, chunks: list[str], *, whole: bool = True, lean: bool = True
) -> list[list[Any]]:
    """The events of each ``feed`` and of ``close`` (``streamblocks.testing.differential``),
    with the whole-block paths (``whole``: blocks, closing lines, code spans, readers'
    shortcuts) and the lean steps (``lean``) each on or off; ``STREAM_STARTED`` left out."""
    paths = [p for p in FAST_PATHS if (p == "lean" and lean) or (p != "lean" and whole)]
    feeds = differential_feeds(processor, chunks, paths=paths)
    return [[e for e in feed.events if not isinstance(e, StreamStarted)] for feed in feeds]
