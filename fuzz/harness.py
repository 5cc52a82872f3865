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

from pydantic import BaseModel

from streamblocks import (
    BlockRegistry,
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    GadgetSyntax,
    Limits,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    XMLTagSyntax,
)
from streamblocks.testing import conserved, normalise, split_random
from streamblocks.testing import run_chunks as run


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


def check(text: str, option: int = 0) -> None:
    """Raise ``AssertionError`` when an invariant fails for ``text``."""
    processor = PROCESSORS[option % len(PROCESSORS)]
    whole = run(processor, [text])
    assert conserved(whole) == text, "conservation"
    reference = normalise(whole)
    assert normalise(run(processor, list(text))) == reference, "one character at a time"
    split = split_random(text, option)
    assert normalise(run(processor, split)) == reference, f"chunking {split!r}"


def one_input(data: bytes) -> None:
    if not data:
        return
    check(decode(data[1:]), data[0])
