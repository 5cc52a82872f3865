"""How blocks become AG-UI events, for :class:`~streamblocks.ext.agui.AGUIOutputAdapter`:
thinking → reasoning messages, tool calls (native and gadget) → ``TOOL_CALL_START`` /
``ARGS`` / ``END``, native tool results → ``TOOL_CALL_RESULT``, every other block →
``CUSTOM`` events named ``streamblocks.block_*``. :class:`BlockEvents` is the output
adapter's part that keeps the blocks under way in one stream."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

from ...core.events import BlockDelta, BlockEnd, BlockError, BlockMetadata, BlockStart
from ...core.json_prefix import json_prefix
from .payloads import (
    block_payload,
    delta_payload,
    error_payload,
    jsonable,
    metadata_payload,
    start_payload,
)

CUSTOM_PREFIX = "streamblocks."
_THINKING_TYPES = frozenset({"thinking", "reasoning"})


class _Open:
    """A block whose AG-UI events are under way."""

    __slots__ = ("args_sent", "kind", "last", "message_id", "sent", "tool_call_id")

    def __init__(self, kind: str, message_id: str = "", tool_call_id: str = "") -> None:
        self.kind = kind  # "thinking", "tool", "gadget", "tool_result", "custom"
        self.message_id = message_id
        self.tool_call_id = tool_call_id
        self.args_sent = False
        self.sent = ""  # a gadget's argument JSON sent so far
        self.last: BlockDelta | None = None  # a gadget's last delta


class BlockEvents:
    """The AG-UI events of one stream's blocks. ``parent_message_id`` is the last text
    message (a tool call's parent); ``new_id`` numbers messages with the text's ids;
    ``payload`` makes ``streamblocks.block_end``'s value (the viewer sends less)."""

    payload: Callable[[BlockEnd], dict[str, Any]] = staticmethod(block_payload)

    def __init__(self, core: Any, groups: Collection[str], new_id: Callable[[str], str]) -> None:
        self.core = core
        self.groups = groups
        self.stream_id = ""
        self.parent_message_id: str | None = None
        self._new_id = new_id
        self._open: dict[str, _Open] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "core": None}  # set again by the adapter that owns it

    def custom(self, name: str, value: Any) -> Any:
        """A ``CUSTOM`` event named ``streamblocks.`` + ``name``."""
        return self.core.CustomEvent(name=CUSTOM_PREFIX + name, value=value)

    def start(self, event: BlockStart, out: list[Any]) -> None:
        """A block begins."""
        core, groups = self.core, self.groups
        native = event.syntax == "native"
        if native and event.block_type in _THINKING_TYPES:
            opened = _Open("thinking", message_id=f"{self.stream_id}-{event.block_id}")
            if "thinking" in groups:
                out.append(core.ReasoningStartEvent(message_id=opened.message_id))
                out.append(core.ReasoningMessageStartEvent(message_id=opened.message_id))
        elif (native and event.block_type == "tool_call") or event.syntax == "gadget":
            call_id = event.attrs.get("id") if native else None
            name = event.attrs.get("name") if native else None
            opened = _Open(
                "tool" if native else "gadget",
                tool_call_id=str(call_id or event.block_id),
            )
            if "tool_calls" in groups:
                out.append(
                    core.ToolCallStartEvent(
                        tool_call_id=opened.tool_call_id,
                        tool_call_name=str(name or event.block_type),
                        parent_message_id=self.parent_message_id,
                    )
                )
        elif native and event.block_type == "tool_result":
            opened = _Open("tool_result")
        else:
            opened = _Open("custom")
            if "blocks" in groups:
                out.append(self.custom("block_start", start_payload(event)))
        self._open[event.block_id] = opened

    def delta(self, event: BlockDelta, out: list[Any]) -> None:
        """Block text arrives."""
        opened = self._open.get(event.block_id)
        if opened is None or not event.text:
            return
        kind = opened.kind
        if kind == "thinking":
            if "thinking" in self.groups:
                out.append(
                    self.core.ReasoningMessageContentEvent(
                        message_id=opened.message_id, delta=event.text
                    )
                )
        elif kind == "tool":
            opened.args_sent = True
            if "tool_calls" in self.groups:
                out.append(
                    self.core.ToolCallArgsEvent(tool_call_id=opened.tool_call_id, delta=event.text)
                )
        elif kind == "gadget":
            opened.last = event
            if "tool_calls" in self.groups:
                self._gadget_args(opened, json_prefix(event.partial), out)
        elif kind == "custom" and "blocks" in self.groups:
            out.append(self.custom("block_delta", delta_payload(event)))

    def _gadget_args(self, opened: _Open, text: str, out: list[Any]) -> None:
        """Send what ``text`` (JSON that extends what was sent) adds: a gadget's
        arguments stream as its ``!!!ARG:`` values arrive."""
        sent = opened.sent
        if len(text) > len(sent) and text.startswith(sent):
            opened.sent = text
            opened.args_sent = True
            out.append(
                self.core.ToolCallArgsEvent(
                    tool_call_id=opened.tool_call_id, delta=text[len(sent) :]
                )
            )

    def _close_open(self, opened: _Open, out: list[Any], content: Any = None) -> None:
        core, groups = self.core, self.groups
        if opened.kind == "thinking" and "thinking" in groups:
            out.append(core.ReasoningMessageEndEvent(message_id=opened.message_id))
            out.append(core.ReasoningEndEvent(message_id=opened.message_id))
        elif opened.kind in ("tool", "gadget") and "tool_calls" in groups:
            if opened.sent and content is not None:  # a gadget's, streamed: the rest
                arguments = json.dumps(jsonable(content), ensure_ascii=False)
                if not arguments.startswith(opened.sent) and opened.last is not None:
                    # validated content in another key order: the arguments as written
                    arguments = json.dumps(opened.last.partial, ensure_ascii=False)
                self._gadget_args(opened, arguments, out)
            elif not opened.args_sent and content is not None:
                arguments = json.dumps(jsonable(content), ensure_ascii=False)
                out.append(
                    core.ToolCallArgsEvent(tool_call_id=opened.tool_call_id, delta=arguments)
                )
            out.append(core.ToolCallEndEvent(tool_call_id=opened.tool_call_id))

    def end(self, event: BlockEnd, out: list[Any]) -> None:
        """A block is complete (started now if its start was not seen)."""
        block = event.block
        opened = self._open.pop(block.id, None)
        if opened is None:  # its start was not seen (converted elsewhere): start it now
            self.start(BlockStart(block.id, block.type, block.syntax, block.attrs), out)
            opened = self._open.pop(block.id)
        if opened.kind == "tool_result":
            if "tool_calls" in self.groups:
                content = jsonable(block.content)
                text = (
                    content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
                )
                message_id = block.attrs.get("message_id")
                out.append(
                    self.core.ToolCallResultEvent(
                        message_id=message_id if isinstance(message_id, str) else self._new_id("t"),
                        tool_call_id=str(block.attrs.get("tool_call_id") or block.id),
                        content=text,
                    )
                )
        elif opened.kind == "custom":
            if "blocks" in self.groups:
                out.append(self.custom("block_end", self.payload(event)))
        else:
            self._close_open(opened, out, block.content if block.content is not None else {})

    def error(self, event: BlockError, out: list[Any]) -> None:
        """A block is rejected: what it opened is closed, the error reported."""
        opened = self._open.pop(event.block_id, None) if event.block_id is not None else None
        if opened is not None:
            self._close_open(opened, out, {})
        if "errors" in self.groups:
            out.append(self.custom("block_error", error_payload(event)))

    def metadata(self, event: BlockMetadata, out: list[Any]) -> None:
        """A custom block's metadata is complete."""
        opened = self._open.get(event.block_id)
        if opened is not None and opened.kind == "custom" and "blocks" in self.groups:
            out.append(self.custom("block_metadata", metadata_payload(event)))

    def close_all(self, out: list[Any]) -> None:
        """The stream ends: close what is still open."""
        for opened in self._open.values():
            self._close_open(opened, out, {})
        self._open.clear()
