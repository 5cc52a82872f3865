"""streamblocks: extract structured blocks from streaming LLM output in real time.

Feed a provider's stream to :class:`StreamBlockProcessor`; get text deltas and typed,
validated blocks as events while the reply is still streaming.
"""

from __future__ import annotations

from ._version import __version__
from .core.abort import AbortPolicy
from .core.blocks import Block
from .core.errors import (
    AdapterWarning,
    ErrorCode,
    HookWarning,
    RegistryError,
    SessionClosedError,
    SnapshotError,
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
from .loop import Outcome, ProviderError, StepResult, ToolCall, acollect, collect
from .request import request
from .subagents import SubAgent
from .syntaxes import (
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    GadgetSyntax,
    MarkdownFrontmatterSyntax,
    Syntax,
    XMLTagSyntax,
)
from .tools import FINISH_TOOL, Tool, Tools
from .transforms import DeltaTransform, compose_transforms

__all__ = [
    "FINISH_TOOL",
    "AbortPolicy",
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
    "DeltaTransform",
    "ErrorCode",
    "Event",
    "EventType",
    "GadgetSyntax",
    "HookWarning",
    "Limits",
    "MarkdownFrontmatterSyntax",
    "Outcome",
    "Passthrough",
    "ProviderError",
    "RegistryError",
    "Session",
    "SessionClosedError",
    "SnapshotError",
    "StepResult",
    "StopReason",
    "StreamBlockProcessor",
    "StreamBlocksError",
    "StreamBlocksWarning",
    "StreamFinished",
    "StreamStarted",
    "SubAgent",
    "Syntax",
    "TextDelta",
    "Tool",
    "ToolCall",
    "Tools",
    "Usage",
    "XMLTagSyntax",
    "__version__",
    "acollect",
    "collect",
    "compose_transforms",
    "request",
]
