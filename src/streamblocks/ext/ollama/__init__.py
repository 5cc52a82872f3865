"""Ollama: ``chat(stream=True)`` and ``generate(stream=True)`` chunks (``pip install ".[ollama]"``).

The adapter reads chunks by shape and never imports ``ollama`` itself, so replayed NDJSON
(plain dicts of Ollama's REST API) works without the SDK too.
"""

from __future__ import annotations

from .adapter import OllamaInputAdapter

__all__ = ["OllamaInputAdapter"]
