"""Claude Agent SDK: its message objects, built by the SDK's own parser from the
``stream-json`` lines of the Claude CLI fixtures, give the same blocks as the lines."""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from claude_agent_sdk._internal.message_parser import parse_message
from claude_agent_sdk.types import (  # (StreamEvent is not in the root at 0.1.0)
    AssistantMessage,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    UserMessage,
)

from streamblocks import BlockRegistry, StopReason, StreamBlockProcessor
from streamblocks.adapters import detect_input_adapter
from streamblocks.content import MessageAccumulator
from streamblocks.ext.claude_agent_sdk import ClaudeAgentSDKInputAdapter
from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter
from streamblocks.testing import AdapterConformance, AdapterSample, run_adapter

from . import transcripts as t
from .test_transcripts import CLAUDE_TOOL_KINDS, CLAUDE_USAGE

RUNS = {
    "tool_run": t.claude_tool_run,
    "partial_run": t.claude_partial_run,
    "error_run": t.claude_error_run,
}


def messages(lines: list[dict[str, Any]]) -> list[Any]:
    parsed = [parse_message(line) for line in lines]
    return [m for m in parsed if m is not None]


def processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    return StreamBlockProcessor(registry)


def shape(events: list[Any]) -> list[Any]:
    """What a run gives, the passthrough objects aside (the SDK's objects vs. line dicts)."""
    out = []
    for e in events:
        if e.type == "BLOCK_END":
            b = e.block
            out.append((b.id, b.type, b.syntax, dict(b.attrs), b.content))
        elif e.type in ("TEXT_DELTA", "BLOCK_DELTA"):
            out.append((e.type, e.text))
        elif e.type == "STREAM_FINISHED":
            out.append((e.stop_reason, e.usage, e.error))
    return out


@pytest.mark.parametrize("name", RUNS)
def test_same_blocks_as_the_cli_transcript(name: str) -> None:
    lines = RUNS[name]()
    objects = messages(lines)
    assert len(objects) == len(lines)
    adapter = detect_input_adapter(objects[0])
    assert isinstance(adapter, ClaudeAgentSDKInputAdapter)
    from_sdk = list(processor().process(objects))
    from_cli = list(processor().process(lines))
    assert shape(from_sdk) == shape(from_cli)
    assert len(shape(from_sdk)) >= 2  # some text and the end at least


def test_tool_run_content_and_passthrough() -> None:
    objects = messages(t.claude_tool_run())
    assert {type(m) for m in objects} == {
        SystemMessage,
        AssistantMessage,
        UserMessage,
        ResultMessage,
    }
    events = list(processor().process(objects))
    message = MessageAccumulator().add_all(events)
    assert [block.type for block in message.content] == CLAUDE_TOOL_KINDS
    finished = events[-1]
    assert (finished.stop_reason, finished.usage) == (StopReason.end_turn, CLAUDE_USAGE)
    passed = [e.event for e in events if e.type == "PASSTHROUGH"]
    assert [type(p) for p in passed] == [SystemMessage, ResultMessage]  # the SDK's own objects
    assert passed[0].data["session_id"] == t.SESSION


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_partial_messages_sync_and_async(mode: str) -> None:
    objects = messages(t.claude_partial_run())
    assert any(isinstance(m, StreamEvent) for m in objects)
    if mode == "sync":
        events = list(processor().process(objects))
    else:

        async def replay() -> AsyncIterator[Any]:
            for m in objects:
                yield m

        events = [e async for e in processor().process_stream(replay())]
    message = MessageAccumulator().add_all(events)
    assert message.text() == "Let me look at the code.\n" + t.OUTRO  # once, not twice
    assert events[-1].stop_reason is StopReason.end_turn


def test_error_result() -> None:
    events = list(processor().process(messages(t.claude_error_run())))
    assert events[-1].stop_reason is StopReason.error
    assert events[-1].error == "API Error: 529 overloaded"


def test_other_messages_pass_through() -> None:
    rate_limit_event = getattr(pytest.importorskip("claude_agent_sdk"), "RateLimitEvent", None)
    if rate_limit_event is None:
        pytest.skip("this claude-agent-sdk has no RateLimitEvent")

    limit = parse_message(
        {
            "type": "rate_limit_event",
            "rate_limit_info": {"status": "allowed"},
            "uuid": "u",
            "session_id": t.SESSION,
        }
    )
    assert isinstance(limit, rate_limit_event)
    objects = [limit, *messages(t.claude_error_run())]
    adapter = detect_input_adapter(limit)
    assert isinstance(adapter, ClaudeAgentSDKInputAdapter)
    run = run_adapter(adapter, objects)
    assert run.passthrough[0] is limit
    assert run.text == "Working on it.\n"


def test_cli_adapter_is_not_picked_for_sdk_objects() -> None:
    assert not ClaudeCLIInputAdapter().matches(messages(t.claude_tool_run())[0])
    assert not ClaudeAgentSDKInputAdapter().matches(t.claude_tool_run()[0])


class TestClaudeAgentSDKConformance(AdapterConformance):
    adapter_factory = ClaudeAgentSDKInputAdapter
    registered = True
    samples = (
        AdapterSample(
            "partial_run",
            messages(t.claude_partial_run()),
            "Let me look at the code.\n!!n1:note\nremember the tests\n!!end\n" + t.OUTRO,
            StopReason.end_turn,
            CLAUDE_USAGE,
        ),
    )


# -- end to end: the real SDK runs the `claude` CLI it bundles against a local mock API ----

E2E_PIECES = ["Hello.\n!!n1:no", "te\nfrom the ", "mock ✓\n!!end\nBye.\n"]


def sse_reply(model: str) -> bytes:
    def event(data: dict[str, Any]) -> str:
        return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n"

    message = {
        "id": "msg_e2e", "type": "message", "role": "assistant", "content": [], "model": model,
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 7, "output_tokens": 1},
    }  # fmt: skip
    events = [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        *[
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}
            for p in E2E_PIECES
        ],
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": 12},
        },
        {"type": "message_stop"},
    ]
    return "".join(event(e) for e in events).encode()


class MockAPI(BaseHTTPRequestHandler):
    """Anthropic's Messages API as the CLI calls it: a streamed reply to every turn."""

    requests: ClassVar[list[str]] = []

    def log_message(self, *args: Any) -> None:
        pass

    def _send(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        self.requests.append(self.path)
        if self.path.startswith("/v1/messages") and request.get("stream"):
            self._send(sse_reply(request.get("model", "claude")), "text/event-stream")
        else:
            self._send(b"{}", "application/json")

    def do_GET(self) -> None:
        self.requests.append(self.path)
        self._send(b"{}", "application/json")


@pytest.fixture
def mock_api() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), MockAPI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


async def test_real_cli_end_to_end(mock_api: str, tmp_path: Path) -> None:
    import claude_agent_sdk
    from claude_agent_sdk import ClaudeAgentOptions, query

    if not (Path(claude_agent_sdk.__file__).parent / "_bundled" / "claude").exists():
        pytest.skip("this claude-agent-sdk wheel bundles no claude CLI for this platform")
    env = {
        "ANTHROPIC_BASE_URL": mock_api,
        "ANTHROPIC_API_KEY": "sk-test",
        "HOME": str(tmp_path),
        "CLAUDE_CONFIG_DIR": str(tmp_path / ".claude"),
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
    }
    options = ClaudeAgentOptions(env=env, cwd=tmp_path, include_partial_messages=True, max_turns=1)
    stream = query(prompt="Say hello.", options=options)
    events = [e async for e in processor().process_stream(stream)]

    assert any(path.startswith("/v1/messages") for path in MockAPI.requests)
    assert "".join(e.text for e in events if e.type == "TEXT_DELTA") == "Hello.\nBye.\n"
    assert [e.block.content for e in events if e.type == "BLOCK_END"] == ["from the mock ✓\n"]
    passed = [type(e.event).__name__ for e in events if e.type == "PASSTHROUGH"]
    assert passed[0] == "SystemMessage" and passed[-1] == "ResultMessage"
    finished = events[-1]
    assert finished.stop_reason is StopReason.end_turn
    assert finished.usage is not None
    assert (finished.usage.input_tokens, finished.usage.output_tokens) == (7, 12)
