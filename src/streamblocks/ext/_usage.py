"""Adding up token usage, for sources that report it in pieces or per model call.

A session keeps the newest ``Usage`` an adapter reports, field by field. LangChain's
chunks carry increments and an agent run makes several model calls, so their adapters
report the running sum instead.
"""

from __future__ import annotations

from ..core.events import Usage


def add_usage(total: Usage | None, more: Usage | None) -> Usage | None:
    """``total + more`` field by field; a field missing on both sides stays ``None``."""
    if more is None or total is None:
        return total if more is None else more
    values = {}
    for name in ("input_tokens", "output_tokens", "total_tokens", "cache_read_tokens",
                 "cache_write_tokens", "reasoning_tokens", "cost_usd"):  # fmt: skip
        a, b = getattr(total, name), getattr(more, name)
        values[name] = b if a is None else a if b is None else a + b
    return Usage(**values)
