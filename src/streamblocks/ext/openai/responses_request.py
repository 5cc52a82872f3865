"""Messages and tools as OpenAI Responses API request arguments, and back.

``build`` gives the keyword arguments of ``client.responses.create(..., stream=True)``:
``input`` (messages, ``reasoning`` items, ``function_call`` items and their
``function_call_output``), ``tools`` (``{"type": "function", "name": ...}``) and, for
native structured output, ``text.format`` with a JSON schema. A reasoning item goes
back with the id the API gave it (a :class:`ThinkingBlock` whose ``id`` starts with
``rs_``): a reasoning model needs it next to the calls it made. Plain dicts.
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
    ThinkingBlock,
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

REASONING_ID_PREFIX = "rs_"


def tool_list(specs: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "name": s.name,
            "description": s.description,
            "parameters": s.schema,
            "strict": False,
        }
        for s in specs
    ]


def build(
    messages: Sequence[Message], specs: Sequence[ToolSpec], native: type[BaseModel] | None
) -> dict[str, Any]:
    calls = native_call_ids(messages)
    items: list[dict[str, Any]] = []
    for message in messages:
        items.extend(_items(message, calls))
    kw: dict[str, Any] = {"input": items}
    if specs:
        kw["tools"] = tool_list(specs)
    if native is not None:
        schema = model_schema(native)
        kw["text"] = {"format": {"type": "json_schema", "name": native.__name__, "schema": schema}}
    return kw


def _items(message: Message, calls: set[str]) -> list[dict[str, Any]]:
    role = message.role
    if role == "system":
        return [{"role": "system", "content": message.text()}]
    if role == "user":
        return [{"role": "user", "content": [_user_part(block) for block in message.content]}]
    out: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, TextBlock) and block.text:
            out.append({"role": "assistant", "content": block.text})
        elif isinstance(block, ThinkingBlock) and (block.id or "").startswith(REASONING_ID_PREFIX):
            summary = [{"type": "summary_text", "text": block.text}] if block.text else []
            out.append({"type": "reasoning", "id": block.id, "summary": summary})
        elif isinstance(block, ToolCallBlock):
            out.append(
                {
                    "type": "function_call",
                    "call_id": block.id,
                    "name": block.name,
                    "arguments": arguments_json(block.arguments),
                }
            )
        elif isinstance(block, ToolResultBlock):
            if block.tool_call_id in calls:
                output = flagged_text(block)
                out.append(
                    {
                        "type": "function_call_output",
                        "call_id": block.tool_call_id,
                        "output": output,
                    }
                )
            else:
                out.append({"role": "user", "content": result_as_text(block)})
    return out


def _user_part(block: Any) -> dict[str, Any]:
    if isinstance(block, ImageBlock):
        url = block.url or data_url(block.media_type or "", block.data or "")
        return {"type": "input_image", "image_url": url, "detail": "auto"}
    if isinstance(block, DocumentBlock):
        if block.data is None:
            return {"type": "input_file", "file_url": block.url}
        part = {"type": "input_file", "file_data": data_url(block.media_type, block.data)}
        return {**part, "filename": block.title} if block.title else part
    return {"type": "input_text", "text": block.text if isinstance(block, TextBlock) else ""}


# -- reading a request back ----------------------------------------------------------


def read(kw: dict[str, Any]) -> list[Message]:
    """The messages of a Responses request (``build``'s inverse)."""
    names: dict[str, str] = {}
    out: list[Message] = []
    turn: list[Any] = []  # the assistant turn being read: reasoning, text, calls
    for item in kw.get("input", ()):
        kind, role = item.get("type"), item.get("role")
        if kind == "reasoning":
            text = "".join(part.get("text", "") for part in item.get("summary") or ())
            turn.append(ThinkingBlock(text, id=item.get("id")))
        elif kind == "function_call":
            names[item["call_id"]] = item["name"]
            arguments = parse_arguments(item.get("arguments"))
            turn.append(ToolCallBlock(id=item["call_id"], name=item["name"], arguments=arguments))
        elif role == "assistant":
            turn.append(TextBlock(joined_text(item.get("content"))))
        else:
            append(out, "assistant", turn)
            turn = []
            if kind == "function_call_output":
                text, error = unflag(item.get("output", ""))
                call_id = item["call_id"]
                out.append(tool_message(call_id, names.get(call_id), text, error))
            elif role in ("system", "developer"):
                append(out, "system", [TextBlock(joined_text(item.get("content")))])
            elif role == "user":
                append(out, "user", read_parts(item.get("content"), _USER_PARTS))
    append(out, "assistant", turn)
    return out


_USER_PARTS = {
    "input_text": lambda part: TextBlock(part["text"]),
    "input_image": lambda part: media_block(ImageBlock, part.get("image_url") or ""),
    "input_file": lambda part: media_block(
        DocumentBlock,
        part.get("file_data") or part.get("file_url") or "",
        title=part.get("filename"),
    ),
}


def tool_names(kw: dict[str, Any]) -> list[str]:
    """The names of the function tools a request offers."""
    return [tool["name"] for tool in kw.get("tools", ()) if tool.get("type") == "function"]
