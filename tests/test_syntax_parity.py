"""Syntax features DESIGN.md fixes after porting the peers' test suites: configurable
delimiters, blank lines before a frontmatter, named and positional preamble parameters
checked against the metadata model, and a transform's list holding only events and
strings."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from helpers import assert_invariant, blocks, errors, run, visible_text
from streamblocks import (
    BlockRegistry,
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    ErrorCode,
    EventType,
    StreamBlockProcessor,
    TextDelta,
)


def _processor(**register: Any) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note", **register)
    return StreamBlockProcessor(registry, input_adapter=None)


# ---------------------------------------------------------------- delimiters


def test_preamble_delimiter_is_configurable() -> None:
    proc = _processor(syntax=DelimiterPreambleSyntax(delimiter="@@"))
    text = "a\n@@n1:note\nx\n!!end\n@@end\n!!n2:note\ny\n!!end\nz"
    events = assert_invariant(proc, text)
    (block,) = blocks(events)
    assert (block.id, block.content) == ("n1", "x\n!!end\n")
    assert visible_text(events) == "a\n!!n2:note\ny\n!!end\nz"


def test_frontmatter_delimiter_is_configurable() -> None:
    proc = _processor(syntax=DelimiterFrontmatterSyntax(delimiter="@@"))
    text = "@@start\n---\nid: t1\nblock_type: note\n---\nbody\n@@end\n!!start\n"
    events = assert_invariant(proc, text)
    (block,) = blocks(events)
    assert (block.id, block.content) == ("t1", "body\n")
    assert visible_text(events) == "!!start\n"


def test_a_delimiter_with_spaces_or_colons_is_refused() -> None:
    with pytest.raises(ValueError, match="delimiter"):
        DelimiterPreambleSyntax(delimiter="a:")
    with pytest.raises(ValueError, match="delimiter"):
        DelimiterFrontmatterSyntax(delimiter="@ @")


def test_blank_lines_may_stand_between_start_and_the_frontmatter() -> None:
    proc = _processor(syntax=DelimiterFrontmatterSyntax())
    text = "!!start\n\n  \n---\nid: t1\nblock_type: note\n---\nbody\n!!end\n"
    (block,) = blocks(assert_invariant(proc, text))
    assert (block.id, block.content, block.raw) == ("t1", "body\n", text)


def test_blank_lines_then_no_frontmatter_is_text() -> None:
    proc = _processor(syntax=DelimiterFrontmatterSyntax())
    text = "!!start\n\nnot yaml\n!!end\n"
    events = assert_invariant(proc, text)
    assert not blocks(events)
    assert visible_text(events) == text


def test_a_yaml_error_after_blank_lines_names_the_line_written() -> None:
    proc = _processor(syntax=DelimiterFrontmatterSyntax())
    text = "!!start\n\n---\nid: [1\nblock_type: note\n---\nbody\n!!end\n"
    (error,) = errors(assert_invariant(proc, text))
    assert error.code is ErrorCode.PARSE_FAILED
    assert "line" in error.message


# ---------------------------------------------------------------- parameters


class Patch(BaseModel):
    id: str
    block_type: str
    path: str
    line: int = 0


def test_named_parameters_are_metadata_keys() -> None:
    proc = _processor()
    (block,) = blocks(assert_invariant(proc, "!!n1:note:a.py:mode=fast\nx\n!!end\n"))
    assert block.metadata == {"id": "n1", "block_type": "note", "params": ["a.py"], "mode": "fast"}
    assert block.attrs == {"params": ["a.py"], "mode": "fast"}


@pytest.mark.parametrize(
    "opener",
    ["!!p1:note:src/a.py:12", "!!p1:note:src/a.py:line=12", "!!p1:note:line=12:path=src/a.py"],
)
def test_positional_and_named_parameters_fill_the_model(opener: str) -> None:
    proc = _processor(metadata=Patch)
    (block,) = blocks(assert_invariant(proc, f"{opener}\nx\n!!end\n"))
    assert block.metadata == Patch(id="p1", block_type="note", path="src/a.py", line=12)


@pytest.mark.parametrize(
    ("opener", "reason"),
    [
        ("!!p1:note:src/a.py:12:extra", "'extra' does not fit"),
        ("!!p1:note:src/a.py:colour=red", "'colour' is not a field"),
        ("!!p1:note:src/a.py:path=b.py", "'path' is given twice"),
        ("!!p1:note:src/a.py:twelve", "line"),  # pydantic: not an int
        ("!!p1:note", "path"),  # pydantic: missing
    ],
)
def test_a_parameter_that_does_not_fit_is_a_validation_error(opener: str, reason: str) -> None:
    proc = _processor(metadata=Patch)
    text = f"{opener}\nx\n!!end\n"
    events = assert_invariant(proc, text)
    (error,) = errors(events)
    assert error.code is ErrorCode.VALIDATION_FAILED
    assert reason in error.message
    assert error.raw == text
    assert not blocks(events)


# ---------------------------------------------------------------- transforms


@pytest.mark.parametrize("replacement", [[None], [1], ["ok", object()]])
def test_a_transform_list_of_non_events_is_a_hook_failure(replacement: list[Any]) -> None:
    proc = _processor(transform=lambda block: replacement)
    text = "a\n!!n1:note\nx\n!!end\nb"
    events = assert_invariant(proc, text)
    (error,) = errors(events)
    assert error.code is ErrorCode.HOOK_FAILED
    assert "transform" in error.message
    assert error.raw == "!!n1:note\nx\n!!end\n"
    raw_events = run(proc, list(text))
    assert all(isinstance(getattr(event, "type", None), EventType) for event in raw_events)


def test_a_transform_list_of_events_and_strings_replaces_the_block() -> None:
    proc = _processor(transform=lambda block: ["<", TextDelta(block.content.strip()), ">"])
    text = "a\n!!n1:note\nx\n!!end\nb"
    for chunks in ([text], list(text)):
        assert visible_text(run(proc, chunks)) == "a\n<x>b"
