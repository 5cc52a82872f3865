"""Provider events in a session: the input adapter's view of each event, the reply
text it carries, and the provider-native blocks (thinking, tool calls) it reports.

:class:`ProviderEvents` is a part of :class:`~streamblocks.core.session.Session` (a
plain object the session owns); it keeps the per-stream adapter state and hands reply
text to the session's scanner.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from mypy_extensions import mypyc_attr

from ..adapters.detection import detect_input_adapter
from ..adapters.protocols import (
    EventCategory,
    InputAdapter,
    Reading,
    as_category,
)
from .emitter import Emitter
from .events import (
    Counts,
    Passthrough,
    StopReason,
    StreamFinished,
    StreamStarted,
    Usage,
)
from .limits import Limits
from .native_blocks import NativeBlocks, describe

_REPORTS = "error/stop_reason/usage/stream_ids/native_events"
TEXT, SKIP = EventCategory.TEXT_CONTENT, EventCategory.SKIP
_NO_REPORTS = (None, None, None, None)
_VALUES = ", ".join(repr(category.value) for category in EventCategory)


@mypyc_attr(allow_interpreted_subclasses=True)
class ProviderEvents(NativeBlocks):
    """Feeds provider events through the stream's input adapter."""

    def __init__(
        self,
        em: Emitter,
        limits: Limits,
        consume: Callable[[str], None],
        input_adapter: InputAdapter | str | None,
    ) -> None:
        super().__init__(em, limits)
        self._consume = consume
        """Where reply text goes: the session's scanner (``Session._consume``)."""
        self._adapter: InputAdapter | None = None
        self._adapter_spec = input_adapter
        self._frames: Callable[[Any], Any] | None = None
        self._read: Callable[[Any], Any] | None = None
        self._error_of: Callable[[Any], str | None] | None = None
        self._stop_of: Callable[[Any], Any] | None = None
        self._usage_of: Callable[[Any], Any] | None = None
        self._ids_of: Callable[[Any], Any] | None = None
        self._natives_of: Callable[[Any], Any] | None = None
        self._text_delta: Callable[[Any], Any] | None = None
        """The adapter's optional direct getter (see :meth:`text_of`)."""
        self._stop_reason: StopReason | None = None
        self._usage: Usage | None = None
        self._error_message: str | None = None
        self._session_id: str | None = None
        self._run_id: str | None = None
        self._first_feed = True
        self._ended = False  # the adapter reported STREAM_END: the stream is finished
        self._pending: tuple[Any, Any, EventCategory] | None = None
        """An event :meth:`text_of` read that needs the full step, with its reading."""

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
        text_delta = getattr(adapter, "text_delta", None)
        self._text_delta = text_delta if self._frames is None else None

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

    def text_of(self, event: Any) -> str | None:
        """The reply text of an event that carries text and nothing else to take (a text
        delta; ``""`` for an event to skip), its reports (stop reason, usage...) noted:
        the session reads it as a ``str`` chunk. ``None``: the event needs the full step
        (its reading is kept for it, so the adapter is asked once).

        An adapter's optional ``text_delta(event)`` is asked first: the text of an event
        that is a plain text delta and reports nothing else, read with no
        :class:`Reading` built; ``None`` (or anything not a ``str``) for the rest, which
        is read as before."""
        text_delta = self._text_delta
        if text_delta is not None and not self._native_spill:
            try:
                text = text_delta(event)
            except Exception:  # (read again below, where a failure is reported)
                text = None
            if text.__class__ is str:
                return text
        adapter = self._adapter
        if adapter is None or self._native_spill or self._frames is not None:
            return None
        read = self._read
        try:
            reading = self._ask(adapter, event) if read is None else read(event)
            category = reading.category
            if category.__class__ is not EventCategory:
                category = as_category(category)
            if category is None:  # (asked again by the full step, which warns)
                return None
            if reading.natives or (category is not TEXT and category is not SKIP):
                self._pending = (event, reading, category)
                return None
        except Exception:  # (a broken ``read``: the same)
            return None
        if (reading.stop, reading.usage, reading.error, reading.ids) != _NO_REPORTS:
            self._note(adapter, reading)
        text = reading.text if category is TEXT else ""
        if text.__class__ is str or isinstance(text, str):
            return text
        self._not_text(event, "extract_text", text)
        return ""

    def _analyze_event(self, adapter: InputAdapter, event: Any) -> None:
        pending = self._pending
        if pending is not None:  # (read by text_of)
            self._pending = None
            if pending[0] is event:
                self._take_reading(adapter, pending[1], pending[2], event)
                return
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
        reading = self._ask(adapter, event)
        self._take_reading(adapter, reading, reading.category, event)

    def _ask(self, adapter: InputAdapter, event: Any) -> Reading:
        """The event's reading from the adapter's questions, one at a time (an adapter
        without ``read``, or whose ``read`` failed); a question that raises is warned
        about, and the answers before it kept."""
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
        error = stop = usage = ids = None
        natives: list[Any] = []
        try:
            error = self._error_of(event) if self._error_of is not None else None
            stop = self._stop_of(event) if self._stop_of is not None else None
            usage = self._usage_of(event) if self._usage_of is not None else None
            ids = self._ids_of(event) if self._ids_of is not None else None
            if self._natives_of is not None:
                natives.extend(self._natives_of(event) or ())
        except Exception as exc:
            self._adapter_failed(adapter, _REPORTS, exc)
        return Reading(category, text, natives, stop, usage, error, ids)

    def _take_reading(
        self, adapter: InputAdapter, reading: Any, category: EventCategory, event: Any
    ) -> None:
        """The event as the adapter's ``read`` answered it (see
        :class:`~streamblocks.adapters.protocols.Reading`)."""
        text = reading.text if category is EventCategory.TEXT_CONTENT else ""
        if self._note(adapter, reading):
            try:
                for piece in reading.natives or ():
                    self._native(piece, event)
            except Exception as exc:
                self._adapter_failed(adapter, _REPORTS, exc)
        if category is not EventCategory.SKIP or self._native_spill:  # (most are skipped)
            self._take(category, text, event)

    def _note(self, adapter: InputAdapter, reading: Any) -> bool:
        """Keep what the event reports (error, stop reason, usage, ids): whether that
        went well (a warning names what raised)."""
        try:
            if reading.error is not None:
                self._error_message = reading.error
            if reading.stop is not None:
                self._stop_reason = reading.stop
            if reading.usage is not None:
                self._note_usage(reading.usage)
            if reading.ids is not None:
                self._note_ids(reading.ids)
        except Exception as exc:
            self._adapter_failed(adapter, _REPORTS, exc)
            return False
        return True

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

    def _finished_event(self, counts: Counts, cause: str | None = None) -> StreamFinished:
        """``STREAM_FINISHED`` with what the adapter reported (stop, usage, error, ids);
        with a ``cause``: the stream did not end normally (``stop_reason=error``)."""
        if cause is not None:
            ids = (self._session_id, self._run_id)
            return StreamFinished(StopReason.error, self._usage, counts, cause, *ids, True)
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

    def _choose_adapter(self, first: Any) -> InputAdapter:
        spec = self._adapter_spec
        if spec is None:
            from ..adapters.identity import IdentityInputAdapter

            return IdentityInputAdapter()
        adapter = detect_input_adapter(first) if isinstance(spec, str) else spec
        for_stream = getattr(adapter, "for_stream", None)
        return for_stream() if for_stream is not None else adapter


def _name(adapter: InputAdapter) -> str:
    return f"{type(adapter).__module__}.{type(adapter).__qualname__}"
