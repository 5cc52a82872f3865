"""OpenAI: the real ``openai`` client, sync and async, over a mock transport."""

from __future__ import annotations

import json
from typing import Any

import openai
import pytest

from streamblocks import collect
from streamblocks.adapters import EventCategory, detect_input_adapter
from streamblocks.core.events import StopReason, Usage
from streamblocks.ext.openai import OpenAIInputAdapter
from streamblocks.testing import run_adapter

from .sse import (
    REPLY,
    REPLY_PIECES,
    THINKING,
    THINKING_PIECES,
    TOOL_ARGS,
    TOOL_ARGS_PIECES,
    Recorder,
    collect_async,
    sse,
)

MODES = ["sync", "async"]
MESSAGES = [{"role": "user", "content": "hi"}]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
            # openai 2.0's stream helper parses strict function tools only (newer ones any).
            "strict": True,
        },
    }
]

# -- Chat Completions wire format ------------------------------------------------------


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **extra: Any) -> Any:
    body: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": "gpt-test",
        "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}],
    }
    body.update(extra)
    return (None, body)


CHAT_USAGE = {
    "prompt_tokens": 12,
    "completion_tokens": 34,
    "total_tokens": 46,
    "prompt_tokens_details": {"cached_tokens": 4},
    "completion_tokens_details": {"reasoning_tokens": 7},
}
CHAT_USAGE_EXPECTED = Usage(
    input_tokens=12, output_tokens=34, total_tokens=46, cache_read_tokens=4, reasoning_tokens=7
)


def chat_body(finish: str = "tool_calls") -> bytes:
    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"reasoning_content": piece}) for piece in THINKING_PIECES]
    events += [chunk({"content": piece}) for piece in REPLY_PIECES]
    events.append(
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": ""},
                    }
                ]
            }
        )
    )
    events += [
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
        for piece in TOOL_ARGS_PIECES
    ]
    events.append(chunk({}, finish))
    usage_chunk = chunk()
    usage_chunk[1]["choices"] = []
    usage_chunk[1]["usage"] = CHAT_USAGE
    events.append(usage_chunk)
    return sse(events, done=True)


def openai_client(mode: str, server: Recorder) -> Any:
    if mode == "sync":
        return openai.OpenAI(
            api_key="test",
            base_url="https://openai.test/v1",
            http_client=server.sync_client(openai.DefaultHttpxClient),
        )
    return openai.AsyncOpenAI(
        api_key="test",
        base_url="https://openai.test/v1",
        http_client=server.async_client(openai.DefaultAsyncHttpxClient),
    )


async def chat_create(mode: str, server: Recorder) -> list[Any]:
    client = openai_client(mode, server)
    kwargs: dict[str, Any] = {
        "model": "gpt-test",
        "messages": MESSAGES,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if mode == "sync":
        return list(client.chat.completions.create(**kwargs))
    return await collect_async(await client.chat.completions.create(**kwargs))


async def chat_helper(mode: str, server: Recorder) -> list[Any]:
    client = openai_client(mode, server)
    kwargs: dict[str, Any] = {"model": "gpt-test", "messages": MESSAGES, "tools": TOOLS}
    if mode == "sync":
        with client.chat.completions.stream(**kwargs) as stream:
            return list(stream)
    async with client.chat.completions.stream(**kwargs) as stream:
        return await collect_async(stream)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("read", [chat_create, chat_helper], ids=["create", "stream_helper"])
async def test_chat_completions(mode: str, read: Any) -> None:
    server = Recorder(chat_body())
    events = await read(mode, server)
    assert json.loads(server.requests[0].content)["stream"] is True

    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, OpenAIInputAdapter)
    run = run_adapter(adapter, events)

    assert run.problems == []
    assert run.text == REPLY
    assert run.stop_reason is StopReason.tool_use
    assert run.usage == CHAT_USAGE_EXPECTED
    assert [(b.block_type, b.content) for b in run.natives] == [
        ("thinking", THINKING),
        ("tool_call", TOOL_ARGS),
    ]
    tool = run.natives[1]
    assert tool.block_id == "call_1"
    assert tool.attrs == {"name": "get_weather", "id": "call_1"}
    assert all(block.closed for block in run.natives)
    assert run.passthrough == []


@pytest.mark.parametrize("mode", MODES)
async def test_chat_length_and_refusal(mode: str) -> None:
    server = Recorder(sse([chunk({"content": "Hello"}), chunk({}, "length")], done=True))
    run = run_adapter(OpenAIInputAdapter(), await chat_create(mode, server))
    assert (run.text, run.stop_reason) == ("Hello", StopReason.max_tokens)

    refusal = [chunk({"refusal": "I can't "}), chunk({"refusal": "help."}), chunk({}, "stop")]
    server = Recorder(sse(refusal, done=True))
    events = await chat_create(mode, server)
    run = run_adapter(OpenAIInputAdapter(), events)
    assert run.text == ""
    assert run.stop_reason is StopReason.refusal
    assert run.passthrough == events[:2]  # the refusal itself is not lost


def test_chat_other_choices_and_unknown_finish_reasons_are_handled() -> None:
    adapter = OpenAIInputAdapter().for_stream()
    second = chunk({"content": "other choice"})[1]
    second["choices"][0]["index"] = 1
    assert adapter.categorize(second) is EventCategory.SKIP
    odd = chunk({}, "something_new")[1]
    assert adapter.stop_reason(odd) is StopReason.unknown


# -- Responses wire format -------------------------------------------------------------

RESPONSE = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1700000000,
    "model": "gpt-test",
    "status": "in_progress",
    "output": [],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
}
RESPONSES_USAGE = {
    "input_tokens": 20,
    "output_tokens": 50,
    "total_tokens": 70,
    "input_tokens_details": {"cached_tokens": 8},
    "output_tokens_details": {"reasoning_tokens": 16},
}
REASONING_ITEM = {"type": "reasoning", "id": "rs_1", "summary": []}
MESSAGE_ITEM = {
    "type": "message",
    "id": "msg_1",
    "role": "assistant",
    "status": "in_progress",
    "content": [],
}
CALL_ITEM = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "get_weather",
    "arguments": "",
    "status": "in_progress",
}


def responses_body(final: str = "response.completed", **final_fields: Any) -> bytes:
    seq = iter(range(1000))
    events: list[tuple[str, Any]] = []

    def add(kind: str, **data: Any) -> None:
        events.append((kind, {"type": kind, "sequence_number": next(seq), **data}))

    add("response.created", response=RESPONSE)
    add("response.in_progress", response=RESPONSE)
    add("response.output_item.added", output_index=0, item=REASONING_ITEM)
    add(
        "response.reasoning_summary_part.added",
        item_id="rs_1",
        output_index=0,
        summary_index=0,
        part={"type": "summary_text", "text": ""},
    )
    for piece in THINKING_PIECES:
        add(
            "response.reasoning_summary_text.delta",
            item_id="rs_1",
            output_index=0,
            summary_index=0,
            delta=piece,
        )
    add(
        "response.reasoning_summary_text.done",
        item_id="rs_1",
        output_index=0,
        summary_index=0,
        text=THINKING,
    )
    summary = [{"type": "summary_text", "text": THINKING}]
    done_reasoning = {**REASONING_ITEM, "summary": summary}
    add("response.output_item.done", output_index=0, item=done_reasoning)
    add("response.output_item.added", output_index=1, item=MESSAGE_ITEM)
    add(
        "response.content_part.added",
        item_id="msg_1",
        output_index=1,
        content_index=0,
        part={"type": "output_text", "text": "", "annotations": []},
    )
    for piece in REPLY_PIECES:
        add(
            "response.output_text.delta",
            item_id="msg_1",
            output_index=1,
            content_index=0,
            delta=piece,
            logprobs=[],
        )
    add(
        "response.output_text.done",
        item_id="msg_1",
        output_index=1,
        content_index=0,
        text=REPLY,
        logprobs=[],
    )
    full_part = {"type": "output_text", "text": REPLY, "annotations": []}
    add(
        "response.content_part.done",
        item_id="msg_1",
        output_index=1,
        content_index=0,
        part=full_part,
    )
    done_message = {**MESSAGE_ITEM, "status": "completed", "content": [full_part]}
    add("response.output_item.done", output_index=1, item=done_message)
    add("response.output_item.added", output_index=2, item=CALL_ITEM)
    for piece in TOOL_ARGS_PIECES:
        add("response.function_call_arguments.delta", item_id="fc_1", output_index=2, delta=piece)
    args = "".join(TOOL_ARGS_PIECES)
    add("response.function_call_arguments.done", item_id="fc_1", output_index=2, arguments=args)
    done_call = {**CALL_ITEM, "arguments": args, "status": "completed"}
    add("response.output_item.done", output_index=2, item=done_call)
    final_response = {
        **RESPONSE,
        "status": "completed",
        "output": [done_reasoning, done_message, done_call],
        "usage": RESPONSES_USAGE,
        **final_fields,
    }
    add(final, response=final_response)
    return sse(events)


async def responses_create(mode: str, server: Recorder) -> list[Any]:
    client = openai_client(mode, server)
    if mode == "sync":
        return list(client.responses.create(model="gpt-test", input="hi", stream=True))
    return await collect_async(
        await client.responses.create(model="gpt-test", input="hi", stream=True)
    )


async def responses_helper(mode: str, server: Recorder) -> list[Any]:
    client = openai_client(mode, server)
    if mode == "sync":
        with client.responses.stream(model="gpt-test", input="hi") as stream:
            return list(stream)
    async with client.responses.stream(model="gpt-test", input="hi") as stream:
        return await collect_async(stream)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "read", [responses_create, responses_helper], ids=["create", "stream_helper"]
)
async def test_responses(mode: str, read: Any) -> None:
    events = await read(mode, Recorder(responses_body()))
    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, OpenAIInputAdapter)
    assert adapter.categorize(events[0]) is EventCategory.STREAM_START
    run = run_adapter(adapter, events)

    assert run.problems == []
    assert run.text == REPLY  # not repeated by *.done or response.completed
    assert run.ended
    assert run.stop_reason is StopReason.tool_use
    assert run.usage == Usage(
        input_tokens=20, output_tokens=50, total_tokens=70, cache_read_tokens=8, reasoning_tokens=16
    )
    assert [(b.block_type, b.block_id, b.content) for b in run.natives] == [
        ("thinking", "rs_1", THINKING),
        ("tool_call", "call_1", TOOL_ARGS),
    ]
    assert run.natives[1].attrs == {"name": "get_weather", "id": "call_1"}
    assert run.passthrough == []


@pytest.mark.parametrize("mode", MODES)
async def test_responses_incomplete(mode: str) -> None:
    body = responses_body(
        "response.incomplete",
        status="incomplete",
        incomplete_details={"reason": "max_output_tokens"},
    )
    run = run_adapter(OpenAIInputAdapter(), await responses_create(mode, Recorder(body)))
    assert run.text == REPLY
    assert run.stop_reason is StopReason.max_tokens


def test_responses_failure_and_error_pass_through_with_error_stop() -> None:
    adapter = OpenAIInputAdapter()
    failed = {
        "type": "response.failed",
        "sequence_number": 3,
        "response": {**RESPONSE, "status": "failed", "error": {"code": "server_error"}},
    }
    error = {"type": "error", "code": "rate_limit", "message": "slow down", "param": None}
    run = run_adapter(adapter, [failed])
    assert (run.passthrough, run.stop_reason) == ([failed], StopReason.error)
    run = run_adapter(adapter, [error])
    assert (run.passthrough, run.stop_reason) == ([error], StopReason.error)
    assert adapter.matches(error)


def test_responses_refusal_and_builtin_tools() -> None:
    def ev(kind: str, **data: Any) -> dict[str, Any]:
        return {"type": kind, **data}

    web = {"type": "web_search_call", "id": "ws_1", "status": "in_progress"}
    events = [
        ev("response.created", response=RESPONSE),
        ev("response.output_item.added", item=web),
        ev("response.refusal.delta", item_id="m", delta="No."),
        ev("response.refusal.done", item_id="m", refusal="No."),
        ev("response.output_text.annotation.added", annotation={"type": "url_citation"}),
        ev("response.completed", response={**RESPONSE, "output": []}),
    ]
    run = run_adapter(OpenAIInputAdapter(), events)
    assert run.stop_reason is StopReason.refusal
    assert run.passthrough == [events[1], events[2], events[4]]


def test_replayed_json_dicts_are_detected() -> None:
    body = chat_body().decode()
    events = [
        json.loads(line[len("data: ") :])
        for line in body.splitlines()
        if line.startswith("data: {")
    ]
    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, OpenAIInputAdapter)
    run = run_adapter(adapter, events)
    assert (run.text, run.stop_reason) == (REPLY, StopReason.tool_use)


# -- parallel calls that reuse index 0 with their own ids (Groq) ----------------------


def test_parallel_calls_reusing_index_zero_are_separate_calls() -> None:
    def call(call_id: str | None, name: str | None, arguments: str) -> Any:
        piece: dict[str, Any] = {"index": 0, "function": {"arguments": arguments}}
        if call_id is not None:
            piece.update(id=call_id, type="function")
        if name is not None:
            piece["function"]["name"] = name
        return chunk({"tool_calls": [piece]})

    events = [chunk({"role": "assistant", "content": ""})]
    events += [
        call("call_a", "get_weather", ""),
        call(None, None, '{"city": '),
        call("call_a", None, '"Paris"}'),  # the same id again: the same call
        call("call_b", "get_time", '{"tz": "CET"}'),
        call("call_c", "get_weather", '{"city"'),
        call(None, None, ': "Rome"}'),
        chunk({}, "tool_calls"),
    ]
    server = Recorder(sse(events, done=True))
    client = openai_client("sync", server)
    stream = client.chat.completions.create(model="gpt-test", messages=MESSAGES, stream=True)
    step = collect(stream)
    assert [(c.id, c.name, c.arguments) for c in step.tool_calls] == [
        ("call_a", "get_weather", {"city": "Paris"}),
        ("call_b", "get_time", {"tz": "CET"}),
        ("call_c", "get_weather", {"city": "Rome"}),
    ]
