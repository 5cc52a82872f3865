"""LangChain: chat-model streams and ``astream_events`` (``pip install ".[langchain]"``).

The adapter reads ``AIMessageChunk`` objects and event dicts by shape and never imports
``langchain_core`` itself.
"""

from __future__ import annotations

from .adapter import LangChainInputAdapter

__all__ = ["LangChainInputAdapter"]
