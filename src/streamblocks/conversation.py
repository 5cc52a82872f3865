"""What every provider's request writer and reader share: the few rules that are the
same whatever the wire format.

- A tool result answers a call the model made natively (a :class:`ToolCallBlock` in an
  earlier assistant turn) or a call it wrote in its text (a gadget block). Only the
  first kind can be a provider's tool-result item: the API rejects a result for a call
  it never saw. The second kind is sent as user text (:func:`result_as_text`), which a
  model without a tool API reads as well.
- A tool result's content is text on the wire: a string as is, anything else as JSON.
  APIs without an error flag (OpenAI) get the reason prefixed with ``Error: ``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .content import DocumentBlock, ImageBlock, Message, TextBlock, ToolCallBlock, ToolResultBlock
from .core.json_values import loads

ERROR_PREFIX = "Error: "


def content_text(content: Any) -> str:
    """A tool result's content as the text the model reads."""
    if isinstance(content, str):
        return content
    return json.dumps(content, ensure_ascii=False)


def flagged_text(block: ToolResultBlock) -> str:
    """The content, prefixed with ``Error: `` when it is an error (APIs with no flag)."""
    text = content_text(block.content)
    return ERROR_PREFIX + text if block.is_error else text


def unflag(text: str) -> tuple[str, bool]:
    """:func:`flagged_text` read back: the text and whether it was an error."""
    if text.startswith(ERROR_PREFIX):
        return text[len(ERROR_PREFIX) :], True
    return text, False


def result_as_text(block: ToolResultBlock) -> str:
    """A result for a call written in the text (a gadget), as user text."""
    label = block.name or "the tool"
    state = "failed" if block.is_error else "returned"
    return f"[{label} (call {block.tool_call_id}) {state}]\n{content_text(block.content)}"


def native_call_ids(messages: Iterable[Message]) -> set[str]:
    """The ids of the calls the model made through the provider's tool API."""
    return {
        block.id
        for message in messages
        if message.role == "assistant"
        for block in message.content
        if isinstance(block, ToolCallBlock)
    }


def system_text(messages: Iterable[Message]) -> str:
    """The text of every system message, joined by blank lines."""
    return "\n\n".join(m.text() for m in messages if m.role == "system" and m.text())


def data_url(media_type: str, data: str) -> str:
    return f"data:{media_type};base64,{data}"


def split_data_url(url: str) -> tuple[str, str] | None:
    """``(media_type, base64 data)`` of a ``data:`` URL, else ``None``."""
    if not url.startswith("data:") or ";base64," not in url:
        return None
    head, data = url[5:].split(";base64,", 1)
    return head, data


def joined_text(content: Any) -> str:
    """A message content read back: a string, or the text of a list of parts."""
    if isinstance(content, str) or content is None:
        return content or ""
    return "".join(part.get("text", "") for part in content)


def media_block(kind: type[ImageBlock] | type[DocumentBlock], url: str, **fields: Any) -> Any:
    """An image or document read back from a url, which may be a ``data:`` url."""
    inline = split_data_url(url)
    if inline is None:
        return kind(url=url, **fields)
    return kind(media_type=inline[0], data=inline[1], **fields)


def read_parts(content: Any, readers: Mapping[str, Callable[[Any], Any]]) -> list[Any]:
    """A user content read back: a string is one text block; each part of a list is
    read by the reader of its ``type`` (parts of other types are skipped)."""
    if isinstance(content, str):
        return [TextBlock(content)]
    return [readers[part["type"]](part) for part in content or () if part.get("type") in readers]


def arguments_json(arguments: Any) -> str:
    return json.dumps(arguments, ensure_ascii=False)


def parse_arguments(text: Any) -> dict[str, Any]:
    """A call's argument JSON read back (``{}`` when it is not an object)."""
    if isinstance(text, dict):
        return text
    try:
        value = loads(text) if isinstance(text, str) and text.strip() else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def tool_message(call_id: str, name: str | None, content: Any, is_error: bool) -> Message:
    block = ToolResultBlock(tool_call_id=call_id, name=name, content=content, is_error=is_error)
    return Message(role="tool", content=[block])


def append(out: list[Message], role: Any, blocks: Sequence[Any]) -> None:
    """Add a message read back from a request (empty ones are skipped)."""
    if blocks:
        out.append(Message(role=role, content=list(blocks)))


def text_blocks(text: str) -> list[TextBlock]:
    return [TextBlock(text)] if text else []
