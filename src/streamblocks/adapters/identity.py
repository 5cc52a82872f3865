"""The adapter for streams that are already text."""

from __future__ import annotations

from typing import Any

from .protocols import EventCategory


class IdentityInputAdapter:
    """``str`` items are text; anything else passes through untouched."""

    def categorize(self, event: Any) -> EventCategory:
        return EventCategory.TEXT_CONTENT if isinstance(event, str) else EventCategory.PASSTHROUGH

    def extract_text(self, event: Any) -> str:
        return event if isinstance(event, str) else ""

    def matches(self, event: Any) -> bool:
        return isinstance(event, str)
