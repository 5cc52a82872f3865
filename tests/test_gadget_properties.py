"""Property tests for gadgets: chunking invariance, conservation, argument round-trip."""

from __future__ import annotations

import math
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import assert_invariant, blocks, conserved, errors, normalise, run
from streamblocks import BlockRegistry, DelimiterPreambleSyntax, GadgetSyntax, StreamBlockProcessor
from streamblocks.syntaxes.arguments import coerce, escape_token

NAMES = ("Calc", "search", "G.v2")
_INDEX = re.compile(r"0|[1-9][0-9]*")


def _processor(syntax: GadgetSyntax | None = None) -> StreamBlockProcessor:
    registry = BlockRegistry()
    for name in NAMES:
        registry.register(name, syntax=syntax or GadgetSyntax())
    registry.register("note", syntax=DelimiterPreambleSyntax())
    return StreamBlockProcessor(registry, input_adapter=None)


PROCESSOR = _processor()

# ---------------------------------------------------------------------- JSON-like values

_line_text = st.text(
    alphabet=st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)),
    max_size=12,
)
_strings = (
    st.lists(_line_text, min_size=1, max_size=3)
    .map("\n".join)
    .filter(lambda s: not any(line.startswith("!!!") for line in s.split("\n")))
)
_keys = _line_text.filter(
    lambda k: bool(k) and k == k.strip() and k != "-" and not _INDEX.fullmatch(k)
)
_leaves = st.one_of(
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    _strings,
)
_values = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3),
        st.dictionaries(_keys, inner, min_size=1, max_size=3),
    ),
    max_leaves=12,
)
_arguments = st.dictionaries(_keys, _values, max_size=4)


def _text_of(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    assert isinstance(value, str)
    return value


def _flatten(value: Any, pointer: str) -> list[tuple[str, str]]:
    if isinstance(value, dict):
        items: Any = ((escape_token(k), v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((str(i), v) for i, v in enumerate(value))
    else:
        return [(pointer, _text_of(value))]
    pairs: list[tuple[str, str]] = []
    for token, item in items:
        pairs.extend(_flatten(item, f"{pointer}/{token}" if pointer else token))
    return pairs


def _expected(value: Any) -> Any:
    """``value`` after the documented coercion of single-line text."""
    if isinstance(value, dict):
        return {k: _expected(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_expected(v) for v in value]
    if isinstance(value, str) and "\n" not in value:
        return coerce(value)
    return value


def serialize(name: str, arguments: dict[str, Any]) -> str:
    parts = [f"!!!GADGET_START:{name}\n"]
    for pointer, text in _flatten(arguments, ""):
        parts.append(f"!!!ARG:{pointer}\n{text}\n")
    parts.append("!!!GADGET_END\n")
    return "".join(parts)


def _same(a: Any, b: Any) -> bool:
    """Equality that also compares types (``1 == 1.0 == True`` in Python)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return type(a) is type(b) and a == b


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(_arguments, st.sampled_from(NAMES), st.integers(min_value=1, max_value=9))
def test_round_trip(arguments: dict[str, Any], name: str, size: int) -> None:
    text = serialize(name, arguments)
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    events = run(PROCESSOR, chunks)
    assert not errors(events), errors(events)
    (block,) = blocks(events)
    assert block.type == name
    assert _same(block.content, _expected(arguments))
    assert block.raw == text


# ---------------------------------------------------------------------- whole documents

_prose = st.sampled_from(
    [
        "Hello there.\n",
        "Let me call a tool.\n",
        "!!!GADGET_START\n",
        "!!!GADGET_START:Nope\n",
        "!!!gadget_start:Calc\n",
        "!!!ARG:stray\n",
        "!!!GADGET_END\n",
        "!!\n",
        "```\n",
        "  indented !!!GADGET_START:Calc\n",
        "no newline at the end",
        "\n",
    ]
)
_broken = st.sampled_from(
    [
        "!!!GADGET_START:Calc\n!!!ARG:a\n1\n!!!ARG:a\n2\n!!!GADGET_END\n",
        "!!!GADGET_START:Calc\n!!!ARG:xs/0\n1\n!!!ARG:xs/2\n2\n!!!GADGET_END\n",
        "!!!GADGET_START:Calc\ntext first\n!!!ARG:a\n1\n!!!GADGET_END\n",
        "!!!GADGET_START:search\n!!!ARG:q\nunclosed\n",
        "!!!GADGET_START:Calc\n!!!ARG:a~9\n1\n!!!GADGET_END:Calc\n",
    ]
)
_note = st.sampled_from(["!!n1:note\nsome note\n!!end\n", "!!n2:note\n!!!ARG:x\n!!end\n"])
_gadgets = st.builds(serialize, st.sampled_from(NAMES), _arguments)
_documents = st.lists(st.one_of(_prose, _broken, _note, _gadgets), max_size=6).map("".join)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents)
def test_chunking_invariance_and_conservation(text: str) -> None:
    assert_invariant(PROCESSOR, text)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents, st.lists(st.integers(min_value=0, max_value=400), max_size=12))
def test_arbitrary_split_points(text: str, cuts: list[int]) -> None:
    points = sorted({c for c in cuts if 0 < c < len(text)})
    chunks = [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]
    reference = normalise(run(PROCESSOR, [text]))
    got = normalise(run(PROCESSOR, chunks))
    assert got == reference
    assert conserved(got) == text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_prose, _gadgets), max_size=5).map("".join))
def test_custom_markers_invariance(text: str) -> None:
    syntax = GadgetSyntax(start_prefix="<<<START:", end_prefix="<<<END:", arg_prefix="@param:")
    custom = (
        text.replace("!!!GADGET_START:", "<<<START:")
        .replace("!!!GADGET_END", "<<<END:")
        .replace("!!!ARG:", "@param:")
    )
    assert_invariant(_processor(syntax), custom)
