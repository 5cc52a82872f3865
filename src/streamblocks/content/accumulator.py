"""``MessageAccumulator``: folds a stream's events into a :class:`Message` in temporal
order::

    acc = MessageAccumulator()
    for event in processor.process(chunks):
        acc.add(event)
    acc.message.content   # [TextBlock, CustomBlock, TextBlock, ...]

How a finished block becomes a content block is table-driven: a converter is looked up
by ``(block.syntax, block.type)``, then ``(block.syntax, "*")``, then
``("*", block.type)``; blocks without a converter become :class:`CustomBlock`. Add your
own with :meth:`MessageAccumulator.register` (or the ``converters=`` argument).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from ..core.blocks import Block
from ..core.events import (
    BlockEnd,
    BlockError,
    Passthrough,
    StopReason,
    StreamFinished,
    TextDelta,
    Usage,
)
from .blocks import (
    CodeBlock,
    CommandBlock,
    CustomBlock,
    FileChangeBlock,
    TextBlock,
    ThinkingBlock,
    TodoBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from .message import Message, Role

Converter = Callable[[Block], Any]
"""Turns a finished :class:`~streamblocks.Block` into a content block (or ``None`` to
leave it out of the message)."""


def _plain(value: Any) -> Any:
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def _mapping(value: Any) -> dict[str, Any]:
    value = _plain(value)
    if isinstance(value, Mapping):
        return dict(value)
    return {} if value is None or value == "" else {"value": value}


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _text(value: Any) -> str:
    value = _plain(value)
    return value if isinstance(value, str) else "" if value is None else str(value)


def to_custom(block: Block) -> CustomBlock:
    """The default: any registered block as a :class:`CustomBlock`."""
    attrs = dict(block.attrs)
    if block.syntax != "xml":
        metadata = _plain(block.metadata)
        if isinstance(metadata, Mapping):
            attrs = {**metadata, **attrs}
    return CustomBlock(
        tag=block.type,
        content=_plain(block.content),
        attrs=attrs,
        self_closing=block.syntax == "xml" and block.raw.endswith("/>"),
    )


def _thinking(block: Block) -> ThinkingBlock:
    signature = block.attrs.get("signature")
    redacted = _str_or_none(block.attrs.get("redacted"))  # (an AG-UI input's, 1.0)
    return ThinkingBlock(text=_text(block.content), signature=signature, redacted=redacted)


def _native_tool_call(block: Block) -> ToolCallBlock:
    attrs = block.attrs
    return ToolCallBlock(
        id=str(attrs.get("id") or block.id),
        name=str(attrs.get("name") or block.type),
        arguments=_mapping(block.content),
        signature=attrs.get("thought_signature"),
    )


def _gadget(block: Block) -> ToolCallBlock:
    return ToolCallBlock(id=block.id, name=block.type, arguments=_mapping(block.content))


def _tool_result(block: Block) -> ToolResultBlock:
    attrs = block.attrs
    return ToolResultBlock(
        tool_call_id=str(attrs.get("tool_call_id") or attrs.get("id") or block.id),
        name=_str_or_none(attrs.get("name")),
        content=_plain(block.content),
        is_error=bool(attrs.get("is_error", False)),
    )


def _code(block: Block) -> CodeBlock:
    attrs = block.attrs
    start, total = attrs.get("start_line"), attrs.get("total_lines")
    return CodeBlock(
        code=_text(block.content),
        language=attrs.get("language"),
        path=attrs.get("path"),
        start_line=start if isinstance(start, int) else None,
        total_lines=total if isinstance(total, int) else None,
    )


def _command(block: Block) -> CommandBlock:
    attrs = block.attrs
    exit_code, interrupted = attrs.get("exit_code"), attrs.get("interrupted")
    return CommandBlock(
        command=str(attrs.get("command", "")),
        output=_text(block.content) or attrs.get("output"),
        exit_code=exit_code if isinstance(exit_code, int) else None,
        status=attrs.get("status"),
        stdout=_str_or_none(attrs.get("stdout")),
        stderr=_str_or_none(attrs.get("stderr")),
        interrupted=interrupted if isinstance(interrupted, bool) else None,
    )


def _file_change(block: Block) -> FileChangeBlock:
    attrs = block.attrs
    return FileChangeBlock(
        path=str(attrs.get("path", "")),
        kind=str(attrs.get("kind", "modify")),
        diff=attrs.get("diff") or (_text(block.content) or None),
        content=attrs.get("content"),
    )


def _todo(block: Block) -> TodoBlock:
    content = _plain(block.content)
    items = content.get("items", []) if isinstance(content, Mapping) else content
    if not isinstance(items, list):
        items = []
    return TodoBlock.model_validate({"items": items})


DEFAULT_CONVERTERS: dict[tuple[str, str], Converter] = {
    ("native", "thinking"): _thinking,
    ("native", "reasoning"): _thinking,
    ("native", "tool_call"): _native_tool_call,
    ("native", "tool_result"): _tool_result,
    ("native", "code"): _code,
    ("native", "command"): _command,
    ("native", "file_change"): _file_change,
    ("native", "todo"): _todo,
    ("gadget", "*"): _gadget,
}
"""``(syntax, block type)`` → converter; ``"*"`` matches any syntax or any type.

Provider-native blocks (syntax ``"native"``) carry their details in ``attrs``: a tool
call its ``name``/``id`` (content: the argument object), a tool result its
``tool_call_id``/``name``/``is_error``, a command its ``command``/``exit_code``/``status``
(and ``stdout``/``stderr``/``interrupted`` when known; content: the output), a file
change its ``path``/``kind`` (content: the diff), a todo
list its items as content, code its ``language``/``path``/``start_line``/``total_lines``
(content: the code). Gadget blocks are tool calls named after the gadget."""


class MessageAccumulator:
    """Folds events into a :class:`Message` (``acc.add(event)``; ``acc.message``).

    Text deltas merge into one :class:`TextBlock` while they are consecutive; each
    ``BLOCK_END`` adds the converted block where it happened. Rejected blocks are not
    content: they are kept in :attr:`errors` (their ``raw`` text with them).
    ``STREAM_FINISHED`` sets :attr:`stop_reason` and :attr:`usage`. Events of other
    kinds (starts, deltas, passthroughs) do not change the message.
    """

    def __init__(
        self,
        role: Role = "assistant",
        *,
        converters: Mapping[tuple[str, str], Converter] | None = None,
    ) -> None:
        self.role = role
        self.converters: dict[tuple[str, str], Converter] = dict(DEFAULT_CONVERTERS)
        if converters:
            self.converters.update(converters)
        self.errors: list[BlockError] = []
        self.passthrough: list[Any] = []
        self.stop_reason: StopReason | None = None
        self.usage: Usage | None = None
        self._items: list[Any] = []  # content blocks, or lists of text pieces
        self._cache: Message | None = None

    def register(self, syntax: str, block_type: str, converter: Converter) -> None:
        """Convert blocks of ``(syntax, block_type)`` (``"*"``: any) with ``converter``."""
        self.converters[(syntax, block_type)] = converter

    def add(self, event: Any) -> None:
        """Fold one event into the message."""
        if isinstance(event, TextDelta):
            if not event.text:
                return
            items = self._items
            if items and isinstance(items[-1], list):
                items[-1].append(event.text)
            else:
                items.append([event.text])
            self._cache = None
        elif isinstance(event, BlockEnd):
            converted = self.convert(event.block)
            if converted is not None:
                self._items.append(converted)
                self._cache = None
        elif isinstance(event, BlockError):
            self.errors.append(event)
        elif isinstance(event, StreamFinished):
            self.stop_reason = event.stop_reason
            self.usage = event.usage
        elif isinstance(event, Passthrough):
            self.passthrough.append(event.event)

    def add_all(self, events: Any) -> Message:
        """Fold every event of an iterable; returns :attr:`message`."""
        for event in events:
            self.add(event)
        return self.message

    def convert(self, block: Block) -> Any:
        """The content block for ``block`` (see the module docstring for the lookup)."""
        converters = self.converters
        converter = (
            converters.get((block.syntax, block.type))
            or converters.get((block.syntax, "*"))
            or converters.get(("*", block.type))
            or to_custom
        )
        return converter(block)

    @property
    def message(self) -> Message:
        """The message so far (rebuilt only after new events changed it)."""
        if self._cache is None:
            content = [
                TextBlock(text="".join(item)) if isinstance(item, list) else item
                for item in self._items
            ]
            self._cache = Message(role=self.role, content=content)
        return self._cache


__all__ = ["DEFAULT_CONVERTERS", "Converter", "MessageAccumulator", "to_custom"]
