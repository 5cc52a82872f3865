"""Server-sent events: AG-UI events encoded by the AG-UI SDK's own ``EventEncoder``.

:func:`sse_body` and :func:`asse_body` run a stream through a processor with an
:class:`AGUIOutputAdapter` and yield the SSE response body, ready for Starlette's or
FastAPI's ``StreamingResponse`` (``media_type=SSE_MEDIA_TYPE``). :func:`encode_sse`
and :func:`aencode_sse` encode AG-UI events you already have.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .output import AGUIOutputAdapter

if TYPE_CHECKING:
    from ...core.processor import StreamBlockProcessor

SSE_MEDIA_TYPE = "text/event-stream"
"""The media type of an SSE body (``EventEncoder().get_content_type()``)."""


def _encoder(accept: str | None) -> Any:
    from ag_ui.encoder import EventEncoder

    return EventEncoder(accept=accept) if accept is not None else EventEncoder()


def encode_sse(
    events: Iterable[Any], *, accept: str | None = None, binary: bool = False
) -> Iterator[Any]:
    """Each AG-UI event as one SSE message (``str``, or UTF-8 ``bytes`` with ``binary``)."""
    encode = _encoder(accept).encode
    for event in events:
        text = encode(event)
        yield text.encode("utf-8") if binary else text


async def aencode_sse(
    events: AsyncIterable[Any] | Iterable[Any], *, accept: str | None = None, binary: bool = False
) -> AsyncIterator[Any]:
    """Like :func:`encode_sse`, for an asynchronous stream of AG-UI events."""
    encode = _encoder(accept).encode
    if isinstance(events, AsyncIterable):
        async for event in events:
            text = encode(event)
            yield text.encode("utf-8") if binary else text
    else:
        for event in events:
            text = encode(event)
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
