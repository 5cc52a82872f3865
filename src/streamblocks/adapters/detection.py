"""Choosing an input adapter for a stream.

``"auto"`` decides on the stream's first event: ``str`` is text; otherwise the first
discovered adapter that claims the event (third-party plugins first, then the built-ins);
otherwise identity, with one warning.
"""

from __future__ import annotations

import importlib.metadata
import warnings
from typing import Any

from ..core.errors import AdapterWarning
from . import discovery
from .identity import IdentityInputAdapter
from .protocols import InputAdapter


def detect_input_adapter(event: Any) -> InputAdapter:
    """The adapter for a stream whose first event is ``event``.

    No provider SDK is imported to decide: adapters look at the event's module, class
    and shape, so replayed JSON (plain dicts) is recognised too.
    """
    if isinstance(event, str):
        return IdentityInputAdapter()
    adapter = discovery.plugins().detect(event)
    if adapter is not None:
        return adapter
    warnings.warn(
        f"no input adapter recognised the first event ({type(event).__module__}."
        f"{type(event).__qualname__}); non-text events are passed through. "
        "Pass input_adapter=... to choose one.",
        AdapterWarning,
        stacklevel=3,
    )
    return IdentityInputAdapter()


def adapter_hint(name: str) -> str:
    """What to pass instead of an adapter's name: an instance of its class, named from
    the entry point it is registered under (``""`` when no adapter has that name)."""
    wanted = name.lower().replace("-", "_")
    for entry in importlib.metadata.entry_points(group="streamblocks.adapters"):
        if entry.name.lower() == wanted and ":" in entry.value:
            module, cls = entry.value.split(":", 1)
            return f"; pass an instance: from {module} import {cls}, then input_adapter={cls}()"
    return ""
