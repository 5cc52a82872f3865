"""Claude Agent SDK input adapter: ``AssistantMessage``, ``UserMessage``,
``SystemMessage``, ``ResultMessage`` and ``StreamEvent`` objects."""

from __future__ import annotations

from typing import Any

from .._base import PASSTHROUGH, Step
from .._jsonl import is_mapping
from ..claude_cli import ClaudeCLIInputAdapter
from ..claude_cli.adapter import Part
from .types import BLOCK_TYPES, SDK_MODULE


def _fields(obj: Any) -> dict[str, Any]:
    return dict(getattr(obj, "__dict__", {}))


def _block(block: Any) -> Any:
    """A content block as its stream-json dict."""
    name = type(block).__name__
    if name not in BLOCK_TYPES:
        return block  # a dict already, or a block type newer than this table
    return {"type": BLOCK_TYPES[name], **_fields(block)}


def as_line(message: Any) -> dict[str, Any] | None:
    """The ``stream-json`` line an SDK message was parsed from (``None``: not a message
    the transcript format has, like ``RateLimitEvent``)."""
    name = type(message).__name__
    fields = _fields(message)
    common = {
        key: fields[key]
        for key in ("session_id", "uuid", "parent_tool_use_id")
        if fields.get(key) is not None
    }
    if name == "AssistantMessage":
        body = {
            "id": fields.get("message_id"),
            "role": "assistant",
            "model": fields.get("model"),
            "content": [_block(b) for b in fields.get("content") or ()],
            "stop_reason": fields.get("stop_reason"),
            "usage": fields.get("usage"),
        }
        return {"type": "assistant", "message": body, **common}
    if name == "UserMessage":
        content = fields.get("content")
        if isinstance(content, list):
            content = [_block(b) for b in content]
        line = {"type": "user", "message": {"role": "user", "content": content}, **common}
        if fields.get("tool_use_result") is not None:
            line["tool_use_result"] = fields["tool_use_result"]
        return line
    if name == "StreamEvent":
        return {"type": "stream_event", "event": fields.get("event"), **common}
    if name == "ResultMessage":
        return {"type": "result", **fields}
    data, subtype = fields.get("data"), fields.get("subtype")
    if is_mapping(data) and isinstance(subtype, str):  # SystemMessage and its subclasses
        return {**data, "type": "system", "subtype": subtype}
    return None


def _is_sdk_message(event: Any) -> bool:
    cls = type(event)
    if not cls.__module__.startswith(SDK_MODULE):
        return False
    return cls.__name__.endswith("Message") or cls.__name__ in ("StreamEvent", "RateLimitEvent")


class ClaudeAgentSDKInputAdapter(ClaudeCLIInputAdapter):
    """Reads what ``claude_agent_sdk.query()`` and ``ClaudeSDKClient.receive_response()``
    yield, sync-fed or async.

    The SDK parses each of the ``claude`` CLI's ``stream-json`` lines into an object; this
    adapter turns each back into its line and reads it exactly as
    :class:`~streamblocks.ext.claude_cli.ClaudeCLIInputAdapter` does, so a run gives the
    same blocks through either: ``AssistantMessage`` text, ``thinking`` and ``tool_call``
    blocks; ``UserMessage`` tool results (with the typed ``code`` / ``command`` /
    ``file_change`` / ``todo`` blocks of ``tool_use_result``); ``StreamEvent`` partial
    messages (``include_partial_messages=True``), whose snapshots are then skipped;
    ``SystemMessage`` (session id, model, tools) and ``ResultMessage`` (stop reason,
    usage with ``cost_usd``, errors) pass through as the SDK's own objects and set the
    stop reason and usage. Other objects (``RateLimitEvent``...) pass through.
    """

    tool_name = "Claude Agent SDK"

    def matches(self, event: Any) -> bool:
        try:
            return _is_sdk_message(event)
        except Exception:
            return False

    def frames(self, item: Any) -> list[Any]:
        """An assistant or user message is cut into its content blocks (so text and tool
        calls keep their order); other messages stay whole, so they pass through as the
        SDK's objects."""
        if isinstance(item, (str, bytes, bytearray, memoryview, list)) or is_mapping(item):
            return super().frames(item)
        line = as_line(item)
        if line is not None and line["type"] in ("assistant", "user"):
            return self._expand(line)
        return [item]

    def _analyze(self, event: Any) -> Step:
        if isinstance(event, Part) or is_mapping(event):
            return super()._analyze(event)
        line = as_line(event)
        return PASSTHROUGH if line is None else super()._analyze(line)

    def error(self, event: Any) -> str | None:
        """The message of an error ``ResultMessage``."""
        if not is_mapping(event):
            line = as_line(event)
            if line is None:
                return None
            event = line
        return super().error(event)
