"""AG-UI streams that survive a worker (see worker.py for how).

``create_app(store, source)`` is a FastAPI app with ``POST /agent``: an AG-UI
``RunAgentInput`` in, the run's AG-UI events out as SSE with ids. A client that lost the
stream posts the same request again with the ``Last-Event-ID`` header — to any worker
sharing the store — and gets the rest, each event once. The response's
``X-Resumed-From`` header says where the worker began.

``python main.py`` (offline, no server, no Redis): one worker streams a recorded
Anthropic reply into an in-memory store and is dropped mid-run; a second worker resumes
from the snapshot; the client's events equal an uninterrupted run's, each once.
``python main.py --serve --port 8001 --redis redis://127.0.0.1:6379/0 [--pace 0.02]``
runs a worker process (uvicorn) on a Redis store; start two and kill one.
"""

# (No `from __future__ import annotations`: FastAPI reads the route's `Request`
# annotation, a name local to create_app.)
import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

try:
    import ag_ui.encoder  # noqa: F401  (the worker encodes with it)
except ModuleNotFoundError as missing:  # a core install: say which extra, not a traceback
    package = (missing.name or "ag_ui").split(".")[0]
    raise SystemExit(
        f"examples/agui_resume needs the [agui] extra ({package} is not installed): "
        "from the checkout run  pip install '.[agui]'"
    ) from None

from worker import Recording, Run, Source

from streamblocks import BlockRegistry, StreamBlockProcessor
from streamblocks.ext.agui import SSE_MEDIA_TYPE
from streamblocks.store import MemorySnapshotStore, SnapshotStore

HERE = Path(__file__).resolve().parent
RECORDING = HERE.parent / "agui_fastapi" / "recording.ndjson"  # an Anthropic stream

registry = BlockRegistry()
registry.register("note")
processor = StreamBlockProcessor(registry)  # every worker is configured alike


def create_app(store: SnapshotStore, source: Source, *, every: int = 16) -> Any:
    from fastapi import FastAPI, Request
    from fastapi.responses import StreamingResponse

    app = FastAPI(title="streamblocks AG-UI agent, resumable")

    @app.post("/agent", response_class=StreamingResponse, response_model=None)
    async def agent(request: Request) -> Any:
        from ag_ui.core import RunAgentInput

        run_input = RunAgentInput.model_validate(await request.json())
        last = request.headers.get("last-event-id", "0")
        run = Run(
            run_id=run_input.run_id,
            thread_id=run_input.thread_id,
            processor=processor,
            store=store,
            source=source,
            last_event_id=int(last) if last.isdigit() else 0,
            every=every,
        )
        run.prepare()
        headers = {"X-Resumed-From": run.resumed, "Cache-Control": "no-cache"}
        return StreamingResponse(run.body(), media_type=SSE_MEDIA_TYPE, headers=headers)

    return app


def frames(body: bytes) -> list[tuple[int, str]]:
    """``(id, data)`` of each SSE message."""
    out = []
    for message in body.decode("utf-8").split("\n\n"):
        if message.strip():
            head, data = message.split("\n", 1)
            out.append((int(head.removeprefix("id: ")), data.removeprefix("data: ")))
    return out


async def demo() -> None:
    store = MemorySnapshotStore()
    source = Recording(RECORDING)

    def run(last: int = 0, where: SnapshotStore = store) -> Run:
        r = Run("run-1", "thread-1", processor, where, source, last_event_id=last, every=8)
        r.prepare()
        return r

    reference = run(where=MemorySnapshotStore())  # one worker, never interrupted
    whole = frames(b"".join([f async for f in reference.body()]))

    first = run()  # worker A
    received: list[bytes] = []
    body = first.body()
    async for frame in body:
        received.append(frame)
        if len(received) == len(whole) // 2:
            break  # worker A dies here (its generator is dropped mid-run)
    await body.aclose()
    got = frames(b"".join(received))
    second = run(last=got[-1][0])  # worker B, with the client's Last-Event-ID
    print(f"worker A sent {len(got)} events; worker B resumed from {second.resumed}")
    got += frames(b"".join([f async for f in second.body()]))

    assert [i for i, _ in got] == list(range(1, len(whole) + 1)), "each id once, in order"
    assert [d for _, d in got] == [d for _, d in whole], "the same events as one worker's"
    assert second.resumed.startswith("snapshot")
    print(f"{len(got)} AG-UI events, each exactly once, equal to an uninterrupted run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--redis", help="redis://host:port/db (default: in memory)")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds between events")
    parser.add_argument("--every", type=int, default=16, help="events between snapshots")
    args = parser.parse_args()
    if not args.serve:
        asyncio.run(demo())
        return
    import uvicorn

    store: SnapshotStore = MemorySnapshotStore()
    if args.redis:
        from streamblocks.ext.redis import RedisSnapshotStore

        store = RedisSnapshotStore.from_url(args.redis, ttl=3600)
    app = create_app(store, Recording(RECORDING, pace=args.pace), every=args.every)
    print(f"worker {args.port} ready", file=sys.stderr, flush=True)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
