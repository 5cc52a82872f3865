"""A syntax of your own whose parser never sets ``LineParser.started`` gets a
``PARSE_FAILED`` error that names the cause (issue 39, item 5)."""

from __future__ import annotations

import runpy
from pathlib import Path

from streamblocks import BlockRegistry, EventType, StreamBlockProcessor
from streamblocks.core.errors import ErrorCode

EXAMPLE = runpy.run_path(str(Path(__file__).parents[1] / "examples" / "custom_syntax.py"))


class Unstarted(EXAMPLE["AtBlock"]):  # type: ignore[misc]
    started = False  # the mistake: the opener line is the whole header


class UnstartedSyntax(EXAMPLE["AtSyntax"]):  # type: ignore[misc]
    def open(self, line: str, complete: bool, types: object) -> object:
        found = super().open(line, complete, types)
        return Unstarted(found.header) if isinstance(found, EXAMPLE["AtBlock"]) else found


def test_a_parser_left_unstarted_says_what_to_set() -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=UnstartedSyntax())
    text = "Noted.\n@@ note Shopping\nmilk\n@@\nbye"
    events = list(StreamBlockProcessor(registry, input_adapter=None).process([text]))
    (error,) = [e for e in events if e.type is EventType.BLOCK_ERROR]
    assert error.code is ErrorCode.PARSE_FAILED
    assert "LineParser.started = True" in error.message
    assert error.raw == "@@ note Shopping\nmilk\n@@\n"
