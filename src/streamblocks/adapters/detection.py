"""Choosing an input adapter for a stream.

``"auto"`` decides on the stream's first event: ``str`` is text; otherwise the first
discovered adapter that claims the event; otherwise identity, with one warning.
"""

from __future__ import annotations

import warnings
from typing import Any

from ..core.errors import AdapterWarning
from .identity import IdentityInputAdapter
from .protocols import InputAdapter


def detect_input_adapter(event: Any) -> InputAdapter:
    """The adapter for a stream whose first event is ``event``."""
    if isinstance(event, str):
        return IdentityInputAdapter()
    warnings.warn(
        f"no input adapter recognised the first event ({type(event).__module__}."
        f"{type(event).__qualname__}); non-text events are passed through",
        AdapterWarning,
        stacklevel=3,
    )
    return IdentityInputAdapter()
