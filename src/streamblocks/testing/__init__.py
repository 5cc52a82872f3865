"""Test helpers for streamblocks users and adapter authors.

- :class:`AdapterConformance` + :class:`AdapterSample`: a pytest test class checking an
  input adapter against the contract (text exactly once, categories, stop reason,
  usage, native blocks, detection without imports, chunking invariance).
- :func:`run_adapter`: drive an adapter as a session does and see what it produced.
- :class:`MockProvider`: scripted replies (text, thinking, tool calls, errors, stop
  reasons, rate limits) played back as a provider's stream events, for tests of your own
  code, with a record of the requests it received.
- :func:`adversarial_splits`, :func:`adversarial_points`, :func:`split_at`,
  :func:`chunk_bytes`, :func:`split_random`: chunkings that break naive stream parsers.
- :func:`run_chunks`, :func:`normalise`, :func:`conserved`: check chunking invariance
  and conservation of your own registries and syntaxes.

Installed as a pytest plugin (``pytest11`` entry point ``streamblocks``) providing the
fixtures ``adapter_run`` and ``text_splits``.
"""

from __future__ import annotations

from .conformance import AdapterConformance, AdapterSample
from .invariants import conserved, normalise, run_chunks, split_random
from .mock import (
    MockProvider,
    MockProviderError,
    MockRateLimitError,
    MockReply,
    MockRequest,
    MockToolCall,
)
from .runner import AdapterRun, NativeBlock, merge_usage, run_adapter
from .splits import adversarial_points, adversarial_splits, chunk_bytes, split_at

__all__ = [
    "AdapterConformance",
    "AdapterRun",
    "AdapterSample",
    "MockProvider",
    "MockProviderError",
    "MockRateLimitError",
    "MockReply",
    "MockRequest",
    "MockToolCall",
    "NativeBlock",
    "adversarial_points",
    "adversarial_splits",
    "chunk_bytes",
    "conserved",
    "merge_usage",
    "normalise",
    "run_adapter",
    "run_chunks",
    "split_at",
    "split_random",
]
