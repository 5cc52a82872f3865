"""Ollama: the real ``ollama`` client, sync and async, over an ``httpx.MockTransport``
replaying NDJSON written from Ollama's REST API (``/api/chat``, ``/api/generate``)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import ollama
import pytest

from streamblocks import BlockRegistry, StreamBlockProcessor
from streamblocks.adapters import EventCategory, detect_input_adapter
from streamblocks.core.events import StopReason, Usage
from streamblocks.ext.ollama import OllamaInputAdapter
from streamblocks.testing import AdapterConformance, AdapterSample, chunk_bytes, run_adapter

from .sse import REPLY, REPLY_PIECES, THINKING, THINKING_PIECES, TOOL_ARGS

MODES = ["sync", "async"]
MODEL = "qwen3:8b"
CALL = {"function": {"name": "get_weather", "arguments": TOOL_ARGS}}


def line(**fields: Any) -> dict[str, Any]:
    return {"model": MODEL, "created_at": "2025-06-01T10:00:00.000000Z", "done": False, **fields}


def done(reason: str = "stop", **fields: Any) -> dict[str, Any]:
    return line(
        done=True,
        done_reason=reason,
        total_duration=4883583458,
        load_duration=1334875,
        prompt_eval_count=26,
        prompt_eval_duration=342546000,
        eval_count=282,
        eval_duration=4535599000,
        **fields,
    )


def chat_lines(reason: str = "stop", with_call: bool = True) -> list[dict[str, Any]]:
    def message(**fields: Any) -> dict[str, Any]:
        return {"message": {"role": "assistant", "content": "", **fields}}

    out = [line(**message(thinking=piece)) for piece in THINKING_PIECES]
    out += [line(**message(content=piece)) for piece in REPLY_PIECES]
    if with_call:
        out.append(line(**message(tool_calls=[CALL])))
    out.append(done(reason, **message()))
    return out


def generate_lines(reason: str = "stop") -> list[dict[str, Any]]:
    out = [line(response="", thinking=piece) for piece in THINKING_PIECES]
    out += [line(response=piece) for piece in REPLY_PIECES]
    out.append(done(reason, response="", context=[1, 2, 3]))
    return out


class Body(httpx.SyncByteStream, httpx.AsyncByteStream):
    """NDJSON delivered in 7-byte pieces (cutting lines and UTF-8 sequences)."""

    def __init__(self, lines: list[dict[str, Any]]) -> None:
        text = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)
        self.pieces = chunk_bytes(text.encode(), 7)

    def __iter__(self) -> Iterator[bytes]:
        yield from self.pieces

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self.pieces:
            yield piece


class Server:
    def __init__(self, lines: list[dict[str, Any]]) -> None:
        self.lines = lines
        self.paths: list[str] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        assert json.loads(request.content)["stream"] is True
        return httpx.Response(
            200, headers={"content-type": "application/x-ndjson"}, stream=Body(self.lines)
        )


async def read(mode: str, kind: str, lines: list[dict[str, Any]]) -> list[Any]:
    server = Server(lines)
    transport = httpx.MockTransport(server)
    options: dict[str, Any] = {"host": "http://ollama.test:11434", "transport": transport}
    messages = [{"role": "user", "content": "hi"}]
    if mode == "sync":
        client = ollama.Client(**options)
        if kind == "chat":
            chunks = list(client.chat(model=MODEL, messages=messages, stream=True, think=True))
        else:
            chunks = list(client.generate(model=MODEL, prompt="hi", stream=True, think=True))
    else:
        aclient = ollama.AsyncClient(**options)
        if kind == "chat":
            stream = await aclient.chat(model=MODEL, messages=messages, stream=True, think=True)
        else:
            stream = await aclient.generate(model=MODEL, prompt="hi", stream=True, think=True)
        chunks = [chunk async for chunk in stream]
    assert server.paths == [f"/api/{kind}"]
    return chunks


USAGE = Usage(input_tokens=26, output_tokens=282, total_tokens=308)


@pytest.mark.parametrize("mode", MODES)
async def test_chat(mode: str) -> None:
    chunks = await read(mode, "chat", chat_lines())
    assert type(chunks[0]) is ollama.ChatResponse
    adapter = detect_input_adapter(chunks[0])
    assert isinstance(adapter, OllamaInputAdapter)
    assert adapter.categorize(chunks[0]) is EventCategory.SKIP  # thinking only
    run = run_adapter(adapter, chunks)

    assert run.problems == []
    assert run.text == REPLY  # thinking never becomes text, even when it looks like a block
    assert run.stop_reason is StopReason.tool_use  # "stop" after a tool call
    assert run.usage == USAGE
    assert [(b.block_type, b.content) for b in run.natives] == [
        ("thinking", THINKING),
        ("tool_call", TOOL_ARGS),
    ]
    assert run.natives[1].attrs == {"name": "get_weather", "id": None}
    assert run.passthrough == []


@pytest.mark.parametrize("mode", MODES)
async def test_generate(mode: str) -> None:
    chunks = await read(mode, "generate", generate_lines("length"))
    assert type(chunks[0]) is ollama.GenerateResponse
    adapter = detect_input_adapter(chunks[0])
    assert isinstance(adapter, OllamaInputAdapter)
    run = run_adapter(adapter, chunks)
    assert run.problems == []
    assert (run.text, run.stop_reason, run.usage) == (REPLY, StopReason.max_tokens, USAGE)
    assert [(b.block_type, b.content) for b in run.natives] == [("thinking", THINKING)]


@pytest.mark.parametrize(
    ("reason", "ours"),
    [
        ("stop", StopReason.end_turn),
        ("length", StopReason.max_tokens),
        ("unload", StopReason.unknown),
    ],
)
async def test_done_reasons(reason: str, ours: StopReason) -> None:
    chunks = await read("sync", "chat", chat_lines(reason, with_call=False))
    run = run_adapter(OllamaInputAdapter(), chunks)
    assert run.text == REPLY
    assert run.stop_reason is ours


async def test_processor_end_to_end_async() -> None:
    chunks = await read("async", "chat", chat_lines())

    async def replay() -> AsyncIterator[Any]:
        for chunk in chunks:
            yield chunk

    registry = BlockRegistry()
    registry.register("note")
    events = [e async for e in StreamBlockProcessor(registry).process_stream(replay())]
    ends = [e.block for e in events if e.type == "BLOCK_END"]
    assert [(b.type, b.syntax) for b in ends] == [
        ("thinking", "native"),
        ("note", "delimiter_preamble"),
        ("tool_call", "native"),
    ]
    note = next(b for b in ends if b.type == "note")
    assert note.content == "noté ✓ e\u0301\n"
    assert events[-1].stop_reason is StopReason.tool_use


def test_arguments_as_a_json_string() -> None:
    """Some servers send OpenAI-style string arguments: they are parsed all the same."""
    call = {"function": {"name": "f", "arguments": json.dumps(TOOL_ARGS)}}
    chunk = line(message={"role": "assistant", "content": "", "tool_calls": [call]})
    run = run_adapter(OllamaInputAdapter(), [chunk, done()])
    assert [(b.block_type, b.content) for b in run.natives] == [("tool_call", TOOL_ARGS)]


class TestOllamaConformance(AdapterConformance):
    adapter_factory = OllamaInputAdapter
    registered = True
    samples = (
        AdapterSample(
            "chat",
            [ollama.ChatResponse.model_validate(x) for x in chat_lines()],
            REPLY,
            StopReason.tool_use,
            USAGE,
            [("thinking", THINKING), ("tool_call", TOOL_ARGS)],
        ),
        AdapterSample("chat-wire", chat_lines(), REPLY, StopReason.tool_use, USAGE),
        AdapterSample(
            "generate",
            [ollama.GenerateResponse.model_validate(x) for x in generate_lines()],
            REPLY,
            StopReason.end_turn,
            USAGE,
            [("thinking", THINKING)],
        ),
    )
    text_event = staticmethod(
        lambda piece: ollama.ChatResponse.model_validate(
            line(message={"role": "assistant", "content": piece})
        )
    )
