"""The content model and MessageAccumulator."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from helpers import chunkings, run
from streamblocks import (
    Block,
    BlockEnd,
    BlockError,
    BlockRegistry,
    DelimiterPreambleSyntax,
    ErrorCode,
    StopReason,
    StreamBlockProcessor,
    StreamFinished,
    TextDelta,
    XMLTagSyntax,
)
from streamblocks.content import (
    CodeBlock,
    CommandBlock,
    CustomBlock,
    FileChangeBlock,
    Message,
    MessageAccumulator,
    TextBlock,
    ThinkingBlock,
    TodoBlock,
    TodoItem,
    ToolCallBlock,
    ToolResultBlock,
    content_block_adapter,
    is_custom_block,
)
from streamblocks.core.events import Counts

XML = XMLTagSyntax()


def accumulate(processor: StreamBlockProcessor, chunks: Any) -> Message:
    acc = MessageAccumulator()
    for event in run(processor, chunks):
        acc.add(event)
    return acc.message


def xml_processor(**register: Any) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("citation", syntax=XML)
    registry.register("done", syntax=XML)
    registry.register("debugInfo", tag="debug-info", syntax=XML)
    return StreamBlockProcessor(registry, input_adapter=None)


def test_temporal_order_example() -> None:
    text = 'text<citation url="u">quote</citation>more'
    for chunks in chunkings(text):
        message = accumulate(xml_processor(), chunks)
        assert message.content == [
            TextBlock("text"),
            CustomBlock(tag="citation", content="quote", attrs={"url": "u"}),
            TextBlock("more"),
        ]
        assert message.role == "assistant"


def test_self_closing_and_remapped_tags() -> None:
    message = accumulate(xml_processor(), ["a<done/>b<debug-info k='v'>x</debug-info>"])
    assert message.content == [
        TextBlock("a"),
        CustomBlock(tag="done", content="", self_closing=True),
        TextBlock("b"),
        CustomBlock(tag="debugInfo", content="x", attrs={"k": "v"}),
    ]
    assert is_custom_block(message.content[1])
    assert not is_custom_block(message.content[0])


def test_line_blocks_carry_their_metadata() -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=DelimiterPreambleSyntax())
    proc = StreamBlockProcessor(registry, input_adapter=None)
    message = accumulate(proc, ["a\n!!b1:note:p\nx\n!!end\nz"])
    assert message.content == [
        TextBlock("a\n"),
        CustomBlock(
            tag="note",
            content="x\n",
            attrs={"id": "b1", "block_type": "note", "params": ["p"]},
        ),
        TextBlock("z"),
    ]


class Point(BaseModel):
    x: int


def test_content_models_are_dumped() -> None:
    registry = BlockRegistry()
    registry.register("point", syntax=XML, content=Point)
    message = accumulate(
        StreamBlockProcessor(registry, input_adapter=None), ['<point>{"x": 1}</point>']
    )
    assert message.content == [CustomBlock(tag="point", content={"x": 1})]


def block(syntax: str, type_: str, content: Any, **attrs: Any) -> BlockEnd:
    return BlockEnd(Block("id-1", type_, syntax, None, content, attrs, "", 0, 0))


def test_native_and_gadget_blocks() -> None:
    acc = MessageAccumulator()
    acc.add(block("native", "thinking", "hmm"))
    acc.add(block("native", "tool_call", {"q": 1}, name="search", id="call_1"))
    acc.add(block("gadget", "ReadFile", {"path": "a.txt"}))
    acc.add(block("native", "tool_result", "42", tool_call_id="call_1"))
    acc.add(block("native", "command", "ok\n", command="ls", exit_code=0))
    acc.add(block("native", "file_change", "+x", path="a.py", kind="add"))
    acc.add(block("native", "todo", [{"text": "t", "status": "completed"}]))
    acc.add(block("native", "code", "print()", language="python"))
    assert acc.message.content == [
        ThinkingBlock("hmm"),
        ToolCallBlock(id="call_1", name="search", arguments={"q": 1}),
        ToolCallBlock(id="id-1", name="ReadFile", arguments={"path": "a.txt"}),
        ToolResultBlock(tool_call_id="call_1", content="42"),
        CommandBlock(command="ls", output="ok\n", exit_code=0),
        FileChangeBlock(path="a.py", kind="add", diff="+x"),
        TodoBlock(items=[TodoItem(text="t", status="completed")]),
        CodeBlock(code="print()", language="python"),
    ]


def test_custom_converters() -> None:
    acc = MessageAccumulator(converters={("xml", "code"): lambda b: CodeBlock(code=b.content)})
    acc.add(block("xml", "code", "x = 1"))
    acc.register("xml", "skip", lambda b: None)
    acc.add(block("xml", "skip", "ignored"))
    acc.register("*", "any", lambda b: TextBlock(b.content))
    acc.add(block("delimiter_preamble", "any", "t"))
    assert acc.message.content == [CodeBlock(code="x = 1"), TextBlock("t")]


def test_text_merges_only_while_consecutive() -> None:
    acc = MessageAccumulator(role="user")
    for event in [TextDelta("a"), TextDelta("b"), TextDelta(""), block("xml", "n", "")]:
        acc.add(event)
    first = acc.message
    assert acc.message is first  # cached
    acc.add(TextDelta("c"))
    assert acc.message.content == [TextBlock("ab"), CustomBlock(tag="n"), TextBlock("c")]
    assert acc.message.role == "user"
    assert acc.message.text() == "abc"


def test_errors_and_finish_are_recorded() -> None:
    acc = MessageAccumulator()
    error = BlockError("b", "n", ErrorCode.UNCLOSED, "m", "raw")
    acc.add(error)
    acc.add(StreamFinished(StopReason.end_turn, None, Counts(0, 0, 1)))
    assert acc.errors == [error]
    assert acc.stop_reason is StopReason.end_turn
    assert acc.message.content == []


def test_add_all() -> None:
    message = MessageAccumulator().add_all(run(xml_processor(), ["a<done/>"]))
    assert message.content == [
        TextBlock("a"),
        CustomBlock(tag="done", content="", self_closing=True),
    ]


@pytest.mark.parametrize(
    "item",
    [
        TextBlock("t"),
        ThinkingBlock("r", signature="s"),
        ToolCallBlock(id="1", name="n", arguments={"a": [1, {"b": None}]}),
        ToolResultBlock(tool_call_id="1", content=[{"type": "text", "text": "x"}], is_error=True),
        CodeBlock(code="x", language="py"),
        FileChangeBlock(path="p", kind="delete"),
        CommandBlock(command="ls", output="", exit_code=1, status="failed"),
        TodoBlock(items=[TodoItem(text="a"), TodoItem(text="b", status="in_progress")]),
        CustomBlock(tag="t", content={"k": 1}, attrs={"a": "1"}, self_closing=False),
    ],
)
def test_json_round_trip(item: Any) -> None:
    assert content_block_adapter.validate_json(content_block_adapter.dump_json(item)) == item
    message = Message(role="assistant", content=[item, TextBlock("after")])
    assert Message.model_validate_json(message.model_dump_json()) == message


def test_discriminators() -> None:
    names = [
        cls.model_fields["type"].default
        for cls in (
            TextBlock,
            ThinkingBlock,
            ToolCallBlock,
            ToolResultBlock,
            CodeBlock,
            FileChangeBlock,
            CommandBlock,
            TodoBlock,
            CustomBlock,
        )
    ]
    assert names == [
        "text",
        "thinking",
        "tool_call",
        "tool_result",
        "code",
        "file_change",
        "command",
        "todo",
        "custom",
    ]
    parsed = Message.model_validate({"content": [{"type": "custom", "tag": "x"}]})
    assert parsed.content == [CustomBlock(tag="x")]
    assert TextBlock(text="k") == TextBlock("k")
