"""AG-UI events as their wire JSON, made without the SDK's models.

The viewer sends every AG-UI event of a run to the page once, as JSON, and never reads
it back. Building an ``ag_ui.core`` model per event (a validation) only to serialize it
again cost more than the conversion itself on a big run. :data:`WIRE` stands in for the
``ag_ui.core`` module inside the project's own
:class:`~streamblocks.ext.agui.AGUIOutputAdapter` (:class:`WireAdapter`): the same logic
makes the same events, but each ``XxxEvent(...)`` call gives a plain ``dict`` with the
keys and values the model's ``model_dump_json(by_alias=True)`` writes, in its order
(the wire name of each field, optional fields without a value left out, defaults
filled in). :func:`encode` writes either kind, so events the input passed through as
real models (an AG-UI input) go out unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic_core import to_json

from ..core.events import BlockDelta, BlockEnd
from ..ext.agui import AGUIOutputAdapter
from ..ext.agui.blocks import CUSTOM_PREFIX
from ..ext.agui.payloads import jsonable
from ..ext.agui.sse import _fields, event_json

Maker = Callable[..., dict[str, Any]]
_PLAIN = frozenset({"id", "block_type", "params"})  # what most blocks' metadata says
_THINKING = ("thinking", "reasoning")  # the block types the output makes reasoning of
_BLOCK_END = CUSTOM_PREFIX + "block_end"
_PARTS = frozenset({"TokenUsage", "RunFinishedSuccessOutcome"})  # models inside events


def _maker(cls: Any) -> Maker:
    """A function taking ``cls``'s keyword arguments and giving its wire ``dict``: the
    :func:`positional` maker of each set of keywords, made when first given (the
    adapter always passes the same ones)."""
    makers: dict[tuple[str, ...], Maker] = {}

    def make(**values: Any) -> dict[str, Any]:
        names = tuple(values)
        found = makers.get(names)
        if found is None:
            found = makers[names] = positional(cls, *names)
        return found(*values.values())

    make.__name__ = cls.__name__
    make.model_fields = cls.model_fields  # type: ignore[attr-defined]  # (what it takes)
    return make


def positional(cls: Any, *names: str) -> Maker:
    """A maker of ``cls``'s wire dict taking the values of ``names`` by position: the
    wire name of each field given or with a default, in the model's order, a field
    without a value left out when the model leaves it out. Its steps are written out
    as code once (no keywords to sort, no loop per event: the viewer makes a few for
    every section of a big run)."""
    fields = _fields(cls)  # (name, wire key, left out when None), in declaration order
    unknown = set(names) - {name for name, _, _ in fields}
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)}")
    defaults: dict[str, Any] = {}
    for name, field in cls.model_fields.items():
        if not field.is_required() and field.default is not None and name not in names:
            default = field.default
            defaults[name] = getattr(default, "value", default)  # the event type: its name
    lines = [f"def make({', '.join(names)}):", "    out = {}"]
    for name, key, omit in fields:
        if name in defaults:
            lines.append(f"    out[{key!r}] = _defaults[{name!r}]")
        elif name in names and omit:
            lines.append(f"    if {name} is not None:\n        out[{key!r}] = {name}")
        elif name in names:
            lines.append(f"    out[{key!r}] = {name}")
    lines.append("    return out")
    namespace: dict[str, Any] = {"_defaults": defaults}
    exec("\n".join(lines), namespace)  # (the names are the model's field names)
    make: Maker = namespace["make"]
    make.__name__ = cls.__name__
    return make


class _WireCore:
    """``ag_ui.core`` with its event classes (and ``TokenUsage``) replaced by makers of
    wire dicts; every other name (``BaseEvent``, ``Event``…) is the SDK's own."""

    def __init__(self) -> None:
        from ag_ui import core

        self._core = core
        for name in core.__all__:
            value = getattr(core, name)
            is_event = isinstance(value, type) and issubclass(value, core.BaseEvent)
            if (is_event and value is not core.BaseEvent) or name in _PARTS:
                setattr(self, name, _maker(value))
        # the two events made for every section of a big run, by position
        self.text_chunk = positional(core.TextMessageChunkEvent, "message_id", "role", "delta")
        self.custom = positional(core.CustomEvent, "name", "value")

    def __getattr__(self, name: str) -> Any:  # what is not replaced: the SDK's own
        if name.startswith("__") or "_core" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self._core, name)


_wire_core: _WireCore | None = None


def wire_core() -> _WireCore:
    """The one :class:`_WireCore` (made when first needed: it imports the SDK)."""
    global _wire_core
    if _wire_core is None:
        _wire_core = _WireCore()
    return _wire_core


def _says_more(metadata: Any) -> bool:
    """Whether a block's metadata says more than the block's id and type (and no
    parameters), which is all most blocks' metadata says."""
    if type(metadata) is not dict:
        return metadata is not None
    return not metadata.keys() <= _PLAIN or metadata.get("params", []) != []


def lean_payload(event: BlockEnd) -> dict[str, Any]:
    """``streamblocks.block_end`` as the viewer sends it: what a row shows of a finished
    block (its id, type, syntax, content, attributes, and its metadata when that says
    more than the id and type), without its raw text and offsets; the export is made
    from the block itself, not from this. Text content, no attributes and metadata that
    plainly says nothing more are taken as they are (what :func:`jsonable` gives them)."""
    block = event.block
    payload = {"id": block.id, "type": block.type, "syntax": block.syntax}
    metadata = block.metadata
    if not _plain(metadata):
        metadata = jsonable(metadata)
        if _says_more(metadata):
            payload["metadata"] = metadata
    content = block.content
    payload["content"] = content if content.__class__ is str else jsonable(content)
    attrs = block.attrs
    payload["attrs"] = {} if not attrs else jsonable(dict(attrs))
    return payload


def _plain(metadata: Any) -> bool:
    """Whether ``metadata`` is a dict that says only the block's id and type (no
    parameters): most blocks' metadata, left out without converting it."""
    return (
        metadata.__class__ is dict
        and metadata.keys() <= _PLAIN
        and metadata.get("params", []).__class__ is list
        and not metadata.get("params")
    )


class WireAdapter(AGUIOutputAdapter):
    """The project's AG-UI output adapter making wire dicts instead of SDK models (the
    events it passes through from an AG-UI input stay the SDK's models). ``lean``: a
    block's end as :func:`lean_payload` (the viewer's), else the whole block."""

    def __init__(self, *, lean: bool = False, **options: Any) -> None:
        super().__init__(**options)
        core: Any = wire_core()
        self._core = self._blocks.core = core
        if self._blocks.subagents is not None:
            self._blocks.subagents.core = core
        self.lean = lean
        if lean:
            self._blocks.payload = lean_payload
            self._blocks.encrypted_values = False

    def _new_id(self, what: str) -> str:
        self._messages += 1
        return f"{self._blocks.stream_id}-{what}{self._messages}"

    def shorten_ids(self) -> None:
        """Message ids from now on begin with the stream id's first 8 characters, not
        all 32 (the viewer's: its one stream numbers them; every id a page keys rows by
        is unique in the run all the same, and a dense markdown run sends a tenth less)."""
        self._blocks.stream_id = self._stream_id[:8]

    def for_stream(self) -> WireAdapter:
        return WireAdapter(
            lean=self.lean,
            groups=self.groups,
            thread_id=self.thread_id,
            run_id=self.run_id,
            protocol=self.protocol,
        )

    def text_chunk(self, text: str) -> list[Any] | None:
        """A run of text whose end is in hand (the next event ends it) as one
        ``TEXT_MESSAGE_CHUNK``: what :meth:`to_protocol_event` gives for the text and
        for the end of its message, in one event; ``None`` when a message is open."""
        if self._message_id is not None:
            return None
        out: list[Any] = []
        self._start_run(out)
        message_id = self._new_id("m")
        if "text" in self.groups:
            out.append(self._core.text_chunk(message_id, "assistant", text))
            self._blocks.parent_message_id = message_id
        return out

    def whole_end(self, event: BlockEnd, held: list[Any]) -> list[Any]:
        """The events of a block whose start, metadata and deltas (``held``) were
        never converted, as one: a card's ``block_end``, a thinking block's
        ``REASONING_MESSAGE_CHUNK``, a tool call's ``TOOL_CALL_CHUNK``. What
        :meth:`to_protocol_event` gives for them all, less a ``block_start`` (the page
        makes a card's row from its end) and with the message's events in one."""
        out: list[Any] = []
        if self._run_pending:
            self._start_run(out)
        if self._message_id is not None:
            self._end_text(out)
        block, core, groups, blocks = event.block, self._core, self.groups, self._blocks
        kind = block.type if block.syntax == "native" else None
        if kind is None:
            if "blocks" in groups:
                out.append(core.custom(_BLOCK_END, blocks.payload(event)))
            return out
        by = blocks.by(block.attrs, out)  # (a sub-agent's: SUBAGENT_STARTED first, 1.0)
        text = "".join([delta.text for delta in held if type(delta) is BlockDelta])
        if kind == "tool_call":
            attrs = block.attrs
            call_id = str(attrs.get("id") or block.id)
            blocks.ended_call(call_id, block)
            if "tool_calls" in groups:
                content = block.content if block.content is not None else {}
                out.append(
                    core.ToolCallChunkEvent(
                        tool_call_id=call_id,
                        tool_call_name=str(attrs.get("name") or block.type),
                        parent_message_id=blocks.message_of(by),
                        delta=text or json.dumps(jsonable(content), ensure_ascii=False),
                        **by,
                    )
                )
        elif kind in _THINKING:
            if "thinking" in groups:
                message_id = f"{blocks.stream_id}-{block.id}"
                out.append(core.ReasoningMessageChunkEvent(message_id=message_id, delta=text, **by))
        elif kind == "text" and by:  # a sub-agent's text: a message of its own (1.0)
            message_id = f"{blocks.stream_id}-{block.id}"
            blocks.subagents.messages[by["subagent_run_id"]] = message_id  # type: ignore[union-attr]
            if "text" in groups:
                content = block.content if isinstance(block.content, str) else ""
                out.append(
                    core.TextMessageChunkEvent(
                        message_id=message_id, role="assistant", delta=text or content, **by
                    )
                )
        elif "blocks" in groups:
            out.append(blocks.custom("block_end", blocks.payload(event), by))
        return out


CHUNKS = frozenset({"TEXT_MESSAGE_CHUNK", "REASONING_MESSAGE_CHUNK", "TOOL_CALL_CHUNK"})


def opened(chunk: dict[str, Any]) -> list[dict[str, Any]]:
    """A chunk made by :class:`WireAdapter` as the events of its message, as the
    output adapter makes them: what is sent when nothing follows the chunk yet (a
    chunk's message ends with the next event, AG-UI's rule)."""
    core: Any = wire_core()
    kind = chunk["type"]
    by = {"subagent_run_id": chunk["subagentRunId"]} if "subagentRunId" in chunk else {}
    if kind == "TOOL_CALL_CHUNK":
        ident = chunk["toolCallId"]
        return [
            core.ToolCallStartEvent(
                tool_call_id=ident,
                tool_call_name=chunk["toolCallName"],
                parent_message_id=chunk.get("parentMessageId"),
                **by,
            ),
            core.ToolCallArgsEvent(tool_call_id=ident, delta=chunk["delta"], **by),
            core.ToolCallEndEvent(tool_call_id=ident, **by),
        ]
    ident, delta = chunk["messageId"], chunk["delta"]
    if kind == "TEXT_MESSAGE_CHUNK":
        said = [core.TextMessageContentEvent(message_id=ident, delta=delta, **by)] if delta else []
        return [
            core.TextMessageStartEvent(message_id=ident, role=chunk["role"], **by),
            *said,
            core.TextMessageEndEvent(message_id=ident, **by),
        ]
    content = (
        [core.ReasoningMessageContentEvent(message_id=ident, delta=delta, **by)] if delta else []
    )
    return [
        core.ReasoningStartEvent(message_id=ident, **by),
        core.ReasoningMessageStartEvent(message_id=ident, role="reasoning", **by),
        *content,
        core.ReasoningMessageEndEvent(message_id=ident, **by),
        core.ReasoningEndEvent(message_id=ident, **by),
    ]


def custom_event(name: str, value: Any) -> dict[str, Any]:
    """A ``CUSTOM`` event's wire dict."""
    make: Maker = wire_core().custom
    return make(name, value)


def encode(event: Any) -> str:
    """An event's JSON: a wire dict, or an SDK model as the SDK's encoder writes it."""
    if type(event) is dict:
        return to_json(event, by_alias=True, inf_nan_mode="null").decode()
    return event_json(event)
