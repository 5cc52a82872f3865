"""Provider events in a session: the input adapter's view of each event, the reply
text it carries, and the provider-native blocks (thinking, tool calls) it reports.

:class:`ProviderEvents` is a part of :class:`~streamblocks.core.session.Session` (a
plain object the session owns); it keeps the per-stream adapter state and hands reply
text to the session's scanner.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable
from typing import Any, cast

from mypy_extensions import mypyc_attr

from ..adapters.detection import detect_input_adapter
from ..adapters.protocols import (
    EventCategory,
    InputAdapter,
    NativeDelta,
    NativeEnd,
    NativeStart,
    as_category,
)
from .blocks import Block
from .emitter import Emitter
from .errors import AdapterWarning, ErrorCode
from .events import (
    CONTENT_SECTION,
    BlockDelta,
    BlockEnd,
    BlockStart,
    Counts,
    Passthrough,
    StopReason,
    StreamFinished,
    StreamStarted,
    Usage,
)
from .json_values import loads
from .limits import Limits
from .native_blocks import NativeBlock, describe

_REPORTS = "error/stop_reason/usage/stream_ids/native_events"
_VALUES = ", ".join(repr(category.value) for category in EventCategory)


@mypyc_attr(allow_interpreted_subclasses=True)
class ProviderEvents:
    """Feeds provider events through the stream's input adapter."""

    def __init__(
        self,
        em: Emitter,
        limits: Limits,
        consume: Callable[[str], None],
        input_adapter: InputAdapter | str | None,
    ) -> None:
        self._em = em
        self._limits = limits
        self._consume = consume
        """Where reply text goes: the session's scanner (``Session._consume``)."""
        self._adapter: InputAdapter | None = None
        self._adapter_spec = input_adapter
        self._adapter_failures: set[str] = set()
        self._frames: Callable[[Any], Any] | None = None
        self._read: Callable[[Any], Any] | None = None
        self._error_of: Callable[[Any], str | None] | None = None
        self._stop_of: Callable[[Any], Any] | None = None
        self._usage_of: Callable[[Any], Any] | None = None
        self._ids_of: Callable[[Any], Any] | None = None
        self._natives_of: Callable[[Any], Any] | None = None
        self._natives: dict[Hashable, NativeBlock] = {}
        self._rejected: set[Hashable] = set()  # native blocks dropped for their size
        self._native_spill = False
        self._stop_reason: StopReason | None = None
        self._usage: Usage | None = None
        self._error_message: str | None = None
        self._session_id: str | None = None
        self._run_id: str | None = None
        self._first_feed = True
        self._ended = False  # the adapter reported STREAM_END: the stream is finished

    def _feed_event(self, item: Any) -> None:
        adapter = self._adapter
        if adapter is None:
            adapter = self._adapter = self._choose_adapter(item)
            self._questions(adapter)
        frames = self._frames
        if frames is None:
            self._analyze_event(adapter, item)
        else:
            try:  # the item is raw input (NDJSON text): the adapter cuts it into events
                events = list(frames(item))
            except Exception as exc:
                self._adapter_failed(adapter, "frames", exc)
                events = []
            for index, event in enumerate(events):
                if self._ended:
                    self._after_end(events[index:])
                    break
                self._analyze_event(adapter, event)
        self._first_feed = False

    def _questions(self, adapter: InputAdapter) -> None:
        """Look the adapter's optional methods up once, not per event: ``read`` (every
        answer in one call) when it has one, and each question it answers."""
        self._frames = getattr(adapter, "frames", None)
        self._read = getattr(adapter, "read", None)
        self._error_of = getattr(adapter, "error", None)
        self._stop_of = getattr(adapter, "stop_reason", None)
        self._usage_of = getattr(adapter, "usage", None)
        self._ids_of = getattr(adapter, "stream_ids", None)
        self._natives_of = getattr(adapter, "native_events", None)

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
        for index, event in enumerate(events):
            if self._ended:
                self._after_end(events[index:])
                break
            self._analyze_event(adapter, event)

    def _analyze_event(self, adapter: InputAdapter, event: Any) -> None:
        read = self._read
        if read is not None:  # one question
            try:
                reading: Any = read(event)
                category = as_category(reading.category)
            except Exception:  # asked again below one question at a time (the same
                category = None  # answers), so the warning names the one that failed
            if category is not None:
                self._take_reading(adapter, reading, category, event)
                return
        text: Any = ""
        try:
            answer = adapter.categorize(event)
            category = as_category(answer)
            if category is None:
                self._odd_answer(adapter, answer)
                category = EventCategory.PASSTHROUGH
            elif category is EventCategory.TEXT_CONTENT:
                text = cast(Any, adapter).extract_text(event)  # (not checked: see _take)
        except Exception as exc:  # a broken adapter: pass the event on, keep going
            self._adapter_failed(adapter, "categorize/extract_text", exc)
            category = EventCategory.PASSTHROUGH
        try:
            message = self._error_of(event) if self._error_of is not None else None
            if message is not None:
                self._error_message = message
            reason = self._stop_of(event) if self._stop_of is not None else None
            if reason is not None:
                self._stop_reason = reason
            usage_of = self._usage_of
            if usage_of is not None:
                self._note_usage(usage_of(event))
            if self._ids_of is not None:
                self._note_ids(self._ids_of(event))
            natives_of = self._natives_of
            if natives_of is not None:
                for piece in natives_of(event) or ():
                    self._native(piece, event)
        except Exception as exc:
            self._adapter_failed(adapter, _REPORTS, exc)
        self._take(category, text, event)

    def _take_reading(
        self, adapter: InputAdapter, reading: Any, category: EventCategory, event: Any
    ) -> None:
        """The event as the adapter's ``read`` answered it (see
        :class:`~streamblocks.adapters.protocols.Reading`)."""
        text = reading.text if category is EventCategory.TEXT_CONTENT else ""
        try:
            if reading.error is not None:
                self._error_message = reading.error
            if reading.stop is not None:
                self._stop_reason = reading.stop
            if reading.usage is not None:
                self._note_usage(reading.usage)
            if reading.ids is not None:
                self._note_ids(reading.ids)
            for piece in reading.natives or ():
                self._native(piece, event)
        except Exception as exc:
            self._adapter_failed(adapter, _REPORTS, exc)
        if category is not EventCategory.SKIP or self._native_spill:  # (most are skipped)
            self._take(category, text, event)

    def _note_usage(self, found: Any) -> None:
        if found is not None:
            self._usage = found if self._usage is None else self._usage.updated(found)

    def _take(self, category: EventCategory, text: Any, event: Any) -> None:
        """What the event's category says: its text to the scanner, the event passed
        through, or the stream ended."""
        if category is EventCategory.TEXT_CONTENT:
            if text.__class__ is not str and not isinstance(text, str):
                self._not_text(event, "extract_text", text)
            elif text:
                self._consume(text)
        elif category is EventCategory.PASSTHROUGH:
            self._em.emit(Passthrough(event))
            self._native_spill = False
        elif category is EventCategory.STREAM_END:
            self._ended = True
        if self._native_spill:  # native text over the size limit: the event carries it on
            self._native_spill = False
            self._em.emit(Passthrough(event))

    def _odd_answer(self, adapter: InputAdapter, answer: Any) -> None:
        """Warn (once per stream) that ``categorize`` answered no :class:`EventCategory`."""
        self._warn_once(
            "category",
            f"input adapter {_name(adapter)}.categorize returned {answer!r:.60}, which is "
            f"not an EventCategory nor one of its values ({_VALUES}); such events are "
            "passed through",
        )

    def _not_text(self, event: Any, what: str, value: Any) -> None:
        """The one guard for provider text that is not a string: warn (once per stream
        and kind of event) and drop the value; the stream goes on."""
        described = describe(event)
        self._warn_once(
            f"text:{described}",
            f"{described} event: {what} gave {type(value).__name__} {value!r:.60}, not "
            "text; it was left out and the stream goes on",
        )

    def _after_end(self, events: Any) -> None:
        """Events after the provider's STREAM_END: ignored, with one warning."""
        self._warn_once(
            "ended",
            f"events after the end of the provider's stream (STREAM_END) are ignored: "
            f"{describe(events[0]) if events else 'more input'}",
        )

    def _note_ids(self, ids: Any) -> None:
        if not ids:
            return
        session_id, run_id = ids
        if isinstance(session_id, str) and session_id:
            self._session_id = session_id
        if isinstance(run_id, str) and run_id:
            self._run_id = run_id
        out = self._em.out
        if self._first_feed and out and out[0].__class__ is StreamStarted:
            # Not returned yet: STREAM_STARTED carries the ids the first item told.
            out[0] = StreamStarted(out[0].stream_id, self._session_id, self._run_id)

    def _finished_event(self, counts: Counts) -> StreamFinished:
        """``STREAM_FINISHED`` with what the adapter reported (stop, usage, error, ids)."""
        stop = self._stop_reason or StopReason.unknown
        return StreamFinished(
            stop,
            self._usage,
            counts,
            self._error_message if stop is StopReason.error else None,
            self._session_id,
            self._run_id,
            self._stop_reason is not None,
        )

    def _adapter_failed(self, adapter: InputAdapter, methods: str, exc: Exception) -> None:
        """Warn (once per stream and group of methods) that ``adapter`` raised."""
        self._warn_once(
            methods,
            f"input adapter {_name(adapter)} raised {exc!r} in {methods}; the stream goes on "
            "(events it cannot read are passed through)",
        )

    def _warn_once(self, key: str, message: str) -> None:
        if key in self._adapter_failures:
            return
        self._adapter_failures.add(key)
        warnings.warn(message, AdapterWarning, stacklevel=5)

    def _choose_adapter(self, first: Any) -> InputAdapter:
        spec = self._adapter_spec
        if spec is None:
            from ..adapters.identity import IdentityInputAdapter

            return IdentityInputAdapter()
        adapter = detect_input_adapter(first) if isinstance(spec, str) else spec
        for_stream = getattr(adapter, "for_stream", None)
        return for_stream() if for_stream is not None else adapter

    def _native(self, piece: Any, event: Any) -> None:
        if isinstance(piece, NativeStart):
            block_id = piece.block_id
            if not isinstance(block_id, str) or not block_id:
                block_id = self._em.new_id()
            native = self._natives[piece.key] = NativeBlock(piece, block_id)
            self._rejected.discard(piece.key)
            attrs = dict(native.attrs)
            self._em.emit(BlockStart(block_id, native.block_type, "native", attrs))
        elif isinstance(piece, NativeDelta):
            text = cast(Any, piece).text  # (the compiled build would check it on read)
            if not isinstance(text, str):
                self._not_text(event, "a native block's delta", text)
                return
            open_native = self._natives.get(piece.key)
            if open_native is None:
                if text and piece.key in self._rejected:
                    self._native_spill = True
                return
            if not text:
                return
            if open_native.size + len(text) > self._limits.max_block_chars:
                self._reject_native(piece.key, open_native, text)
                return
            open_native.add(text)
            source = open_native.partial
            at = source.add(text, None) if source is not None else None
            self._em.emit(
                BlockDelta(
                    open_native.block_id, open_native.block_type, CONTENT_SECTION, text, None, at
                )
            )
        elif isinstance(piece, NativeEnd):
            if piece.key is None:
                keys = list(self._natives)
                self._rejected.clear()
            else:
                keys = [piece.key]
                self._rejected.discard(piece.key)
            for key in keys:
                ended = self._natives.pop(key, None)
                if ended is not None:
                    self._end_native(ended, piece)

    def _reject_native(self, key: Hashable, native: NativeBlock, text: str) -> None:
        """A native block crossed ``max_block_chars``: a ``TOO_LARGE`` error carrying
        the text held; the provider events with the rest of it pass through."""
        del self._natives[key]
        self._rejected.add(key)
        native.parts.append(text)
        limit = self._limits.max_block_chars
        self._em.error(
            native.block_id,
            native.block_type,
            ErrorCode.TOO_LARGE,
            f"{native.block_type} {native.block_id!r} grew past max_block_chars={limit}; "
            "the rest of it is passed through",
            "".join(native.parts),
        )

    def _end_native(self, native: NativeBlock, end: NativeEnd | None) -> None:
        text = "".join(native.parts)
        attrs = native.attrs
        if end is not None and end.attrs:
            attrs = {**attrs, **end.attrs}
        if end is not None and end.content is not None:
            content: Any = end.content
        elif native.parse == "json":
            try:
                content = loads(text) if text.strip() else {}
            except (ValueError, RecursionError) as exc:
                self._em.error(
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
        self._em.blocks += 1
        block = Block(
            native.block_id, native.block_type, "native", None, content, attrs, "",
            self._em.pos, self._em.pos,
        )  # fmt: skip
        self._em.emit(BlockEnd(block))

    def _close_natives(self) -> None:
        for key in list(self._natives):
            native = self._natives.pop(key)
            self._em.error(
                native.block_id,
                native.block_type,
                ErrorCode.UNCLOSED,
                f"the stream ended inside {native.block_type} {native.block_id!r}",
                "",
            )


def _name(adapter: InputAdapter) -> str:
    return f"{type(adapter).__module__}.{type(adapter).__qualname__}"
