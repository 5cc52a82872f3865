"""XMLTagSyntax: inline tags, noise, nesting, code awareness, prefilled opener, limits."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, Field

from helpers import assert_invariant, blocks, chunkings, conserved, errors, normalise, run
from streamblocks import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockRegistry,
    BlockStart,
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    ErrorCode,
    Limits,
    MarkdownFrontmatterSyntax,
    RegistryError,
    StreamBlockProcessor,
    TextDelta,
    XMLTagSyntax,
)
from streamblocks.syntaxes import XMLTagSyntax as XMLFromSyntaxes
from streamblocks.syntaxes.xml import decode_entities, parse_attrs

XML = XMLTagSyntax()


def processor(*tags: str, xml: XMLTagSyntax = XML, **options: Any) -> StreamBlockProcessor:
    registry = BlockRegistry()
    for tag in tags or ("citation", "think", "note", "done"):
        registry.register(tag, syntax=xml)
    return StreamBlockProcessor(registry, input_adapter=None, **options)


def visible(events: list[Any]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def kinds(events: list[Any]) -> list[str]:
    return [e[0] if type(e) is tuple else e.type.value for e in events]


def test_exported_from_both_places() -> None:
    assert XMLFromSyntaxes is XMLTagSyntax
    assert XMLTagSyntax.name == "xml"


def test_citation_in_a_line() -> None:
    events = assert_invariant(processor(), 'text<citation url="u">quote</citation>more')
    assert kinds(events) == [
        "STREAM_STARTED",
        "TEXT_DELTA",
        "BLOCK_START",
        "BLOCK_METADATA",
        "BLOCK_DELTA",
        "BLOCK_END",
        "TEXT_DELTA",
        "STREAM_FINISHED",
    ]
    start = events[2]
    assert start == BlockStart("block-1", "citation", "xml", {"url": "u"})
    assert events[3] == BlockMetadata("block-1", "citation", {"url": "u"})
    assert events[4] == BlockDelta("block-1", "citation", "content", "quote")
    block = events[5].block
    assert block.content == "quote"
    assert block.attrs == {"url": "u"}
    assert block.metadata == {"url": "u"}
    assert block.raw == '<citation url="u">quote</citation>'
    assert (block.start, block.end) == (4, 38)
    assert visible(events) == "textmore"


def test_block_start_comes_in_the_feed_that_completes_the_tag() -> None:
    session = processor().session()
    assert kinds(session.feed("a <cit")) == ["STREAM_STARTED", "TEXT_DELTA"]
    assert session.feed("ation") == []
    assert kinds(session.feed(">")) == ["BLOCK_START"]
    assert session.feed("q") == [BlockDelta("block-1", "citation", "content", "q")]
    assert kinds(session.feed("</citation")) == []
    assert kinds(session.feed(">!")) == ["BLOCK_END", "TEXT_DELTA"]


@pytest.mark.parametrize(
    "text",
    [
        "<div>hello</div>",
        "a < b and c > d",
        "I <3 you",
        "<foo>x</foo>",
        "stray </citation> closer",
        "<think about it",
        "if a <b then c",
        "<citation",
        '<citation url = "spaced">x</citation>',
        "<citationx>x</citationx>",
        "< citation>x</citation>",
        "<<<>>>",
        "</think>",
        "<note/ >",
    ],
)
def test_noise_stays_text(text: str) -> None:
    events = assert_invariant(processor(), text)
    assert visible(events) == text
    assert not blocks(events)
    assert not errors(events)


@pytest.mark.parametrize(
    ("prefix", "released"),
    [
        ("<think about", "<think about"[:0]),  # still may be <think about="...">
        ("<think about ", ""),  # still may be <think about other="...">
        ("<think about, ", "<think about, "),
        ("a <b", "a <b"),  # no registered tag starts with b
        ("a <d", "a "),  # <done> may follow
        ("a <3", "a <3"),
        ("x < y", "x < y"),
        ("<div", "<div"),
        ("<no", ""),
        ("<nob", "<nob"),
    ],
)
def test_no_stalls(prefix: str, released: str) -> None:
    session = processor().session()
    events = session.feed(prefix)
    assert visible(events) == released


def test_released_at_the_first_character_that_rules_a_tag_out() -> None:
    session = processor().session()
    assert visible(session.feed("<think abo")) == ""
    assert visible(session.feed("ut")) == ""
    assert visible(session.feed(" it")) == ""  # bare attributes: <think about it>
    assert visible(session.feed(", so")) == "<think about it, so"


def test_tags_anywhere_and_split_everywhere() -> None:
    text = "a<think>x</think>b <note id='n1'>y</note><done/>\nc<citation>z</citation>\n"
    events = assert_invariant(processor(), text)
    found = blocks(events)
    assert [(b.type, b.id, b.content) for b in found] == [
        ("think", "block-1", "x"),
        ("note", "n1", "y"),
        ("done", "block-2", ""),
        ("citation", "block-3", "z"),
    ]
    assert visible(events) == "ab \nc\n"


def test_attributes_quotes_entities_and_order() -> None:
    text = (
        "<citation z='1' a=\"&lt;&amp;&gt;&quot;&apos;\" m='it&apos;s' "
        'n="&#65;&#x42;">q</citation>'
    )
    (block,) = blocks(assert_invariant(processor(), text))
    assert list(block.attrs) == ["z", "a", "m", "n"]
    assert block.attrs == {"z": "1", "a": "<&>\"'", "m": "it's", "n": "AB"}
    assert block.raw == text


def test_entity_helpers() -> None:
    assert decode_entities("a &unknown; &amp;amp;") == "a &unknown; &amp;"
    assert decode_entities("&#1114112;") == "&#1114112;"
    assert parse_attrs("a='1' b=\"2\" a='3'") == {"a": "3", "b": "2"}


def test_id_attribute_is_the_block_id() -> None:
    (block,) = blocks(assert_invariant(processor(), '<note id="n-7" kind="x">body</note>'))
    assert block.id == "n-7"
    assert block.attrs == {"id": "n-7", "kind": "x"}


def test_self_closing() -> None:
    events = assert_invariant(processor(), 'x <done/> y <done  status="ok" /> z')
    assert [(b.raw, b.content, dict(b.attrs)) for b in blocks(events)] == [
        ("<done/>", "", {}),
        ('<done  status="ok" />', "", {"status": "ok"}),
    ]
    assert visible(events) == "x  y  z"


def test_same_tag_does_not_nest() -> None:
    events = assert_invariant(processor(), "<note>a <note>b</note> c</note> d")
    (block,) = blocks(events)
    assert block.content == "a <note>b"
    assert visible(events) == " c</note> d"


def test_think_about_think_tags() -> None:
    events = assert_invariant(processor(), "<think>about <think> tags</think>rest")
    (block,) = blocks(events)
    assert block.content == "about <think> tags"
    assert visible(events) == "rest"


@pytest.mark.parametrize(
    ("text", "attrs", "content"),
    [
        ("<citation url=unquoted>x</citation>", {"url": "unquoted"}, "x"),
        ("<citation url=a/b?c&amp;d >x</citation>", {"url": "a/b?c&d"}, "x"),
        ("<citation\n>x</citation>", {}, "x"),
        ('<citation url="line\nbreak">x</citation>', {"url": "line\nbreak"}, "x"),
        (
            "<citation a='1'\n  b=\"2\" c=3\n  d>x</citation>",
            {"a": "1", "b": "2", "c": "3", "d": ""},
            "x",
        ),
        ("<think about it> later</think>", {"about": "", "it": ""}, " later"),
        ("<done checked/>", {"checked": ""}, ""),
    ],
)
def test_attribute_forms_and_tags_over_lines(
    text: str, attrs: dict[str, str], content: str
) -> None:
    (block,) = blocks(assert_invariant(processor(), text))
    assert dict(block.attrs) == attrs
    assert block.content == content
    assert block.raw == text


def test_a_tag_longer_than_the_marker_limit_is_not_a_tag() -> None:
    limits = Limits(max_marker_chars=16)
    text = "<citation\n\n\n\n\n\n\n\n\n\n>x</citation>"
    events = assert_invariant(processor(limits=limits), text)
    assert not blocks(events)
    (error,) = errors(events)
    assert error.code is ErrorCode.MARKER_TOO_LARGE
    assert error.raw == text[:16]


def test_self_closing_same_tag_inside_does_not_nest() -> None:
    (block,) = blocks(assert_invariant(processor(), "<note>a <note/> b</note>"))
    assert block.content == "a <note/> b"


def test_other_registered_tags_inside_a_block_are_content() -> None:
    events = assert_invariant(processor(), "<think>see <citation>q</citation></think>")
    (block,) = blocks(events)
    assert block.type == "think"
    assert block.content == "see <citation>q</citation>"


def test_closing_tag_tolerates_whitespace() -> None:
    (block,) = blocks(assert_invariant(processor(), "<think>x</think \t>after"))
    assert block.raw == "<think>x</think \t>"


def test_block_content_spans_lines_and_is_not_line_parsed() -> None:
    text = "<think>\nline\n!!b1:note\n```\n</think>\n!!b2:note\nbody\n!!end\n"
    registry = BlockRegistry()
    registry.register("think", syntax=XML)
    registry.register("note", syntax=DelimiterPreambleSyntax())
    events = assert_invariant(StreamBlockProcessor(registry, input_adapter=None), text)
    think, note = blocks(events)
    assert think.content == "\nline\n!!b1:note\n```\n"
    assert note.id == "b2"
    assert note.content == "body\n"
    assert visible(events) == "\n"


def test_after_a_block_the_line_goes_on_mid_line() -> None:
    registry = BlockRegistry()
    registry.register("think", syntax=XML)
    registry.register("note", syntax=DelimiterPreambleSyntax())
    text = "<think>a\n</think>!!b1:note\nx\n!!end\n"
    events = assert_invariant(StreamBlockProcessor(registry, input_adapter=None), text)
    assert [b.type for b in blocks(events)] == ["think"]
    assert visible(events) == "!!b1:note\nx\n!!end\n"


def test_line_openers_are_decided_first() -> None:
    registry = BlockRegistry()
    registry.register("citation", syntax=XML)
    registry.register("note", syntax=[DelimiterPreambleSyntax(), DelimiterFrontmatterSyntax()])
    text = (
        "!!b1:note\nsee <citation>q</citation>\n!!end\n"
        "!!start\n---\nid: f1\nblock_type: note\n---\n<citation>in</citation>\n!!end\n"
        "then <citation>out</citation>\n"
    )
    events = assert_invariant(StreamBlockProcessor(registry, input_adapter=None), text)
    found = blocks(events)
    assert [(b.type, b.content) for b in found] == [
        ("note", "see <citation>q</citation>\n"),
        ("note", "<citation>in</citation>\n"),
        ("citation", "out"),
    ]


def test_with_markdown_fences() -> None:
    registry = BlockRegistry()
    registry.register("citation", syntax=XML)
    registry.register("patch", syntax=MarkdownFrontmatterSyntax())
    text = (
        "```python\nx = '<citation>shown</citation>'\n```\n"
        "```patch\n<citation>inside</citation>\n```\n"
        "<citation>real</citation>\n"
    )
    events = assert_invariant(StreamBlockProcessor(registry, input_adapter=None), text)
    assert [(b.type, b.content) for b in blocks(events)] == [
        ("patch", "<citation>inside</citation>\n"),
        ("citation", "real"),
    ]


# ---------------------------------------------------------------- code awareness


@pytest.mark.parametrize(
    "text",
    [
        "write `<citation>x</citation>` to cite",
        "write ``<citation>` ``</citation>",
        "```\n<citation>x</citation>\n```\n",
        "~~~md\n<think>x</think>\n~~~\n",
        "an open ` tick <citation>x</citation>",
    ],
)
def test_code_is_not_scanned(text: str) -> None:
    events = assert_invariant(processor(), text)
    assert not blocks(events)
    assert visible(events) == text


def test_code_span_ends_with_its_line_and_its_run() -> None:
    text = "a `x` <note>1</note> ``y ` <note>2</note>`` <note>3</note>\n` <note>4</note>\n"
    events = assert_invariant(processor(), text)
    assert [b.content for b in blocks(events)] == ["1", "3"]


def test_unmatched_backtick_is_forgotten_at_the_line_end() -> None:
    events = assert_invariant(processor(), "it`s\n<note>x</note>")
    assert [b.content for b in blocks(events)] == ["x"]


def test_code_awareness_can_be_turned_off() -> None:
    xml = XMLTagSyntax(code_aware=False)
    text = "`<note>a</note>`\n```\n<note>b</note>\n```\n"
    events = assert_invariant(processor("note", xml=xml), text)
    assert [b.content for b in blocks(events)] == ["a", "b"]


def test_xml_code_awareness_shows_fences_even_without_processor_code_aware() -> None:
    text = "```\n<note>b</note>\n```\n"
    events = assert_invariant(processor("note", code_aware=False), text)
    assert not blocks(events)


# ---------------------------------------------------------------- prefilled opener


def test_prefilled_opener() -> None:
    xml = XMLTagSyntax(prefilled="think")
    text = "step 1\nstep 2</think>The answer </think> is 4."
    events = assert_invariant(processor("think", xml=xml), text)
    (block,) = blocks(events)
    assert block.type == "think"
    assert block.content == "step 1\nstep 2"
    assert block.raw == "step 1\nstep 2</think>"
    assert (block.start, block.end) == (0, len(block.raw))
    assert visible(events) == "The answer </think> is 4."
    assert kinds(events)[:2] == ["STREAM_STARTED", "BLOCK_START"]


def test_prefilled_block_starts_before_any_text() -> None:
    session = processor("think", xml=XMLTagSyntax(prefilled="think")).session()
    assert kinds(session.feed("")) == ["STREAM_STARTED", "BLOCK_START"]


def test_prefilled_never_closed_is_unclosed() -> None:
    xml = XMLTagSyntax(prefilled="think")
    events = assert_invariant(processor("think", xml=xml), "thinking forever")
    (error,) = errors(events)
    assert error.code is ErrorCode.UNCLOSED
    assert error.raw == "thinking forever"


def test_prefilled_must_be_registered() -> None:
    with pytest.raises(RegistryError, match="prefilled"):
        processor("note", xml=XMLTagSyntax(prefilled="think")).session()


def test_one_xml_configuration_per_processor() -> None:
    registry = BlockRegistry()
    registry.register("a", syntax=XMLTagSyntax())
    registry.register("b", syntax=XMLTagSyntax(code_aware=False))
    with pytest.raises(RegistryError, match="XMLTagSyntax"):
        StreamBlockProcessor(registry).session()


def test_xml_as_the_default_syntax() -> None:
    registry = BlockRegistry()
    registry.register("note")
    proc = StreamBlockProcessor(registry, syntax=XML, input_adapter=None)
    (block,) = blocks(assert_invariant(proc, "<note>x</note>"))
    assert block.syntax == "xml"


# ---------------------------------------------------------------- errors and limits


def test_unclosed() -> None:
    events = assert_invariant(processor(), "a <think>still thinking <thi")
    (error,) = errors(events)
    assert error.code is ErrorCode.UNCLOSED
    assert error.block_type == "think"
    assert error.raw == "<think>still thinking <thi"
    assert "<think>" in error.message


def test_pending_tag_at_end_is_text() -> None:
    events = assert_invariant(processor(), 'a <citation url="x')
    assert visible(events) == 'a <citation url="x'


def test_pending_tag_at_end_is_rescanned() -> None:
    text = 'a <citation url="<note>x'
    events = assert_invariant(processor(), text)
    (error,) = errors(events)
    assert error.raw == "<note>x"
    assert visible(events) == 'a <citation url="'


def test_too_large_block() -> None:
    limits = Limits(max_block_chars=20)
    text = "<note>" + "x" * 30 + "</note> after <note>ok</note>"
    events = assert_invariant(processor(limits=limits), text)
    (error,) = errors(events)
    assert error.code is ErrorCode.TOO_LARGE
    assert error.raw == text[:20]
    assert [b.content for b in blocks(events)] == ["ok"]
    assert visible(events) == "x" * 16 + "</note> after "


def test_too_large_tag_header() -> None:
    limits = Limits(max_marker_chars=16)
    text = '<citation url="' + "u" * 20 + '">x</citation> <note>y</note>'
    events = assert_invariant(processor(limits=limits), text)
    (error,) = errors(events)
    assert error.code is ErrorCode.MARKER_TOO_LARGE
    assert error.raw == text[:16]
    assert [b.content for b in blocks(events)] == ["y"]


def test_complete_tag_longer_than_the_limit_is_too_large_too() -> None:
    limits = Limits(max_marker_chars=16)
    events = assert_invariant(processor(limits=limits), '<note a="12345678901">x</note>')
    assert errors(events)[0].code is ErrorCode.MARKER_TOO_LARGE


def test_long_closing_candidates_in_content_do_not_stall() -> None:
    limits = Limits(max_marker_chars=16)
    text = "<note>a <note " + "b" * 30 + "</note>"
    (block,) = blocks(assert_invariant(processor(limits=limits), text))
    assert block.content == "a <note " + "b" * 30


# ---------------------------------------------------------------- registry semantics


def test_tag_remapping() -> None:
    registry = BlockRegistry()
    registry.register("debugInfo", tag="debug-info", syntax=XML)
    proc = StreamBlockProcessor(registry, input_adapter=None)
    events = assert_invariant(proc, "<debug-info level='2'>x</debug-info><debugInfo>y</debugInfo>")
    (block,) = blocks(events)
    assert block.type == "debugInfo"
    assert events[1] == BlockStart("block-1", "debugInfo", "xml", {"level": "2"})
    assert visible(events) == "<debugInfo>y</debugInfo>"


class Cite(BaseModel):
    url: str = Field(description="The source URL.")
    page: int = 1


def test_metadata_model_validates_attrs() -> None:
    registry = BlockRegistry()
    registry.register("citation", syntax=XML, metadata=Cite)
    proc = StreamBlockProcessor(registry, input_adapter=None)
    events = assert_invariant(proc, '<citation url="u" page="3">q</citation><citation>r</citation>')
    (block,) = blocks(events)
    assert block.metadata == Cite(url="u", page=3)
    assert block.attrs == {"url": "u", "page": "3"}
    (error,) = errors(events)
    assert error.code is ErrorCode.VALIDATION_FAILED
    assert error.raw == "<citation>r</citation>"
    metadata = [e for e in events if isinstance(e, BlockMetadata)]
    assert metadata[0].metadata == Cite(url="u", page=3)


class Point(BaseModel):
    x: int
    y: int


def test_content_model_parses_the_content() -> None:
    registry = BlockRegistry()
    registry.register("point", syntax=XML, content=Point)
    proc = StreamBlockProcessor(registry, input_adapter=None)
    events = assert_invariant(proc, '<point>{"x": 1, "y": 2}</point><point>x: 1</point>')
    (block,) = blocks(events)
    assert block.content == Point(x=1, y=2)
    assert errors(events)[0].code is ErrorCode.VALIDATION_FAILED


def test_validators() -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=XML, validators=[lambda b: "x" in b.content or "no x"])
    proc = StreamBlockProcessor(registry, input_adapter=None)
    events = assert_invariant(proc, "<note>x</note><note>y</note>")
    assert [b.content for b in blocks(events)] == ["x"]
    assert errors(events)[0].message == "no x"


def test_on_start_is_called_with_attrs_when_the_tag_completes() -> None:
    seen: list[Any] = []
    registry = BlockRegistry()
    registry.register("note", syntax=XML, on_start=seen.append)
    session = StreamBlockProcessor(registry, input_adapter=None).session()
    session.feed("<note a='1'")
    assert seen == []
    session.feed(">")
    assert seen == [{"a": "1"}]


def test_raising_on_start_is_a_hook_failure_at_close() -> None:
    def boom(attrs: Any) -> None:
        raise RuntimeError("nope")

    registry = BlockRegistry()
    registry.register("note", syntax=XML, on_start=boom)
    events = assert_invariant(
        StreamBlockProcessor(registry, input_adapter=None), "a<note>x</note>b"
    )
    (error,) = errors(events)
    assert error.code is ErrorCode.HOOK_FAILED
    assert "on_start" in error.message
    assert "nope" in error.message
    assert error.raw == "<note>x</note>"
    assert visible(events) == "ab"


def transform_processor(transform: Any) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("done", syntax=XML, transform=transform)
    registry.register("note", syntax=XML)
    return StreamBlockProcessor(registry, input_adapter=None)


def test_transform_keep() -> None:
    events = normalise(run(transform_processor(lambda b: None), "a<done>x</done>b"))
    assert kinds(events) == [
        "STREAM_STARTED",
        "TEXT_DELTA",
        "BLOCK_START",
        "BLOCK_END",
        "TEXT_DELTA",
        "STREAM_FINISHED",
    ]
    assert not any(isinstance(e, BlockDelta) for e in events)
    assert conserved(events) == "a<done>x</done>b"


def test_transform_suppress_leaves_no_trace() -> None:
    proc = transform_processor(lambda b: [])
    for chunks in chunkings("a <done/> b <done>x</done> c"):
        events = normalise(run(proc, chunks))
        assert kinds(events) == ["STREAM_STARTED", "TEXT_DELTA", "STREAM_FINISHED"]
        assert visible(events) == "a  b  c"


def test_transform_replace() -> None:
    extra = BlockError(None, None, ErrorCode.PARSE_FAILED, "custom", "")
    proc = transform_processor(lambda b: [f"[{b.content}]", extra])
    for chunks in chunkings("a<done>x</done>b"):
        events = normalise(run(proc, chunks))
        assert visible(events) == "a[x]b"
        assert extra in events


def test_raising_transform_is_a_hook_failure() -> None:
    def boom(block: Any) -> None:
        raise ValueError("bad")

    events = assert_invariant(transform_processor(boom), "a<done/>b<note>n</note>")
    (error,) = errors(events)
    assert error.code is ErrorCode.HOOK_FAILED
    assert "transform" in error.message
    assert error.raw == "<done/>"
    assert [b.content for b in blocks(events)] == ["n"]


def test_unknown_policy_block_makes_any_tag_a_block() -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=XML)
    proc = StreamBlockProcessor(registry, input_adapter=None, unknown="block")
    events = assert_invariant(proc, "<div class='x'>hi</div> <3")
    (block,) = blocks(events)
    assert (block.type, block.content) == ("div", "hi")


def test_unknown_policy_error() -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=XML)
    proc = StreamBlockProcessor(registry, input_adapter=None, unknown="error")
    events = assert_invariant(proc, "<div>hi</div>")
    assert errors(events)[0].code is ErrorCode.UNKNOWN_TYPE


def test_sessions_do_not_share_state() -> None:
    proc = processor()
    first, second = proc.session(), proc.session()
    first.feed("<note>a")
    assert visible(second.feed("plain <no")) == "plain "
    assert kinds(first.feed("</note>")) == ["BLOCK_END"]


def test_fast_path_chunks_after_a_tag() -> None:
    session = processor().session()
    session.feed("<note>")
    assert session.feed("abc") == [BlockDelta("block-1", "note", "content", "abc")]
    assert kinds(session.feed("</note>")) == ["BLOCK_END"]
    assert session.feed("plain") == [TextDelta("plain")]
    assert session.feed("a <") == [TextDelta("a ")]


def test_block_end_is_in_order_with_text() -> None:
    events = normalise(run(processor(), ["x<done/", ">y"]))
    assert [type(e).__name__ for e in events[1:-1]] == [
        "TextDelta",
        "BlockStart",
        "BlockEnd",
        "TextDelta",
    ]
    assert isinstance(events[3], BlockEnd)


def test_on_start_is_not_called_for_a_self_closing_tag() -> None:
    seen: list[dict[str, str]] = []
    registry = BlockRegistry()
    registry.register("done", syntax=XML, on_start=lambda attrs: seen.append(dict(attrs)))
    registry.register("note", syntax=XML, on_start=lambda attrs: seen.append(dict(attrs)))
    proc = StreamBlockProcessor(registry, input_adapter=None)
    events = assert_invariant(proc, '<done a="1"/> <note b="2">x</note>')
    assert [b.type for b in blocks(events)] == ["done", "note"]
    assert seen  # called for <note> in every chunking, never for <done/>
    assert all(attrs == {"b": "2"} for attrs in seen)
