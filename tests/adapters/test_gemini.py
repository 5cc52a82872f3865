"""Gemini: the real ``google-genai`` client, sync and async, over a mock transport."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest
from google import genai
from google.genai import types

from streamblocks.adapters import EventCategory, detect_input_adapter
from streamblocks.core.events import StopReason, Usage
from streamblocks.ext.gemini import GeminiInputAdapter
from streamblocks.testing import run_adapter

from .sse import REPLY, REPLY_PIECES, THINKING, THINKING_PIECES, TOOL_ARGS, Recorder, sse

MODES = ["sync", "async"]
SIGNATURE = base64.b64encode(b"thought-signature").decode()
USAGE_WIRE = {
    "promptTokenCount": 9,
    "candidatesTokenCount": 30,
    "thoughtsTokenCount": 12,
    "totalTokenCount": 51,
    "cachedContentTokenCount": 3,
}


def response(parts: list[dict[str, Any]], finish: str | None = None, **extra: Any) -> Any:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    return (None, {"candidates": [candidate], "modelVersion": "gemini-test", **extra})


def stream_body(finish: str = "STOP", with_call: bool = True) -> bytes:
    events = [response([{"text": piece, "thought": True}]) for piece in THINKING_PIECES]
    events.append(response([{"text": "", "thought": True, "thoughtSignature": SIGNATURE}]))
    events += [response([{"text": piece}]) for piece in REPLY_PIECES]
    if with_call:
        call = {"functionCall": {"id": "fc_1", "name": "get_weather", "args": TOOL_ARGS}}
        events.append(response([call]))
    events.append(response([{"text": ""}], finish, usageMetadata=USAGE_WIRE))
    return sse(events, crlf=True)


def client(mode: str, server: Recorder) -> genai.Client:
    if "httpx_client" in types.HttpOptions.model_fields:  # newer google-genai: httpx2 clients
        options = types.HttpOptions(
            base_url="https://gemini.test",
            httpx_client=server.sync_client() if mode == "sync" else None,
            httpx_async_client=server.async_client() if mode == "async" else None,
        )
    else:  # the floor (1.30) builds its own httpx clients from these arguments
        transport = {"transport": httpx.MockTransport(server)}
        options = types.HttpOptions(
            base_url="https://gemini.test", client_args=transport, async_client_args=transport
        )
    return genai.Client(api_key="test", http_options=options)


async def read(mode: str, server: Recorder) -> list[Any]:
    c = client(mode, server)  # keep the client referenced while its stream is read
    if mode == "sync":
        events = list(c.models.generate_content_stream(model="gemini-test", contents="hi"))
    else:
        stream = await c.aio.models.generate_content_stream(model="gemini-test", contents="hi")
        events = [chunk async for chunk in stream]
    assert "streamGenerateContent" in str(server.requests[0].url)
    return events


@pytest.mark.parametrize("mode", MODES)
async def test_stream(mode: str) -> None:
    events = await read(mode, Recorder(stream_body()))
    assert type(events[0]).__name__ == "GenerateContentResponse"
    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, GeminiInputAdapter)
    assert adapter.categorize(events[0]) is EventCategory.SKIP  # thought only
    run = run_adapter(adapter, events)

    assert run.problems == []
    assert run.text == REPLY  # thought parts never become text
    assert run.stop_reason is StopReason.tool_use  # STOP after a function call
    assert run.usage == Usage(
        input_tokens=9, output_tokens=42, total_tokens=51, cache_read_tokens=3, reasoning_tokens=12
    )
    assert [(b.block_type, b.block_id, b.content) for b in run.natives] == [
        ("thinking", None, THINKING),
        ("tool_call", "fc_1", TOOL_ARGS),
    ]
    assert run.natives[0].attrs == {"signature": SIGNATURE}
    assert run.natives[1].attrs == {"name": "get_weather", "id": "fc_1"}
    assert run.passthrough == []


@pytest.mark.parametrize(
    ("wire", "ours"),
    [
        ("STOP", StopReason.end_turn),
        ("MAX_TOKENS", StopReason.max_tokens),
        ("SAFETY", StopReason.content_filter),
        ("RECITATION", StopReason.content_filter),
        ("MALFORMED_FUNCTION_CALL", StopReason.error),
        ("OTHER", StopReason.unknown),
    ],
)
@pytest.mark.parametrize("mode", MODES)
async def test_finish_reasons(mode: str, wire: str, ours: StopReason) -> None:
    events = await read(mode, Recorder(stream_body(wire, with_call=False)))
    run = run_adapter(GeminiInputAdapter(), events)
    assert (run.text, run.stop_reason) == (REPLY, ours)


def test_blocked_prompt_and_other_parts() -> None:
    blocked = {"promptFeedback": {"blockReason": "SAFETY"}, "modelVersion": "gemini-test"}
    adapter = detect_input_adapter(blocked)
    assert isinstance(adapter, GeminiInputAdapter)
    run = run_adapter(adapter, [blocked])
    assert (run.stop_reason, run.passthrough) == (StopReason.content_filter, [blocked])

    code = response([{"executableCode": {"language": "PYTHON", "code": "print(1)"}}])[1]
    run = run_adapter(GeminiInputAdapter(), [code])
    assert run.passthrough == [code]


def test_snake_case_dicts_from_model_dump() -> None:
    events = [
        types.GenerateContentResponse.model_validate(json.loads(line[len("data: ") :])).model_dump(
            exclude_none=True
        )
        for line in stream_body().decode().splitlines()
        if line.startswith("data: ")
    ]
    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, GeminiInputAdapter)
    run = run_adapter(adapter, events)
    assert (run.text, run.stop_reason) == (REPLY, StopReason.tool_use)
    assert run.natives[0].attrs == {"signature": SIGNATURE}
