"""The content model: a reply as an ordered list of typed content blocks.

Every block type is a pydantic model with a ``type`` discriminator, so a
:class:`Message` survives a JSON round trip (``Message.model_validate_json(
message.model_dump_json())``). One conversation model goes both ways: a step's reply
is a ``Message`` (``MessageAccumulator``, ``StepResult.message``) and so is every turn
of the next request (``Message.system/user/assistant/tool``, ``streamblocks.request``).
"""

from .accumulator import DEFAULT_CONVERTERS, Converter, MessageAccumulator, to_custom
from .blocks import (
    CodeBlock,
    CommandBlock,
    ContentBlock,
    CustomBlock,
    DocumentBlock,
    FileChangeBlock,
    ImageBlock,
    TextBlock,
    ThinkingBlock,
    TodoBlock,
    TodoItem,
    ToolCallBlock,
    ToolResultBlock,
    content_block_adapter,
    is_custom_block,
)
from .message import Message, Role

__all__ = [
    "DEFAULT_CONVERTERS",
    "CodeBlock",
    "CommandBlock",
    "ContentBlock",
    "Converter",
    "CustomBlock",
    "DocumentBlock",
    "FileChangeBlock",
    "ImageBlock",
    "Message",
    "MessageAccumulator",
    "Role",
    "TextBlock",
    "ThinkingBlock",
    "TodoBlock",
    "TodoItem",
    "ToolCallBlock",
    "ToolResultBlock",
    "content_block_adapter",
    "is_custom_block",
    "to_custom",
]
