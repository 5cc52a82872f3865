"""streamblocks: extract structured blocks from streaming LLM output in real time.

Feed a provider's stream to :class:`StreamBlockProcessor`; get text deltas and typed,
validated blocks as events while the reply is still streaming.

Importing the package loads nothing else: each public name loads its module when it is
first used (PEP 562). A program that only parses streams loads the core and nothing of
the agent loop, the request side or the content models; ``streamblocks --version``
answers without loading the core.
"""

from __future__ import annotations

import importlib
import sys
import types
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .core.markup_hook import set_markup_resolver

if TYPE_CHECKING:
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

    compiled: bool

# Public names -> the module that defines them, imported on first use.
_LAZY = {
    name: module
    for module, names in (
        ("core.abort", ("AbortPolicy",)),
        ("core.blocks", ("Block",)),
        (
            "core.errors",
            (
                "AdapterWarning",
                "ErrorCode",
                "HookWarning",
                "RegistryError",
                "SessionClosedError",
                "SnapshotError",
                "StreamBlocksError",
                "StreamBlocksWarning",
            ),
        ),
        (
            "core.events",
            (
                "BlockDelta",
                "BlockEnd",
                "BlockError",
                "BlockMetadata",
                "BlockStart",
                "Counts",
                "Event",
                "EventType",
                "Passthrough",
                "StopReason",
                "StreamFinished",
                "StreamStarted",
                "TextDelta",
                "Usage",
            ),
        ),
        ("core.limits", ("Limits",)),
        ("core.processor", ("StreamBlockProcessor",)),
        ("core.registry", ("BlockRegistry", "BlockType")),
        ("core.session", ("Session",)),
        ("loop", ("Outcome", "ProviderError", "StepResult", "ToolCall", "acollect", "collect")),
        ("request", ("request",)),
        ("subagents", ("SubAgent",)),
        (
            "syntaxes",
            (
                "DelimiterFrontmatterSyntax",
                "DelimiterPreambleSyntax",
                "GadgetSyntax",
                "MarkdownFrontmatterSyntax",
                "Syntax",
                "XMLTagSyntax",
            ),
        ),
        ("tools", ("FINISH_TOOL", "Tool", "Tools")),
        ("transforms", ("DeltaTransform", "compose_transforms")),
    )
    for name in names
}


def _compiled() -> bool:
    """Whether the core runs compiled (``STREAMBLOCKS_COMPILE=1 pip install .``, see
    ``docs/builds.md``) or as the pure-Python source: whether the session module is an
    extension module, asked without importing the core (``streamblocks --version``)."""
    session = sys.modules.get(f"{__name__}.core.session")
    if session is not None:
        return not str(getattr(session, "__file__", "")).endswith(".py")
    folder = Path(__file__).parent / "core"
    return any((folder / f"session{suffix}").exists() for suffix in EXTENSION_SUFFIXES)


def __getattr__(name: str) -> Any:
    if name == "compiled":
        value: Any = _compiled()
    else:
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "compiled"})


class _Package(types.ModuleType):
    """This package's module type: importing the submodule ``streamblocks.request``
    would set the attribute ``request`` to that module, hiding the function."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _LAZY and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def _resolve_markup(spec: Any) -> Any:
    """``StreamBlockProcessor(markup=...)`` resolved by the markup package, which builds
    on the core: the core calls this through :mod:`.core.markup_hook` and imports
    nothing above it."""
    from .markup.config import MarkupChoice

    return MarkupChoice(spec)


set_markup_resolver(_resolve_markup)


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
