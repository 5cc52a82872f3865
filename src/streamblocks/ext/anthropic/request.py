"""Messages and tools as Anthropic Messages API request arguments, and back.

``build`` gives the keyword arguments of ``client.messages.create(..., stream=True)``:
``system`` at the top level, ``messages`` alternating ``user`` and ``assistant`` (tool
results are ``tool_result`` blocks in a user turn; consecutive turns of one role are
merged into one), ``tools`` (``name``, ``description``, ``input_schema``). Thinking goes
back with its signature, unchanged, as the API requires; thinking without a signature
(from another provider) is left out, since the API would reject it. Plain dicts.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from ...content import (
    DocumentBlock,
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from ...conversation import (
    append,
    content_text,
    joined_text,
    native_call_ids,
    result_as_text,
    system_text,
    tool_message,
)
from ...tools import ToolSpec


def tool_list(specs: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    return [{"name": s.name, "description": s.description, "input_schema": s.schema} for s in specs]


def build(
    messages: Sequence[Message], specs: Sequence[ToolSpec], native: type[BaseModel] | None
) -> dict[str, Any]:
    if native is not None:
        raise ValueError(
            "the Anthropic Messages API has no native structured output mode here: "
            "use output= without native_output=True (the finish tool)"
        )
    calls = native_call_ids(messages)
    turns: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system":
            continue
        role = "assistant" if message.role == "assistant" else "user"
        blocks = [part for block in message.content for part in _blocks(block, calls)]
        if not blocks:
            continue
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})
    kw: dict[str, Any] = {"messages": turns}
    system = system_text(messages)
    if system:
        kw["system"] = system
    if specs:
        kw["tools"] = tool_list(specs)
    return kw


def _blocks(block: Any, calls: set[str]) -> list[dict[str, Any]]:
    if isinstance(block, TextBlock):
        return [{"type": "text", "text": block.text}] if block.text else []
    if isinstance(block, ThinkingBlock):
        if block.redacted is not None:
            return [{"type": "redacted_thinking", "data": block.redacted}]
        if not block.signature:
            return []
        return [{"type": "thinking", "thinking": block.text, "signature": block.signature}]
    if isinstance(block, ToolCallBlock):
        return [{"type": "tool_use", "id": block.id, "name": block.name, "input": block.arguments}]
    if isinstance(block, ToolResultBlock):
        if block.tool_call_id not in calls:
            return [{"type": "text", "text": result_as_text(block)}]
        result: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": block.tool_call_id,
            "content": content_text(block.content),
        }
        if block.is_error:
            result["is_error"] = True
        return [result]
    if isinstance(block, ImageBlock):
        return [{"type": "image", "source": _source(block.url, block.media_type, block.data)}]
    if isinstance(block, DocumentBlock):
        document: dict[str, Any] = {
            "type": "document",
            "source": _source(block.url, block.media_type, block.data),
        }
        if block.title:
            document["title"] = block.title
        return [document]
    return []


def _source(url: str | None, media_type: str | None, data: str | None) -> dict[str, Any]:
    if url is not None:
        return {"type": "url", "url": url}
    if media_type == "text/plain":
        text = base64.b64decode(data or "").decode("utf-8")
        return {"type": "text", "media_type": "text/plain", "data": text}
    return {"type": "base64", "media_type": media_type, "data": data}


# -- reading a request back ----------------------------------------------------------


def read(kw: dict[str, Any]) -> list[Message]:
    """The messages of a Messages API request (``build``'s inverse): each ``tool_result``
    block is a ``"tool"`` message again."""
    out: list[Message] = []
    system = kw.get("system")
    if system:
        out.append(Message.system(joined_text(system)))
    names: dict[str, str] = {}
    for turn in kw.get("messages", ()):
        content = turn["content"]
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if turn["role"] == "assistant":
            append(out, "assistant", [_assistant_block(block, names) for block in content])
            continue
        pending: list[Any] = []
        for block in content:
            if block["type"] == "tool_result":
                append(out, "user", pending)
                pending = []
                call_id = block["tool_use_id"]
                text = joined_text(block.get("content"))
                error = bool(block.get("is_error"))
                out.append(tool_message(call_id, names.get(call_id), text, error))
            else:
                pending.append(_user_block(block))
        append(out, "user", pending)
    return out


def _assistant_block(block: dict[str, Any], names: dict[str, str]) -> Any:
    kind = block["type"]
    if kind == "thinking":
        return ThinkingBlock(block["thinking"], signature=block.get("signature"))
    if kind == "redacted_thinking":
        return ThinkingBlock("", redacted=block["data"])
    if kind == "tool_use":
        names[block["id"]] = block["name"]
        return ToolCallBlock(id=block["id"], name=block["name"], arguments=block.get("input", {}))
    return TextBlock(block.get("text", ""))


def _user_block(block: dict[str, Any]) -> Any:
    kind = block["type"]
    if kind in ("image", "document"):
        source = block["source"]
        if source["type"] == "url":
            fields: dict[str, Any] = {"url": source["url"]}
        elif source["type"] == "text":
            data = base64.b64encode(source["data"].encode("utf-8")).decode("ascii")
            fields = {"media_type": "text/plain", "data": data}
        else:
            fields = {"media_type": source["media_type"], "data": source["data"]}
        if kind == "image":
            return ImageBlock(**fields)
        return DocumentBlock(**fields, title=block.get("title"))
    return TextBlock(block.get("text", ""))


def tool_names(kw: dict[str, Any]) -> list[str]:
    """The names of the tools a request offers."""
    return [tool["name"] for tool in kw.get("tools", ())]
