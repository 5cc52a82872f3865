"""Size limits that bound what a session holds in memory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .frozen import by_constructor


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on held text, in characters.

    Only the *incomplete* thing is bounded: visible text and block content stream out as
    they arrive. A block is held (for its ``raw`` and its final parse) up to
    ``max_block_chars``; an opening marker still being read up to ``max_marker_chars``;
    a metadata section (frontmatter) up to ``max_metadata_chars``. Crossing a limit
    rejects the block with a ``BLOCK_ERROR`` whose ``raw`` is what was held; the text
    after it flows on as visible text.
    """

    max_block_chars: int = 1_048_576
    max_marker_chars: int = 2_048
    max_metadata_chars: int = 65_536

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_constructor(self)

    def __post_init__(self) -> None:
        for name in ("max_block_chars", "max_marker_chars", "max_metadata_chars"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 16:
                raise ValueError(f"Limits.{name} must be an int >= 16, got {value!r}")
