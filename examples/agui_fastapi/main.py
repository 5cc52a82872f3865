"""An AG-UI endpoint: a model's stream goes in, AG-UI server-sent events come out.

`create_app()` is a FastAPI app with one route, ``POST /agent``, that answers an AG-UI
client (``HttpAgent`` from ``@ag-ui/client``): it calls the model with the registry's
system prompt and streams ``asse_body(...)`` — text messages, reasoning, tool calls and
our blocks as CUSTOM events — as the response body.

Needs the ``agui`` extra (``pip install '.[agui]'`` in the checkout); FastAPI
(``pip install fastapi uvicorn``) only for the app itself.

Offline (no ANTHROPIC_API_KEY): the model's reply is recording.ndjson, a recorded
Anthropic Messages stream. ``python main.py`` sends one AG-UI request to the app in
process (no server, no network) — or, without FastAPI, builds the same body with
``asse_body`` directly — checks that every SSE message is a valid AG-UI event, and prints
them. ``python main.py --serve`` runs the app with uvicorn on http://127.0.0.1:8000.
Online (ANTHROPIC_API_KEY set): the route calls the model (ANTHROPIC_MODEL, default
claude-sonnet-4-5).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, TypeAdapter

from streamblocks import BlockRegistry, StreamBlockProcessor

try:
    from ag_ui.core import Event, RunAgentInput

    from streamblocks.ext.agui import SSE_MEDIA_TYPE, AGUIOutputAdapter, asse_body
except ModuleNotFoundError as missing:  # a core install: say which extra, not a traceback
    package = (missing.name or "ag_ui").split(".")[0]
    raise SystemExit(
        f"examples/agui_fastapi needs the [agui] extra ({package} is not installed): "
        "from the checkout run  pip install '.[agui]'"
    ) from None

HERE = Path(__file__).resolve().parent


class NoteMeta(BaseModel):
    id: str
    block_type: str
    params: list[Literal["risk", "decision", "action"]]


registry = BlockRegistry()
registry.register(
    "note",
    metadata=NoteMeta,
    description="One point worth keeping, shown beside the chat.",
    instructions="Give its kind as the parameter: risk, decision or action (!!n1:note:risk).",
)
processor = StreamBlockProcessor(registry)  # one processor serves every request

TOOLS = [
    {
        "name": "disk_usage",
        "description": "The biggest directories under a path on a host.",
        "input_schema": {
            "type": "object",
            "properties": {"host": {"type": "string"}, "path": {"type": "string"}},
            "required": ["host", "path"],
        },
    }
]


async def model_stream(prompt: str) -> AsyncIterator[Any]:
    """The model's streamed reply: recorded offline, live with ANTHROPIC_API_KEY."""
    if not os.environ.get("ANTHROPIC_API_KEY"):
        for line in (HERE / "recording.ndjson").read_text("utf-8").splitlines():
            await asyncio.sleep(0)  # a real stream yields to the event loop between events
            yield json.loads(line)
        return
    from anthropic import AsyncAnthropic

    stream = await AsyncAnthropic().messages.create(
        model=os.environ.get("ANTHROPIC_MODEL", "claude-sonnet-4-5"),
        max_tokens=2048,
        system=registry.system_prompt(),
        messages=[{"role": "user", "content": prompt}],
        tools=TOOLS,  # type: ignore[arg-type]
        stream=True,
    )
    async for event in stream:  # type: ignore[union-attr]
        yield event


def sse_response_body(prompt: str, thread_id: str, run_id: str) -> AsyncIterator[bytes]:
    """What the route streams back: the model's reply as AG-UI SSE messages."""
    adapter = AGUIOutputAdapter(thread_id=thread_id, run_id=run_id)
    return asse_body(processor, model_stream(prompt), adapter=adapter, binary=True)


def create_app() -> Any:
    """The FastAPI app (FastAPI is imported here, so the rest works without it)."""
    from fastapi import FastAPI
    from fastapi.responses import StreamingResponse

    app = FastAPI(title="streamblocks AG-UI agent")

    # (Annotations are strings here: FastAPI resolves them in this module's globals.)
    @app.post("/agent", response_class=StreamingResponse, response_model=None)
    async def agent(run: RunAgentInput) -> Any:
        users = [m for m in run.messages if m.role == "user"]
        prompt = users[-1].content if users else ""
        body = sse_response_body(str(prompt), run.thread_id, run.run_id)
        return StreamingResponse(body, media_type=SSE_MEDIA_TYPE)

    return app


# -- running it offline --------------------------------------------------------------------

REQUEST = {
    "threadId": "thread-1",
    "runId": "run-1",
    "state": {},
    "messages": [{"id": "m1", "role": "user", "content": "Why did the deploy fail?"}],
    "tools": [],
    "context": [],
    "forwardedProps": {},
}


async def post(app: Any, path: str, payload: dict[str, Any]) -> tuple[int, bytes]:
    """One HTTP request to an ASGI app, in process: what a test client does, in brief."""
    body = json.dumps(payload).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"accept", b"text/event-stream")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    received = [{"type": "http.request", "body": body, "more_body": False}]
    status, chunks, done = 0, [], asyncio.Event()

    async def receive() -> dict[str, Any]:
        if received:
            return received.pop(0)
        await done.wait()  # the client stays connected until the whole body is read
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                done.set()

    await app(scope, receive, send)
    return status, b"".join(chunks)


def agui_events(body: str) -> list[Any]:
    """Each SSE message of the body, validated as an AG-UI event."""
    event_adapter: TypeAdapter[Any] = TypeAdapter(Event)
    events = []
    for message in body.split("\n\n"):
        if message.strip():
            assert message.startswith("data: "), message
            events.append(event_adapter.validate_json(message[len("data: ") :]))
    return events


async def offline_body() -> str:
    try:
        app = create_app()
    except ImportError:  # no FastAPI: the same body, straight from asse_body
        print("(FastAPI is not installed: building the response body without the app)\n")
        chunks = [chunk async for chunk in sse_response_body("", "thread-1", "run-1")]
        return b"".join(chunks).decode("utf-8")
    status, body = await post(app, "/agent", REQUEST)
    assert status == 200, body
    print("POST /agent → 200 text/event-stream\n")
    return body.decode("utf-8")


def _delta(event: Any) -> str | None:
    """The streamed piece an event carries, if it is one of a run of deltas."""
    kind = event.type.value
    if kind in ("TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT", "TOOL_CALL_ARGS"):
        return str(event.delta)
    if kind == "CUSTOM" and event.name == "streamblocks.block_delta":
        return str(event.value["text"])
    return None


def describe(events: list[Any]) -> list[str]:
    """One line per event, a run of deltas merged into one line."""
    lines: list[str] = []
    run: list[str] = []
    for index, event in enumerate(events):
        kind = event.type.value
        piece = _delta(event)
        if piece is not None:
            run.append(piece)
            following = events[index + 1] if index + 1 < len(events) else None
            if following is None or _delta(following) is None or following.type != event.type:
                name = f" {event.name}" if kind == "CUSTOM" else ""
                lines.append(f"{kind}{name} ×{len(run)} {''.join(run)!r}")
                run = []
        elif kind == "TOOL_CALL_START":
            lines.append(f"{kind} {event.tool_call_name} ({event.tool_call_id})")
        elif kind == "CUSTOM":
            value = json.dumps(event.value, ensure_ascii=False)
            lines.append(f"{kind} {event.name} {value[:90]}{'…' if len(value) > 90 else ''}")
        elif kind == "RUN_FINISHED":
            lines.append(f"{kind} stop_reason={event.result['stop_reason']}")
        else:
            lines.append(kind)
    return lines


def main() -> None:
    if "--serve" in sys.argv:
        try:
            import uvicorn  # type: ignore[import-not-found, unused-ignore]
        except ImportError:
            sys.exit("--serve needs FastAPI and uvicorn: pip install fastapi uvicorn")

        uvicorn.run(create_app(), host="127.0.0.1", port=8000)
        return
    body = asyncio.run(offline_body())
    events = agui_events(body)
    print("\n".join(describe(events)))
    kinds = [event.type.value for event in events]
    assert kinds[0] == "RUN_STARTED" and kinds[-1] == "RUN_FINISHED", kinds
    assert kinds.count("TEXT_MESSAGE_START") == kinds.count("TEXT_MESSAGE_END")
    assert "TOOL_CALL_START" in kinds and "REASONING_START" in kinds
    print(f"\n{len(events)} AG-UI events, {len(body.encode())} bytes of SSE, all valid")


if __name__ == "__main__":
    main()
