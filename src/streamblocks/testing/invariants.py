"""Helpers to check the invariants of DESIGN.md on your own registries and syntaxes:
run a processor over any chunking, merge events so chunkings compare equal, and put the
input back together from the events."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from ..core.events import BlockDelta, BlockEnd, BlockError, StreamStarted, TextDelta
from ..core.processor import StreamBlockProcessor


def run_chunks(processor: StreamBlockProcessor, chunks: Iterable[Any]) -> list[Any]:
    """Every event of one session fed ``chunks``, its ``close()`` included."""
    session = processor.session()
    events: list[Any] = []
    for chunk in chunks:
        events.extend(session.feed(chunk))
    events.extend(session.close())
    return events


def normalise(events: Sequence[Any]) -> list[Any]:
    """Merge adjacent text deltas and adjacent deltas of one block, and drop the stream
    id, so the events of two chunkings of one text compare equal."""
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


def conserved(events: Iterable[Any]) -> str:
    """Visible text, block raws and error raws in event order: the input again, when no
    transform replaced a block (invariant 2)."""
    parts = []
    for event in events:
        if isinstance(event, TextDelta):
            parts.append(event.text)
        elif isinstance(event, BlockEnd):
            parts.append(event.block.raw)
        elif isinstance(event, BlockError):
            parts.append(event.raw)
    return "".join(parts)


def split_random(text: str, seed: int, most: int = 12) -> list[str]:
    """``text`` cut into pieces of 1 to ``most`` characters, reproducibly."""
    rng = random.Random(seed)
    chunks, i = [], 0
    while i < len(text):
        size = rng.randint(1, most)
        chunks.append(text[i : i + size])
        i += size
    return chunks
