"""streamblocks: extract structured blocks from streaming LLM output in real time.

Feed a provider's stream to :class:`StreamBlockProcessor`; get text deltas and typed,
validated blocks as events while the reply is still streaming.
"""

from __future__ import annotations

from .core.blocks import Block
from .core.errors import (
    AdapterWarning,
    ErrorCode,
    HookWarning,
    RegistryError,
    SessionClosedError,
    StreamBlocksError,
    StreamBlocksWarning,
)
from .core.events import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockStart,
    Counts,
    Event,
    EventType,
    Passthrough,
    StopReason,
    StreamFinished,
    StreamStarted,
    TextDelta,
    Usage,
)
from .core.limits import Limits
from .core.processor import StreamBlockProcessor
from .core.registry import BlockRegistry, BlockType
from .core.session import Session
from .syntaxes import (
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    MarkdownFrontmatterSyntax,
    Syntax,
)

__version__ = "0.1.0"

__all__ = [
    "AdapterWarning",
    "Block",
    "BlockDelta",
    "BlockEnd",
    "BlockError",
    "BlockMetadata",
    "BlockRegistry",
    "BlockStart",
    "BlockType",
    "Counts",
    "DelimiterFrontmatterSyntax",
    "DelimiterPreambleSyntax",
    "ErrorCode",
    "Event",
    "EventType",
    "HookWarning",
    "Limits",
    "MarkdownFrontmatterSyntax",
    "Passthrough",
    "RegistryError",
    "Session",
    "SessionClosedError",
    "StopReason",
    "StreamBlockProcessor",
    "StreamBlocksError",
    "StreamBlocksWarning",
    "StreamFinished",
    "StreamStarted",
    "Syntax",
    "TextDelta",
    "Usage",
    "__version__",
]
