"""Shared test helpers: run a processor over chunkings and normalise events."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from streamblocks import (
    BlockDelta,
    BlockEnd,
    BlockError,
    StreamBlockProcessor,
    StreamStarted,
    TextDelta,
)


def split_every(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def split_random(text: str, seed: int, most: int = 12) -> list[str]:
    rng = random.Random(seed)
    chunks, i = [], 0
    while i < len(text):
        size = rng.randint(1, most)
        chunks.append(text[i : i + size])
        i += size
    return chunks


def chunkings(text: str) -> Iterable[list[str]]:
    """Whole, one character at a time, token-sized, and random splits."""
    yield [text]
    yield list(text)
    for size in (2, 3, 4, 7, 16):
        yield split_every(text, size)
    for seed in range(3):
        yield split_random(text, seed)


def normalise(events: Sequence[Any]) -> list[Any]:
    """Merge adjacent text deltas and adjacent deltas of one block, drop the stream id,
    so runs over different chunkings compare equal."""
    merged: list[Any] = []
    for event in events:
        if isinstance(event, StreamStarted):
            merged.append(("STREAM_STARTED",))
            continue
        last = merged[-1] if merged else None
        if isinstance(event, TextDelta) and isinstance(last, TextDelta):
            merged[-1] = TextDelta(last.text + event.text)
        elif (
            isinstance(event, BlockDelta)
            and isinstance(last, BlockDelta)
            and last[:3] == event[:3]
            and last.path == event.path
        ):
            merged[-1] = last._replace(text=last.text + event.text)
        else:
            merged.append(event)
    return merged


def run(processor: StreamBlockProcessor, chunks: Iterable[Any]) -> list[Any]:
    session = processor.session()
    events: list[Any] = []
    for chunk in chunks:
        events.extend(session.feed(chunk))
    events.extend(session.close())
    return events


def visible_text(events: Iterable[Any]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def conserved(events: Iterable[Any]) -> str:
    """Visible text, block raws and error raws in event order (invariant 2)."""
    parts = []
    for event in events:
        if isinstance(event, TextDelta):
            parts.append(event.text)
        elif isinstance(event, BlockEnd):
            parts.append(event.block.raw)
        elif isinstance(event, BlockError):
            parts.append(event.raw)
    return "".join(parts)


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
