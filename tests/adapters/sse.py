"""Serving hand-written SSE bodies to the real SDK clients over a mock transport.

Today's SDKs take ``httpx2`` clients; the floor versions pyproject.toml still allows (see
.ci/floors.txt) take ``httpx`` ones. ``http_package`` picks the package from the client
class the installed SDK itself builds, so the same tests run at both ends.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator, Sequence
from types import ModuleType
from typing import Any

import httpx
import httpx2

from streamblocks.testing import chunk_bytes

# The reply text every provider test streams: a block marker cut in the middle, lines
# cut anywhere, and characters that take several code points (or UTF-8 bytes).
REPLY = "Voilà 👩\u200d💻 café!\n!!b1:note\nnoté ✓ e\u0301\n!!end\nfin 🇫🇷 ok\n"
REPLY_PIECES = [
    "Voil",
    "à 👩",
    "\u200d💻 caf",
    "é!\n!!b1:no",
    "te\nno",
    "té ✓ e",
    "\u0301\n!!e",
    "nd\nfin 🇫",
    "🇷 ok\n",
]
assert "".join(REPLY_PIECES) == REPLY

# Reasoning and tool arguments that look like blocks: they must never become reply text.
THINKING_PIECES = ["Plan: write ", "!!b9:note\nsecret", "\n!!end\n ✓"]
THINKING = "".join(THINKING_PIECES)
TOOL_ARGS_PIECES = ['{"city": "Par', 'is 🇫🇷", "note": "!!b7:', 'note"}']
TOOL_ARGS = {"city": "Paris 🇫🇷", "note": "!!b7:note"}


def sse(
    events: Sequence[tuple[str | None, Any]], *, done: bool = False, crlf: bool = False
) -> bytes:
    """An SSE body: ``(event name or None, JSON-able data)`` pairs."""
    newline = "\r\n" if crlf else "\n"
    out = []
    for name, data in events:
        lines = []
        if name is not None:
            lines.append(f"event: {name}")
        lines.append("data: " + json.dumps(data, ensure_ascii=False))
        out.append(newline.join(lines) + newline + newline)
    if done:
        out.append("data: [DONE]" + newline + newline)
    return "".join(out).encode("utf-8")


def http_package(sdk_client: type) -> ModuleType:
    """``httpx2`` or ``httpx``: the one whose client ``sdk_client`` (the HTTP client class an
    SDK builds by default, such as ``openai.DefaultHttpxClient``) is."""
    for package in (httpx2, httpx):
        if issubclass(sdk_client, (package.Client, package.AsyncClient)):
            return package
    raise TypeError(f"{sdk_client!r} is neither an httpx2 nor an httpx client")


class ChunkedBody(
    httpx2.SyncByteStream, httpx2.AsyncByteStream, httpx.SyncByteStream, httpx.AsyncByteStream
):
    """A response body delivered in small byte pieces (cutting UTF-8 sequences)."""

    def __init__(self, data: bytes, size: int) -> None:
        self.pieces = chunk_bytes(data, size)

    def __iter__(self) -> Iterator[bytes]:
        yield from self.pieces

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self.pieces:
            yield piece


class Recorder:
    """The mock server: answers every request with ``body``, remembering the requests."""

    def __init__(self, body: bytes, size: int = 7) -> None:
        self.body = body
        self.size = size
        self.requests: list[Any] = []  # httpx2 or httpx requests, as the client sends them

    def __call__(self, request: Any) -> Any:
        self.requests.append(request)
        package = httpx if isinstance(request, httpx.Request) else httpx2
        return package.Response(
            200,
            headers={"content-type": "text/event-stream"},
            stream=ChunkedBody(self.body, self.size),
        )

    def sync_client(self, sdk_client: type = httpx2.Client) -> Any:
        """A client over this mock, of the package ``sdk_client`` is from (``http_package``)."""
        package = http_package(sdk_client)
        return package.Client(transport=package.MockTransport(self))

    def async_client(self, sdk_client: type = httpx2.AsyncClient) -> Any:
        package = http_package(sdk_client)
        return package.AsyncClient(transport=package.MockTransport(self))


async def collect_async(source: Any) -> list[Any]:
    return [item async for item in source]


Factory = Callable[[Recorder], Any]


# What an agent run of the agent-framework tests gives: the model thinks, writes REPLY and
# calls get_weather(TOOL_ARGS); the framework runs the tool and reports its result.
TOOL_RESULT = "sunny in Paris 🇫🇷"
AGENT_NATIVES = [("thinking", THINKING), ("tool_call", TOOL_ARGS), ("tool_result", TOOL_RESULT)]
AGENT_FINAL = "Sunny.\n"
"""The model's answer once the tool ran: the run's text is REPLY + AGENT_FINAL."""


def agent_sample(run: Coroutine[Any, Any, list[Any]], usage: Any = None) -> Any:
    """A conformance sample of one recorded agent run (``run`` gives its events)."""
    import asyncio

    from streamblocks.core.events import StopReason
    from streamblocks.testing import AdapterSample

    events = asyncio.run(run)
    return AdapterSample(
        "run", events, REPLY + AGENT_FINAL, StopReason.end_turn, usage, AGENT_NATIVES
    )


def read_reply(events: Sequence[Any], adapter_type: type) -> Any:
    """Detects the adapter from the first event, runs it, and checks the common ground: no
    problems, REPLY exactly once, a thinking block then the tool call. The run, for more."""
    from streamblocks.adapters import detect_input_adapter
    from streamblocks.testing import run_adapter

    adapter = detect_input_adapter(events[0])
    assert isinstance(adapter, adapter_type)
    run = run_adapter(adapter, events)
    assert run.problems == []
    assert run.text == REPLY
    assert [(b.block_type, b.content) for b in run.natives] == AGENT_NATIVES[:2]
    return run
