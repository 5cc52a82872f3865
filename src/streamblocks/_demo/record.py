"""Rebuild ``anthropic.ndjson``, the recording ``streamblocks demo`` replays.

``python -m streamblocks._demo.record`` writes it next to this file: ``reply.txt`` as an
Anthropic Messages stream (wire JSON, one event per line) with a short thinking block
first, cut into token-sized pieces of 1 to 7 characters (seeded, so the file is stable).
"""

from __future__ import annotations

import random
from pathlib import Path

from ..testing.mock import MockProvider, MockReply

HERE = Path(__file__).resolve().parent
THINKING = (
    "The user wants the quadratic rescan fixed. Explain the cause in a note, "
    "give the patch, show how to benchmark it, and list what is left."
)


def token_pieces(text: str, seed: int = 3) -> list[str]:
    """``text`` cut like a model's tokens: 1 to 7 characters, seeded."""
    rng = random.Random(seed)
    pieces, start = [], 0
    while start < len(text):
        size = rng.randint(1, 7)
        pieces.append(text[start : start + size])
        start += size
    return pieces


def recording() -> str:
    reply = (HERE / "reply.txt").read_text("utf-8")
    provider = MockProvider(
        [], provider="anthropic", chunk_size=token_pieces, model="claude-demo", sdk_types=False
    )
    return provider.dump(MockReply(text=reply, thinking=THINKING, usage=(412, 236)))


if __name__ == "__main__":
    (HERE / "anthropic.ndjson").write_text(recording(), encoding="utf-8")
