"""The block types the commands use without ``--registry``."""

from __future__ import annotations

from ..core.registry import BlockRegistry
from ..syntaxes import (
    DelimiterFrontmatterSyntax,
    GadgetSyntax,
    MarkdownFrontmatterSyntax,
    XMLTagSyntax,
)
from .loading import load_registry

DEFAULT_UNKNOWN: dict[str, str] = {"xml": "text", "*": "block"}
"""The default registry's policy for unregistered names: an unknown ``!!`` type, fence
or gadget call is a generic block, but an unregistered tag stays text — replies are
full of inline HTML (``<kbd>``, ``<b>``, ``<img …>``) that is no block."""


def demo_registry() -> BlockRegistry:
    """The block types of the bundled demo reply."""
    registry = BlockRegistry()
    registry.register("note", description="An observation.")
    registry.register("todo", description="A list of next steps.")
    registry.register("patch", syntax=DelimiterFrontmatterSyntax(), description="A code change.")
    registry.register("shell", syntax=MarkdownFrontmatterSyntax(), description="A command to run.")
    return registry


def default_registry() -> BlockRegistry:
    """What ``extract``, ``view`` and ``run`` use without ``--registry``: a few common
    types in each of the five syntaxes, so that every syntax is active; with
    :data:`DEFAULT_UNKNOWN` (the default then) any other type name — a gadget call too —
    shows as a generic block, except an XML/HTML tag, which stays text."""
    registry = demo_registry()
    xml = XMLTagSyntax()
    registry.register("cite", syntax=xml, description="A citation of a source.")
    registry.register("thinking", syntax=xml, description="Reasoning before the answer.")
    registry.register("Search", syntax=GadgetSyntax(), description="Search the web.")
    return registry


def registry_for(
    spec: str | None, unknown: str | None
) -> tuple[BlockRegistry, str | dict[str, str]]:
    """The registry ``--registry`` names (unknown types stay text) or the default one
    (:data:`DEFAULT_UNKNOWN`); ``unknown`` overrides either, for every syntax."""
    if spec:
        return load_registry(spec), unknown or "text"
    return default_registry(), unknown or dict(DEFAULT_UNKNOWN)


__all__ = ["DEFAULT_UNKNOWN", "default_registry", "demo_registry", "registry_for"]
