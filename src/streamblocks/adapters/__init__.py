"""Input and output adapters: the seam between provider SDKs and the processor."""

from __future__ import annotations

from .detection import detect_input_adapter
from .discovery import ENTRY_POINT_GROUP, PluginInfo, available, register_adapter
from .hookspecs import hookimpl
from .identity import IdentityInputAdapter
from .protocols import (
    EventCategory,
    InputAdapter,
    Native,
    NativeDelta,
    NativeEnd,
    NativeStart,
    OutputAdapter,
    Reading,
    StreamIds,
    as_category,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "EventCategory",
    "IdentityInputAdapter",
    "InputAdapter",
    "Native",
    "NativeDelta",
    "NativeEnd",
    "NativeStart",
    "OutputAdapter",
    "PluginInfo",
    "Reading",
    "StreamIds",
    "as_category",
    "available",
    "detect_input_adapter",
    "hookimpl",
    "register_adapter",
]
