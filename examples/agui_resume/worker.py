"""An AG-UI stream that survives its worker: snapshots in a shared store, resumed anywhere.

A worker streams a run's AG-UI events as SSE, each with ``id: n`` (the n-th event of the
run). Every ``every`` events or ``seconds`` seconds it saves a checkpoint under the run id:
the session's snapshot, the AG-UI adapter's state, the provider position acknowledged
(events read and fed) and ``n``. When it dies, the client reconnects — to any worker — with
``Last-Event-ID: m``. That worker restores the newest checkpoint if it is not past ``m``
(else it starts the run over: the provider stream is re-read from the start), re-reads the
provider stream from the checkpoint's position and sends the events after ``m``: every
event reaches the client exactly once, because the same provider events fed to the same
state give the same AG-UI events, ids included.

A provider source here is anything with ``read(after)``: an async iterator of
``(position, event)`` from just after position ``after``. :class:`Recording` replays a
recorded stream; :class:`OpenAIBackground` re-reads an OpenAI Responses run started with
``background=True`` (``starting_after`` the last sequence number seen).
"""

from __future__ import annotations

import asyncio
import json
import pickle
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from streamblocks import StreamBlockProcessor
from streamblocks.ext.agui import AGUIOutputAdapter
from streamblocks.store import SnapshotStore, StaleSnapshotError


class Source(Protocol):
    def read(self, after: int) -> AsyncIterator[tuple[int, Any]]: ...


class Recording:
    """A recorded provider stream (JSON lines), re-readable from any position; ``pace``
    seconds between events, as a live model would take."""

    def __init__(self, path: Path, *, pace: float = 0.0) -> None:
        self.events = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
        self.pace = pace

    async def read(self, after: int) -> AsyncIterator[tuple[int, Any]]:
        for position in range(after + 1, len(self.events) + 1):
            await asyncio.sleep(self.pace)
            yield position, self.events[position - 1]


class OpenAIBackground:
    """An OpenAI Responses run started with ``background=True, stream=True``: the
    provider keeps it, so a worker re-reads it from the last sequence number it fed
    (``responses.retrieve(id, stream=True, starting_after=n)``)."""

    def __init__(self, client: Any, response_id: str) -> None:
        self.client = client  # an openai.AsyncOpenAI
        self.response_id = response_id

    async def read(self, after: int) -> AsyncIterator[tuple[int, Any]]:
        """Positions count the events read: an event's is its sequence number + 1 (the
        first one's is 0), so position 0 reads from the start."""
        if after > 0:
            stream = await self.client.responses.retrieve(
                self.response_id, stream=True, starting_after=after - 1
            )
        else:
            stream = await self.client.responses.retrieve(self.response_id, stream=True)
        async for event in stream:
            yield event.sequence_number + 1, event


@dataclass
class Checkpoint:
    """What a worker needs to go on with a run."""

    session: bytes  # session.snapshot()
    adapter: AGUIOutputAdapter  # its per-run state: open message, ids
    position: int  # the provider position acknowledged: everything up to it was fed
    sent: int  # the id of the last AG-UI event made (events are numbered from 1)
    finished: bool = False


@dataclass
class Run:
    """One request's stream, from a fresh start or from a checkpoint."""

    run_id: str
    thread_id: str
    processor: StreamBlockProcessor
    store: SnapshotStore
    source: Source
    last_event_id: int = 0
    every: int = 16
    seconds: float = 1.0
    resumed: str = "start"  # how it began, for the X-Resumed-From header
    version: int = 0
    state: Checkpoint | None = field(default=None, repr=False)
    on_snapshot: Callable[[Checkpoint, int], None] | None = None

    def prepare(self) -> None:
        """Choose where to begin: the stored checkpoint if the client has everything up
        to it, else the run's start."""
        stored = self.store.get(self.run_id)
        if stored is None:
            return
        self.version = stored.version
        checkpoint: Checkpoint = pickle.loads(stored.data)
        if checkpoint.sent <= self.last_event_id:
            self.state = checkpoint
            self.resumed = f"snapshot v{stored.version} at position {checkpoint.position}"
        else:
            self.resumed = "start (the client is behind the last snapshot)"

    def _save(self, checkpoint: Checkpoint) -> None:
        """Write the checkpoint; a newer one from another worker raises
        :class:`StaleSnapshotError`: this worker lost the run."""
        self.version = self.store.put(
            self.run_id, pickle.dumps(checkpoint, protocol=5), version=self.version
        )
        if self.on_snapshot is not None:
            self.on_snapshot(checkpoint, self.version)

    async def body(self) -> AsyncIterator[bytes]:
        """The SSE body: ``id: n`` and the AG-UI event, for each event after the
        client's last one."""
        from ag_ui.encoder import EventEncoder

        encode = EventEncoder().encode
        state = self.state
        if state is not None and state.finished:
            return  # the client has the whole run
        if state is not None:
            session = self.processor.restore(state.session)
            adapter, position, sent = state.adapter, state.position, state.sent
        else:
            session = self.processor.session(self.run_id)
            adapter = AGUIOutputAdapter(thread_id=self.thread_id, run_id=self.run_id)
            position = sent = 0
        saved_at, saved_time = sent, time.monotonic()

        def out(events: list[Any]) -> list[bytes]:
            nonlocal sent
            frames = []
            for event in events:
                if event.type == "PASSTHROUGH":
                    converted = adapter.passthrough(event.event)
                else:
                    converted = adapter.to_protocol_event(event)
                for agui in converted:
                    sent += 1
                    if sent > self.last_event_id:
                        frames.append(f"id: {sent}\n{encode(agui)}".encode())
            return frames

        try:
            async for acknowledged, provider_event in self.source.read(position):
                position = acknowledged
                for frame in out(session.feed(provider_event)):
                    yield frame
                due = time.monotonic() - saved_time >= self.seconds
                if sent - saved_at >= self.every or due:
                    self._save(Checkpoint(session.snapshot(), adapter, position, sent))
                    saved_at, saved_time = sent, time.monotonic()
            for frame in out(session.close()):
                yield frame
            self._save(Checkpoint(b"", adapter, position, sent, finished=True))
        except StaleSnapshotError:
            return  # another worker has the run now: stop, it streams the rest
