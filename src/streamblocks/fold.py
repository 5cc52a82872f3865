"""Folding one model step's events into a :class:`~streamblocks.step.StepResult`: the
text, thinking, blocks and tool calls as they arrive, the callbacks of
:func:`~streamblocks.loop.collect` called on the way, and the message the step wrote.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TypedDict

from pydantic import BaseModel, ValidationError

from .answer import JsonAnswer
from .content import Message, MessageAccumulator, TextBlock, ThinkingBlock, ToolCallBlock
from .core.blocks import Block
from .core.errors import HookWarning, StreamBlocksError
from .core.events import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockStart,
    Passthrough,
    StopReason,
    StreamFinished,
    StreamStarted,
    TextDelta,
)
from .partial import partial_view
from .step import (
    NATIVE_CALL,
    StepResult,
    classify,
    failed_call,
    passthrough_block,
    set_aside_ran_calls,
    take_output,
    tool_call_of,
)
from .subagents import PARENT_ID, SubAgentFolder, parent_id
from .tools import FINISH_TOOL

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
    on_partial: Callback | None


CALLBACKS = tuple(Callbacks.__annotations__)
"""The callback names :func:`collect` and :func:`acollect` accept."""


class ProviderError(StreamBlocksError):
    """The provider reported an error inside the stream (an ``error`` event).

    ``event`` is the provider's event (passed through) when there was one.
    """

    def __init__(self, message: str, event: Any = None) -> None:
        super().__init__(message)
        self.event = event


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


def _thinking_callback(callback: Callback) -> Callback:
    """``on_thinking`` takes ``(chunk, is_complete)``; a one-argument callback (the
    older form) gets the chunks only."""
    try:
        inspect.signature(callback).bind("", False)
    except TypeError:
        return lambda chunk, complete: None if complete else callback(chunk)
    except ValueError:  # no signature to read (a builtin): call it the new way
        pass
    return callback


class StepFolder:
    """Folds events into a :class:`StepResult`, calling the callbacks on the way."""

    def __init__(
        self,
        callbacks: Mapping[str, Any],
        output: type[BaseModel] | None,
        stop_reason: StopReason | str | None = None,
    ) -> None:
        unknown = set(callbacks) - set(CALLBACKS)
        if unknown:
            raise TypeError(f"unknown callback(s): {', '.join(sorted(unknown))}")
        for name, callback in callbacks.items():
            if callback is not None and not callable(callback):
                raise TypeError(f"{name} must be callable, got {type(callback).__name__}")
        if output is not None and not (isinstance(output, type) and issubclass(output, BaseModel)):
            raise TypeError(f"output must be a pydantic model class, got {output!r}")
        self.callbacks = {name: cb for name, cb in callbacks.items() if cb is not None}
        if "on_thinking" in self.callbacks:
            self.callbacks["on_thinking"] = _thinking_callback(self.callbacks["on_thinking"])
        self.output = output
        self.stop_reason = None if stop_reason is None else StopReason(stop_reason)
        self.result = StepResult()
        self._results: dict[str, Block] = {}  # tool_result blocks by call id
        self._text: list[str] = []
        self._thinking: list[str] = []
        self._native_open: dict[str, str] = {}
        self._calls_open: dict[str, BlockStart] = {}
        self._finish_open: dict[str, Any] = {}  # finish calls streaming: last value, view
        self._answer = (  # the output written as the text (native JSON mode)
            JsonAnswer(output) if output is not None and "on_partial" in self.callbacks else None
        )
        self._items: list[Any] = []  # the message: text pieces and content blocks
        self._converter = MessageAccumulator()
        self._finished: StreamFinished | None = None
        self._sub_agents = SubAgentFolder()
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
            self._items.append(event.text)
            self._call("on_text_delta", event.text)
            if self._answer is not None:
                view = self._answer.add(event.text)
                if view is not None:
                    self._call("on_partial", view)
        elif isinstance(event, BlockDelta):
            if self._native_open.get(event.block_id) == "thinking":
                self._thinking.append(event.text)
                self._call("on_thinking", event.text, False)
            elif event.block_id in self._finish_open:
                self._partial_output(event)
            self._call("on_block_delta", event)
        elif isinstance(event, BlockStart):
            if event.attrs and PARENT_ID in event.attrs:
                pass  # a sub-agent's block: neither the run's thinking nor its call
            elif event.syntax == "native":
                self._native_open[event.block_id] = event.block_type
            if event.syntax == "gadget" or (event.syntax, event.block_type) == NATIVE_CALL:
                self._calls_open[event.block_id] = event
                if self.output is not None and "on_partial" in self.callbacks:
                    name = event.attrs.get("name") if event.syntax == "native" else None
                    if (name or event.block_type) == FINISH_TOOL:
                        self._finish_open[event.block_id] = None
            self._call("on_block_start", event)
        elif isinstance(event, BlockEnd):
            self._block_end(event.block)
        elif isinstance(event, BlockError):
            self._block_error(event)
        elif isinstance(event, Passthrough):
            result.passthrough.append(event.event)
            kept = passthrough_block(event.event)
            if kept is not None:
                self._items.append(kept)
        elif isinstance(event, StreamFinished):
            self._finished = event
            result.stop_reason = event.stop_reason
            result.stop_named = event.stop_named
            result.usage = event.usage
            result.session_id = event.session_id or result.session_id
            result.run_id = event.run_id or result.run_id
        elif isinstance(event, StreamStarted):
            result.session_id, result.run_id = event.session_id, event.run_id

    def _partial_output(self, event: BlockDelta) -> None:
        """``on_partial`` with the structured output as far as written, typed."""
        assert self.output is not None
        value = event.partial
        last_value, last_view = self._finish_open[event.block_id] or (None, None)
        if value is None or value == last_value:
            return  # nothing new written (a key, a number not yet complete)
        try:
            view = partial_view(self.output, event)
        except ValidationError:  # wrong, not unfinished: step.output_error will say why
            del self._finish_open[event.block_id]
            return
        self._finish_open[event.block_id] = (value, view)
        if view == last_view:
            return  # what grew is not shown yet (a Literal half written)
        self._call("on_partial", view)

    def _block_end(self, block: Block) -> None:
        result = self.result
        self._finish_open.pop(block.id, None)
        subs = self._sub_agents
        if block.type == "tool_call":
            subs.note_call(block)
        elif block.type == "tool_result":
            subs.note_result(block)
        parent = parent_id(block) if block.syntax == "native" else None
        if parent is not None:  # a sub-agent's: step.sub_agents, not the step's own
            subs.add(block, parent)
            self._call("on_block_end", block)
            return
        self._calls_open.pop(block.id, None)
        if self._native_open.pop(block.id, None) == "thinking":
            self._call("on_thinking", "", True)
        if block.syntax == "native":
            result.native_blocks.append(block)
            if block.type == "tool_result":
                call_id = block.attrs.get("tool_call_id")
                if isinstance(call_id, str):
                    self._results.setdefault(call_id, block)
            converted = self._converter.convert(block)
            if isinstance(converted, ThinkingBlock):  # its id: a Responses reasoning item's
                converted = converted.model_copy(update={"id": block.id})
            if converted is not None:
                self._items.append(converted)
        else:
            result.blocks.append(block)
            self._items.append(block.raw)
        self._call("on_block_end", block)
        call = tool_call_of(block)
        if call is not None:
            result.tool_calls.append(call)
            self._call("on_tool_call", call)

    def _block_error(self, event: BlockError) -> None:
        block_id = event.block_id
        self._finish_open.pop(block_id or "", None)
        if block_id is not None and self._native_open.pop(block_id, None) == "thinking":
            self._call("on_thinking", "", True)
        start = self._calls_open.pop(block_id, None) if block_id is not None else None
        if event.raw and (start is None or start.syntax != "native"):
            self._items.append(event.raw)
        self.result.block_errors.append(event)
        self._call("on_error", event)
        call = failed_call(start, event) if start is not None else None
        if call is not None:
            if call.source == "native":
                self._items.append(ToolCallBlock(id=call.id, name=call.name))
            self.result.tool_calls.append(call)
            self._call("on_tool_call", call)

    def fail(self, exc: BaseException) -> None:
        self.result.error = exc
        self.result.stop_reason = StopReason.error
        self._call("on_error", exc)

    def finish(self) -> StepResult:
        result = self.result
        result.text = "".join(self._text)
        result.thinking = "".join(self._thinking)
        result.sub_agents = self._sub_agents.roots
        result.message = self._message()
        finished = self._finished
        if self.stop_reason is not None and not result.stop_named and result.error is None:
            result.stop_reason, result.stop_named = self.stop_reason, True
        set_aside_ran_calls(result, self._results)
        if result.error is None and result.stop_reason is StopReason.error:
            event = result.passthrough[-1] if result.passthrough else None
            message = (
                (finished.error if finished is not None else None)
                or _error_message(event)
                or "the provider reported an error"
            )
            result.error = ProviderError(message, event)
            self._call("on_error", result.error)
        if self.output is not None:
            take_output(result, self.output)
        classify(result, self.output)
        return result

    def _message(self) -> Message:
        content: list[Any] = []
        for item in self._items:
            if not isinstance(item, str):
                content.append(item)
            elif content and isinstance(content[-1], list):
                content[-1].append(item)
            elif item:
                content.append([item])
        blocks = [TextBlock("".join(i)) if isinstance(i, list) else i for i in content]
        return Message(role="assistant", content=blocks)


__all__ = ["CALLBACKS", "Callback", "Callbacks", "ProviderError", "StepFolder"]
