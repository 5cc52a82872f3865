"""An input adapter for the EchoLog provider (an example of a third-party adapter)."""

from __future__ import annotations

from typing import Any

from streamblocks import StopReason, Usage
from streamblocks.adapters import EventCategory

__version__ = "0.3.0"

_STOP = {"complete": StopReason.end_turn, "truncated": StopReason.max_tokens}


def _kind(event: Any) -> Any:
    return event.get("echolog") if isinstance(event, dict) else None


class EchoLogInputAdapter:
    """EchoLog ``token`` events are text; ``usage`` and ``done`` carry the rest."""

    def categorize(self, event: Any) -> EventCategory:
        kind = _kind(event)
        if kind == "token":
            return EventCategory.TEXT_CONTENT
        if kind == "done":
            return EventCategory.STREAM_END
        if kind == "usage":
            return EventCategory.PASSTHROUGH
        return EventCategory.SKIP  # not ours: auto-detection moves on

    def extract_text(self, event: Any) -> str:
        return str(event.get("text", ""))

    def stop_reason(self, event: Any) -> StopReason | None:
        if _kind(event) == "done":
            return _STOP.get(event.get("reason"), StopReason.unknown)
        return None

    def usage(self, event: Any) -> Usage | None:
        if _kind(event) == "usage":
            return Usage(input_tokens=event.get("in"), output_tokens=event.get("out"))
        return None
