"""LangChain: real chat models' ``stream()`` / ``astream()`` / ``astream_events()``.

``GenericFakeChatModel`` (langchain-core's own), ``ChatOllama`` (langchain-ollama) over
the Ollama NDJSON mock of ``test_ollama``, and a chat model streaming list content the way
Anthropic's integration does (content blocks, partial tool-call arguments, usage pieces).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult

from streamblocks import BlockRegistry, StreamBlockProcessor
from streamblocks.adapters import EventCategory, detect_input_adapter
from streamblocks.core.events import StopReason, Usage
from streamblocks.ext.langchain import LangChainInputAdapter
from streamblocks.testing import AdapterConformance, AdapterSample, run_adapter

from . import sse, test_ollama
from .sse import REPLY, THINKING, TOOL_ARGS, read_reply

MODES = ["sync", "async"]
SIGNATURE = "sig-1"


async def stream(mode: str, model: Any, prompt: Any = "hi") -> list[Any]:
    if mode == "sync":
        return list(model.stream(prompt))
    return [chunk async for chunk in model.astream(prompt)]


def fake() -> GenericFakeChatModel:
    return GenericFakeChatModel(messages=iter([AIMessage(content=REPLY)]))


@pytest.mark.parametrize("mode", MODES)
async def test_generic_fake_chat_model(mode: str) -> None:
    chunks = await stream(mode, fake())
    assert type(chunks[0]) is AIMessageChunk
    assert len(chunks) > 10  # split at whitespace
    adapter = detect_input_adapter(chunks[0])
    assert isinstance(adapter, LangChainInputAdapter)
    run = run_adapter(adapter, chunks)
    assert run.problems == []
    assert (run.text, run.stop_reason, run.natives) == (REPLY, StopReason.end_turn, [])


# -- a real integration: ChatOllama over the Ollama mock ---------------------------------


def chat_ollama(lines: list[dict[str, Any]]) -> Any:
    # (langchain-ollama needs ollama >= 0.6: the floor set of .ci/run has none)
    chat_ollama_class = pytest.importorskip("langchain_ollama").ChatOllama
    body = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)
    transport = httpx.MockTransport(lambda request: httpx.Response(200, text=body))
    return chat_ollama_class(
        model=test_ollama.MODEL,
        base_url="http://ollama.test:11434",
        reasoning=True,
        client_kwargs={"transport": transport},
    )


@pytest.mark.parametrize("mode", MODES)
async def test_chat_ollama(mode: str) -> None:
    run = read_reply(
        await stream(mode, chat_ollama(test_ollama.chat_lines())), LangChainInputAdapter
    )
    assert run.natives[1].attrs["name"] == "get_weather"
    assert run.stop_reason is StopReason.tool_use  # done_reason "stop" after a tool call
    assert run.usage == test_ollama.USAGE


# -- list content: content blocks as Anthropic's integration streams them -----------------


def block_chunks() -> list[AIMessageChunk]:
    out = [
        AIMessageChunk(
            content=[], usage_metadata={"input_tokens": 20, "output_tokens": 0, "total_tokens": 20}
        )
    ]
    out += [
        AIMessageChunk(content=[{"type": "thinking", "thinking": piece, "index": 0}])
        for piece in sse.THINKING_PIECES
    ]
    out.append(AIMessageChunk(content=[{"type": "thinking", "signature": SIGNATURE, "index": 0}]))
    out += [
        AIMessageChunk(content=[{"type": "text", "text": piece, "index": 1}])
        for piece in sse.REPLY_PIECES
    ]
    out.append(
        AIMessageChunk(
            content=[{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "index": 2}],
            tool_call_chunks=[
                {
                    "type": "tool_call_chunk",
                    "id": "toolu_1",
                    "name": "get_weather",
                    "args": "",
                    "index": 2,
                }
            ],
        )
    )
    out += [
        AIMessageChunk(
            content=[{"type": "input_json_delta", "partial_json": piece, "index": 2}],
            tool_call_chunks=[{"type": "tool_call_chunk", "args": piece, "index": 2}],
        )
        for piece in sse.TOOL_ARGS_PIECES
    ]
    out.append(
        AIMessageChunk(
            content=[],
            response_metadata={"stop_reason": "tool_use", "model_provider": "anthropic"},
            usage_metadata={
                "input_tokens": 0,
                "output_tokens": 40,
                "total_tokens": 40,
                "output_token_details": {"reasoning": 12},
            },
        )
    )
    return out


class BlockModel(BaseChatModel):
    """Streams :func:`block_chunks` through LangChain's own streaming machinery."""

    @property
    def _llm_type(self) -> str:
        return "blocks"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        raise NotImplementedError

    def _stream(
        self, messages: list[BaseMessage], *args: Any, **kwargs: Any
    ) -> Iterator[ChatGenerationChunk]:
        for chunk in block_chunks():
            yield ChatGenerationChunk(message=chunk)


BLOCK_USAGE = Usage(input_tokens=20, output_tokens=40, total_tokens=60, reasoning_tokens=12)


@pytest.mark.parametrize("mode", MODES)
async def test_list_content(mode: str) -> None:
    chunks = await stream(mode, BlockModel())
    run = run_adapter(detect_input_adapter(chunks[0]), chunks)
    assert run.problems == []
    assert run.text == REPLY  # thinking and tool input never become text
    assert [(b.block_type, b.block_id, b.content) for b in run.natives] == [
        ("thinking", None, THINKING),
        ("tool_call", "toolu_1", TOOL_ARGS),
    ]
    assert run.natives[0].attrs == {"signature": SIGNATURE}
    assert run.stop_reason is StopReason.tool_use
    assert run.usage == BLOCK_USAGE  # the pieces summed, as LangChain sums them


# -- astream_events(version="v2") -----------------------------------------------------


async def test_astream_events() -> None:
    events = [e async for e in BlockModel().astream_events("hi", version="v2")]
    names = [e["event"] for e in events]
    assert names[0] == "on_chat_model_start" and names[-1] == "on_chat_model_end"
    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, LangChainInputAdapter)
    run = run_adapter(adapter, events)
    assert run.problems == []
    assert run.text == REPLY
    assert [(b.block_type, b.content) for b in run.natives] == [
        ("thinking", THINKING),
        ("tool_call", TOOL_ARGS),
    ]
    assert (run.stop_reason, run.usage) == (StopReason.tool_use, BLOCK_USAGE)
    assert [e["event"] for e in run.passthrough] == ["on_chat_model_start", "on_chat_model_end"]


async def test_astream_events_of_a_chain_read_the_model_once() -> None:
    """A chain streams the model's chunks again (``on_chain_stream``): read only once."""
    from langchain_core.prompts import ChatPromptTemplate

    chain = ChatPromptTemplate.from_messages([("user", "{q}")]) | fake()
    registry = BlockRegistry()
    registry.register("note")
    processor = StreamBlockProcessor(registry)
    events = [e async for e in processor.process_stream(chain.astream_events({"q": "hi"}))]
    text = "".join(e.text for e in events if e.type == "TEXT_DELTA")
    assert text == "Voilà 👩\u200d💻 café!\nfin 🇫🇷 ok\n"
    assert [e.block.content for e in events if e.type == "BLOCK_END"] == ["noté ✓ e\u0301\n"]
    kinds = {e.event["event"] for e in events if e.type == "PASSTHROUGH"}
    assert "on_chain_stream" in kinds and "on_chat_model_stream" not in kinds


@pytest.mark.parametrize(
    ("metadata", "ours"),
    [
        ({"finish_reason": "stop"}, StopReason.end_turn),
        ({"finish_reason": "length"}, StopReason.max_tokens),
        ({"stop_reason": "end_turn"}, StopReason.end_turn),
        ({"stop_reason": "max_tokens"}, StopReason.max_tokens),
        ({"finish_reason": "content_filter"}, StopReason.content_filter),
        ({"finish_reason": "SAFETY"}, StopReason.content_filter),
        ({"done_reason": "load"}, StopReason.unknown),
        ({}, StopReason.end_turn),  # the last chunk without a reason: a normal end
    ],
)
def test_finish_reasons(metadata: dict[str, Any], ours: StopReason) -> None:
    chunks = [
        AIMessageChunk(content="hi"),
        AIMessageChunk(content="", response_metadata=metadata, chunk_position="last"),
    ]
    run = run_adapter(LangChainInputAdapter(), chunks)
    assert (run.text, run.stop_reason) == ("hi", ours)


def test_model_dump_dicts_and_other_blocks() -> None:
    dumped = [chunk.model_dump() for chunk in block_chunks()]
    adapter = detect_input_adapter(dumped[0])
    assert isinstance(adapter, LangChainInputAdapter)
    assert run_adapter(adapter, dumped).text == REPLY
    unknown = AIMessageChunk(content=[{"type": "something_new", "x": 1}])
    assert LangChainInputAdapter().categorize(unknown) is EventCategory.PASSTHROUGH


class TestLangChainConformance(AdapterConformance):
    adapter_factory = LangChainInputAdapter
    registered = True
    samples = (
        AdapterSample(
            "blocks",
            block_chunks(),
            REPLY,
            StopReason.tool_use,
            BLOCK_USAGE,
            [("thinking", THINKING), ("tool_call", TOOL_ARGS)],
        ),
        AdapterSample("fake", list(fake().stream("hi")), REPLY, StopReason.end_turn, None, []),
    )
    text_event = staticmethod(lambda piece: AIMessageChunk(content=piece))
