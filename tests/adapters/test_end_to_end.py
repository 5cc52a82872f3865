"""Every provider's real SDK stream, read live by ``StreamBlockProcessor`` with
``input_adapter="auto"``: blocks, visible text, native blocks, stop reason and usage."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from streamblocks import (
    BlockEnd,
    BlockError,
    BlockRegistry,
    BlockStart,
    Passthrough,
    StopReason,
    StreamBlockProcessor,
    StreamFinished,
    TextDelta,
    Usage,
)

from . import test_agui, test_anthropic, test_gemini, test_openai
from .sse import THINKING, TOOL_ARGS, Recorder

VISIBLE = "Voilà 👩\u200d💻 café!\nfin 🇫🇷 ok\n"
NOTE = "noté ✓ e\u0301\n"
MODES = ["sync", "async"]

Opener = Callable[[str, Recorder], Any]


def processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    return StreamBlockProcessor(registry)


async def run(mode: str, opener: Opener, server: Recorder) -> list[Any]:
    """Open the provider stream and let the processor read it as it arrives."""
    if mode == "sync":
        with opener(mode, server) as stream:
            return list(processor().process(stream))
    async with opener(mode, server) as stream:
        return [event async for event in processor().process_stream(stream)]


def check(
    events: list[Any], stop: StopReason, usage: Usage | None, *, native: bool = True
) -> StreamFinished:
    assert not [e for e in events if isinstance(e, BlockError)]
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == VISIBLE
    ends = [e.block for e in events if isinstance(e, BlockEnd)]
    notes = [b for b in ends if b.type == "note"]
    assert [(b.id, b.content) for b in notes] == [("b1", NOTE)]
    assert notes[0].raw == f"!!b1:note\n{NOTE}!!end\n"
    natives = [(b.type, b.content) for b in ends if b.syntax == "native"]
    if native:
        assert natives == [("thinking", THINKING), ("tool_call", TOOL_ARGS)]
        starts = [e for e in events if isinstance(e, BlockStart) and e.syntax == "native"]
        assert starts[1].attrs["name"] == "get_weather"
    finished = events[-1]
    assert isinstance(finished, StreamFinished)
    assert finished.stop_reason is stop
    assert finished.usage == usage
    return finished


# -- openers: each returns a (sync or async) context manager giving the live stream ------


def openai_chat(mode: str, server: Recorder) -> Any:
    client = test_openai.openai_client(mode, server)
    kwargs = {"model": "gpt-test", "messages": test_openai.MESSAGES, "stream": True}
    if mode == "sync":
        return client.chat.completions.create(**kwargs)

    @contextlib.asynccontextmanager
    async def opened() -> AsyncIterator[Any]:
        async with await client.chat.completions.create(**kwargs) as stream:
            yield stream

    return opened()


def openai_chat_helper(mode: str, server: Recorder) -> Any:
    client = test_openai.openai_client(mode, server)
    kwargs = {"model": "gpt-test", "messages": test_openai.MESSAGES, "tools": test_openai.TOOLS}
    return client.chat.completions.stream(**kwargs)


def openai_responses(mode: str, server: Recorder) -> Any:
    client = test_openai.openai_client(mode, server)
    return client.responses.stream(model="gpt-test", input="hi")


def anthropic_helper(mode: str, server: Recorder) -> Any:
    return test_anthropic.client(mode, server).messages.stream(**test_anthropic.KWARGS)


def anthropic_create(mode: str, server: Recorder) -> Any:
    client = test_anthropic.client(mode, server)
    if mode == "sync":
        return client.messages.create(**test_anthropic.KWARGS, stream=True)

    @contextlib.asynccontextmanager
    async def opened() -> AsyncIterator[Any]:
        async with await client.messages.create(**test_anthropic.KWARGS, stream=True) as stream:
            yield stream

    return opened()


def gemini(mode: str, server: Recorder) -> Any:
    client = test_gemini.client(mode, server)
    if mode == "sync":

        @contextlib.contextmanager
        def opened() -> Iterator[Any]:
            yield client.models.generate_content_stream(model="gemini-test", contents="hi")

        return opened()

    @contextlib.asynccontextmanager
    async def aopened() -> AsyncIterator[Any]:
        models = client.aio.models
        yield await models.generate_content_stream(model="gemini-test", contents="hi")

    return aopened()


CHAT_USAGE = test_openai.CHAT_USAGE_EXPECTED
RESPONSES_USAGE = Usage(
    input_tokens=20, output_tokens=50, total_tokens=70, cache_read_tokens=8, reasoning_tokens=16
)
GEMINI_USAGE = Usage(
    input_tokens=9, output_tokens=42, total_tokens=51, cache_read_tokens=3, reasoning_tokens=12
)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("opener", "body", "stop", "usage"),
    [
        (openai_chat, test_openai.chat_body, StopReason.tool_use, CHAT_USAGE),
        (openai_chat_helper, test_openai.chat_body, StopReason.tool_use, CHAT_USAGE),
        (openai_responses, test_openai.responses_body, StopReason.tool_use, RESPONSES_USAGE),
        (anthropic_create, test_anthropic.messages_body, StopReason.tool_use, test_anthropic.USAGE),
        (anthropic_helper, test_anthropic.messages_body, StopReason.tool_use, test_anthropic.USAGE),
        (gemini, test_gemini.stream_body, StopReason.tool_use, GEMINI_USAGE),
    ],
    ids=["openai-chat", "openai-chat-helper", "openai-responses", "anthropic", "anthropic-helper",
         "gemini"],
)  # fmt: skip
async def test_live_sdk_stream(
    mode: str, opener: Opener, body: Callable[[], bytes], stop: StopReason, usage: Usage
) -> None:
    events = await run(mode, opener, Recorder(body()))
    check(events, stop, usage)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("size", [1, 3, 64])
async def test_byte_chunking_does_not_matter(mode: str, size: int) -> None:
    """SSE bytes cut anywhere (inside UTF-8 sequences, inside lines) give the same result."""
    server = Recorder(test_anthropic.messages_body(), size=size)
    check(await run(mode, anthropic_create, server), StopReason.tool_use, test_anthropic.USAGE)


@pytest.mark.parametrize("mode", MODES)
async def test_agui_stream(mode: str) -> None:
    events_in = await test_agui.receive(mode, Recorder(test_agui.body(test_agui.run_events())))
    if mode == "sync":
        events = list(processor().process(iter(events_in)))
    else:

        async def source() -> AsyncIterator[Any]:
            for event in events_in:
                yield event

        events = [e async for e in processor().process_stream(source())]
    check(
        events,
        StopReason.tool_use,
        Usage(input_tokens=11, output_tokens=22, reasoning_tokens=5, cache_read_tokens=4),
    )
    assert [type(e.event).__name__ for e in events if isinstance(e, Passthrough)] == [
        "RunStartedEvent",
        "StateDeltaEvent",
        "RunFinishedEvent",
    ]


async def test_anthropic_citation_passes_through_in_order() -> None:
    events = await run("sync", anthropic_create, Recorder(test_anthropic.messages_body()))
    kinds = [
        "pass" if isinstance(e, Passthrough) else "text"
        for e in events
        if isinstance(e, (Passthrough, TextDelta))
    ]
    assert kinds.index("pass") > 0  # after the text that preceded it
    assert kinds.count("pass") == 1


def test_explicit_adapter_wins_over_detection() -> None:
    from streamblocks.ext.openai import OpenAIInputAdapter

    registry = BlockRegistry()
    registry.register("note")
    # An Anthropic-shaped event read by the OpenAI adapter is not text: nothing comes out.
    p = StreamBlockProcessor(registry, input_adapter=OpenAIInputAdapter())
    event = {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "text_delta", "text": "x"},
    }
    events = list(p.process([event]))
    assert not [e for e in events if isinstance(e, TextDelta)]
    assert [type(e).__name__ for e in events] == ["StreamStarted", "Passthrough", "StreamFinished"]
