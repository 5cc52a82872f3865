"""streamblocks: extract structured blocks from streaming LLM output in real time.

Feed a provider's stream to :class:`StreamBlockProcessor`; get text deltas and typed,
validated blocks as events while the reply is still streaming.

Importing the package loads the core only; the agent loop, the request side and the tool
declarations load when one of their names is first used (PEP 562), so that a program that
only parses streams starts fast.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from . import core
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
from .syntaxes import (
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    GadgetSyntax,
    MarkdownFrontmatterSyntax,
    Syntax,
    XMLTagSyntax,
)
from .transforms import DeltaTransform, compose_transforms

if TYPE_CHECKING:
    from .loop import Outcome, ProviderError, StepResult, ToolCall, acollect, collect
    from .request import request
    from .subagents import SubAgent
    from .tools import FINISH_TOOL, Tool, Tools

compiled: bool = not str(getattr(core.session, "__file__", "")).endswith(".py")
"""Whether the core runs compiled (``STREAMBLOCKS_COMPILE=1 pip install .``, see
``docs/builds.md``) or as the pure-Python source."""

# Public names whose module loads on first use: name -> module.
_LAZY = {
    **dict.fromkeys(
        ("Outcome", "ProviderError", "StepResult", "ToolCall", "acollect", "collect"), "loop"
    ),
    "request": "request",
    "SubAgent": "subagents",
    **dict.fromkeys(("FINISH_TOOL", "Tool", "Tools"), "tools"),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


class _Package(types.ModuleType):
    """This package's module type: importing the submodule ``streamblocks.request``
    would set the attribute ``request`` to that module, hiding the function."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _LAZY and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


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
    "compiled",
    "compose_transforms",
    "request",
]
