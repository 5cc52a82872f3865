"""The checks the fuzzer runs on each input, importable without atheris.

``one_input(data)`` reads the first byte as options (which processor, which chunking),
decodes the rest as UTF-8 with ``errors="surrogateescape"`` (every byte string becomes a
``str``; invalid bytes become lone surrogates U+DC80..U+DCFF, which is what a careless
decoder upstream hands us) and checks three things for the text:

* nothing raises (any exception is a finding);
* conservation: the visible text, block raws and error raws add up to the input;
* chunking invariance: the whole text, one character at a time and a random split
  (seeded by the input) give the same normalised events.

The tests in ``tests/test_fuzz_regressions.py`` call :func:`check` on every input the
fuzzer ever found a problem with.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from streamblocks import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockRegistry,
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    GadgetSyntax,
    Limits,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    StreamStarted,
    TextDelta,
    XMLTagSyntax,
)


class Point(BaseModel):
    x: int
    y: int = 0


def _registry(xml: XMLTagSyntax) -> BlockRegistry:
    registry = BlockRegistry()
    registry.register("note", syntax=DelimiterPreambleSyntax())
    registry.register("task", syntax=DelimiterFrontmatterSyntax())
    registry.register("code", syntax=MarkdownFrontmatterSyntax())
    registry.register("point", syntax=DelimiterPreambleSyntax(), content=Point)
    registry.register("think", syntax=xml)
    registry.register("cite", syntax=xml, tag="c")
    registry.register("Calc", syntax=GadgetSyntax())
    registry.register("Move", syntax=GadgetSyntax(), content=Point)
    return registry


TIGHT = Limits(max_block_chars=64, max_marker_chars=16, max_metadata_chars=32)
PROCESSORS: tuple[StreamBlockProcessor, ...] = (
    StreamBlockProcessor(_registry(XMLTagSyntax()), input_adapter=None),
    StreamBlockProcessor(_registry(XMLTagSyntax()), input_adapter=None, limits=TIGHT),
    StreamBlockProcessor(
        _registry(XMLTagSyntax(code_aware=False)), input_adapter=None, unknown="error"
    ),
    StreamBlockProcessor(
        _registry(XMLTagSyntax(prefilled="think")), input_adapter=None, unknown="block"
    ),
)


def decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def run(processor: StreamBlockProcessor, chunks: Iterable[str]) -> list[Any]:
    session = processor.session("fuzz")
    events: list[Any] = []
    for chunk in chunks:
        events.extend(session.feed(chunk))
    events.extend(session.close())
    return events


def normalise(events: Sequence[Any]) -> list[Any]:
    merged: list[Any] = []
    for event in events:
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
        elif not isinstance(event, StreamStarted):
            merged.append(event)
    return merged


def conserved(events: Iterable[Any]) -> str:
    parts = []
    for event in events:
        if isinstance(event, TextDelta):
            parts.append(event.text)
        elif isinstance(event, BlockEnd):
            parts.append(event.block.raw)
        elif isinstance(event, BlockError):
            parts.append(event.raw)
    return "".join(parts)


def random_split(text: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    chunks, i = [], 0
    while i < len(text):
        size = rng.randint(1, 9)
        chunks.append(text[i : i + size])
        i += size
    return chunks


def check(text: str, option: int = 0) -> None:
    """Raise ``AssertionError`` when an invariant fails for ``text``."""
    processor = PROCESSORS[option % len(PROCESSORS)]
    whole = run(processor, [text])
    assert conserved(whole) == text, "conservation"
    reference = normalise(whole)
    assert normalise(run(processor, list(text))) == reference, "one character at a time"
    split = random_split(text, option)
    assert normalise(run(processor, split)) == reference, f"chunking {split!r}"


def one_input(data: bytes) -> None:
    if not data:
        return
    check(decode(data[1:]), data[0])
