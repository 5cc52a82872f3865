"""The open provider-native blocks of a session (:class:`NativeBlock`), and how a
provider event is named in a warning: parts of :mod:`streamblocks.core.provider`."""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from ..adapters.protocols import NativeStart
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
