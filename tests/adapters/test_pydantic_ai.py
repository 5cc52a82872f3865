"""pydantic-ai: real agent runs (``run_stream_events()``, ``agent.iter()``) on its own
``FunctionModel`` and ``TestModel``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    PartDeltaEvent,
    TextPartDelta,
    ToolReturnPart,
)
from pydantic_ai.models.function import (
    AgentInfo,
    DeltaThinkingCalls,
    DeltaThinkingPart,
    DeltaToolCall,
    DeltaToolCalls,
    FunctionModel,
)
from pydantic_ai.models.test import TestModel

from streamblocks import BlockRegistry, StreamBlockProcessor
from streamblocks.adapters import detect_input_adapter
from streamblocks.core.events import StopReason
from streamblocks.ext.pydantic_ai import PydanticAIInputAdapter
from streamblocks.testing import AdapterConformance, run_adapter

from . import sse
from .sse import AGENT_FINAL, REPLY, THINKING, TOOL_ARGS, agent_sample

FINAL = AGENT_FINAL
SIGNATURE = "sig-1"


async def model_stream(
    messages: list[ModelMessage], info: AgentInfo
) -> AsyncIterator[str | DeltaToolCalls | DeltaThinkingCalls]:
    """First request: thinking, the reply, a tool call; after the tool ran: the answer."""
    last = messages[-1]
    if isinstance(last, ModelRequest) and any(isinstance(p, ToolReturnPart) for p in last.parts):
        yield FINAL
        return
    for piece in sse.THINKING_PIECES:
        yield {0: DeltaThinkingPart(content=piece)}
    yield {0: DeltaThinkingPart(signature=SIGNATURE)}
    for piece in sse.REPLY_PIECES:
        yield piece
    yield {2: DeltaToolCall(name="get_weather", tool_call_id="call_1")}
    for piece in sse.TOOL_ARGS_PIECES:
        yield {2: DeltaToolCall(json_args=piece)}


def agent(model: Any) -> Agent[None, str]:
    a: Agent[None, str] = Agent(model)

    @a.tool_plain
    def get_weather(city: str, note: str) -> str:
        """The weather in a city."""
        return f"sunny in {city}"

    return a


async def collect(stream: Any) -> list[Any]:
    """``run_stream_events()``'s events: an async context manager in recent pydantic-ai
    (2.6x), a plain async iterable before."""
    if hasattr(stream, "__aenter__"):
        async with stream as events:
            return [e async for e in events]
    return [e async for e in stream]


async def run_events(model: Any) -> list[Any]:
    return await collect(agent(model).run_stream_events("weather?"))


async def test_run_stream_events() -> None:
    events = await run_events(FunctionModel(stream_function=model_stream))
    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, PydanticAIInputAdapter)
    run = run_adapter(adapter, events)
    assert run.problems == []
    assert run.text == REPLY + FINAL  # thinking and tool arguments never become text
    assert [(b.block_type, b.block_id, b.content) for b in run.natives] == [
        ("thinking", None, THINKING),
        ("tool_call", "call_1", TOOL_ARGS),
        ("tool_result", None, "sunny in Paris 🇫🇷"),
    ]
    assert run.natives[0].attrs == {"signature": SIGNATURE}
    assert run.natives[1].attrs == {"name": "get_weather", "id": "call_1"}
    assert run.natives[2].attrs == {
        "tool_call_id": "call_1",
        "name": "get_weather",
        "is_error": False,
    }
    assert run.stop_reason is StopReason.end_turn
    usage = events[-1].result.usage
    usage = usage() if callable(usage) and not hasattr(usage, "input_tokens") else usage
    assert usage.input_tokens > 0 and usage.output_tokens > 0
    assert run.usage is not None
    assert (run.usage.input_tokens, run.usage.output_tokens) == (
        usage.input_tokens,
        usage.output_tokens,
    )
    kinds = [type(e).__name__ for e in run.passthrough]
    assert kinds == [
        "FinalResultEvent",  # text started: it may be the output (pydantic-ai's guess)
        "FunctionToolCallEvent",  # the call already streamed as a part
        "FinalResultEvent",
        "AgentRunResultEvent",
    ]


async def test_processor_sync_and_async() -> None:
    registry = BlockRegistry()
    registry.register("note")
    processor = StreamBlockProcessor(registry)
    events = await run_events(FunctionModel(stream_function=model_stream))
    sync = list(processor.process(events))
    live_events = agent(FunctionModel(stream_function=model_stream)).run_stream_events("weather?")
    if hasattr(live_events, "__aenter__"):
        async with live_events as source:
            live = [e async for e in processor.process_stream(source)]
    else:
        live = [e async for e in processor.process_stream(live_events)]
    for out in (sync, live):
        ends = [e.block for e in out if e.type == "BLOCK_END"]
        assert [b.type for b in ends] == ["thinking", "note", "tool_call", "tool_result"]
        assert ends[1].content == "noté ✓ e\u0301\n"
        assert out[-1].stop_reason is StopReason.end_turn


async def test_agent_iter_node_streams() -> None:
    """``agent.iter()``: the events of each model and tool node, no run result."""
    events: list[Any] = []
    a = agent(FunctionModel(stream_function=model_stream))
    async with a.iter("weather?") as agent_run:
        async for node in agent_run:
            if Agent.is_model_request_node(node) or Agent.is_call_tools_node(node):
                async with node.stream(agent_run.ctx) as stream:
                    events += [e async for e in stream]
    run = run_adapter(detect_input_adapter(events[0]), events)
    assert run.problems == []
    assert run.text == REPLY + FINAL
    assert [b.block_type for b in run.natives] == ["thinking", "tool_call", "tool_result"]
    assert all(b.closed for b in run.natives)


async def test_test_model_and_a_retried_tool() -> None:
    """TestModel calls every tool with generated arguments; a tool asking for a retry
    gives an error result."""
    a: Agent[None, str] = Agent(TestModel(custom_output_text=REPLY))
    calls = 0

    @a.tool_plain
    def lookup(key: int) -> str:
        nonlocal calls
        calls += 1
        if calls == 1:
            from pydantic_ai import ModelRetry

            raise ModelRetry("try another key")
        return "found"

    events = await collect(a.run_stream_events("go"))
    run = run_adapter(detect_input_adapter(events[0]), events)
    assert run.problems == []
    assert run.text == REPLY
    calls_and_results = [(b.block_type, b.attrs.get("is_error")) for b in run.natives]
    assert calls_and_results == [
        ("tool_call", None),
        ("tool_result", True),
        ("tool_call", None),
        ("tool_result", False),
    ]
    assert isinstance(run.natives[0].content, dict) and "key" in run.natives[0].content
    assert run.stop_reason is StopReason.end_turn


@pytest.mark.parametrize(
    ("reason", "ours"),
    [("length", StopReason.max_tokens), ("content_filter", StopReason.content_filter)],
)
async def test_finish_reasons(reason: str, ours: StopReason) -> None:
    """The run's last response decides (a run result wrapped as ``run_stream_events``
    ends with it; ``FunctionModel``'s stream function cannot set a finish reason)."""
    from pydantic_ai.messages import ModelResponse, TextPart
    from pydantic_ai.run import AgentRunResultEvent

    def reply(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[TextPart("cut")], finish_reason=reason)  # type: ignore[arg-type]

    result = await Agent(FunctionModel(reply)).run("go")
    events = [
        PartDeltaEvent(index=0, delta=TextPartDelta(content_delta="cut")),
        AgentRunResultEvent(result),
    ]
    run = run_adapter(PydanticAIInputAdapter(), events)
    assert (run.text, run.stop_reason) == ("cut", ours)


async def test_dumped_events() -> None:
    """Events serialised by pydantic-ai's own type adapter (a replayed log) read the same."""
    from pydantic import TypeAdapter
    from pydantic_ai.messages import AgentStreamEvent

    events = await run_events(FunctionModel(stream_function=model_stream))
    dumped = [
        json.loads(TypeAdapter(AgentStreamEvent).dump_json(e))
        for e in events
        if type(e).__name__ != "AgentRunResultEvent"
    ]
    run = run_adapter(detect_input_adapter(dumped[0]), dumped)
    assert run.text == REPLY + FINAL
    assert [(b.block_type, b.content) for b in run.natives][:2] == [
        ("thinking", THINKING),
        ("tool_call", TOOL_ARGS),
    ]


class TestPydanticAIConformance(AdapterConformance):
    adapter_factory = PydanticAIInputAdapter
    registered = True
    text_event = staticmethod(
        lambda piece: PartDeltaEvent(index=0, delta=TextPartDelta(content_delta=piece))
    )

    @classmethod
    def setup_class(cls) -> None:
        cls.samples = (agent_sample(run_events(FunctionModel(stream_function=model_stream))),)
