"""The second inline syntax, ``examples/cite_syntax.py``, written only against the
inline-syntax protocol: it runs beside the built-in syntaxes with every invariant."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import assert_invariant, blocks, errors, visible_text
from streamblocks import (
    BlockRegistry,
    DelimiterPreambleSyntax,
    ErrorCode,
    Limits,
    StreamBlockProcessor,
    XMLTagSyntax,
)

_PATH = Path(__file__).resolve().parent.parent / "examples" / "cite_syntax.py"
_SPEC = importlib.util.spec_from_file_location("cite_syntax", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
cite_syntax: Any = importlib.util.module_from_spec(_SPEC)
sys.modules["cite_syntax"] = cite_syntax
_SPEC.loader.exec_module(cite_syntax)


def _processor(limits: Limits | None = None) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("cite", syntax=cite_syntax.CiteSyntax())
    registry.register("note", syntax=XMLTagSyntax())
    registry.register("memo", syntax=DelimiterPreambleSyntax())
    return StreamBlockProcessor(registry, input_adapter=None, limits=limits)


def test_the_example_runs() -> None:
    (block,) = cite_syntax.demo()
    assert block.content == {"source": "RFC 9110", "quote": "a request method token"}


def test_citations_beside_xml_and_line_blocks() -> None:
    text = (
        "As [[cite:A]]one [x] [[/c [[[/cite]] and <note>n</note>\n"
        "!!m1:memo\n[[cite:B]]in a memo[[/cite]]\n!!end\n"
        "[[cite: C ]]two\nlines[[/cite]]."
    )
    events = assert_invariant(_processor(), text)
    found = [(b.type, b.content) for b in blocks(events)]
    assert found == [
        ("cite", {"source": "A", "quote": "one [x] [[/c ["}),
        ("note", "n"),
        ("memo", "[[cite:B]]in a memo[[/cite]]\n"),
        ("cite", {"source": "C", "quote": "two\nlines"}),
    ]
    assert visible_text(events) == "As  and \n."


@pytest.mark.parametrize(
    "text",
    ["[[cite:]]x[[/cite]]", "[[cite:a]b]]x", "[[cite:a\nb]]x", "[[cite [[ci", "[[cite:a[b]]"],
)
def test_what_is_not_a_citation_stays_text(text: str) -> None:
    events = assert_invariant(_processor(), text)
    assert not blocks(events)
    assert visible_text(events) == text


def test_an_opener_prefix_is_held_only_while_it_may_complete() -> None:
    session = _processor().session()
    assert visible_text(session.feed("see [[ci")) == "see "
    assert visible_text(session.feed("ty")) == "[[city"


def test_unclosed_citation_keeps_its_raw() -> None:
    text = "a [[cite:S]]never closed [[/ci"
    events = assert_invariant(_processor(), text)
    (error,) = errors(events)
    assert error.code is ErrorCode.UNCLOSED
    assert error.raw == "[[cite:S]]never closed [[/ci"


def test_a_citation_over_the_block_limit_is_too_large() -> None:
    text = "[[cite:S]]" + "q" * 40 + "[[/cite]] after"
    events = assert_invariant(_processor(Limits(max_block_chars=30)), text)
    (error,) = errors(events)
    assert error.code is ErrorCode.TOO_LARGE
    assert error.raw == text[:30]
    assert visible_text(events) == text[30:]
