"""OpenAI Agents SDK: ``Runner.run_streamed(...).stream_events()``.

Install with ``pip install ".[openai-agents]"``.

The adapter reads the events by shape and never imports ``agents`` itself; the raw model
events are read by :class:`~streamblocks.ext.openai.OpenAIInputAdapter`.
"""

from __future__ import annotations

from .adapter import OpenAIAgentsInputAdapter

__all__ = ["OpenAIAgentsInputAdapter"]
