"""The provider-native blocks of a session (thinking, tool calls: :class:`NativeBlocks`,
each open one a :class:`NativeBlock`), and the warnings about a provider's events: parts
of :mod:`streamblocks.core.provider`."""

from __future__ import annotations

import warnings
from collections.abc import Hashable
from typing import Any, cast

from mypy_extensions import mypyc_attr

from ..adapters.protocols import NativeDelta, NativeEnd, NativeStart
from .blocks import Block
from .emitter import Emitter
from .errors import AdapterWarning, ErrorCode
from .events import CONTENT_SECTION, BlockDelta, BlockEnd, BlockStart
from .json_values import loads
from .limits import Limits
from .partials import JsonSource

_COMPACT_EVERY = 256


@mypyc_attr(allow_interpreted_subclasses=True)
class NativeBlock:
    """An open native block. Its ``attrs`` dict is private: the ``BLOCK_START`` and the
    final :class:`Block` get their own copies, so an emitted event never changes."""

    __slots__ = (
        "attrs", "block_id", "block_type", "compacted", "parse", "partial", "parts", "size",
    )  # fmt: skip

    def __init__(self, start: NativeStart, block_id: str) -> None:
        self.block_id = block_id
        self.block_type = start.block_type
        self.attrs = dict(start.attrs)
        self.parse = start.parse
        self.partial = JsonSource() if start.parse == "json" else None
        self.parts: list[str] = []
        self.compacted = 0
        self.size = 0

    def add(self, text: str) -> None:
        """Hold ``text``; every 256 pieces the new ones are joined into one, so the
        pieces' overhead stays small next to the text."""
        parts = self.parts
        parts.append(text)
        self.size += len(text)
        if len(parts) - self.compacted > _COMPACT_EVERY:
            parts[self.compacted :] = ["".join(parts[self.compacted :])]
            self.compacted = len(parts)


def describe(event: Any) -> str:
    """A provider event named for a warning: its class and its ``type`` field."""
    kind = event.get("type") if isinstance(event, dict) else getattr(event, "type", None)
    name = type(event).__qualname__
    if isinstance(kind, str) or isinstance(getattr(kind, "value", None), str):
        return f"{name} {getattr(kind, 'value', kind)!r}"
    return name


@mypyc_attr(allow_interpreted_subclasses=True)
class NativeBlocks:
    """The native pieces an input adapter reports (:class:`NativeStart`,
    :class:`NativeDelta`, :class:`NativeEnd`) as blocks; the base of
    :class:`~.provider.ProviderEvents`, with its warnings."""

    def __init__(self, em: Emitter, limits: Limits) -> None:
        self._em = em
        self._limits = limits
        self._adapter_failures: set[str] = set()
        self._natives: dict[Hashable, NativeBlock] = {}
        self._rejected: set[Hashable] = set()  # native blocks dropped for their size
        self._native_spill = False

    def _not_text(self, event: Any, what: str, value: Any) -> None:
        """The one guard for provider text that is not a string: warn (once per stream
        and kind of event) and drop the value; the stream goes on."""
        described = describe(event)
        self._warn_once(
            f"text:{described}",
            f"{described} event: {what} gave {type(value).__name__} {value!r:.60}, not "
            "text; it was left out and the stream goes on",
        )

    def _warn_once(self, key: str, message: str) -> None:
        if key in self._adapter_failures:
            return
        self._adapter_failures.add(key)
        warnings.warn(message, AdapterWarning, stacklevel=5)

    def _native(self, piece: Any, event: Any) -> None:
        if isinstance(piece, NativeStart):
            block_id = piece.block_id
            if not isinstance(block_id, str) or not block_id:
                block_id = self._em.new_id()
            native = self._natives[piece.key] = NativeBlock(piece, block_id)
            self._rejected.discard(piece.key)
            attrs = dict(native.attrs)
            self._em.emit(BlockStart(block_id, native.block_type, "native", attrs))
        elif isinstance(piece, NativeDelta):
            text = cast(Any, piece).text  # (the compiled build would check it on read)
            if not isinstance(text, str):
                self._not_text(event, "a native block's delta", text)
                return
            open_native = self._natives.get(piece.key)
            if open_native is None:
                if text and piece.key in self._rejected:
                    self._native_spill = True
                return
            if not text:
                return
            if open_native.size + len(text) > self._limits.max_block_chars:
                self._reject_native(piece.key, open_native, text)
                return
            open_native.add(text)
            source = open_native.partial
            at = source.add(text, None) if source is not None else None
            self._em.emit(
                BlockDelta(
                    open_native.block_id, open_native.block_type, CONTENT_SECTION, text, None, at
                )
            )
        elif isinstance(piece, NativeEnd):
            if piece.key is None:
                keys = list(self._natives)
                self._rejected.clear()
            else:
                keys = [piece.key]
                self._rejected.discard(piece.key)
            for key in keys:
                ended = self._natives.pop(key, None)
                if ended is not None:
                    self._end_native(ended, piece)

    def _reject_native(self, key: Hashable, native: NativeBlock, text: str) -> None:
        """A native block crossed ``max_block_chars``: a ``TOO_LARGE`` error carrying
        the text held; the provider events with the rest of it pass through."""
        del self._natives[key]
        self._rejected.add(key)
        native.parts.append(text)
        limit = self._limits.max_block_chars
        self._em.error(
            native.block_id,
            native.block_type,
            ErrorCode.TOO_LARGE,
            f"{native.block_type} {native.block_id!r} grew past max_block_chars={limit}; "
            "the rest of it is passed through",
            "".join(native.parts),
        )

    def _end_native(self, native: NativeBlock, end: NativeEnd | None) -> None:
        text = "".join(native.parts)
        attrs = native.attrs
        if end is not None and end.attrs:
            attrs = {**attrs, **end.attrs}
        if end is not None and end.content is not None:
            content: Any = end.content
        elif native.parse == "json":
            try:
                content = loads(text) if text.strip() else {}
            except (ValueError, RecursionError) as exc:
                self._em.error(
                    native.block_id,
                    native.block_type,
                    ErrorCode.PARSE_FAILED,
                    f"arguments of {native.block_type} {native.block_id!r} are not valid "
                    f"JSON ({exc}): {text}",
                    "",
                )
                return
        else:
            content = text
        self._em.blocks += 1
        block = Block(
            native.block_id, native.block_type, "native", None, content, attrs, "",
            self._em.pos, self._em.pos,
        )  # fmt: skip
        self._em.emit(BlockEnd(block))

    def _close_natives(self) -> None:
        for key in list(self._natives):
            native = self._natives.pop(key)
            self._em.error(
                native.block_id,
                native.block_type,
                ErrorCode.UNCLOSED,
                f"the stream ended inside {native.block_type} {native.block_id!r}",
                "",
            )
