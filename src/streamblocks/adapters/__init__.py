"""Input and output adapters: the seam between provider SDKs and the processor."""

from __future__ import annotations

from .detection import detect_input_adapter
from .identity import IdentityInputAdapter
from .protocols import (
    EventCategory,
    InputAdapter,
    Native,
    NativeDelta,
    NativeEnd,
    NativeStart,
    OutputAdapter,
)

__all__ = [
    "EventCategory",
    "IdentityInputAdapter",
    "InputAdapter",
    "Native",
    "NativeDelta",
    "NativeEnd",
    "NativeStart",
    "OutputAdapter",
    "detect_input_adapter",
]
