"""What the provider adapters share.

Every provider adapter reads its events by duck typing, through :func:`field`, so the
same code serves the SDK's objects and plain dicts of the provider's JSON wire format
(a replayed JSONL log) and no SDK has to be imported to detect or to read a stream.

An adapter analyses each event once (:meth:`ProviderAdapter._analyze`) into a
:class:`Step` and answers ``categorize``/``extract_text``/``stop_reason``/``usage``/
``native_events`` from it, whatever order they are asked in; the session asks
:meth:`ProviderAdapter.read` alone, the step with the event's error and ids. The few
facts that span events (is a thinking block open, was a tool called) live on the instance;
``for_stream()`` gives each stream a fresh one.

Most events of a reply are one shape: a plain text delta. Each built-in adapter's
``text_delta`` reads that shape directly — the SDK's own class by identity
(:func:`sdk_class`, never importing the SDK), a wire dict by its keys, attributes read
as attributes — and answers its text (``None`` for any other event). The session asks
it first, and feeds the text it answers as it feeds a ``str`` chunk, with no
:class:`Step` built; ``_analyze`` asks it too, and hands every other event to the
adapter's general reader, which answers the same for the common shape
(``reference = True`` on an adapter skips the direct reading: the tests compare the
two).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic_core import to_jsonable_python

from ..adapters.protocols import (
    EventCategory,
    Native,
    NativeDelta,
    NativeEnd,
    NativeStart,
    Reading,
    StreamIds,
)
from ..core.events import StopReason, Usage

_NOTHING: Any = object()
NO_EVENT = _NOTHING
"""``self._last_event = NO_EVENT``: a ``text_delta`` that answered an event drops the
memoised step of the one before (it is no longer the last event read)."""
_JSON_TEXT = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)`` without making an encoder per call (the
same encoder ``json.dumps`` makes for these options, so the same text)."""


def field(obj: Any, name: str) -> Any:
    """``obj.name``, or ``obj[name]`` for a mapping; ``None`` when absent.

    On the hot path: dicts and pydantic models (every SDK's events) are read from their
    storage directly, because a missing attribute on a pydantic model costs an exception.
    """
    if obj.__class__ is dict:
        return obj.get(name)
    storage = getattr(obj, "__dict__", None)
    if storage is not None:
        value = storage.get(name, _NOTHING)
        if value is not _NOTHING:
            return value
        extra = getattr(obj, "__pydantic_extra__", _NOTHING)
        if extra is not _NOTHING:  # a pydantic model: fields in __dict__, extras here
            return extra.get(name) if extra else None
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def field2(obj: Any, snake: str, camel: str) -> Any:
    """Like :func:`field`, also trying the camelCase key of JSON wire dicts."""
    value = field(obj, snake)
    if value is None and _is_mapping(obj):
        return obj.get(camel)
    return value


def _is_mapping(obj: Any) -> bool:
    if obj.__class__ is dict:
        return True
    if hasattr(obj, "__pydantic_extra__"):
        return False
    return isinstance(obj, Mapping)


def sdk_class(module: str, name: str) -> type | None:
    """The SDK class ``module.name`` when that module is already imported, else ``None``
    (never imports it: an object of the class exists only once its module is loaded)."""
    loaded = sys.modules.get(module)
    found = getattr(loaded, name, None) if loaded is not None else None
    return found if isinstance(found, type) else None


def as_int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def enum_value(value: Any) -> str | None:
    """A provider enum member or string as its plain string value."""
    if value is None:
        return None
    raw = getattr(value, "value", value)
    return raw if isinstance(raw, str) else str(raw)


Step = Reading
"""What one provider event means to the session (the adapters' name for a
:class:`~streamblocks.adapters.protocols.Reading`)."""


SKIP = Step(EventCategory.SKIP)
PASSTHROUGH = Step(EventCategory.PASSTHROUGH)
START = Step(EventCategory.STREAM_START)
END = Step(EventCategory.STREAM_END)
TEXT = EventCategory.TEXT_CONTENT
NEW = tuple.__new__
"""``NEW(Step, (TEXT, text, (), None, None, None, None))`` is ``Step(TEXT, text)`` at
half the cost (no Python-level ``__new__``): the direct readers' answer."""


QUESTIONS = ("categorize", "extract_text", "stop_reason", "usage", "native_events")
STEP_ANSWERS: set[Any] = set()
"""The question methods that answer from the memoised step (a subclass that defines
one of its own is asked that one: see :meth:`ProviderAdapter.read`)."""


def text_step(text: str, usage: Usage | None = None) -> Step:
    """The step of an event that carries text only (and perhaps usage)."""
    return NEW(Step, (TEXT, text, (), None, usage, None, None))


def direct_step(text: str | None) -> Step | None:
    """The step of a plain text delta whose ``text_delta`` answered ``text``."""
    return None if text is None else text_step(text)


class ProviderAdapter:
    """Base of the provider input adapters: per-event analysis, memoised."""

    reference = False
    """``True``: no direct reading of the common event shape, every event goes through
    the general reader (the same answers; for tests and comparisons). Kept by
    :meth:`for_stream`."""

    def __init__(self) -> None:
        self._last_event: Any = _NOTHING
        self._last_step: Step = SKIP
        self._last_ids: StreamIds | None = None
        kind = type(self)
        self._from_step = all(getattr(kind, name) in STEP_ANSWERS for name in QUESTIONS)
        self._reports_error = callable(getattr(kind, "error", None))
        self._reports_ids = callable(getattr(kind, "stream_ids", None))
        self._plain = self._from_step and not (self._reports_error or self._reports_ids)
        self._reset()

    def _reset(self) -> None:
        """Set the per-stream state (subclasses)."""

    def for_stream(self) -> ProviderAdapter:
        """A fresh instance for one stream (its per-stream state starts empty)."""
        fresh = type(self)()
        if self.reference:
            fresh.reference = True
            fresh.__dict__["text_delta"] = None  # (the session reads every event generally)
        return fresh

    def _analyze(self, event: Any) -> Step:
        """The common shape read directly (:meth:`_direct`), everything else (and
        everything with :attr:`reference`) by :meth:`_general`."""
        if not self.reference:
            try:
                step = self._direct(event)
            except AttributeError:  # a model built without its fields (model_construct)
                step = None
            if step is not None:
                return step
        return self._general(event)

    def _direct(self, event: Any) -> Step | None:
        """The step of a plain text delta read directly, or ``None`` (subclasses: most
        answer :func:`direct_step` of their ``text_delta``, the session's direct getter:
        an event's text when it is a plain text delta and nothing else, else ``None``)."""
        return None

    def _general(self, event: Any) -> Step:  # pragma: no cover - abstract
        raise NotImplementedError

    def _step(self, event: Any) -> Step:
        if event is self._last_event:
            return self._last_step
        step = self._analyze(event)
        self._last_event = event
        self._last_step = step
        return step

    def matches(self, event: Any) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def categorize(self, event: Any) -> EventCategory:
        return self._step(event).category

    def extract_text(self, event: Any) -> str:
        return self._step(event).text

    def stop_reason(self, event: Any) -> StopReason | None:
        return self._step(event).stop

    def usage(self, event: Any) -> Usage | None:
        return self._step(event).usage

    def native_events(self, event: Any) -> Sequence[Native]:
        return self._step(event).natives

    def read(self, event: Any) -> Reading:
        """All the session asks of ``event``, in one call: the memoised step, with the
        error and the ids the adapter's ``error``/``stream_ids`` report. Ids equal to
        the last ones reported are left out (the session keeps what it was told)."""
        if self._plain:  # the step is the whole answer (most adapters): _step, inline
            if event is self._last_event:
                return self._last_step
            step = self._analyze(event)
            self._last_event = event
            self._last_step = step
            return step
        if self._from_step:
            step = self._last_step if event is self._last_event else self._step(event)
        else:  # a subclass answers some question itself
            step = Step(
                self.categorize(event),
                self.extract_text(event),
                self.native_events(event),
                self.stop_reason(event),
                self.usage(event),
            )
        error = self.error(event) if self._reports_error else None  # type: ignore[attr-defined]
        ids = self.stream_ids(event) if self._reports_ids else None  # type: ignore[attr-defined]
        if ids is not None:
            if ids == self._last_ids:
                ids = None
            else:
                self._last_ids = ids
        if error is None and ids is None:
            return step
        return Step(step.category, step.text, step.natives, step.stop, step.usage, error, ids)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


STEP_ANSWERS.update(getattr(ProviderAdapter, name) for name in QUESTIONS)


def tool_call_start(key: Any, call_id: Any, name: Any, **attrs: Any) -> NativeStart:
    """The start of a provider-native tool call whose argument JSON streams as deltas.

    The block id is the provider's call id when it is a string; ``attrs`` adds details
    (a server-side tool, a thought signature) to ``{"name", "id"}``.
    """
    block_id = call_id if isinstance(call_id, str) else None
    return NativeStart(key, "tool_call", block_id, {"name": name, "id": call_id, **attrs}, "json")


def tool_result(
    key: Any, call_id: Any, name: Any, content: Any, is_error: bool, *, server: bool = True
) -> list[Native]:
    """A whole tool result (by default a server-side tool's: web search, code execution,
    marked ``"server": True``) as a ``tool_result`` block naming its tool and call.
    ``content`` becomes plain JSON data: SDK objects are dumped, so the block survives a
    JSON round trip."""
    attrs: dict[str, Any] = {
        "tool_call_id": call_id if isinstance(call_id, str) else None,
        "name": name if isinstance(name, str) else None,
        "is_error": is_error,
    }
    if server:
        attrs["server"] = True
    data = to_jsonable_python(content, fallback=str) if content is not None else ""
    return [NativeStart(key, "tool_result", None, attrs), NativeEnd(key, data)]


def whole_arguments(
    key: Any, arguments: Any, attrs: Mapping[str, Any] | None = None
) -> list[Native]:
    """The end of a tool call whose arguments a source gives whole (a transcript): their
    JSON text as one delta, then the end, so every call streams its arguments before
    its ``BLOCK_END`` (AG-UI's ``TOOL_CALL_ARGS``, ``BlockDelta.partial``)."""
    value = arguments if isinstance(arguments, Mapping) else {}
    end = NativeEnd(key, value, dict(attrs) if attrs else None)
    if not value:
        return [end]
    return [NativeDelta(key, _JSON_TEXT(to_jsonable_python(value))), end]
