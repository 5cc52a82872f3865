"""LangChain v1: standard ``content_blocks``, ``stream_events(version="v3")`` and LangGraph.

Every stream here is made by langchain-core's (and langgraph's) own machinery from a
chat model that streams prepared ``AIMessageChunk``s — v1 content blocks as integrations
stream them with ``output_version="v1"``, or Anthropic's own format, which langchain-core's
translator turns into standard blocks.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from streamblocks import BlockRegistry, StreamBlockProcessor, collect
from streamblocks.adapters import detect_input_adapter
from streamblocks.content import CustomBlock, TextBlock, ToolCallBlock
from streamblocks.core.events import StopReason
from streamblocks.ext.langchain import LangChainInputAdapter

pytestmark = pytest.mark.filterwarnings(
    "ignore::langchain_core._api.beta_decorator.LangChainBetaWarning"
)
HAS_V3 = importlib.util.find_spec("langchain_core.language_models.chat_model_stream") is not None
needs_v2_parts = pytest.mark.skipif(
    not hasattr(importlib.import_module("langgraph.types"), "StreamPart"),
    reason="stream(version='v2') parts came after langgraph 1.0",
)
needs_v3 = pytest.mark.skipif(not HAS_V3, reason="events v3 came with langchain-core 1.4")
# LangGraph's async nodes stream a model's chunks only where asyncio tasks carry the run's
# context (Python 3.11+); on 3.10 a node that does not pass its config on calls the model
# whole (its _generate), as LangGraph's docs say.
async_graph_streams = pytest.mark.skipif(
    sys.version_info < (3, 11), reason="LangGraph streams async nodes' chunks from Python 3.11"
)

V1 = {"output_version": "v1"}
URL = "https://example.test/paris"


class ChunkModel(BaseChatModel):
    """Streams one prepared list of chunks per call (through LangChain's ``stream``)."""

    replies: list[list[AIMessageChunk]]

    @property
    def _llm_type(self) -> str:
        return "chunks"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        raise NotImplementedError

    def _stream(
        self, messages: list[BaseMessage], *args: Any, **kwargs: Any
    ) -> Iterator[ChatGenerationChunk]:
        for chunk in self.replies.pop(0):
            yield ChatGenerationChunk(message=chunk)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


def v1(*blocks: dict[str, Any], **fields: Any) -> AIMessageChunk:
    metadata = {**V1, **fields.pop("response_metadata", {})}
    return AIMessageChunk(content=list(blocks), response_metadata=metadata, **fields)


def research_reply() -> list[AIMessageChunk]:
    """Reasoning with a signature, a web search run by the provider, cited text, a call."""
    return [
        v1({"type": "reasoning", "reasoning": "Look it ", "index": 0}),
        v1({"type": "reasoning", "reasoning": "up.", "index": 0}),
        v1({"type": "reasoning", "reasoning": "", "extras": {"signature": "sig-v1"}, "index": 0}),
        v1({"type": "server_tool_call_chunk", "id": "srv_1", "name": "web_search",
            "args": '{"query": ', "index": 1}),
        v1({"type": "server_tool_call_chunk", "args": '"paris"}', "index": 1}),
        v1({"type": "server_tool_result", "tool_call_id": "srv_1", "status": "success",
            "output": [{"url": URL, "title": "Paris"}], "index": 2}),
        v1({"type": "text", "text": "Paris is ", "index": 3}),
        v1({"type": "text", "text": "sunny.", "index": 3}),
        v1({"type": "text", "text": "", "index": 3, "annotations": [
            {"type": "citation", "url": URL, "title": "Paris", "cited_text": "sunny",
             "start_index": 9, "end_index": 14}]}),
        v1({"type": "tool_call_chunk", "id": "call_1", "name": "get_weather",
            "args": '{"city": "Pa', "index": 4}),
        v1({"type": "tool_call_chunk", "args": 'ris"}', "index": 4},
           response_metadata={"finish_reason": "tool_calls"}),
    ]  # fmt: skip


def check_research(step: Any) -> None:
    check_research_content(step)
    content = step.message.content
    assert [type(b).__name__ for b in content] == [
        "ThinkingBlock", "ToolCallBlock", "ToolResultBlock", "TextBlock", "CustomBlock",
        "ToolCallBlock",
    ]  # fmt: skip
    thinking, search, result, text, citation, call = content
    assert (thinking.text, thinking.signature) == ("Look it up.", "sig-v1")
    assert (search.id, search.name, search.arguments) == ("srv_1", "web_search", {"query": "paris"})
    assert (result.tool_call_id, result.name, result.is_error) == ("srv_1", "web_search", False)
    assert result.content == [{"url": URL, "title": "Paris"}]
    assert text == TextBlock(text="Paris is sunny.")
    assert citation == CustomBlock(
        tag="citation",
        content="sunny",
        attrs={"url": URL, "title": "Paris", "start_index": 9, "end_index": 14},
    )
    assert call == ToolCallBlock(id="call_1", name="get_weather", arguments={"city": "Paris"})
    server = [b for b in step.native_blocks if b.attrs.get("server")]
    assert [b.type for b in server] == ["tool_call", "tool_result"]
    # the server's call is not one the application runs
    assert [c.name for c in step.tool_calls] == ["get_weather"]


def check_research_content(step: Any) -> None:
    """What any reading of :func:`research_reply` gives, in whatever order."""
    assert step.text == "Paris is sunny."
    assert step.thinking == "Look it up."
    assert step.stop_reason is StopReason.tool_use
    assert [c.name for c in step.tool_calls] == ["get_weather"]
    kinds = sorted((b.type, b.attrs.get("server", False)) for b in step.native_blocks)
    assert kinds == [
        ("citation", False), ("thinking", False), ("tool_call", False), ("tool_call", True),
        ("tool_result", True),
    ]  # fmt: skip


def processor() -> StreamBlockProcessor:
    return StreamBlockProcessor(BlockRegistry())


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_v1_content_blocks(mode: str) -> None:
    model = ChunkModel(replies=[research_reply()])
    if mode == "sync":
        chunks = list(model.stream("weather?"))
    else:
        chunks = [c async for c in model.astream("weather?")]
    assert isinstance(detect_input_adapter(chunks[0]), LangChainInputAdapter)
    check_research(collect(chunks, processor=processor()))


@needs_v3
def test_v3_events_of_a_chat_model() -> None:
    """langchain-core's bridge from chunks to v3 events sends every block's finish at the
    message's end: blocks that come whole (the server tool's result) come there, and the
    thinking block, closed by the text that follows it, goes without its signature."""
    model = ChunkModel(replies=[research_reply()])
    events = list(model.stream_events("weather?", version="v3"))
    kinds = [e["event"] for e in events]
    assert kinds[0] == "message-start" and kinds[-1] == "message-finish"
    assert isinstance(detect_input_adapter(events[0]), LangChainInputAdapter)
    step = collect(events, processor=processor())
    check_research_content(step)
    assert [type(b).__name__ for b in step.message.content[:4]] == [
        "ThinkingBlock", "ToolCallBlock", "TextBlock", "ToolCallBlock",
    ]  # fmt: skip


def test_v3_signature_when_the_finish_comes_first() -> None:
    """A native v3 producer finishes each block before the next starts: the signature
    on the reasoning block's finish is the thinking block's."""
    events = [
        {"event": "message-start", "role": "ai", "id": "m1"},
        {"event": "content-block-start", "index": 0,
         "content": {"type": "reasoning", "reasoning": ""}},
        {"event": "content-block-delta", "index": 0,
         "delta": {"type": "reasoning-delta", "reasoning": "Hm."}},
        {"event": "content-block-finish", "index": 0, "content": {
            "type": "reasoning", "reasoning": "Hm.", "extras": {"signature": "sig-3"}}},
        {"event": "content-block-start", "index": 1, "content": {"type": "text", "text": ""}},
        {"event": "content-block-delta", "index": 1, "delta": {"type": "text-delta", "text": "Hi"}},
        {"event": "content-block-finish", "index": 1, "content": {"type": "text", "text": "Hi"}},
        {"event": "message-finish", "usage": {"input_tokens": 3, "output_tokens": 2,
                                              "total_tokens": 5}},
    ]  # fmt: skip
    step = collect(events, processor=processor())
    thinking, text = step.message.content
    assert (thinking.text, thinking.signature, text.text) == ("Hm.", "sig-3", "Hi")
    assert step.stop_reason is StopReason.end_turn
    assert step.usage is not None and step.usage.total_tokens == 5


def test_v3_error_event() -> None:
    events = [
        {"event": "message-start", "role": "ai", "id": "m1"},
        {"event": "content-block-delta", "index": 0, "delta": {"type": "text-delta", "text": "Hi"}},
        {"event": "error", "message": "overloaded"},
    ]
    step = collect(events, processor=processor())
    assert (step.text, step.stop_reason) == ("Hi", StopReason.error)


@needs_v3
async def test_v3_events_async() -> None:
    model = ChunkModel(replies=[research_reply()])
    stream = await model.astream_events("weather?", version="v3")
    events = [e async for e in stream]
    check_research_content(collect(events, processor=processor()))


def test_model_dump_of_v1_chunks() -> None:
    dumped = [c.model_dump() for c in ChunkModel(replies=[research_reply()]).stream("x")]
    check_research(collect(dumped, processor=processor()))


# -- Anthropic's format, translated by langchain-core ------------------------------------


def anthropic(*blocks: dict[str, Any], **fields: Any) -> AIMessageChunk:
    metadata = {"model_provider": "anthropic", **fields.pop("response_metadata", {})}
    return AIMessageChunk(content=list(blocks), response_metadata=metadata, **fields)


def test_anthropic_citations_and_signature_through_the_translator() -> None:
    replies = [
        anthropic({"type": "thinking", "thinking": "Hm.", "index": 0}),
        anthropic({"type": "thinking", "signature": "sig-a", "index": 0}),
        anthropic({"type": "text", "text": "It rains.", "index": 1}),
        anthropic({"type": "text", "text": "", "index": 1, "citations": [
            {"type": "web_search_result_location", "cited_text": "rain", "url": URL,
             "title": "Paris", "encrypted_index": "e1"}]}),
        anthropic(response_metadata={"stop_reason": "end_turn"}),
    ]  # fmt: skip
    step = collect(ChunkModel(replies=[replies]).stream("x"), processor=processor())
    assert step.text == "It rains."
    thinking, text, citation = step.message.content
    assert (thinking.text, thinking.signature, text.text) == ("Hm.", "sig-a", "It rains.")
    assert citation == CustomBlock(
        tag="citation",
        content="rain",
        attrs={"url": URL, "title": "Paris", "encrypted_index": "e1"},
    )
    assert step.stop_reason is StopReason.end_turn


# -- refusals, invalid calls, images --------------------------------------------------


def test_refusal_block_is_a_refusal() -> None:
    replies = [
        v1({"type": "refusal", "refusal": "I can't "}),
        v1({"type": "refusal", "refusal": "help with that."},
           response_metadata={"finish_reason": "stop"}),
    ]  # fmt: skip
    step = collect(ChunkModel(replies=[replies]).stream("x"), processor=processor())
    assert step.stop_reason is StopReason.refusal
    assert step.text == ""
    assert step.message.content == [CustomBlock(tag="refusal", content="I can't help with that.")]


def test_openai_refusal_in_additional_kwargs() -> None:
    replies = [
        AIMessageChunk(content="", additional_kwargs={"refusal": "No."}),
        AIMessageChunk(content="", response_metadata={"finish_reason": "stop"},
                       chunk_position="last"),
    ]  # fmt: skip
    step = collect(ChunkModel(replies=[replies]).stream("x"), processor=processor())
    assert step.stop_reason is StopReason.refusal
    assert step.message.content == [CustomBlock(tag="refusal", content="No.")]


def test_invalid_tool_call_is_a_block_error() -> None:
    replies = [
        v1({"type": "text", "text": "Trying."}),
        v1({"type": "invalid_tool_call", "id": "c9", "name": "get_weather",
            "args": '{"city": Paris', "error": "not JSON"},
           response_metadata={"finish_reason": "tool_calls"}),
    ]  # fmt: skip
    step = collect(ChunkModel(replies=[replies]).stream("x"), processor=processor())
    assert step.text == "Trying."
    [call] = step.tool_calls
    assert call.error is not None and call.arguments is None  # never run
    [error] = step.block_errors
    assert error.code == "PARSE_FAILED" and error.block_id == "c9"
    assert '{"city": Paris' in error.message


def test_invalid_tool_call_with_parseable_arguments_keeps_its_error() -> None:
    block = {
        "type": "invalid_tool_call",
        "id": "c8",
        "name": "f",
        "args": "[1]",
        "error": "not an object",
    }
    step = collect(ChunkModel(replies=[[v1(block)]]).stream("x"), processor=processor())
    [call] = [b for b in step.native_blocks if b.type == "tool_call"]
    assert call.attrs["error"] == "not an object"


def test_images_and_files_are_blocks_in_order() -> None:
    replies = [
        v1({"type": "text", "text": "Here:"}),
        v1({"type": "image", "base64": "iVBORw0KGgo=", "mime_type": "image/png", "id": "img_1"}),
        v1({"type": "file", "url": "https://example.test/a.pdf", "mime_type": "application/pdf"}),
        v1({"type": "non_standard", "value": {"type": "something_new"}}),
    ]
    step = collect(ChunkModel(replies=[replies]).stream("x"), processor=processor())
    text, image, file = step.message.content
    assert text == TextBlock(text="Here:")
    assert image == CustomBlock(
        tag="image", content="iVBORw0KGgo=", attrs={"mime_type": "image/png", "id": "img_1"}
    )
    assert file.tag == "file" and file.content == "https://example.test/a.pdf"
    assert [p.content[0]["value"] for p in step.passthrough] == [{"type": "something_new"}]


# -- LangGraph -------------------------------------------------------------------------


@tool
def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"sunny in {city}"


def agent_graph() -> Any:
    model = ChunkModel(
        replies=[
            [
                AIMessageChunk(content="Checking.", id="run-1"),
                AIMessageChunk(content="", id="run-1", tool_call_chunks=[
                    {"id": "call_1", "name": "get_weather", "args": '{"city": ', "index": 0}]),
                AIMessageChunk(content="", id="run-1", tool_call_chunks=[
                    {"args": '"Paris"}', "index": 0}],
                    response_metadata={"finish_reason": "tool_calls"}),
            ],
            [AIMessageChunk(content="It is sunny.", id="run-2",
                            response_metadata={"finish_reason": "stop"})],
        ]
    )  # fmt: skip

    def call_model(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", call_model)
    graph.add_node("tools", ToolNode([get_weather]))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    graph.add_edge("agent", END)
    return graph.compile()


def check_agent(step: Any) -> None:
    assert step.text == "Checking.It is sunny."
    assert step.stop_reason is StopReason.end_turn  # the last model call's
    call, result = (b for b in step.message.content if not isinstance(b, TextBlock))
    assert call == ToolCallBlock(id="call_1", name="get_weather", arguments={"city": "Paris"})
    assert (result.tool_call_id, result.name, result.content) == (
        "call_1", "get_weather", "sunny in Paris",
    )  # fmt: skip
    assert not result.is_error


INPUT = {"messages": [("user", "weather in Paris?")]}


@pytest.mark.parametrize(
    ("options", "first"),
    [
        ({"stream_mode": "messages"}, tuple),
        ({"stream_mode": ["messages", "updates"]}, tuple),
        ({"stream_mode": ["values", "messages"], "subgraphs": True}, tuple),
        ({"stream_mode": "messages", "subgraphs": True}, tuple),
        pytest.param(
            {"stream_mode": ["messages", "updates"], "version": "v2"}, dict, marks=needs_v2_parts
        ),
    ],
)
def test_langgraph_stream_modes(options: dict[str, Any], first: type) -> None:
    items = list(agent_graph().stream(INPUT, **options))
    assert type(items[0]) is first
    assert isinstance(detect_input_adapter(items[0]), LangChainInputAdapter)
    step = collect(items, processor=processor())
    check_agent(step)
    if options["stream_mode"] != "messages":  # the other modes' items pass through
        assert step.passthrough


@async_graph_streams
async def test_langgraph_astream_messages() -> None:
    items = [i async for i in agent_graph().astream(INPUT, stream_mode="messages")]
    check_agent(collect(items, processor=processor()))


@needs_v3
def test_langgraph_v3_events() -> None:
    items = list(agent_graph().stream_events(INPUT, version="v3"))
    assert items[0]["type"] == "event"
    assert isinstance(detect_input_adapter(items[0]), LangChainInputAdapter)
    step = collect(items, processor=processor())
    assert step.text == "Checking.It is sunny."
    assert step.stop_reason is StopReason.end_turn
    assert [c.name for c in step.tool_calls] == ["get_weather"]


@async_graph_streams
async def test_langgraph_astream_events_v2() -> None:
    items = [e async for e in agent_graph().astream_events(INPUT, version="v2")]
    step = collect(items, processor=processor())
    assert step.text == "Checking.It is sunny."
    assert [c.name for c in step.tool_calls] == ["get_weather"]
