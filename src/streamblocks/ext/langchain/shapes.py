"""What a LangChain or LangGraph stream item holds, by shape.

LangGraph wraps the messages a graph streams in envelopes: ``(message, metadata)`` for
``stream_mode="messages"``, ``(mode, payload)`` for a list of modes, ``(namespace, ...)``
with ``subgraphs=True``, ``{"type": mode, "ns", "data"}`` parts with ``version="v2"`` and
``{"type": "event", "method", "params"}`` protocol events with ``stream_events(version="v3")``.
:func:`unwrap` takes them off and says what is inside.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .types import CHUNK_TYPE, MESSAGE_TYPES, STREAM_MODES, V3_EVENTS

MESSAGE = "message"
"""A LangChain message: an ``AIMessageChunk``, a whole ``AIMessage``, a ``ToolMessage``..."""
V3 = "v3"
"""One event of ``stream_events(version="v3")``: ``message-start``, ``content-block-*``..."""
V2 = "v2"
"""One ``astream_events(version="v2")`` event dict (``on_chat_model_stream``...)."""
OTHER = "other"
"""A LangGraph item that holds no message (a state update, values, a custom payload)."""


def is_message(obj: Any) -> bool:
    """A LangChain message object (of any ``langchain*`` module), or its ``model_dump()``."""
    if isinstance(obj, Mapping):
        return obj.get("type") in MESSAGE_TYPES and "content" in obj
    if not type(obj).__module__.startswith("langchain"):
        return False
    return getattr(obj, "type", None) in MESSAGE_TYPES and hasattr(obj, "content")


def _is_namespace(obj: Any) -> bool:
    return isinstance(obj, tuple) and all(isinstance(part, str) for part in obj)


def _mode(mode: str, payload: Any) -> tuple[str, Any]:
    """What one LangGraph stream mode's payload holds."""
    if mode == "messages" and isinstance(payload, (tuple, list)) and len(payload) == 2:
        inner = payload[0]
        if is_message(inner):
            return MESSAGE, inner
        if isinstance(inner, Mapping) and inner.get("event") in V3_EVENTS | {"error"}:
            return V3, inner
    return OTHER, None


def _unwrap_tuple(event: tuple[Any, ...]) -> tuple[str, Any] | None:
    if len(event) == 2:
        head, tail = event
        if isinstance(head, str):
            return _mode(head, tail) if head in STREAM_MODES else None
        if isinstance(tail, Mapping) and is_message(head):
            return MESSAGE, head  # stream_mode="messages": (message, metadata)
        if _is_namespace(head):  # subgraphs=True with one mode: (namespace, payload)
            if isinstance(tail, tuple):
                inner = _unwrap_tuple(tail)
                if inner is not None:
                    return inner
            return OTHER, None
        return None
    if len(event) == 3 and _is_namespace(event[0]) and event[1] in STREAM_MODES:
        return _mode(event[1], event[2])  # subgraphs=True, a list of modes
    return None


def _unwrap_mapping(event: Mapping[str, Any]) -> tuple[str, Any] | None:
    name = event.get("event")
    if isinstance(name, str):
        if name in V3_EVENTS:
            return V3, event
        if name.startswith("on_") and "run_id" in event:
            return V2, event
        return None
    kind = event.get("type")
    if kind == CHUNK_TYPE and "content" in event:
        return MESSAGE, event
    if kind == "event":  # LangGraph stream_events(version="v3")
        params = event.get("params")
        method = event.get("method")
        if not isinstance(params, Mapping) or not isinstance(method, str):
            return None
        return _mode(method, params.get("data")) if method in STREAM_MODES else (OTHER, None)
    if kind in STREAM_MODES and "ns" in event and "data" in event:  # stream(version="v2")
        return _mode(kind, event["data"])
    return None


def unwrap(event: Any) -> tuple[str, Any] | None:
    """``(what, inner)`` for a LangChain/LangGraph item, ``None`` for anything else:
    ``what`` is :data:`MESSAGE`, :data:`V3`, :data:`V2` (``inner``: the message or
    event) or :data:`OTHER` (``inner``: ``None``)."""
    if event.__class__ is tuple:
        return _unwrap_tuple(event)
    if isinstance(event, Mapping):
        return _unwrap_mapping(event)
    if is_message(event):
        return MESSAGE, event
    return None


__all__ = ["MESSAGE", "OTHER", "V2", "V3", "is_message", "unwrap"]
