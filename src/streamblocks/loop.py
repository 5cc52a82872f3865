"""Agent-loop helpers: fold one model step's events into a :class:`StepResult`.

An agent loop asks a model, looks at what came back (text, blocks, tool calls, why it
stopped), runs tools, and asks again. :func:`collect` and :func:`acollect` do the
"looks at what came back" part for one step::

    step = collect(processor.process(stream))
    if step.stop_reason is StopReason.tool_use:
        for call in step.tool_calls: ...

They never raise for provider trouble: an exception from the stream (a dropped
connection, an API error raised by the SDK) ends the step with
``stop_reason=StopReason.error`` and the exception in ``error``; events already
received are kept. Callbacks (``on_text_delta=...``) see the events as they arrive; a
callback that raises is reported with a :class:`~streamblocks.core.errors.HookWarning`
and the stream goes on.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import AsyncIterable, Iterable, Mapping
from typing import Any

if sys.version_info >= (3, 11):
    from typing import Unpack
else:  # pragma: no cover
    from typing_extensions import Unpack

from pydantic import BaseModel

from .core.errors import HookWarning
from .core.events import EVENT_CLASSES, StopReason
from .core.processor import StreamBlockProcessor
from .core.registry import BlockRegistry
from .fold import CALLBACKS, Callbacks, ProviderError, StepFolder
from .step import Outcome, StepResult, ToolCall


def _is_event(item: Any) -> bool:
    return type(item) in EVENT_CLASSES


def _events(source: Any, processor: StreamBlockProcessor | None, first: Any) -> bool:
    """Whether ``source`` must go through a processor (it is not our events)."""
    return processor is not None or not _is_event(first)


def collect(
    source: Iterable[Any],
    *,
    processor: StreamBlockProcessor | None = None,
    output: type[BaseModel] | None = None,
    stop_reason: StopReason | str | None = None,
    request: Mapping[str, Any] | None = None,
    **callbacks: Unpack[Callbacks],
) -> StepResult:
    """Fold one step's events into a :class:`StepResult`.

    ``source`` is either streamblocks events (``processor.process(stream)``) or, when
    ``processor`` is given, the provider's stream (or text chunks) to run through it.
    A source that is not our events and no processor: an empty registry with automatic
    adapter detection is used (text, native thinking and tool calls still come out).

    Callbacks: ``on_text_delta(text)``, ``on_block_start(BlockStart)``,
    ``on_block_delta(BlockDelta)``, ``on_block_end(Block)``,
    ``on_thinking(chunk, is_complete)`` (``("", True)`` when a thinking block ends),
    ``on_tool_call(ToolCall)``, ``on_error(BlockError | BaseException)``,
    ``on_partial(view)`` (with ``output``: the structured output as far as the finish
    call has written it, a :func:`~streamblocks.partial.partial_model` instance, each
    time it grows; not called again for a call found wrong before it ends).

    ``output``: the pydantic model the step should end with (``request(...,
    output=Model)``): the finish call, or the reply's JSON text, becomes
    ``step.output``, or ``step.output_error`` when missing or invalid.

    ``stop_reason``: why the step ended, for a stream that does not say (plain text, a
    raw completion): ``"max_tokens"`` when the caller knows the reply was cut. Without
    it such a stream that ends normally is an ended turn (``done``, or ``run_tools``
    with calls). A stop reason the stream names wins.

    ``request``: the keyword arguments the stream was asked for with (what
    :func:`~streamblocks.request` wrote, or the provider's own): with
    ``markup="auto"``, the model markup is read for the request's thinking switch
    (``thinking_of``) and its tools, so they are stated once.

    Calls whose result is in the stream (an agent that ran its own tools) are in
    ``step.ran_calls`` with their results, not in ``step.tool_calls``.
    """
    folder = StepFolder(callbacks, output, stop_reason)
    iterator = iter(source)
    try:
        first = next(iterator, _END)
        if first is not _END:
            if _events(source, processor, first):
                proc = processor or StreamBlockProcessor(BlockRegistry())
                events: Iterable[Any] = proc.process(_chain(first, iterator), request=request)
            else:
                folder.add(first)
                events = iterator
            for event in events:
                folder.add(event)
    except Exception as exc:
        folder.fail(exc)
    return folder.finish()


async def acollect(
    source: AsyncIterable[Any] | Iterable[Any],
    *,
    processor: StreamBlockProcessor | None = None,
    output: type[BaseModel] | None = None,
    stop_reason: StopReason | str | None = None,
    request: Mapping[str, Any] | None = None,
    **callbacks: Unpack[Callbacks],
) -> StepResult:
    """:func:`collect` for an async stream; callbacks may be coroutine functions."""
    folder = StepFolder(callbacks, output, stop_reason)
    stream: AsyncIterable[Any] = source if isinstance(source, AsyncIterable) else _as_async(source)
    iterator = aiter(stream)
    try:
        try:
            first = await anext(iterator)
        except StopAsyncIteration:
            first = _END
        if first is not _END:
            if _events(source, processor, first):
                proc = processor or StreamBlockProcessor(BlockRegistry())
                events: AsyncIterable[Any] = proc.process_stream(
                    _achain(first, iterator), request=request
                )
            else:
                folder.add(first)
                events = iterator
            async for event in events:
                folder.add(event)
                await _drain(folder)
    except Exception as exc:
        folder.fail(exc)
    result = folder.finish()
    await _drain(folder)
    return result


async def _drain(folder: StepFolder) -> None:
    while folder.pending:
        name, callback, awaitable = folder.pending.pop(0)
        try:
            await awaitable
        except Exception as exc:
            label = getattr(callback, "__qualname__", repr(callback))
            warnings.warn(
                f"{name} callback {label} raised {type(exc).__name__}: {exc}; the stream goes on",
                HookWarning,
                stacklevel=3,
            )


_END: Any = object()


def _chain(first: Any, rest: Any) -> Any:
    yield first
    yield from rest


async def _achain(first: Any, rest: Any) -> Any:
    yield first
    async for item in rest:
        yield item


async def _as_async(items: Iterable[Any]) -> Any:
    for item in items:
        yield item


__all__ = [
    "CALLBACKS",
    "Outcome",
    "ProviderError",
    "StepResult",
    "ToolCall",
    "acollect",
    "collect",
]
