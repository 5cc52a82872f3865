"""Ordinary HTML in a markdown reply is text for the commands' default registry: inline
tags, tables and void elements come out of ``extract`` and ``view`` exactly as written;
unknown ``!!`` types and gadget calls are still generic blocks."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import json_events, run
from streamblocks import (
    BlockRegistry,
    EventType,
    Limits,
    StreamBlockProcessor,
    XMLTagSyntax,
)
from streamblocks.cli import default_registry
from streamblocks.runs.registries import DEFAULT_UNKNOWN
from streamblocks.syntaxes.xml import HTML_VOID_ELEMENTS

REPLY = (
    "# Shortcuts\n\n"
    "Press <kbd>Ctrl</kbd>+<kbd>C</kbd> or <b>x</b>, see <a href='#top'>the top</a>.\n"
    'Intro <img src=x alt="logo"> end.<br>\n'
    "Line one<br/>line two <hr> <input type=checkbox checked> <meta charset=utf-8>\n\n"
    "| key | what |\n"
    "|-----|------|\n"
    "| <kbd>q</kbd> | quit <sup>1</sup> |\n"
    '| <code>x</code> | <span style="color:red">red</span> |\n\n'
    "<details><summary>More</summary>\n\nHidden <em>text</em>.\n</details>\n"
)


def visible(events: list[Any]) -> str:
    return "".join(e.text for e in events if e.type is EventType.TEXT_DELTA)


def default_processor() -> StreamBlockProcessor:
    return StreamBlockProcessor(default_registry(), unknown=DEFAULT_UNKNOWN)


def test_a_markdown_reply_with_html_is_all_text() -> None:
    events = list(default_processor().process([REPLY]))
    assert visible(events) == REPLY
    assert not [e for e in events if e.type in (EventType.BLOCK_START, EventType.BLOCK_ERROR)]


def test_a_void_element_swallows_nothing_and_a_note_after_it_is_a_block() -> None:
    reply = "Intro <img src=x> end.\n!!n1:note\nA note body.\n!!end\n"
    events = list(default_processor().process([reply]))
    assert visible(events) == "Intro <img src=x> end.\n"
    ends = [e.block for e in events if e.type is EventType.BLOCK_END]
    assert [(b.type, b.content) for b in ends] == [("note", "A note body.\n")]


def test_unknown_delimiter_types_and_gadget_calls_are_still_generic_blocks() -> None:
    reply = "a\n!!w1:widget\nx\n!!end\n!!!GADGET_START:Lookup\n!!!ARG:q\n1\n!!!GADGET_END\n"
    events = list(default_processor().process([reply]))
    ends = [e.block for e in events if e.type is EventType.BLOCK_END]
    assert [(b.type, b.syntax) for b in ends] == [
        ("widget", "delimiter_preamble"),
        ("Lookup", "gadget"),
    ]


@pytest.mark.parametrize("name", sorted(HTML_VOID_ELEMENTS))
def test_a_void_element_is_never_a_generic_block(name: str) -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=XMLTagSyntax())
    processor = StreamBlockProcessor(registry, unknown="block")
    text = f"a <{name} x=1> b <{name.upper()}> <p>c</p>\n"
    events = list(processor.process([text]))
    assert visible(events) == f"a <{name} x=1> b <{name.upper()}> \n"
    assert [e.block.type for e in events if e.type is EventType.BLOCK_END] == ["p"]


def test_a_registered_void_name_is_a_block() -> None:
    registry = BlockRegistry()
    registry.register("img", syntax=XMLTagSyntax())
    events = list(StreamBlockProcessor(registry).process(['a <img src="x"/> b']))
    assert [e.block.attrs for e in events if e.type is EventType.BLOCK_END] == [{"src": "x"}]


def test_a_registered_tag_left_open_holds_at_most_max_block_chars() -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=XMLTagSyntax())
    registry.register("todo")
    reply = "Intro <note> " + "word " * 200 + "\n!!t1:todo\nship it\n!!end\n"
    processor = StreamBlockProcessor(registry, limits=Limits(max_block_chars=100))
    events = list(processor.process([reply[i : i + 7] for i in range(0, len(reply), 7)]))
    errors = [e for e in events if e.type is EventType.BLOCK_ERROR]
    assert [e.code.value for e in errors] == ["TOO_LARGE"]
    assert len(errors[0].raw) <= 100 + len("<note>")
    assert [e.block.content for e in events if e.type is EventType.BLOCK_END] == ["ship it\n"]


def test_the_per_syntax_policy_is_checked() -> None:
    with pytest.raises(ValueError, match="'maybe'"):
        StreamBlockProcessor(BlockRegistry(), unknown={"xml": "maybe"})


def test_extract_prints_the_reply_as_it_came(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "reply.md"
    path.write_text(REPLY, encoding="utf-8")
    code, out, err = run(capsys, "extract", "--json", str(path))
    assert (code, err) == (0, "")
    records = json_events(out)
    text = "".join(r["text"] for r in records if r["type"] == "TEXT_DELTA")
    assert text == REPLY
    assert not [r for r in records if r["type"] in ("BLOCK_START", "BLOCK_ERROR")]


def test_view_serves_the_reply_as_text(serve_view: Any, tmp_path: Path) -> None:
    path = tmp_path / "reply.md"
    path.write_text(REPLY, encoding="utf-8")
    events = serve_view(path)
    text = ("TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CHUNK")  # a text read whole is one chunk
    deltas = "".join(e["delta"] for e in events if e["type"] in text)
    assert deltas == REPLY
    assert not [
        e
        for e in events
        if e["type"] == "CUSTOM" and e.get("name", "").startswith("streamblocks.block")
    ]


@pytest.fixture
def serve_view() -> Any:
    """The page's event stream for a file, with the processor ``streamblocks view`` builds."""
    pytest.importorskip("starlette", reason="the [view] extra is not installed")
    pytest.importorskip("uvicorn", reason="the [view] extra is not installed")
    from streamblocks.cli.commands.view import _processor
    from streamblocks.runs import live as source
    from view.served import Served, events_of

    started: list[Any] = []

    def serve(path: Path) -> list[dict[str, Any]]:
        args = argparse.Namespace(adapter=None, registry=None, markup=None)
        handle = path.open("rb")
        served = Served(source.read(handle), _processor(args))
        started.append((served, handle))
        return events_of(served)

    yield serve
    for served, handle in started:
        served.stop()
        handle.close()
