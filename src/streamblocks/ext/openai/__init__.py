"""OpenAI: Chat Completions and Responses API streams (the ``openai`` extra).

The adapter reads events by shape and never imports ``openai`` itself, so replayed JSON
(plain dicts) works without the SDK too.
"""

from __future__ import annotations

from .adapter import OpenAIInputAdapter

__all__ = ["OpenAIInputAdapter"]
