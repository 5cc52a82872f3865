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

import inspect
import sys
import warnings
from collections.abc import AsyncIterable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypedDict

if sys.version_info >= (3, 11):
    from typing import Unpack
else:  # pragma: no cover
    from typing_extensions import Unpack

from .core.blocks import Block
from .core.errors import HookWarning, StreamBlocksError
from .core.events import (
    EVENT_CLASSES,
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockStart,
    Passthrough,
    StopReason,
    StreamFinished,
    StreamStarted,
    TextDelta,
    Usage,
)
from .core.processor import StreamBlockProcessor
from .core.registry import BlockRegistry

Callback = Callable[..., Any]


class Callbacks(TypedDict, total=False):
    """The callbacks :func:`collect` and :func:`acollect` accept (all optional)."""

    on_text_delta: Callback | None
    on_block_start: Callback | None
    on_block_delta: Callback | None
    on_block_end: Callback | None
    on_thinking: Callback | None
    on_tool_call: Callback | None
    on_error: Callback | None


CALLBACKS = tuple(Callbacks.__annotations__)
"""The callback names :func:`collect` and :func:`acollect` accept."""


class ProviderError(StreamBlocksError):
    """The provider reported an error inside the stream (an ``error`` event).

    ``event`` is the provider's event (passed through) when there was one.
    """

    def __init__(self, message: str, event: Any = None) -> None:
        super().__init__(message)
        self.event = event


class ToolCall(NamedTuple):
    """A tool call the model asked for, native or written as a gadget block."""

    id: str
    """The provider's call id (native), or the block id (gadget)."""
    name: str
    """The tool's name."""
    arguments: Any
    """The argument object (a ``dict``, or the gadget's ``content`` model instance)."""
    source: str
    """``"native"`` (the provider's tool-calling API) or ``"gadget"`` (text)."""
    block: Block
    """The block the call came from."""


@dataclass
class StepResult:
    """What one model step produced."""

    text: str = ""
    """The visible text (blocks stripped)."""
    blocks: list[Block] = field(default_factory=list)
    """Blocks written in the text, in order (gadget calls included; native blocks not)."""
    tool_calls: list[ToolCall] = field(default_factory=list)
    """Native tool calls and gadget calls, in order."""
    thinking: str = ""
    """The text of the native thinking/reasoning blocks."""
    stop_reason: StopReason = StopReason.unknown
    """Why the step ended; ``error`` when the provider or the stream failed."""
    usage: Usage | None = None
    """Token usage, when the provider reported it."""
    error: BaseException | None = None
    """The exception that ended the stream, or a :class:`ProviderError`."""
    block_errors: list[BlockError] = field(default_factory=list)
    """Blocks that were rejected (``BLOCK_ERROR`` events)."""
    passthrough: list[Any] = field(default_factory=list)
    """Provider events passed through untouched (citations, refusals, errors...)."""
    native_blocks: list[Block] = field(default_factory=list)
    """Provider-native blocks (thinking, tool calls), in order."""
    session_id: str | None = None
    """The provider's conversation id (Claude CLI session, Codex thread, AG-UI thread)."""
    run_id: str | None = None
    """The provider's run id (an AG-UI run), when the stream named one."""

    @property
    def ok(self) -> bool:
        """No error and no rejected block."""
        return self.error is None and not self.block_errors


def _error_message(event: Any) -> str | None:
    """The message of a provider's error event (OpenAI, Anthropic, AG-UI shapes)."""
    from .ext._base import field

    if event is None:
        return None
    for holder in (event, field(event, "error"), field(field(event, "response"), "error")):
        if holder is None:
            continue
        message = field(holder, "message")
        if isinstance(message, str) and message:
            return message
    return None


def _is_event(item: Any) -> bool:
    return type(item) in EVENT_CLASSES


def _tool_call(block: Block) -> ToolCall | None:
    if block.syntax == "native":
        if block.type != "tool_call":
            return None
        attrs = block.attrs
        name = attrs.get("name")
        call_id = attrs.get("id") or block.id
        return ToolCall(str(call_id), str(name or ""), block.content, "native", block)
    if block.syntax == "gadget":
        return ToolCall(block.id, block.type, block.content, "gadget", block)
    return None


class _Folder:
    """Folds events into a :class:`StepResult`, calling the callbacks on the way."""

    def __init__(self, callbacks: Mapping[str, Any]) -> None:
        unknown = set(callbacks) - set(CALLBACKS)
        if unknown:
            raise TypeError(f"unknown callback(s): {', '.join(sorted(unknown))}")
        for name, callback in callbacks.items():
            if callback is not None and not callable(callback):
                raise TypeError(f"{name} must be callable, got {type(callback).__name__}")
        self.callbacks = {name: cb for name, cb in callbacks.items() if cb is not None}
        self.result = StepResult()
        self._text: list[str] = []
        self._thinking: list[str] = []
        self._native_open: dict[str, str] = {}
        self._finished: StreamFinished | None = None
        self.pending: list[Any] = []
        """Awaitables returned by callbacks (``acollect`` awaits them)."""

    def _call(self, name: str, *args: Any) -> None:
        callback = self.callbacks.get(name)
        if callback is None:
            return
        try:
            returned = callback(*args)
        except Exception as exc:
            label = getattr(callback, "__qualname__", repr(callback))
            warnings.warn(
                f"{name} callback {label} raised {type(exc).__name__}: {exc}; the stream goes on",
                HookWarning,
                stacklevel=4,
            )
            return
        if inspect.isawaitable(returned):
            self.pending.append((name, callback, returned))

    def add(self, event: Any) -> None:
        result = self.result
        if isinstance(event, TextDelta):
            self._text.append(event.text)
            self._call("on_text_delta", event.text)
        elif isinstance(event, BlockDelta):
            if self._native_open.get(event.block_id) == "thinking":
                self._thinking.append(event.text)
                self._call("on_thinking", event.text)
            self._call("on_block_delta", event)
        elif isinstance(event, BlockStart):
            if event.syntax == "native":
                self._native_open[event.block_id] = event.block_type
            self._call("on_block_start", event)
        elif isinstance(event, BlockEnd):
            block = event.block
            self._native_open.pop(block.id, None)
            if block.syntax == "native":
                result.native_blocks.append(block)
            else:
                result.blocks.append(block)
            self._call("on_block_end", block)
            call = _tool_call(block)
            if call is not None:
                result.tool_calls.append(call)
                self._call("on_tool_call", call)
        elif isinstance(event, BlockError):
            if event.block_id is not None:
                self._native_open.pop(event.block_id, None)
            result.block_errors.append(event)
            self._call("on_error", event)
        elif isinstance(event, Passthrough):
            result.passthrough.append(event.event)
        elif isinstance(event, StreamFinished):
            self._finished = event
            result.stop_reason = event.stop_reason
            result.usage = event.usage
            result.session_id = event.session_id or result.session_id
            result.run_id = event.run_id or result.run_id
        elif isinstance(event, StreamStarted):
            result.session_id, result.run_id = event.session_id, event.run_id

    def fail(self, exc: BaseException) -> None:
        self.result.error = exc
        self.result.stop_reason = StopReason.error
        self._call("on_error", exc)

    def finish(self) -> StepResult:
        result = self.result
        result.text = "".join(self._text)
        result.thinking = "".join(self._thinking)
        finished = self._finished
        if result.error is None and result.stop_reason is StopReason.error:
            event = result.passthrough[-1] if result.passthrough else None
            message = (
                (finished.error if finished is not None else None)
                or _error_message(event)
                or "the provider reported an error"
            )
            result.error = ProviderError(message, event)
            self._call("on_error", result.error)
        return result


def _events(source: Any, processor: StreamBlockProcessor | None, first: Any) -> bool:
    """Whether ``source`` must go through a processor (it is not our events)."""
    return processor is not None or not _is_event(first)


def collect(
    source: Iterable[Any],
    *,
    processor: StreamBlockProcessor | None = None,
    **callbacks: Unpack[Callbacks],
) -> StepResult:
    """Fold one step's events into a :class:`StepResult`.

    ``source`` is either streamblocks events (``processor.process(stream)``) or, when
    ``processor`` is given, the provider's stream (or text chunks) to run through it.
    A source that is not our events and no processor: an empty registry with automatic
    adapter detection is used (text, native thinking and tool calls still come out).

    Callbacks: ``on_text_delta(text)``, ``on_block_start(BlockStart)``,
    ``on_block_delta(BlockDelta)``, ``on_block_end(Block)``, ``on_thinking(text)``,
    ``on_tool_call(ToolCall)``, ``on_error(BlockError | BaseException)``.
    """
    folder = _Folder(callbacks)
    iterator = iter(source)
    try:
        first = next(iterator, _END)
        if first is not _END:
            if _events(source, processor, first):
                proc = processor or StreamBlockProcessor(BlockRegistry())
                events: Iterable[Any] = proc.process(_chain(first, iterator))
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
    **callbacks: Unpack[Callbacks],
) -> StepResult:
    """:func:`collect` for an async stream; callbacks may be coroutine functions."""
    folder = _Folder(callbacks)
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
                events: AsyncIterable[Any] = proc.process_stream(_achain(first, iterator))
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


async def _drain(folder: _Folder) -> None:
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


__all__ = ["CALLBACKS", "ProviderError", "StepResult", "ToolCall", "acollect", "collect"]
