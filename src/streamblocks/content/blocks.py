"""The content block types: one pydantic model per kind of content, each with a ``type``
discriminator so any list of them survives a JSON round trip."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeGuard, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator


class _Content(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TextBlock(_Content):
    """Visible text. ``TextBlock("hi")`` and ``TextBlock(text="hi")`` are the same."""

    type: Literal["text"] = "text"
    text: str

    def __init__(self, text: str | None = None, /, **data: Any) -> None:
        if text is not None:
            data["text"] = text
        super().__init__(**data)


class ThinkingBlock(_Content):
    """The model's reasoning (a provider's thinking/reasoning output)."""

    type: Literal["thinking"] = "thinking"
    text: str
    signature: str | None = None
    """An opaque signature the provider wants back unchanged next turn (Anthropic's
    thinking signature, Gemini's thought signature, base64)."""
    id: str | None = None
    """The block's id; for OpenAI Responses the reasoning item's id (``rs_…``), which
    is sent back as that reasoning item."""
    redacted: str | None = None
    """Anthropic's redacted thinking (encrypted ``data``; ``text`` is empty), sent back
    unchanged."""

    def __init__(self, text: str | None = None, /, **data: Any) -> None:
        if text is not None:
            data["text"] = text
        super().__init__(**data)


class ToolCallBlock(_Content):
    """A call of a tool (a provider-native tool call, or a gadget block)."""

    type: Literal["tool_call"] = "tool_call"
    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    signature: str | None = None
    """Gemini's thought signature of the call (base64), sent back with it."""


class ToolResultBlock(_Content):
    """What a tool returned for the call ``tool_call_id`` (the tool's ``name`` with it:
    Gemini matches results by name)."""

    type: Literal["tool_result"] = "tool_result"
    tool_call_id: str
    name: str | None = None
    content: Any = None
    is_error: bool = False


class ImageBlock(_Content):
    """An image in a user message: ``url`` (``https:``) or base64 ``data`` with its
    ``media_type``."""

    type: Literal["image"] = "image"
    url: str | None = None
    data: str | None = None
    media_type: str | None = None

    @model_validator(mode="after")
    def _one_source(self) -> ImageBlock:
        if (self.url is None) == (self.data is None):
            raise ValueError("an image has either url or data (base64), not both or neither")
        if self.data is not None and not self.media_type:
            raise ValueError("an image given as data needs its media_type (image/png...)")
        return self


class DocumentBlock(_Content):
    """A document in a user message (a PDF...): base64 ``data`` with its ``media_type``,
    or a ``url``; ``title`` names it where the provider shows one."""

    type: Literal["document"] = "document"
    url: str | None = None
    data: str | None = None
    media_type: str = "application/pdf"
    title: str | None = None

    @model_validator(mode="after")
    def _one_source(self) -> DocumentBlock:
        if (self.url is None) == (self.data is None):
            raise ValueError("a document has either url or data (base64), not both or neither")
        return self


class CodeBlock(_Content):
    """Code, with its language when known; for code read from a file (an agent's
    ``Read`` tool) the file's ``path``, the first line shown (``start_line``, 1-based)
    and the file's ``total_lines``."""

    type: Literal["code"] = "code"
    code: str
    language: str | None = None
    path: str | None = None
    start_line: int | None = None
    total_lines: int | None = None


class FileChangeBlock(_Content):
    """A change to a file: ``kind`` is ``add``, ``modify``, ``delete`` or ``rename`` (the
    same words for every agent); ``diff`` or ``content`` when the agent reported them."""

    type: Literal["file_change"] = "file_change"
    path: str
    kind: str = "modify"
    diff: str | None = None
    content: str | None = None


class CommandBlock(_Content):
    """A command an agent ran, with its output and exit code when known; ``stdout``,
    ``stderr`` and ``interrupted`` apart when the agent reports them apart."""

    type: Literal["command"] = "command"
    command: str
    output: str | None = None
    exit_code: int | None = None
    status: str | None = None
    stdout: str | None = None
    stderr: str | None = None
    interrupted: bool | None = None


class TodoItem(_Content):
    text: str
    status: str = "pending"
    """``pending``, ``in_progress``, ``completed`` (or the agent's own word)."""


class TodoBlock(_Content):
    """An agent's todo list."""

    type: Literal["todo"] = "todo"
    items: list[TodoItem] = Field(default_factory=list)


class CustomBlock(_Content):
    """A block of a registered type (XML tag, delimiter, fence...).

    ``tag`` is the block type key (after ``tag=`` remapping: ``debugInfo``, not
    ``debug-info``); ``content`` the block's content (a ``str``, or the content model
    dumped to plain data); ``attrs`` the attributes written on the marker;
    ``self_closing`` is ``True`` for ``<tag/>``. For a line-based block (delimiter,
    frontmatter, fence) ``attrs`` also carries its metadata mapping (``id``,
    ``block_type``, frontmatter keys), so nothing the marker said is lost.
    """

    type: Literal["custom"] = "custom"
    tag: str
    content: Any = ""
    attrs: dict[str, Any] = Field(default_factory=dict)
    self_closing: bool = False


ContentBlock = Annotated[
    Union[  # noqa: UP007  (a PEP 604 union cannot carry the discriminator on 3.10)
        TextBlock,
        ThinkingBlock,
        ToolCallBlock,
        ToolResultBlock,
        ImageBlock,
        DocumentBlock,
        CodeBlock,
        FileChangeBlock,
        CommandBlock,
        TodoBlock,
        CustomBlock,
    ],
    Field(discriminator="type"),
]
"""Any content block, discriminated by ``type``."""

content_block_adapter: TypeAdapter[ContentBlock] = TypeAdapter(ContentBlock)
"""Validates or dumps a single content block (``content_block_adapter.validate_json``)."""


def is_custom_block(block: object) -> TypeGuard[CustomBlock]:
    """Whether ``block`` is a :class:`CustomBlock` (narrows the type for checkers)."""
    return isinstance(block, CustomBlock)
