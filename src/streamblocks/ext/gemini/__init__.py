"""Gemini: google-genai streams (the ``gemini`` extra).

The adapter reads chunks by shape and never imports ``google.genai`` itself, so replayed
JSON (plain dicts, camelCase or snake_case) works without the SDK too.
"""

from __future__ import annotations

from .adapter import GeminiInputAdapter

__all__ = ["GeminiInputAdapter"]
