"""Open-weight models' in-text thinking and tool calls as native blocks.

``StreamBlockProcessor(registry, markup=…)`` reads the markup of a model family
(:data:`FAMILIES`) out of the reply text: ``<think>…</think>`` becomes a ``thinking``
block, ``<tool_call>{…}</tool_call>`` (and each family's own form) a ``tool_call`` block
with ``name``, ``id`` and the argument object, exactly like the blocks the provider
adapters report. See the "Model markup" page of the documentation.
"""

from __future__ import annotations

from .families import ALIASES, FAMILIES, Markup, markup_for, model_family
from .switch import thinking_of

__all__ = ["ALIASES", "FAMILIES", "Markup", "markup_for", "model_family", "thinking_of"]
