"""Driving an input adapter the way a session does, without a session."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Hashable, Iterable
from typing import Any

from ..adapters.protocols import (
    EventCategory,
    InputAdapter,
    NativeDelta,
    NativeEnd,
    NativeStart,
    as_category,
)
from ..core.events import StopReason, Usage


@dataclasses.dataclass
class NativeBlock:
    """A provider-native block (thinking, tool call) assembled from an adapter's pieces."""

    block_type: str
    block_id: str | None
    attrs: dict[str, Any]
    text: str = ""
    content: Any = None
    closed: bool = False
    deltas: int = 0
    """The deltas that came before the block's end."""


@dataclasses.dataclass
class AdapterRun:
    """What an adapter made of a stream: the contract's view, event by event."""

    text: str = ""
    categories: list[EventCategory] = dataclasses.field(default_factory=list)
    passthrough: list[Any] = dataclasses.field(default_factory=list)
    stop_reason: StopReason | None = None
    usage: Usage | None = None
    natives: list[NativeBlock] = dataclasses.field(default_factory=list)
    ended: bool = False
    problems: list[str] = dataclasses.field(default_factory=list)
    """Contract violations found on the way (deltas for unopened keys, bad types)."""

    def blocks(self, block_type: str) -> list[NativeBlock]:
        return [block for block in self.natives if block.block_type == block_type]


def merge_usage(old: Usage | None, new: Usage | None) -> Usage | None:
    """Field-wise merge: the newer report's non-``None`` fields win."""
    if new is None or old is None:
        return old if new is None else new
    return old.updated(new)


def _finish(block: NativeBlock, parse: str) -> None:
    block.closed = True
    if block.content is not None:
        return
    if parse == "json":
        try:
            block.content = json.loads(block.text) if block.text.strip() else {}
        except ValueError:
            block.content = block.text
    else:
        block.content = block.text


def run_adapter(adapter: InputAdapter, events: Iterable[Any]) -> AdapterRun:
    """Feed ``events`` through ``adapter`` as the session does and collect the results.

    Calls ``for_stream()`` first when the adapter has it (and ``frames()`` /
    ``end_frames()`` to cut raw input into events when it has them); then for each event
    ``categorize``, ``extract_text`` for text, and the optional ``stop_reason``,
    ``usage`` and ``native_events``. Stops after a ``STREAM_END`` event.
    """
    for_stream = getattr(adapter, "for_stream", None)
    stream_adapter: Any = for_stream() if callable(for_stream) else adapter
    stop_reason = getattr(stream_adapter, "stop_reason", None)
    usage = getattr(stream_adapter, "usage", None)
    native_events = getattr(stream_adapter, "native_events", None)
    run = AdapterRun()
    open_blocks: dict[Hashable, tuple[NativeBlock, str]] = {}
    frames = getattr(stream_adapter, "frames", None)
    if callable(frames):  # raw framed input: the adapter cuts it into events
        end_frames = getattr(stream_adapter, "end_frames", None)
        items = list(events)
        events = [event for item in items for event in frames(item)]
        if callable(end_frames):
            events.extend(end_frames())
    for event in events:
        answer = stream_adapter.categorize(event)
        category = as_category(answer)
        if category is None:
            run.problems.append(f"categorize returned {answer!r}")
            category = EventCategory.PASSTHROUGH  # as the session treats it
        run.categories.append(category)
        if native_events is not None:
            for piece in native_events(event):
                if isinstance(piece, NativeStart):
                    if piece.key in open_blocks:
                        run.problems.append(f"native block {piece.key!r} started twice")
                    block = NativeBlock(piece.block_type, piece.block_id, dict(piece.attrs))
                    run.natives.append(block)
                    open_blocks[piece.key] = (block, piece.parse)
                elif isinstance(piece, NativeDelta):
                    if piece.key not in open_blocks:
                        run.problems.append(f"delta for unopened native block {piece.key!r}")
                        continue
                    opened = open_blocks[piece.key][0]
                    opened.text += piece.text
                    opened.deltas += bool(piece.text)
                elif isinstance(piece, NativeEnd):
                    keys = list(open_blocks) if piece.key is None else [piece.key]
                    for key in keys:
                        if key not in open_blocks:
                            run.problems.append(f"end for unopened native block {key!r}")
                            continue
                        block, parse = open_blocks.pop(key)
                        if piece.content is not None:
                            block.content = piece.content
                        if piece.attrs:
                            block.attrs.update(piece.attrs)
                        _finish(block, parse)
        if category is EventCategory.TEXT_CONTENT:
            text = stream_adapter.extract_text(event)
            if not isinstance(text, str):
                run.problems.append(f"extract_text returned {text!r}")
            else:
                run.text += text
        elif category is EventCategory.PASSTHROUGH:
            run.passthrough.append(event)
        if stop_reason is not None:
            reason = stop_reason(event)
            if reason is not None:
                run.stop_reason = reason
        if usage is not None:
            run.usage = merge_usage(run.usage, usage(event))
        if category is EventCategory.STREAM_END:
            run.ended = True
            break
    for block, parse in open_blocks.values():
        _finish(block, parse)
    return run
