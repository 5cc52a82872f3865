"""An exported run opened again: a content-model ``Message`` turned back into events.

The page's *Export* button saves :class:`~streamblocks.content.Message` JSON (what
:class:`~streamblocks.content.MessageAccumulator` folds the run into). Opening that file
replays it as the events the accumulator would fold back into the same message, so
the page draws it through the one path it draws every run with: the AG-UI output.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import Block, BlockEnd, BlockStart, Counts, StopReason, StreamFinished, TextDelta
from ..content import (
    CodeBlock,
    CommandBlock,
    ContentBlock,
    CustomBlock,
    FileChangeBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    TodoBlock,
    ToolCallBlock,
    ToolResultBlock,
)


def _native(block_id: str, kind: str, content: Any, attrs: dict[str, Any]) -> Block:
    return Block(block_id, kind, "native", None, content, attrs)


def _block(item: ContentBlock, block_id: str) -> Block:
    """The native block the default converters turn into ``item`` again."""
    if isinstance(item, ThinkingBlock):
        attrs: dict[str, Any] = {"signature": item.signature} if item.signature else {}
        return _native(block_id, "thinking", item.text, attrs)
    if isinstance(item, ToolCallBlock):
        return _native(item.id, "tool_call", item.arguments, {"name": item.name, "id": item.id})
    if isinstance(item, ToolResultBlock):
        attrs = item.model_dump(include={"tool_call_id", "name", "is_error"}, exclude_none=True)
        return _native(block_id, "tool_result", item.content, attrs)
    if isinstance(item, CodeBlock):
        attrs = item.model_dump(exclude={"type", "code"}, exclude_none=True)
        return _native(block_id, "code", item.code, attrs)
    if isinstance(item, CommandBlock):
        attrs = item.model_dump(exclude={"type", "output"}, exclude_none=True)
        return _native(block_id, "command", item.output or "", attrs)
    if isinstance(item, FileChangeBlock):
        attrs = item.model_dump(exclude={"type"})
        return _native(block_id, "file_change", item.diff or "", attrs)
    if isinstance(item, TodoBlock):
        return _native(block_id, "todo", item.model_dump(exclude={"type"}), {})
    assert isinstance(item, CustomBlock)
    return Block(block_id, item.tag, "custom", None, item.content, dict(item.attrs))


def message_events(data: dict[str, Any]) -> Iterator[Any]:
    """The events of an exported message (no ``STREAM_STARTED``: the caller's session
    has begun the stream). Raises ``ValueError`` when ``data`` is not a ``Message``."""
    message = Message.model_validate(data)
    for number, item in enumerate(message.content, 1):
        if isinstance(item, TextBlock):
            if item.text:
                yield TextDelta(item.text)
            continue
        block = _block(item, f"saved-{number}")
        yield BlockStart(block.id, block.type, block.syntax, block.attrs)
        yield BlockEnd(block)


def finished(blocks: int) -> StreamFinished:
    """The end of a replayed export (its stop reason was not saved with it)."""
    return StreamFinished(StopReason.unknown, None, Counts(0, blocks, 0))
