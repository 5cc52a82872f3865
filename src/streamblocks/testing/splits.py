"""Splitting text at the points that break naive stream parsers.

A stream parser must give the same result however its input is chunked. These helpers
produce the chunkings worth testing: one character at a time, inside every marker,
on both sides of every newline, between a character and its combining mark or
zero-width joiner, and a few seeded random ones. :func:`chunk_bytes` does the same for
wire bytes, splitting UTF-8 sequences in the middle.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterable, Iterator, Sequence

DEFAULT_MARKERS: tuple[str, ...] = (
    "!!!",
    "!!",
    "```",
    "---",
    "<",
    "</",
    "/>",
    ">",
    ":",
)
"""Substrings whose inside is a classic chunk boundary for block syntaxes."""

_JOINERS = {"\u200d", "\ufe0f", "\ufe0e"}


def split_at(text: str, points: Iterable[int]) -> list[str]:
    """``text`` cut at ``points`` (positions, any order; 0, ``len(text)`` and repeats ignored)."""
    cuts = sorted({p for p in points if 0 < p < len(text)})
    pieces = []
    start = 0
    for cut in cuts:
        pieces.append(text[start:cut])
        start = cut
    pieces.append(text[start:])
    return [piece for piece in pieces if piece] or [text]


def adversarial_points(text: str, markers: Sequence[str] = DEFAULT_MARKERS) -> list[int]:
    """Positions inside markers, around newlines and inside grapheme clusters."""
    points: set[int] = set()
    for marker in markers:
        start = text.find(marker)
        while start != -1:
            points.update(range(start + 1, start + len(marker)))
            points.add(start)
            start = text.find(marker, start + 1)
    for index, char in enumerate(text):
        if char == "\n":
            points.update((index, index + 1))
        elif char in _JOINERS or unicodedata.combining(char):
            points.update((index, index + 1))  # before and after the joiner/mark
        elif 0x1F1E6 <= ord(char) <= 0x1F1FF:  # regional indicators: a flag is two
            points.add(index + 1)
    return sorted(p for p in points if 0 < p < len(text))


def adversarial_splits(
    text: str,
    *,
    markers: Sequence[str] = DEFAULT_MARKERS,
    seeds: Sequence[int] = (0, 1, 2),
) -> Iterator[list[str]]:
    """Chunkings of ``text`` worth testing; each one joins back to ``text``.

    Whole; one character at a time; cut at every adversarial point; cut at every other
    adversarial point (so each marker is split once, differently); and random cuts for
    each seed.
    """
    yield [text]
    if not text:
        return
    yield list(text)
    points = adversarial_points(text, markers)
    yield split_at(text, points)
    yield split_at(text, points[::2])
    yield split_at(text, points[1::2])
    for seed in seeds:
        rng = random.Random(seed)
        count = rng.randint(1, max(1, len(text) // 3))
        yield split_at(text, rng.sample(range(1, len(text) + 1), min(count, len(text))))


def chunk_bytes(data: bytes, size: int) -> list[bytes]:
    """``data`` in pieces of ``size`` bytes: multi-byte UTF-8 characters get cut."""
    if size < 1:
        raise ValueError("size must be at least 1")
    return [data[i : i + size] for i in range(0, len(data), size)] or [b""]
