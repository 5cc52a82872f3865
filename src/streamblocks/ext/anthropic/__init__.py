"""Anthropic: Messages API streams (the ``anthropic`` extra).

The adapter reads events by shape and never imports ``anthropic`` itself, so replayed
JSON (plain dicts) works without the SDK too.
"""

from __future__ import annotations

from .adapter import AnthropicInputAdapter

__all__ = ["AnthropicInputAdapter"]
