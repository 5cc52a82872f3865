"""What a scripted reply says: text, thinking, native tool calls, how it stops."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.events import StopReason


@dataclass(frozen=True)
class MockToolCall:
    """A native tool call in a scripted reply. ``arguments`` given as a ``str`` is sent
    as the argument JSON text unchanged (to script arguments that are not JSON)."""

    name: str
    arguments: Mapping[str, Any] | str = field(default_factory=dict)
    id: str | None = None

    def json(self) -> str:
        """The argument JSON text the stream carries."""
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(dict(self.arguments), ensure_ascii=False)

    def object(self) -> dict[str, Any]:
        """The argument object (Gemini sends objects, not text)."""
        if isinstance(self.arguments, str):
            raise ValueError("Gemini sends argument objects: script them as a mapping")
        return dict(self.arguments)


@dataclass(frozen=True)
class MockReply:
    """One scripted model reply.

    ``stop_reason`` defaults to ``tool_use`` when there are tool calls, ``end_turn``
    otherwise. ``stop_reason="error"`` ends the stream with the provider's error event
    (``error_message``), or raises :class:`MockProviderError` where the provider has
    none. ``raise_error`` is raised by the stream after the reply's events (a dropped
    connection, an SDK exception).
    """

    text: str = ""
    thinking: str = ""
    tool_calls: Sequence[MockToolCall] = ()
    stop_reason: StopReason | str | None = None
    usage: tuple[int, int] | None = (10, 20)
    error_message: str = "mock provider error"
    raise_error: BaseException | None = None
    signature: str = "bW9jay1zaWduYXR1cmU="
    """The thinking's signature: Anthropic's signature delta, Gemini's thought
    signature (base64) on the thought and on each function call."""


def stop_of(reply: MockReply) -> StopReason:
    if reply.stop_reason is not None:
        return StopReason(reply.stop_reason)
    return StopReason.tool_use if reply.tool_calls else StopReason.end_turn


def call_id(index: int, call: MockToolCall, prefix: str) -> str:
    return call.id or f"{prefix}_{index + 1}"
