"""Messages and tools as google-genai ``generate_content_stream`` arguments, and back.

``build`` gives ``contents`` (``user`` and ``model`` turns of parts; a tool result is a
``function_response`` part in a user turn, named after its tool; consecutive turns of
one role are merged) and a ``config`` with the ``system_instruction``, the function
declarations and, for native structured output, ``response_schema``. Thought
signatures go back on the part they came with (a thought, a function call), as bytes.
Plain dicts the SDK validates; ``google.genai`` is not imported.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import mimetypes
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
    joined_text,
    native_call_ids,
    result_as_text,
    system_text,
    tool_message,
)
from ...tools import ToolSpec, model_schema
from .schema import gemini_schema


def tool_list(specs: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    if not specs:
        return []
    declarations = [
        {"name": s.name, "description": s.description, "parameters": gemini_schema(s.schema)}
        for s in specs
    ]
    return [{"function_declarations": declarations}]


def build(
    messages: Sequence[Message], specs: Sequence[ToolSpec], native: type[BaseModel] | None
) -> dict[str, Any]:
    calls = native_call_ids(messages)
    names = {
        block.id: block.name
        for message in messages
        for block in message.content
        if isinstance(block, ToolCallBlock)
    }
    contents: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system":
            continue
        role = "model" if message.role == "assistant" else "user"
        parts = [part for block in message.content for part in _parts(block, calls, names)]
        if not parts:
            continue
        if contents and contents[-1]["role"] == role:
            contents[-1]["parts"].extend(parts)
        else:
            contents.append({"role": role, "parts": parts})
    config: dict[str, Any] = {}
    system = system_text(messages)
    if system:
        config["system_instruction"] = system
    if specs:
        config["tools"] = tool_list(specs)
    if native is not None:
        config["response_mime_type"] = "application/json"
        config["response_schema"] = gemini_schema(model_schema(native))
    kw: dict[str, Any] = {"contents": contents}
    if config:
        kw["config"] = config
    return kw


def _signed(part: dict[str, Any], signature: str | None) -> dict[str, Any]:
    if signature:
        # Not base64 (another provider's signature): left out.
        with contextlib.suppress(binascii.Error, ValueError):
            part["thought_signature"] = base64.b64decode(signature, validate=True)
    return part


def _parts(block: Any, calls: set[str], names: dict[str, str]) -> list[dict[str, Any]]:
    if isinstance(block, TextBlock):
        return [{"text": block.text}] if block.text else []
    if isinstance(block, ThinkingBlock):
        if block.redacted is not None:
            return []  # another provider's encrypted thinking
        return [_signed({"text": block.text, "thought": True}, block.signature)]
    if isinstance(block, ToolCallBlock):
        call = {"id": block.id, "name": block.name, "args": block.arguments}
        return [_signed({"function_call": call}, block.signature)]
    if isinstance(block, ToolResultBlock):
        if block.tool_call_id not in calls:
            return [{"text": result_as_text(block)}]
        key = "error" if block.is_error else "output"
        response = {
            "id": block.tool_call_id,
            "name": block.name or names.get(block.tool_call_id, ""),
            "response": {key: block.content},
        }
        return [{"function_response": response}]
    if isinstance(block, (ImageBlock, DocumentBlock)):
        media_type = block.media_type or _guess(block.url)
        if block.url is not None:
            return [{"file_data": {"file_uri": block.url, "mime_type": media_type}}]
        data = base64.b64decode(block.data or "")
        return [{"inline_data": {"data": data, "mime_type": media_type}}]
    return []


def _guess(url: str | None) -> str:
    """The media type of an image url given without one (Gemini needs it)."""
    guessed = mimetypes.guess_type(url or "")[0]
    return guessed if guessed and guessed.startswith("image/") else "image/jpeg"


# -- reading a request back ----------------------------------------------------------


def read(kw: dict[str, Any]) -> list[Message]:
    """The messages of a ``generate_content`` request (``build``'s inverse): each
    ``function_response`` part is a ``"tool"`` message again."""
    out: list[Message] = []
    config = kw.get("config") or {}
    system = config.get("system_instruction")
    if system:
        parts = system if isinstance(system, str) else system.get("parts")
        out.append(Message.system(joined_text(parts)))
    for content in kw.get("contents", ()):
        parts = content.get("parts", ())
        if content.get("role") == "model":
            append(out, "assistant", [_model_block(part) for part in parts])
            continue
        pending: list[Any] = []
        for part in parts:
            response = part.get("function_response")
            if response is None:
                pending.append(_user_block(part))
                continue
            append(out, "user", pending)
            pending = []
            body = response.get("response") or {}
            error = "error" in body
            value = body.get("error") if error else body.get("output")
            out.append(tool_message(response.get("id", ""), response.get("name"), value, error))
        append(out, "user", pending)
    return out


def _signature(part: dict[str, Any]) -> str | None:
    raw = part.get("thought_signature")
    return base64.b64encode(raw).decode("ascii") if isinstance(raw, bytes) else raw


def _model_block(part: dict[str, Any]) -> Any:
    call = part.get("function_call")
    if call is not None:
        return ToolCallBlock(
            id=call.get("id", ""),
            name=call["name"],
            arguments=call.get("args") or {},
            signature=_signature(part),
        )
    if part.get("thought"):
        return ThinkingBlock(part.get("text", ""), signature=_signature(part))
    return TextBlock(part.get("text", ""))


def _user_block(part: dict[str, Any]) -> Any:
    if "inline_data" in part:
        inline = part["inline_data"]
        data = base64.b64encode(inline["data"]).decode("ascii")
        kind = ImageBlock if inline["mime_type"].startswith("image/") else DocumentBlock
        return kind(media_type=inline["mime_type"], data=data)
    if "file_data" in part:
        file = part["file_data"]
        kind = ImageBlock if file["mime_type"].startswith("image/") else DocumentBlock
        return kind(url=file["file_uri"], media_type=file["mime_type"])
    return TextBlock(part.get("text", ""))


def tool_names(kw: dict[str, Any]) -> list[str]:
    """The names of the functions a request declares."""
    tools = (kw.get("config") or {}).get("tools") or ()
    return [d["name"] for tool in tools for d in tool.get("function_declarations") or ()]
