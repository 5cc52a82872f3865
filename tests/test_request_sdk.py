"""The request side against each SDK's real client over a mock transport.

The SDK receives what ``request()`` wrote (the JSON body it sends is asserted, not the
dict we built), each reply is an SSE stream in the provider's documented wire format,
and the loop runs to its end: a call with invalid arguments sent back, the tool's
result, structured output; a refusal and a max-tokens stop fail the step.
"""

from __future__ import annotations

import collections.abc
import json
import types
import typing
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
import typing_extensions
from anthropic import Anthropic
from google import genai
from google.genai import types as gtypes
from openai import OpenAI
from pydantic import BaseModel

from adapters.sse import ChunkedBody, sse
from streamblocks import FINISH_TOOL, Outcome, Tools, collect, request
from streamblocks.content import Message
from streamblocks.request import read_request
from streamblocks.testing import MockProvider, MockReply, MockToolCall

SIGNATURE = MockReply().signature


class Answer(BaseModel):
    """The sum."""

    value: int


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


TOOLS = Tools([add])


def _encode(provider: str, events: list[dict[str, Any]]) -> bytes:
    if provider == "openai":
        return sse([(None, event) for event in events], done=True)
    if provider == "gemini":
        return sse([(None, event) for event in events], crlf=True)
    return sse([(event["type"], event) for event in events])  # named SSE events


class Server:
    """Answers the n-th request with the n-th scripted reply, as an SSE body written in
    the provider's wire format; keeps the JSON body of every request."""

    def __init__(self, provider: str, replies: list[MockReply | str]) -> None:
        self.provider = provider
        self.script = MockProvider(replies, provider=provider, sdk_types=False)
        self.bodies: list[dict[str, Any]] = []

    def __call__(self, http_request: httpx2.Request) -> httpx2.Response:
        self.bodies.append(json.loads(http_request.content))
        reply = self.script.replies[len(self.bodies) - 1]
        assert not isinstance(reply, BaseException)
        body = _encode(self.provider, self.script.events(reply))
        headers = {"content-type": "text/event-stream"}
        return httpx2.Response(200, headers=headers, stream=ChunkedBody(body, 7))

    def http(self) -> httpx2.Client:
        return httpx2.Client(transport=httpx2.MockTransport(self))


def opener(provider: str, server: Server) -> Callable[[dict[str, Any]], Any]:
    """The SDK's streaming call, given ``request()``'s keyword arguments."""
    if provider in ("openai", "openai-responses"):
        client = OpenAI(
            api_key="test", base_url="https://openai.test/v1", http_client=server.http()
        )
        if provider == "openai":
            return lambda kw: client.chat.completions.create(model="gpt-test", stream=True, **kw)
        return lambda kw: client.responses.create(model="gpt-test", stream=True, **kw)
    if provider == "anthropic":
        claude = Anthropic(
            api_key="test", base_url="https://anthropic.test", http_client=server.http()
        )
        return lambda kw: claude.messages.create(
            model="claude-test", max_tokens=1024, stream=True, **kw
        )
    options = gtypes.HttpOptions(base_url="https://gemini.test", httpx_client=server.http())
    gemini = genai.Client(api_key="test", http_options=options)
    # The client stays referenced by the lambda while its stream is read.
    return lambda kw: gemini.models.generate_content_stream(model="gemini-test", **kw)


def conforms(value: Any, hint: Any) -> str | None:
    """Why ``value`` is not of the SDK's request type ``hint`` (``None``: it is). A small
    structural checker: TypedDicts (no unknown key, every required key), unions,
    literals, iterables, mappings and scalars, which is what the SDKs' params use."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any or hint is object:
        return None
    if origin in (typing.Annotated, typing_extensions.Required, typing_extensions.NotRequired):
        return conforms(value, args[0])
    if origin is typing.Union or origin is types.UnionType:
        reasons = [conforms(value, arg) for arg in args]
        return None if None in reasons else " | ".join(r for r in reasons if r)
    if origin is typing.Literal:
        return None if value in args else f"{value!r} not in {args}"
    if hint is type(None):
        return None if value is None else f"{value!r} is not None"
    if typing_extensions.is_typeddict(hint):
        if not isinstance(value, dict):
            return f"{value!r} is not a {hint.__name__}"
        hints = typing.get_type_hints(hint, include_extras=True)
        unknown = set(value) - set(hints)
        missing = {key for key, item in hints.items() if _required(hint, item)} - set(value)
        if unknown or missing:
            return f"{hint.__name__}: unknown {sorted(unknown)}, missing {sorted(missing)}"
        for key, item in value.items():
            reason = conforms(item, hints[key])
            if reason:
                return f"{hint.__name__}.{key}: {reason}"
        return None
    if origin in (dict, collections.abc.Mapping) or hint is dict:
        return None if isinstance(value, dict) else f"{value!r} is not a mapping"
    if origin in (list, collections.abc.Iterable, collections.abc.Sequence):
        if not isinstance(value, list):
            return f"{value!r} is not a list"
        reasons = [conforms(item, args[0]) for item in value] if args else []
        return next((r for r in reasons if r), None)
    if isinstance(hint, type):
        if hint is float and isinstance(value, int):
            return None
        return None if isinstance(value, hint) else f"{value!r} is not a {hint.__name__}"
    return None  # a typing construct the SDKs do not use in request params


def _required(typed_dict: Any, hint: Any) -> bool:
    # Read from the hints: __required_keys__ misses Required[] in string annotations.
    origin = typing.get_origin(hint)
    if origin is typing_extensions.Required:
        return True
    return bool(typed_dict.__total__) and origin is not typing_extensions.NotRequired


def typed(sdk_type: Any, value: Any) -> None:
    reason = conforms(value, sdk_type)
    assert reason is None, reason


def test_the_type_checker_rejects_what_the_sdk_types_reject() -> None:
    from anthropic.types import MessageParam

    good = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    assert conforms(good, MessageParam) is None
    assert conforms({**good, "extra": 1}, MessageParam)
    assert conforms({"role": "tool", "content": "x"}, MessageParam)
    assert conforms({"role": "user", "content": [{"type": "text"}]}, MessageParam)
    assert conforms({"role": "user", "content": [{"type": "text", "text": 3}]}, MessageParam)


def check_sdk_types(provider: str, kw: dict[str, Any]) -> None:
    """The arguments type-check against the SDK's own request types."""
    if provider == "openai":
        from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolParam

        typed(list[ChatCompletionMessageParam], kw["messages"])
        typed(list[ChatCompletionToolParam], kw.get("tools", []))
    elif provider == "openai-responses":
        from openai.types.responses import ResponseInputParam, ToolParam

        typed(ResponseInputParam, kw["input"])
        typed(list[ToolParam], kw.get("tools", []))
    elif provider == "anthropic":
        from anthropic.types import MessageParam
        from anthropic.types import ToolParam as AnthropicTool

        typed(list[MessageParam], kw["messages"])
        typed(list[AnthropicTool], kw.get("tools", []))
    else:  # google-genai's models forbid unknown fields
        for content in kw["contents"]:
            gtypes.Content.model_validate(content)
        gtypes.GenerateContentConfig.model_validate(kw.get("config", {}))


def loop(provider: str, server: Server) -> tuple[Any, list[Message]]:
    call = opener(provider, server)
    history = [Message.system("Be terse."), Message.user("What is 2 + 3?")]
    step = None
    for _ in range(len(server.script.replies)):
        kw = request(history, provider=provider, tools=TOOLS, output=Answer)
        check_sdk_types(provider, kw)
        step = collect(call(kw), output=Answer)
        history.append(step.message)
        if step.should_stop:
            break
        history += [TOOLS.run(c) for c in step.tool_calls]
    return step, history


PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini"]
ROUND_TRIP = [
    MockReply(
        thinking="Add them.", tool_calls=[MockToolCall("add", {"a": "two", "b": 3}, id="call_1")]
    ),
    MockReply(text="Again.", tool_calls=[MockToolCall("add", {"a": 2, "b": 3}, id="call_2")]),
    MockReply(tool_calls=[MockToolCall(FINISH_TOOL, {"value": 5}, id="call_3")]),
]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_tool_round_trip_and_structured_output(provider: str) -> None:
    server = Server(provider, list(ROUND_TRIP))
    step, history = loop(provider, server)
    assert step.outcome is Outcome.done and step.output == Answer(value=5)
    assert len(server.bodies) == 3
    WIRE[provider](server.bodies)
    if provider in ("openai", "openai-responses", "anthropic"):
        # What the SDK sent reads back as the conversation the loop held.
        sent = {k: v for k, v in server.bodies[2].items() if k not in SDK_KEYS}
        assert read_request(sent, provider=provider) == expected_history(provider, history[:-1])


SDK_KEYS = {"model", "stream", "max_tokens"}


def expected_history(provider: str, history: list[Message]) -> list[Message]:
    """What each API keeps of the conversation: Chat Completions takes no reasoning
    back; results carry the tool's name; a number result is JSON text on the wire."""
    out = []
    for message in history:
        content = []
        for block in message.content:
            if block.type == "thinking" and provider == "openai":
                continue
            if block.type == "thinking" and provider == "openai-responses":
                block = block.model_copy(update={"signature": None})
            if block.type == "thinking" and provider == "anthropic":
                block = block.model_copy(update={"id": None})
            if block.type == "tool_result":
                block = block.model_copy(update={"content": str(block.content)})
            content.append(block)
        if content:
            out.append(Message(role=message.role, content=content))
    return out


def openai_wire(bodies: list[dict[str, Any]]) -> None:
    first, second, third = bodies
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert [t["function"]["name"] for t in first["tools"]] == ["add", FINISH_TOOL]
    assistant, result = second["messages"][2:]
    assert assistant == {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "add", "arguments": '{"a": "two", "b": 3}'},
            }
        ],
    }
    assert result["role"] == "tool" and result["tool_call_id"] == "call_1"
    assert result["content"].startswith("Error: invalid arguments for add: a: Input should be")
    assert third["messages"][-1] == {"role": "tool", "tool_call_id": "call_2", "content": "5"}
    assert third["messages"][-2]["content"] == "Again."


def responses_wire(bodies: list[dict[str, Any]]) -> None:
    first, second, third = bodies
    assert first["input"][0] == {"role": "system", "content": "Be terse."}
    assert [t["name"] for t in first["tools"]] == ["add", FINISH_TOOL]
    reasoning, call, output = second["input"][2:]
    assert reasoning == {
        "type": "reasoning",
        "id": "rs_mock",
        "summary": [{"type": "summary_text", "text": "Add them."}],
    }
    assert call == {
        "type": "function_call",
        "call_id": "call_1",
        "name": "add",
        "arguments": '{"a": "two", "b": 3}',
    }
    assert output["type"] == "function_call_output" and output["call_id"] == "call_1"
    assert output["output"].startswith("Error: invalid arguments for add")
    assert third["input"][-1] == {
        "type": "function_call_output",
        "call_id": "call_2",
        "output": "5",
    }


def anthropic_wire(bodies: list[dict[str, Any]]) -> None:
    first, second, third = bodies
    assert first["system"] == "Be terse."
    assert first["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "What is 2 + 3?"}]}
    ]
    assert [t["name"] for t in first["tools"]] == ["add", FINISH_TOOL]
    assert "additionalProperties" in first["tools"][0]["input_schema"]
    assistant, result = second["messages"][1:]
    assert assistant["content"] == [
        {"type": "thinking", "thinking": "Add them.", "signature": SIGNATURE},
        {"type": "tool_use", "id": "call_1", "name": "add", "input": {"a": "two", "b": 3}},
    ]
    (tool_result,) = result["content"]
    assert result["role"] == "user" and tool_result["type"] == "tool_result"
    assert tool_result["tool_use_id"] == "call_1" and tool_result["is_error"] is True
    assert [m["role"] for m in third["messages"]] == [
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert third["messages"][-1]["content"] == [
        {"type": "tool_result", "tool_use_id": "call_2", "content": "5"}
    ]


def gemini_wire(bodies: list[dict[str, Any]]) -> None:
    first, second, third = bodies
    assert first["systemInstruction"]["parts"] == [{"text": "Be terse."}]
    (declarations,) = [tool["functionDeclarations"] for tool in first["tools"]]
    assert [d["name"] for d in declarations] == ["add", FINISH_TOOL]
    assert "additionalProperties" not in json.dumps(declarations)
    model, result = second["contents"][1:]
    assert model["role"] == "model"
    thought, call = model["parts"]
    assert thought == {"text": "Add them.", "thought": True, "thoughtSignature": SIGNATURE}
    assert call["functionCall"] == {"id": "call_1", "name": "add", "args": {"a": "two", "b": 3}}
    assert call["thoughtSignature"] == SIGNATURE
    (response,) = result["parts"]
    assert result["role"] == "user"
    assert response["functionResponse"]["name"] == "add"
    assert "invalid arguments for add" in response["functionResponse"]["response"]["error"]
    assert third["contents"][-1]["parts"] == [
        {"functionResponse": {"id": "call_2", "name": "add", "response": {"output": 5}}}
    ]


WIRE = {
    "openai": openai_wire,
    "openai-responses": responses_wire,
    "anthropic": anthropic_wire,
    "gemini": gemini_wire,
}


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("stop", ["refusal", "max_tokens"])
def test_refusal_and_max_tokens_fail_the_step(provider: str, stop: str) -> None:
    server = Server(
        provider, [MockReply(text="I can't help with that.", stop_reason=stop), "unused"]
    )
    step, _history = loop(provider, server)
    assert step.outcome is Outcome.failed and step.should_stop
    assert step.reason and len(server.bodies) == 1
    assert step.stop_reason.value in {stop, "content_filter"}  # Gemini: SAFETY


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "gemini"])
def test_native_structured_output(provider: str) -> None:
    server = Server(provider, ['{"value": 5}'])
    call = opener(provider, server)
    kw = request([Message.user("2 + 3?")], provider=provider, output=Answer, native_output=True)
    check_sdk_types(provider, kw)
    step = collect(call(kw), output=Answer)
    assert step.outcome is Outcome.done and step.output == Answer(value=5)
    (body,) = server.bodies
    if provider == "openai":
        assert body["response_format"]["json_schema"]["name"] == "Answer"
    elif provider == "openai-responses":
        assert body["text"]["format"]["schema"]["required"] == ["value"]
    else:
        assert body["generationConfig"]["responseMimeType"] == "application/json"
        assert body["generationConfig"]["responseSchema"]["required"] == ["value"]


def test_user_images_and_documents_reach_each_sdk() -> None:
    from streamblocks.content import DocumentBlock, ImageBlock

    data = "aGVsbG8="  # b"hello"
    user = Message.user(
        "Describe these.",
        ImageBlock(url="https://example.test/cat.png"),
        ImageBlock(data=data, media_type="image/png"),
        DocumentBlock(data=data, media_type="application/pdf", title="report.pdf"),
    )
    bodies = {}
    for provider in PROVIDERS:
        server = Server(provider, ["ok"])
        kw = request([user], provider=provider)
        check_sdk_types(provider, kw)
        collect(opener(provider, server)(kw))
        bodies[provider] = server.bodies[0]
    chat_parts = bodies["openai"]["messages"][0]["content"]
    assert chat_parts[2] == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64," + data},
    }
    assert chat_parts[3]["file"] == {
        "file_data": "data:application/pdf;base64," + data,
        "filename": "report.pdf",
    }
    responses_parts = bodies["openai-responses"]["input"][0]["content"]
    assert responses_parts[1]["image_url"] == "https://example.test/cat.png"
    anthropic_parts = bodies["anthropic"]["messages"][0]["content"]
    assert anthropic_parts[2]["source"] == {
        "type": "base64",
        "media_type": "image/png",
        "data": data,
    }
    assert anthropic_parts[3]["title"] == "report.pdf"
    gemini_parts = bodies["gemini"]["contents"][0]["parts"]
    # (the SDK sends these keys as given, snake_case: the API reads both spellings)
    file_data = list(gemini_parts[1]["fileData"].values())
    assert file_data == ["https://example.test/cat.png", "image/png"]
    assert list(gemini_parts[2]["inlineData"].values()) == [data, "image/png"]


def test_anthropic_redacted_thinking_goes_back_unchanged() -> None:
    """A reply with redacted thinking, written from Anthropic's documented events."""
    events = [
        {
            "type": "message_start",
            "message": {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "claude-test",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 5, "output_tokens": 1},
            },
        },
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "redacted_thinking", "data": "RU5DUllQVEVE"},
        },
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {}},
        },
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": '{"a": 2, "b": 3}'},
        },
        {"type": "content_block_stop", "index": 1},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 9},
        },
        {"type": "message_stop"},
    ]
    server = Server("anthropic", ["Five."])
    call = opener("anthropic", server)
    history = [Message.user("2 + 3?")]
    step = collect(_replay(events))  # the first reply, through the SDK
    assert step.outcome is Outcome.run_tools
    history += [step.message, *(TOOLS.run(c) for c in step.tool_calls)]
    collect(call(request(history, provider="anthropic", tools=TOOLS)))
    (body,) = server.bodies
    assert body["messages"][1]["content"] == [
        {"type": "redacted_thinking", "data": "RU5DUllQVEVE"},
        {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 2, "b": 3}},
    ]


def _replay(events: list[dict[str, Any]]) -> Any:
    """Anthropic's SDK reading ``events`` as its SSE stream."""
    body = _encode("anthropic", events)

    def handler(_request: httpx2.Request) -> httpx2.Response:
        headers = {"content-type": "text/event-stream"}
        return httpx2.Response(200, headers=headers, stream=ChunkedBody(body, 5))

    client = Anthropic(
        api_key="test",
        base_url="https://anthropic.test",
        http_client=httpx2.Client(transport=httpx2.MockTransport(handler)),
    )
    kw = request([Message.user("2 + 3?")], provider="anthropic", tools=TOOLS)
    return client.messages.create(model="claude-test", max_tokens=64, stream=True, **kw)
