"""How blocks become AG-UI events, for :class:`~streamblocks.ext.agui.AGUIOutputAdapter`:
thinking → reasoning messages, tool calls (native and gadget) → ``TOOL_CALL_START`` /
``ARGS`` / ``END``, native tool results → ``TOOL_CALL_RESULT``, every other block →
``CUSTOM`` events named ``streamblocks.block_*``. :class:`BlockEvents` is the output
adapter's part that keeps the blocks under way in one stream.

In protocol 1.0 (``subagents`` given) a sub-agent's blocks are attributed to it
(``subagent_run_id``, :mod:`~streamblocks.ext.agui.subagents`), its text is a text
message of its own, and a thinking signature, redacted thinking or a call's thought
signature goes out as ``REASONING_ENCRYPTED_VALUE`` before the block's end."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

from ...core.events import BlockDelta, BlockEnd, BlockError, BlockMetadata, BlockStart
from ...core.json_prefix import json_prefix
from ...syntaxes.gadget_json import GadgetJson
from ...syntaxes.gadget_partial import GadgetSource
from .payloads import (
    block_payload,
    delta_payload,
    error_payload,
    jsonable,
    metadata_payload,
    start_payload,
)
from .subagents import SubAgentEvents, parent_of

CUSTOM_PREFIX = "streamblocks."
_THINKING_TYPES = frozenset({"thinking", "reasoning"})
REDACTED = {"streamblocks": {"redacted": True}}
"""The ``metadata`` of a ``REASONING_ENCRYPTED_VALUE`` that is redacted thinking (the
whole thinking, encrypted), not the signature of readable thinking."""


class _Open:
    """A block whose AG-UI events are under way."""

    __slots__ = (
        *("args_sent", "by", "json", "kind", "last", "message_id", "sent", "sent_size"),
        "tool_call_id",
    )

    def __init__(
        self, kind: str, by: dict[str, str], message_id: str = "", tool_call_id: str = ""
    ) -> None:
        self.kind = kind  # "thinking", "tool", "gadget", "tool_result", "text", "custom"
        self.by = by  # {"subagent_run_id": …} for a sub-agent's block (1.0), else {}
        self.message_id = message_id
        self.tool_call_id = tool_call_id
        self.args_sent = False
        self.sent: list[str] = []  # a gadget's argument JSON sent so far, in pieces
        self.sent_size = 0
        self.last: BlockDelta | None = None  # a gadget's last delta
        # what a gadget's deltas add to its argument JSON, read from their text alone
        # (None: from each delta's partial, compared with what was sent)
        self.json: GadgetJson | None = GadgetJson() if kind == "gadget" else None


class BlockEvents:
    """The AG-UI events of one stream's blocks. ``parent_message_id`` is the last text
    message (a tool call's parent); ``new_id`` numbers messages with the text's ids;
    ``payload`` makes ``streamblocks.block_end``'s value (the viewer sends less)."""

    payload: Callable[[BlockEnd], dict[str, Any]] = staticmethod(block_payload)

    def __init__(
        self,
        core: Any,
        groups: Collection[str],
        new_id: Callable[[str], str],
        subagents: SubAgentEvents | None = None,
    ) -> None:
        self.core = core
        self.groups = groups
        self.subagents = subagents
        self.stream_id = ""
        self.parent_message_id: str | None = None
        self._new_id = new_id
        self._open: dict[str, _Open] = {}
        self.pending: dict[str, None] = {}  # the run's own calls without a result yet
        self.encrypted_values = True  # (the viewer's page shows none: it sends none)
        self.work = 0  # characters of gadget argument JSON worked out, for the tests

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "core": None}  # set again by the adapter that owns it

    def custom(self, name: str, value: Any, by: dict[str, str] | None = None) -> Any:
        """A ``CUSTOM`` event named ``streamblocks.`` + ``name``."""
        return self.core.CustomEvent(name=CUSTOM_PREFIX + name, value=value, **(by or {}))

    def by(self, attrs: Any, out: list[Any]) -> dict[str, str]:
        """The attribution of a block with these ``attrs``: ``{"subagent_run_id": …}``
        for a sub-agent's block in protocol 1.0 (``SUBAGENT_STARTED`` to ``out`` first
        when its sub-agent is new), else ``{}``."""
        parent = parent_of(attrs) if self.subagents is not None else None
        if parent is None:
            return {}
        if "subagents" in self.groups:
            return {"subagent_run_id": self.subagents.enter(parent, out)}  # type: ignore[union-attr]
        return {"subagent_run_id": parent}

    def start(self, event: BlockStart, out: list[Any]) -> None:
        """A block begins."""
        core, groups = self.core, self.groups
        native = event.syntax == "native"
        kind = event.block_type if native else None
        by = self.by(event.attrs, out)
        if kind in _THINKING_TYPES:
            opened = _Open("thinking", by, message_id=f"{self.stream_id}-{event.block_id}")
            if "thinking" in groups:
                out.append(core.ReasoningStartEvent(message_id=opened.message_id, **by))
                out.append(
                    core.ReasoningMessageStartEvent(
                        message_id=opened.message_id, role="reasoning", **by
                    )
                )
        elif kind == "tool_call" or event.syntax == "gadget":
            call_id = event.attrs.get("id") if native else None
            name = str((event.attrs.get("name") if native else None) or event.block_type)
            call_id = str(call_id or event.block_id)
            opened = _Open("tool" if native else "gadget", by, tool_call_id=call_id)
            if self.subagents is not None:
                self.subagents.note_call(opened.tool_call_id, name, None, event.attrs)
            if "tool_calls" in groups:
                out.append(
                    core.ToolCallStartEvent(
                        tool_call_id=opened.tool_call_id,
                        tool_call_name=name,
                        parent_message_id=self.message_of(by),
                        **by,
                    )
                )
        elif kind == "tool_result":
            opened = _Open("tool_result", by)
        elif kind == "text" and by:  # a sub-agent's text: a text message of its own
            opened = _Open("text", by, message_id=f"{self.stream_id}-{event.block_id}")
            if "text" in groups:
                out.append(
                    core.TextMessageStartEvent(message_id=opened.message_id, role="assistant", **by)
                )
        else:
            opened = _Open("custom", by)
            if "blocks" in groups:
                out.append(self.custom("block_start", start_payload(event), by))
        self._open[event.block_id] = opened

    def message_of(self, by: dict[str, str]) -> str | None:
        """The text message a tool call belongs to: the last one of its own agent."""
        if by and self.subagents is not None:
            return self.subagents.messages.get(by["subagent_run_id"])
        return self.parent_message_id

    def delta(self, event: BlockDelta, out: list[Any]) -> None:
        """Block text arrives."""
        opened = self._open.get(event.block_id)
        if opened is None or not event.text:
            return
        kind, by = opened.kind, opened.by
        if kind == "thinking":
            if "thinking" in self.groups:
                out.append(
                    self.core.ReasoningMessageContentEvent(
                        message_id=opened.message_id, delta=event.text, **by
                    )
                )
        elif kind == "tool":
            opened.args_sent = True
            if "tool_calls" in self.groups:
                out.append(
                    self.core.ToolCallArgsEvent(
                        tool_call_id=opened.tool_call_id, delta=event.text, **by
                    )
                )
        elif kind == "text":
            opened.args_sent = True
            if "text" in self.groups:
                out.append(
                    self.core.TextMessageContentEvent(
                        message_id=opened.message_id, delta=event.text, **by
                    )
                )
        elif kind == "gadget":
            opened.last = event
            if "tool_calls" in self.groups:
                self._gadget_delta(opened, event, out)
        elif kind == "custom" and "blocks" in self.groups:
            out.append(self.custom("block_delta", delta_payload(event), by))

    def _gadget_delta(self, opened: _Open, event: BlockDelta, out: list[Any]) -> None:
        """A gadget's arguments stream as its ``!!!ARG:`` values arrive: the JSON that
        the delta's ``partial`` adds, worked out from the delta's text (linear in the
        arguments' length, however many deltas), else from the partial itself."""
        writer, at = opened.json, event.partial_at
        if writer is not None and at is not None and isinstance(at.source, GadgetSource):
            before = writer.work
            added = writer.advance(at.source, at.index)
            if added is not None:
                self.work += writer.work - before + len(added)
                if added:
                    self._send_args(opened, added, out)
                return
        opened.json = None  # (a value it does not follow: compared from here on)
        self._gadget_args(opened, json_prefix(event.partial), out)

    def _gadget_args(self, opened: _Open, text: str, out: list[Any]) -> None:
        """Send what ``text`` (JSON that extends what was sent) adds."""
        self.work += len(text) + opened.sent_size  # (built from the partial, compared)
        if len(text) <= opened.sent_size:
            return
        sent = "".join(opened.sent)
        if text.startswith(sent):
            self._send_args(opened, text[len(sent) :], out)

    def _send_args(self, opened: _Open, added: str, out: list[Any]) -> None:
        opened.sent.append(added)
        opened.sent_size += len(added)
        opened.args_sent = True
        out.append(
            self.core.ToolCallArgsEvent(tool_call_id=opened.tool_call_id, delta=added, **opened.by)
        )

    def encrypted(self, opened: _Open, attrs: Any, out: list[Any]) -> None:
        """``REASONING_ENCRYPTED_VALUE`` for a thinking block's signature or redacted
        thinking, or a call's thought signature (protocol 1.0)."""
        if self.subagents is None or not attrs or "thinking" not in self.groups:
            return
        if not self.encrypted_values:
            return
        if opened.kind == "thinking":
            subtype, entity = "message", opened.message_id
            value, redacted = attrs.get("signature"), attrs.get("redacted")
        else:
            subtype, entity = "tool-call", opened.tool_call_id
            value, redacted = attrs.get("thought_signature"), None
        extra: dict[str, Any] = dict(opened.by)
        if isinstance(redacted, str) and redacted:
            value, extra["metadata"] = redacted, REDACTED
        if isinstance(value, str) and value:
            out.append(
                self.core.ReasoningEncryptedValueEvent(
                    subtype=subtype, entity_id=entity, encrypted_value=value, **extra
                )
            )

    def _close_open(
        self, opened: _Open, out: list[Any], content: Any = None, attrs: Any = None
    ) -> None:
        core, groups, by = self.core, self.groups, opened.by
        if opened.kind == "thinking" and "thinking" in groups:
            self.encrypted(opened, attrs, out)
            out.append(core.ReasoningMessageEndEvent(message_id=opened.message_id, **by))
            out.append(core.ReasoningEndEvent(message_id=opened.message_id, **by))
        elif opened.kind == "text":
            if self.subagents is not None:
                self.subagents.messages[by["subagent_run_id"]] = opened.message_id
            if "text" in groups:
                if not opened.args_sent and isinstance(content, str) and content:
                    out.append(
                        core.TextMessageContentEvent(
                            message_id=opened.message_id, delta=content, **by
                        )
                    )
                out.append(core.TextMessageEndEvent(message_id=opened.message_id, **by))
        elif opened.kind in ("tool", "gadget") and "tool_calls" in groups:
            if opened.sent and content is not None:  # a gadget's, streamed: the rest
                arguments = json.dumps(jsonable(content), ensure_ascii=False)
                sent = "".join(opened.sent)
                if not arguments.startswith(sent) and opened.last is not None:
                    # validated content in another key order: the arguments as written
                    arguments = json.dumps(opened.last.partial, ensure_ascii=False)
                self._gadget_args(opened, arguments, out)
            elif not opened.args_sent and content is not None:
                arguments = json.dumps(jsonable(content), ensure_ascii=False)
                out.append(
                    core.ToolCallArgsEvent(tool_call_id=opened.tool_call_id, delta=arguments, **by)
                )
            self.encrypted(opened, attrs, out)
            out.append(core.ToolCallEndEvent(tool_call_id=opened.tool_call_id, **by))

    def end(self, event: BlockEnd, out: list[Any]) -> None:
        """A block is complete (started now if its start was not seen)."""
        block = event.block
        opened = self._open.pop(block.id, None)
        if opened is None:  # its start was not seen (converted elsewhere): start it now
            self.start(BlockStart(block.id, block.type, block.syntax, block.attrs), out)
            opened = self._open.pop(block.id)
        if opened.kind == "tool_result":
            self.result(block, opened.by, out)
        elif opened.kind == "custom":
            if "blocks" in self.groups:
                out.append(self.custom("block_end", self.payload(event), opened.by))
        else:
            if opened.kind in ("tool", "gadget"):
                self.ended_call(opened.tool_call_id, block)
            content = block.content if block.content is not None else {}
            self._close_open(opened, out, content, block.attrs)

    def ended_call(self, call_id: str, block: Any) -> None:
        """A call is complete: one of the run's own left to run until its result comes
        (a server-side tool's ran where it was called), one that may start a sub-agent."""
        attrs = block.attrs
        if parent_of(attrs) is None and not attrs.get("server"):
            self.pending[call_id] = None
        if self.subagents is not None and block.syntax == "native":
            name = attrs.get("name") or block.type
            self.subagents.note_call(call_id, name, block.content, attrs)

    def result(self, block: Any, by: dict[str, str], out: list[Any]) -> None:
        """A native tool result: the sub-agent its call ran ends first (1.0)."""
        attrs = block.attrs
        call_id = str(attrs.get("tool_call_id") or block.id)
        self.pending.pop(call_id, None)
        if self.subagents is not None and "subagents" in self.groups:
            self.subagents.finish(call_id, block.content, bool(attrs.get("is_error")), out)
        if "tool_calls" in self.groups:
            content = jsonable(block.content)
            text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
            message_id = attrs.get("message_id")
            out.append(
                self.core.ToolCallResultEvent(
                    message_id=message_id if isinstance(message_id, str) else self._new_id("t"),
                    tool_call_id=call_id,
                    content=text,
                    **by,
                )
            )

    def error(self, event: BlockError, out: list[Any]) -> None:
        """A block is rejected: what it opened is closed, the error reported."""
        opened = self._open.pop(event.block_id, None) if event.block_id is not None else None
        if opened is not None:
            self._close_open(opened, out, {})
        if "errors" in self.groups:
            by = opened.by if opened is not None else None
            out.append(self.custom("block_error", error_payload(event), by))

    def metadata(self, event: BlockMetadata, out: list[Any]) -> None:
        """A custom block's metadata is complete."""
        opened = self._open.get(event.block_id)
        if opened is not None and opened.kind == "custom" and "blocks" in self.groups:
            out.append(self.custom("block_metadata", metadata_payload(event), opened.by))

    def close_all(self, out: list[Any], error: str | None = None) -> None:
        """The stream ends: close what is still open, then the sub-agents still running
        (with the run's ``error`` when it failed)."""
        for opened in self._open.values():
            self._close_open(opened, out, {})
        self._open.clear()
        if self.subagents is not None and "subagents" in self.groups:
            self.subagents.close_all(error, out)
