"""Claude Agent SDK: the messages of ``query()`` and ``ClaudeSDKClient``.

Install with ``pip install ".[claude-agent-sdk]"``. The adapter reads the SDK's message
objects by shape and never imports ``claude_agent_sdk`` itself; what they mean is read by
the Claude CLI transcript adapter, whose lines the SDK parses them from.
"""

from __future__ import annotations

from .adapter import ClaudeAgentSDKInputAdapter

__all__ = ["ClaudeAgentSDKInputAdapter"]
