"""pydantic-ai: agent run events (``pip install ".[pydantic-ai]"``).

The adapter reads the events of ``Agent.run_stream_events()`` and ``agent.iter()`` node
streams by shape and never imports ``pydantic_ai`` itself.
"""

from __future__ import annotations

from .adapter import PydanticAIInputAdapter

__all__ = ["PydanticAIInputAdapter"]
