"""Server-sent events: AG-UI events encoded as the AG-UI SDK's ``EventEncoder`` does.

:func:`sse_body` and :func:`asse_body` run a stream through a processor with an
:class:`AGUIOutputAdapter` and yield the SSE response body, ready for Starlette's or
FastAPI's ``StreamingResponse`` (``media_type=SSE_MEDIA_TYPE``). :func:`encode_sse`
and :func:`aencode_sse` encode AG-UI events you already have.

Each event is written as the SDK's ``EventEncoder`` writes it (``data: `` and the
event's JSON by alias, optional fields without a value left out), but by
:func:`event_json`: the model's own serializer costs more per event than everything else a
big run's event goes through.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from pydantic_core import to_json

from .output import AGUIOutputAdapter

if TYPE_CHECKING:
    from ...core.processor import StreamBlockProcessor

SSE_MEDIA_TYPE = "text/event-stream"
"""The media type of an SSE body (``EventEncoder().get_content_type()``)."""


_FIELDS: dict[type, tuple[tuple[str, str, bool], ...]] = {}
"""Per event class: each field's name, its JSON name, and whether it is left out when
``None`` (optional with a ``None`` default, the SDK's rule)."""


def _fields(cls: Any) -> tuple[tuple[str, str, bool], ...]:
    found = _FIELDS.get(cls)
    if found is None:
        found = tuple(
            (name, field.alias or name, not field.is_required() and field.default is None)
            for name, field in cls.model_fields.items()
        )
        _FIELDS[cls] = found
    return found


def event_json(event: Any) -> str:
    """An AG-UI event's JSON as the SDK's ``EventEncoder`` writes it (the same keys in the
    same order, the same values): the event's fields put in a dict and handed to
    pydantic-core's ``to_json`` in one call, without the model's serializer. An event
    with extra fields is handed to pydantic, and so is every event of an SDK older than
    1.0, whose models do not leave out optional fields without a value themselves (its
    encoder passes ``exclude_none``, which reaches into nested models)."""
    if not hasattr(type(event), "_omittable_keys"):  # ag-ui-protocol before 1.0
        return str(event.model_dump_json(by_alias=True, exclude_none=True))
    if event.__pydantic_extra__:
        return str(event.model_dump_json(by_alias=True))
    values = event.__dict__
    fields: dict[str, Any] = {}
    for name, key, omit in _fields(type(event)):
        value = values[name]
        if value is None and omit:
            continue
        fields[key] = value
    return to_json(fields, by_alias=True, inf_nan_mode="null").decode()


def _encode(event: Any) -> str:
    return f"data: {event_json(event)}\n\n"


def encode_sse(
    events: Iterable[Any], *, accept: str | None = None, binary: bool = False
) -> Iterator[Any]:
    """Each AG-UI event as one SSE message (``str``, or UTF-8 ``bytes`` with ``binary``).
    ``accept`` is kept from the SDK encoder's signature: SSE is the one format written."""
    for event in events:
        text = _encode(event)
        yield text.encode("utf-8") if binary else text


async def aencode_sse(
    events: AsyncIterable[Any] | Iterable[Any], *, accept: str | None = None, binary: bool = False
) -> AsyncIterator[Any]:
    """Like :func:`encode_sse`, for an asynchronous stream of AG-UI events."""
    if isinstance(events, AsyncIterable):
        async for event in events:
            text = _encode(event)
            yield text.encode("utf-8") if binary else text
    else:
        for event in events:
            text = _encode(event)
            yield text.encode("utf-8") if binary else text


def _adapter(processor: StreamBlockProcessor, adapter: AGUIOutputAdapter | None) -> Any:
    if adapter is not None:
        return adapter
    if isinstance(processor.output_adapter, AGUIOutputAdapter):
        return processor.output_adapter
    return AGUIOutputAdapter()


def sse_body(
    processor: StreamBlockProcessor,
    source: Iterable[Any],
    *,
    adapter: AGUIOutputAdapter | None = None,
    accept: str | None = None,
    binary: bool = False,
) -> Iterator[Any]:
    """The SSE body of one run: ``source`` processed, converted to AG-UI, encoded.

    ``adapter`` defaults to the processor's output adapter when it is an
    :class:`AGUIOutputAdapter`, else a default one.
    """
    events = processor.process(source, output_adapter=_adapter(processor, adapter))
    return encode_sse(events, accept=accept, binary=binary)


def asse_body(
    processor: StreamBlockProcessor,
    source: AsyncIterable[Any] | Iterable[Any],
    *,
    adapter: AGUIOutputAdapter | None = None,
    accept: str | None = None,
    binary: bool = False,
) -> AsyncIterator[Any]:
    """Like :func:`sse_body`, for an asynchronous source (an async iterator of ``str``
    or ``bytes``)."""
    events = processor.process_stream(source, output_adapter=_adapter(processor, adapter))
    return aencode_sse(events, accept=accept, binary=binary)
