"""How ``markup=`` reaches the core without the core importing the markup package.

The model-markup package (:mod:`streamblocks.markup`) builds on the core, so the core
cannot import it. The face (``streamblocks/__init__.py``, imported before any module of
the package) gives this module the function that turns what a user passes as
``StreamBlockProcessor(markup=...)`` — a family name, a ``Markup``, a list of them,
``"auto"`` — into a :class:`MarkupPlan`: the plan entries the core runs ahead of the
registered syntaxes. The core sees only that protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # (not at run time: the face imports this module, which stays light)
    from .syntax import SyntaxPlan


class MarkupPlan(Protocol):
    """``markup=`` resolved: the syntaxes it adds to a processor's plan."""

    @property
    def auto(self) -> bool:
        """Whether the markup is the model's (``"auto"``): the first item of each stream
        names the model, so each stream gets its own entries."""
        ...

    def entries(self, model: str | None, request: Mapping[str, Any] | None = None) -> SyntaxPlan:
        """The plan entries, first in priority (``model``: the stream's, when ``auto``;
        ``request``: the keyword arguments the stream was asked for with, if known)."""
        ...

    def model_of(self, item: Any) -> str | None:
        """The model the first item of a stream names, if any."""
        ...


MarkupResolver = Callable[[Any], MarkupPlan]

_resolver: list[MarkupResolver] = []


def set_markup_resolver(resolver: MarkupResolver) -> None:
    """Install the function that resolves ``markup=`` (the face does, once)."""
    _resolver[:] = [resolver]


def resolve_markup(spec: Any) -> MarkupPlan | None:
    """``markup=`` as the core runs it; ``None`` for no markup."""
    if spec is None:
        return None
    if not _resolver:  # (only when the package's own __init__ did not run)
        raise RuntimeError("markup= needs the streamblocks package's face to be imported")
    return _resolver[0](spec)


__all__ = ["MarkupPlan", "MarkupResolver", "resolve_markup", "set_markup_resolver"]
