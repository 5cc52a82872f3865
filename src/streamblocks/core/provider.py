"""Provider events in a session: the input adapter's view of each event, the reply
text it carries, and the provider-native blocks (thinking, tool calls) it reports.

:class:`ProviderEvents` is a part of :class:`~streamblocks.core.session.Session` (a
plain object the session owns); it keeps the per-stream adapter state and hands reply
text to the session's scanner.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from ..adapters.detection import detect_input_adapter
from ..adapters.protocols import EventCategory, InputAdapter, NativeDelta, NativeEnd, NativeStart
from .blocks import Block
from .errors import AdapterWarning, ErrorCode
from .events import BlockDelta, BlockEnd, BlockStart, Passthrough, StopReason, Usage

if TYPE_CHECKING:
    from .session import Session

_CONTENT = "content"


class _NativeBlock:
    __slots__ = ("attrs", "block_id", "block_type", "parse", "parts")

    def __init__(self, start: NativeStart, block_id: str) -> None:
        self.block_id = block_id
        self.block_type = start.block_type
        self.attrs = dict(start.attrs)
        self.parse = start.parse
        self.parts: list[str] = []


class ProviderEvents:
    """Feeds provider events through the stream's input adapter."""

    def __init__(self, session: Session, input_adapter: InputAdapter | str | None) -> None:
        self._session = session
        self._adapter: InputAdapter | None = None
        self._adapter_spec = input_adapter
        self._adapter_failures: set[str] = set()
        self._frames: Callable[[Any], Any] | None = None
        self._error_of: Callable[[Any], str | None] | None = None
        self._natives: dict[Hashable, _NativeBlock] = {}
        self._stop_reason: StopReason | None = None
        self._usage: Usage | None = None
        self._error_message: str | None = None

    def _feed_event(self, item: Any) -> None:
        adapter = self._adapter
        if adapter is None:
            adapter = self._adapter = self._choose_adapter(item)
            self._frames = getattr(adapter, "frames", None)
            self._error_of = getattr(adapter, "error", None)
        frames = self._frames
        if frames is None:
            self._analyze_event(adapter, item)
            return
        try:  # the item is raw input (NDJSON text): the adapter cuts it into events
            events = list(frames(item))
        except Exception as exc:
            self._adapter_failed(adapter, "frames", exc)
            return
        for event in events:
            self._analyze_event(adapter, event)

    def _end_frames(self) -> None:
        """At close: the events an adapter with ``frames`` still holds (a last line
        without its newline)."""
        adapter = self._adapter
        end_frames = getattr(adapter, "end_frames", None)
        if adapter is None or end_frames is None:
            return
        try:
            events = list(end_frames())
        except Exception as exc:
            self._adapter_failed(adapter, "end_frames", exc)
            return
        for event in events:
            self._analyze_event(adapter, event)

    def _analyze_event(self, adapter: InputAdapter, event: Any) -> None:
        text = ""
        try:
            category = adapter.categorize(event)
            if category is EventCategory.TEXT_CONTENT:
                text = adapter.extract_text(event)
        except Exception as exc:  # a broken adapter: pass the event on, keep going
            self._adapter_failed(adapter, "categorize/extract_text", exc)
            category = EventCategory.PASSTHROUGH
        try:
            error_of = self._error_of
            if error_of is not None:
                message = error_of(event)
                if message is not None:
                    self._error_message = message
            stop_reason = getattr(adapter, "stop_reason", None)
            if stop_reason is not None:
                reason = stop_reason(event)
                if reason is not None:
                    self._stop_reason = reason
            usage = getattr(adapter, "usage", None)
            if usage is not None:
                found = usage(event)
                if found is not None:
                    self._usage = found if self._usage is None else self._usage.updated(found)
            natives = getattr(adapter, "native_events", None)
            if natives is not None:
                for piece in natives(event) or ():
                    self._native(piece)
        except Exception as exc:
            self._adapter_failed(adapter, "error/stop_reason/usage/native_events", exc)
        if category is EventCategory.TEXT_CONTENT:
            if text:
                self._session._consume(text)
        elif category is EventCategory.PASSTHROUGH:
            self._session._emit(Passthrough(event))

    def _adapter_failed(self, adapter: InputAdapter, methods: str, exc: Exception) -> None:
        """Warn (once per stream and group of methods) that ``adapter`` raised."""
        if methods in self._adapter_failures:
            return
        self._adapter_failures.add(methods)
        name = f"{type(adapter).__module__}.{type(adapter).__qualname__}"
        warnings.warn(
            f"input adapter {name} raised {exc!r} in {methods}; the stream goes on "
            "(events it cannot read are passed through)",
            AdapterWarning,
            stacklevel=4,
        )

    def _choose_adapter(self, first: Any) -> InputAdapter:
        spec = self._adapter_spec
        if spec is None:
            from ..adapters.identity import IdentityInputAdapter

            return IdentityInputAdapter()
        adapter = detect_input_adapter(first) if isinstance(spec, str) else spec
        for_stream = getattr(adapter, "for_stream", None)
        return for_stream() if for_stream is not None else adapter

    def _native(self, piece: Any) -> None:
        if isinstance(piece, NativeStart):
            block_id = piece.block_id or self._session._new_id()
            native = self._natives[piece.key] = _NativeBlock(piece, block_id)
            self._session._emit(BlockStart(block_id, native.block_type, "native", native.attrs))
        elif isinstance(piece, NativeDelta):
            open_native = self._natives.get(piece.key)
            if open_native is not None and piece.text:
                open_native.parts.append(piece.text)
                self._session._emit(
                    BlockDelta(open_native.block_id, open_native.block_type, _CONTENT, piece.text)
                )
        elif isinstance(piece, NativeEnd):
            keys = list(self._natives) if piece.key is None else [piece.key]
            for key in keys:
                ended = self._natives.pop(key, None)
                if ended is not None:
                    self._end_native(ended, piece)

    def _end_native(self, native: _NativeBlock, end: NativeEnd | None) -> None:
        text = "".join(native.parts)
        if end is not None and end.attrs:
            native.attrs.update(end.attrs)
        if end is not None and end.content is not None:
            content: Any = end.content
        elif native.parse == "json":
            try:
                content = json.loads(text) if text.strip() else {}
            except (ValueError, RecursionError) as exc:
                self._session._error(
                    native.block_id,
                    native.block_type,
                    ErrorCode.PARSE_FAILED,
                    f"arguments of {native.block_type} {native.block_id!r} are not valid "
                    f"JSON ({exc}): {text}",
                    "",
                )
                return
        else:
            content = text
        self._session._blocks += 1
        block = Block(
            native.block_id, native.block_type, "native", None, content, native.attrs, "",
            self._session._pos, self._session._pos,
        )  # fmt: skip
        self._session._emit(BlockEnd(block))

    def _close_natives(self) -> None:
        for key in list(self._natives):
            native = self._natives.pop(key)
            self._session._error(
                native.block_id,
                native.block_type,
                ErrorCode.UNCLOSED,
                f"the stream ended inside {native.block_type} {native.block_id!r}",
                "",
            )
