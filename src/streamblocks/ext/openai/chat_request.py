"""Messages and tools as OpenAI Chat Completions request arguments, and back.

``build`` gives the keyword arguments of ``client.chat.completions.create(...,
stream=True)``: ``messages`` (``tool`` messages answer the assistant's ``tool_calls``),
``tools`` (``{"type": "function", "function": {...}}``) and, for native structured
output, ``response_format`` with a JSON schema. Chat Completions takes no reasoning
back, so thinking is left out. Plain dicts: the SDK is not imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from ...content import (
    DocumentBlock,
    ImageBlock,
    Message,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from ...conversation import (
    append,
    arguments_json,
    data_url,
    flagged_text,
    joined_text,
    media_block,
    native_call_ids,
    parse_arguments,
    read_parts,
    result_as_text,
    tool_message,
    unflag,
)
from ...tools import ToolSpec, model_schema


def tool_list(specs: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {"name": s.name, "description": s.description, "parameters": s.schema},
        }
        for s in specs
    ]


def build(
    messages: Sequence[Message], specs: Sequence[ToolSpec], native: type[BaseModel] | None
) -> dict[str, Any]:
    calls = native_call_ids(messages)
    out: list[dict[str, Any]] = []
    for message in messages:
        out.extend(_message(message, calls))
    kw: dict[str, Any] = {"messages": out}
    if specs:
        kw["tools"] = tool_list(specs)
    if native is not None:
        schema = {"name": native.__name__, "schema": model_schema(native)}
        kw["response_format"] = {"type": "json_schema", "json_schema": schema}
    return kw


def _message(message: Message, calls: set[str]) -> list[dict[str, Any]]:
    role = message.role
    if role == "system":
        return [{"role": "system", "content": message.text()}]
    if role == "user":
        return [{"role": "user", "content": _user_content(message)}]
    if role == "assistant":
        return [_assistant(message)]
    out: list[dict[str, Any]] = []
    for block in message.content:
        if not isinstance(block, ToolResultBlock):
            continue
        if block.tool_call_id in calls:
            text = flagged_text(block)
            out.append({"role": "tool", "tool_call_id": block.tool_call_id, "content": text})
        else:
            out.append({"role": "user", "content": result_as_text(block)})
    return out


def _user_content(message: Message) -> Any:
    blocks = message.content
    if len(blocks) == 1 and isinstance(blocks[0], TextBlock):
        return blocks[0].text
    parts: list[dict[str, Any]] = []
    for block in blocks:
        if isinstance(block, TextBlock):
            parts.append({"type": "text", "text": block.text})
        elif isinstance(block, ImageBlock):
            url = block.url or data_url(block.media_type or "", block.data or "")
            parts.append({"type": "image_url", "image_url": {"url": url}})
        elif isinstance(block, DocumentBlock):
            if block.data is None:
                raise ValueError("Chat Completions takes a document as data, not as a url")
            file: dict[str, Any] = {"file_data": data_url(block.media_type, block.data)}
            if block.title:
                file["filename"] = block.title
            parts.append({"type": "file", "file": file})
    return parts


def _assistant(message: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"role": "assistant"}
    text = message.text()
    calls = [
        {
            "id": block.id,
            "type": "function",
            "function": {"name": block.name, "arguments": arguments_json(block.arguments)},
        }
        for block in message.content
        if isinstance(block, ToolCallBlock)
    ]
    if text or not calls:
        out["content"] = text
    if calls:
        out["tool_calls"] = calls
    return out


# -- reading a request back ----------------------------------------------------------


def read(kw: dict[str, Any]) -> list[Message]:
    """The messages of a Chat Completions request (``build``'s inverse)."""
    names: dict[str, str] = {}
    out: list[Message] = []
    for item in kw.get("messages", ()):
        role, content = item.get("role"), item.get("content")
        if role in ("system", "developer"):
            append(out, "system", [TextBlock(joined_text(content))])
        elif role == "user":
            append(out, "user", read_parts(content, _USER_PARTS))
        elif role == "assistant":
            blocks: list[Any] = [TextBlock(content)] if content else []
            for call in item.get("tool_calls") or ():
                function = call["function"]
                names[call["id"]] = function["name"]
                arguments = parse_arguments(function.get("arguments"))
                blocks.append(
                    ToolCallBlock(id=call["id"], name=function["name"], arguments=arguments)
                )
            append(out, "assistant", blocks)
        elif role == "tool":
            text, error = unflag(joined_text(content))
            call_id = item["tool_call_id"]
            out.append(tool_message(call_id, names.get(call_id), text, error))
    return out


_USER_PARTS = {
    "text": lambda part: TextBlock(part["text"]),
    "image_url": lambda part: media_block(ImageBlock, part["image_url"]["url"]),
    "file": lambda part: media_block(
        DocumentBlock, part["file"].get("file_data", ""), title=part["file"].get("filename")
    ),
}


def tool_names(kw: dict[str, Any]) -> list[str]:
    """The names of the tools a request offers."""
    return [tool["function"]["name"] for tool in kw.get("tools", ())]
