"""A real viewer server on a free port, in this process, and reading its SSE body."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import uvicorn

from streamblocks import StreamBlockProcessor
from streamblocks.cli import default_registry
from streamblocks.view import runs
from streamblocks.view.server import bind, create_app, url_of


class Served:
    """A viewer serving one input; ``stop()`` shuts it down."""

    def __init__(self, items: Iterator[Any], processor: Any | None, *, live: bool = False) -> None:
        self.run = runs.Run()
        processor = processor or StreamBlockProcessor(default_registry(), unknown="block")
        app = create_app(
            self.run,
            title="test",
            live=live,
            on_startup=lambda: runs.start(self.run, processor, items),
        )
        self.sock = bind("127.0.0.1", 0)
        self.url = url_of(self.sock)
        config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )
        self.thread.start()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def sse_messages(body: str) -> list[tuple[int, dict[str, Any]]]:
    """``(id, event)`` of each message of an SSE body."""
    found = []
    for message in body.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in message.splitlines() if ": " in line)
        if "data" in fields:
            found.append((int(fields.get("id", "0")), json.loads(fields["data"])))
    return found


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


def events_of(served: Served) -> list[dict[str, Any]]:
    status, _, body = get(served.url + "events")
    assert status == 200
    return [event for _, event in sse_messages(body)]
