"""Streams that survive a worker: examples/agui_resume run as two worker processes on a
real Redis server. The client reads from worker A, A is SIGKILLed mid-run, the client
posts again with ``Last-Event-ID`` to worker B, which restores A's last snapshot: every
AG-UI event reaches the client exactly once, equal to an uninterrupted run's."""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from redis_server import redis_url  # noqa: F401  (the session-scoped server fixture)
from streamblocks.store import MemorySnapshotStore, StaleSnapshotError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "agui_resume"
sys.path.insert(0, str(EXAMPLE))

import main  # noqa: E402  (the example, by path)
from worker import OpenAIBackground, Run  # noqa: E402

REQUEST = {
    "threadId": "thread-1",
    "runId": "run-kill",
    "state": {},
    "messages": [{"id": "m1", "role": "user", "content": "Why did the deploy fail?"}],
    "tools": [],
    "context": [],
    "forwardedProps": {},
}


def reference(run_id: str) -> list[tuple[int, str]]:
    """The run's frames from one worker that is never interrupted."""

    async def body() -> bytes:
        source = main.Recording(main.RECORDING)
        run = Run(run_id, "thread-1", main.processor, MemorySnapshotStore(), source)
        run.prepare()
        return b"".join([frame async for frame in run.body()])

    return main.frames(asyncio.run(body()))


def _port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_worker(url: str, pace: float) -> tuple[subprocess.Popen[bytes], str]:
    port = _port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(EXAMPLE)])}
    args = ["--serve", "--port", str(port), "--redis", url, "--pace", str(pace), "--every", "8"]
    process = subprocess.Popen(
        [sys.executable, str(EXAMPLE / "main.py"), *args],
        cwd=EXAMPLE,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"{base}/docs", timeout=1)
            return process, base
        except httpx.TransportError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail("the worker did not start")
            time.sleep(0.05)


@pytest.fixture
def workers(redis_url: str) -> Iterator[list[tuple[subprocess.Popen[bytes], str]]]:  # noqa: F811
    started = [start_worker(redis_url, pace=0.02), start_worker(redis_url, pace=0.0)]
    yield started
    for process, _ in started:
        if process.poll() is None:
            process.terminate()
        process.wait(10)


def read_frames(response: httpx.Response, *, stop_after: int | None = None, kill: Any = None):
    """The complete SSE messages of a response (a message cut by the connection's end is
    dropped, as an EventSource does); ``kill()`` is called once ``stop_after`` came."""
    frames: list[tuple[int, str]] = []
    buffer = b""
    try:
        for chunk in response.iter_bytes():
            buffer += chunk
            *complete, buffer = buffer.split(b"\n\n")
            for message in complete:
                frames += main.frames(message + b"\n\n")
            if kill is not None and stop_after is not None and len(frames) >= stop_after:
                kill()
                kill = None
    except httpx.TransportError:
        pass  # the worker died: the connection ends
    return frames


def test_a_killed_worker_stream_resumes_on_another_exactly_once(
    workers: list[tuple[subprocess.Popen[bytes], str]],
) -> None:
    (worker_a, url_a), (_, url_b) = workers
    whole = reference(REQUEST["runId"])
    with httpx.Client(timeout=30) as client:
        with client.stream("POST", f"{url_a}/agent", json=REQUEST) as response:
            assert response.headers["x-resumed-from"] == "start"
            got = read_frames(
                response, stop_after=30, kill=lambda: os.kill(worker_a.pid, signal.SIGKILL)
            )
        assert worker_a.wait(10) == -signal.SIGKILL
        assert 30 <= len(got) < len(whole)  # killed mid-run
        last = got[-1][0]
        headers = {"Last-Event-ID": str(last)}
        with client.stream("POST", f"{url_b}/agent", json=REQUEST, headers=headers) as response:
            resumed = response.headers["x-resumed-from"]
            got += read_frames(response)
        assert resumed.startswith("snapshot v"), resumed  # B restored A's snapshot
        assert [i for i, _ in got] == list(range(1, len(whole) + 1))  # each id once
        assert [d for _, d in got] == [d for _, d in whole]  # the same events

        # A client far behind (it lost events sent before the snapshot): B re-reads the
        # provider stream from the start and still sends each event after its id once.
        headers = {"Last-Event-ID": "2"}
        with client.stream("POST", f"{url_b}/agent", json=REQUEST, headers=headers) as response:
            assert response.headers["x-resumed-from"].startswith("start")
            assert read_frames(response) == whole[2:]
        # A client with everything: nothing more.
        headers = {"Last-Event-ID": str(len(whole))}
        with client.stream("POST", f"{url_b}/agent", json=REQUEST, headers=headers) as response:
            assert read_frames(response) == []


def test_a_stale_worker_stops_when_another_took_over() -> None:
    """Worker A is slow, not dead: B took the run over and wrote a snapshot; A's next
    write is refused and A stops streaming (B streams the rest)."""
    store = MemorySnapshotStore()
    source = main.Recording(main.RECORDING)

    async def go() -> tuple[int, int]:
        a = Run("r", "t", main.processor, store, source, every=4)
        a.prepare()
        body = a.body()
        sent_by_a = 0
        async for _ in body:
            sent_by_a += 1
            if sent_by_a == 10:
                break  # A stalls here, holding version a.version
        b = Run("r", "t", main.processor, store, source, last_event_id=sent_by_a, every=4)
        b.prepare()
        assert b.resumed.startswith("snapshot")
        frames_b = [f async for f in b.body()]
        more_from_a = [f async for f in body]  # A wakes up: its next write is stale
        return len(frames_b), len(more_from_a)

    from_b, from_a = asyncio.run(go())
    assert from_b > 0
    assert from_a < 4  # at most what A made before its refused write
    stored = store.get("r")
    assert stored is not None and pickle.loads(stored.data).finished


def test_stale_error_names_the_versions() -> None:
    store = MemorySnapshotStore()
    store.put("r", b"x", version=0)
    with pytest.raises(StaleSnapshotError, match="version 1, not 0"):
        store.put("r", b"y", version=0)


def test_openai_background_source_resumes_after_the_acknowledged_sequence_number() -> None:
    """The documented real-world source: a background Responses run read again with
    ``responses.retrieve(id, stream=True, starting_after=n)``, through the real openai
    client over a mock transport that serves the events after ``n``."""
    import httpx2
    import openai

    from adapters import test_openai

    body = test_openai.responses_body().decode("utf-8")
    messages = [m for m in body.split("\n\n") if m.strip()]
    asked: list[int] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        assert request.url.path == "/v1/responses/resp_1"
        after = int(request.url.params.get("starting_after", "-1"))
        asked.append(after)
        data = [json.loads(m.split("data: ", 1)[1]) for m in messages]
        kept = [m for m, d in zip(messages, data, strict=True) if d["sequence_number"] > after]
        return httpx2.Response(
            200,
            headers={"content-type": "text/event-stream"},
            content="".join(m + "\n\n" for m in kept).encode(),
        )

    client = openai.AsyncOpenAI(
        api_key="test",
        base_url="https://openai.test/v1",
        http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(handler)),
    )
    source = OpenAIBackground(client, "resp_1")

    async def go() -> tuple[list[tuple[int, str]], list[tuple[int, str]], str]:
        def run(store: Any, last: int = 0) -> Run:
            r = Run("r", "t", main.processor, store, source, last_event_id=last, every=2)
            r.prepare()
            return r

        whole = main.frames(b"".join([f async for f in run(MemorySnapshotStore()).body()]))
        store = MemorySnapshotStore()
        first, got = run(store).body(), []
        async for frame in first:
            got.append(frame)
            if len(got) == len(whole) // 2:
                break  # the worker is gone
        await first.aclose()
        frames = main.frames(b"".join(got))
        second = run(store, frames[-1][0])
        frames += main.frames(b"".join([f async for f in second.body()]))
        return whole, frames, second.resumed

    whole, got, resumed = asyncio.run(go())
    assert resumed.startswith("snapshot")
    assert got == whole
    assert asked[0] == -1 and asked[-1] > 0  # from the start, then after the acknowledged
