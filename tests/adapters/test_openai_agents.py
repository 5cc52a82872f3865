"""OpenAI Agents SDK: real ``Runner.run_streamed()`` runs on an ``OpenAIResponsesModel``
whose ``AsyncOpenAI`` client talks to a mock transport replaying Responses API SSE."""

from __future__ import annotations

import json
from typing import Any

import openai
from agents import Agent, RunConfig, Runner, function_tool, handoff

from streamblocks import BlockRegistry, StreamBlockProcessor
from streamblocks.adapters import detect_input_adapter
from streamblocks.core.events import StopReason, Usage
from streamblocks.ext.openai_agents import OpenAIAgentsInputAdapter
from streamblocks.testing import AdapterConformance, chunk_bytes, run_adapter

from . import test_openai
from .sse import AGENT_FINAL, AGENT_NATIVES, REPLY, agent_sample, http_package, sse

FINAL = AGENT_FINAL
# (with the token details the Responses API always sends: openai-agents 0.4 requires them)
TURN_USAGE = {
    "input_tokens": 5,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 3,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 8,
}


def answer_body(text: str = FINAL, response_id: str = "resp_2") -> bytes:
    """A second model call: one message, then ``response.completed``."""
    response = {**test_openai.RESPONSE, "id": response_id}
    message = {**test_openai.MESSAGE_ITEM, "id": f"msg_{response_id}"}
    part = {"type": "output_text", "text": text, "annotations": []}
    done = {**message, "status": "completed", "content": [part]}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": response},
        {"type": "response.output_item.added", "output_index": 0, "item": message},
        {
            "type": "response.output_text.delta",
            "item_id": message["id"],
            "output_index": 0,
            "content_index": 0,
            "delta": text,
            "logprobs": [],
        },
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {
            "type": "response.completed",
            "response": {**response, "status": "completed", "output": [done], "usage": TURN_USAGE},
        },
    ]
    return sse([(e["type"], {**e, "sequence_number": i}) for i, e in enumerate(events)])


def handoff_body() -> bytes:
    """A first model call that hands off to the agent named "Expert"."""
    call = {
        **test_openai.CALL_ITEM,
        "id": "fc_h",
        "call_id": "call_h",
        "name": "transfer_to_expert",
    }
    done = {**call, "arguments": "{}", "status": "completed"}
    response = {**test_openai.RESPONSE, "id": "resp_h"}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": response},
        {"type": "response.output_item.added", "output_index": 0, "item": call},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {
            "type": "response.completed",
            "response": {**response, "status": "completed", "output": [done], "usage": TURN_USAGE},
        },
    ]
    return sse([(e["type"], {**e, "sequence_number": i}) for i, e in enumerate(events)])


class Turns:
    """The mock API: answers the n-th request with the n-th body, in small byte pieces."""

    def __init__(self, *bodies: bytes) -> None:
        self.bodies = list(bodies)
        self.requests: list[Any] = []
        self.http = http_package(openai.DefaultAsyncHttpxClient)  # httpx2, or httpx (openai 1)

    def __call__(self, request: Any) -> Any:
        self.requests.append(json.loads(request.content))
        body = self.bodies[len(self.requests) - 1]
        return self.http.Response(
            200,
            headers={"content-type": "text/event-stream"},
            content=b"".join(chunk_bytes(body, 7)),
        )

    def model(self) -> Any:
        from agents import OpenAIResponsesModel

        client = openai.AsyncOpenAI(
            api_key="test",
            base_url="https://openai.test/v1",
            http_client=self.http.AsyncClient(transport=self.http.MockTransport(self)),
        )
        return OpenAIResponsesModel(model="gpt-test", openai_client=client)


@function_tool
def get_weather(city: str, note: str) -> str:
    """The weather in a city."""
    return f"sunny in {city}"


OFFLINE = RunConfig(tracing_disabled=True)


async def run_events(*bodies: bytes, agent: Any = None) -> tuple[list[Any], Turns]:
    server = Turns(*bodies)
    agent = agent or Agent(name="Assistant", model=server.model(), tools=[get_weather])
    result = Runner.run_streamed(agent, "weather?", run_config=OFFLINE)
    return [e async for e in result.stream_events()], server


async def recorded_run() -> list[Any]:
    """The events of a run whose model thinks, replies, calls get_weather, then answers."""
    return (await run_events(test_openai.responses_body(), answer_body()))[0]


RUN_USAGE = Usage(
    input_tokens=25, output_tokens=53, total_tokens=78, cache_read_tokens=8, reasoning_tokens=16
)


async def test_run_streamed() -> None:
    events, server = await run_events(test_openai.responses_body(), answer_body())
    assert len(server.requests) == 2  # the tool ran between the two model calls
    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, OpenAIAgentsInputAdapter)
    run = run_adapter(adapter, events)
    assert run.problems == []
    assert run.text == REPLY + FINAL  # each piece once, from the raw events
    assert [(b.block_type, b.content) for b in run.natives] == AGENT_NATIVES
    assert run.natives[1].attrs == {"name": "get_weather", "id": "call_1"}
    assert run.natives[2].attrs == {
        "tool_call_id": "call_1",
        "name": "get_weather",
        "is_error": False,
    }
    assert run.stop_reason is StopReason.end_turn  # the last model call's
    assert run.usage == RUN_USAGE  # both model calls
    names = [getattr(e, "name", e.type) for e in run.passthrough]
    assert names[0] == "agent_updated_stream_event"
    assert "tool_called" in names and "message_output_created" in names


async def test_processor_end_to_end() -> None:
    server = Turns(test_openai.responses_body(), answer_body())
    agent = Agent(name="Assistant", model=server.model(), tools=[get_weather])
    registry = BlockRegistry()
    registry.register("note")
    result = Runner.run_streamed(agent, "weather?", run_config=OFFLINE)
    events = [
        e async for e in StreamBlockProcessor(registry).process_stream(result.stream_events())
    ]
    ends = [e.block for e in events if e.type == "BLOCK_END"]
    assert [b.type for b in ends] == ["thinking", "note", "tool_call", "tool_result"]
    assert "".join(e.text for e in events if e.type == "TEXT_DELTA") == (
        "Voilà 👩\u200d💻 café!\nfin 🇫🇷 ok\n" + FINAL
    )
    assert events[-1].stop_reason is StopReason.end_turn
    # the same recorded events, read synchronously
    recorded, _ = await run_events(test_openai.responses_body(), answer_body())
    sync = list(StreamBlockProcessor(registry).process(recorded))
    assert [e.block.type for e in sync if e.type == "BLOCK_END"] == [b.type for b in ends]


async def test_handoff() -> None:
    server = Turns(handoff_body(), answer_body("Expert here.\n"))
    expert = Agent(name="Expert", model=server.model())
    triage = Agent(name="Triage", model=server.model(), handoffs=[handoff(expert)])
    events, _ = await run_events(agent=triage)
    run = run_adapter(detect_input_adapter(events[0]), events)
    assert run.problems == []
    assert run.text == "Expert here.\n"
    assert [(b.block_type, b.attrs.get("name")) for b in run.natives] == [
        ("tool_call", "transfer_to_expert"),
        ("tool_result", "transfer_to_expert"),
    ]
    assert run.natives[1].attrs["handoff"] == {"from": "Triage", "to": "Expert"}
    assert json.loads(run.natives[1].content) == {"assistant": "Expert"}
    agents = [e.new_agent.name for e in run.passthrough if e.type == "agent_updated_stream_event"]
    assert agents == ["Triage", "Expert"]


async def test_run_items_alone() -> None:
    """A stream filtered to run items (raw events dropped) still gives text and blocks."""
    events, _ = await run_events(test_openai.responses_body(), answer_body())
    items = [e for e in events if e.type != "raw_response_event"]
    run = run_adapter(detect_input_adapter(items[0]), items)
    assert run.problems == []
    assert run.text == REPLY + FINAL
    assert [(b.block_type, b.content) for b in run.natives] == AGENT_NATIVES


class TestOpenAIAgentsConformance(AdapterConformance):
    adapter_factory = OpenAIAgentsInputAdapter
    registered = True

    @classmethod
    def setup_class(cls) -> None:
        cls.samples = (agent_sample(recorded_run(), RUN_USAGE),)

    @staticmethod
    def text_event(piece: str) -> Any:
        from agents import RawResponsesStreamEvent
        from openai.types.responses import ResponseTextDeltaEvent

        delta = ResponseTextDeltaEvent(
            type="response.output_text.delta",
            item_id="msg_1",
            output_index=0,
            content_index=0,
            delta=piece,
            logprobs=[],
            sequence_number=0,
        )
        return RawResponsesStreamEvent(data=delta)
