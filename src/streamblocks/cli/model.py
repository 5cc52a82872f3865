"""The words every renderer uses: labels, the summary line, usage and cost.

The records they describe are :mod:`streamblocks.runs.model`'s.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def plural(count: int, noun: str) -> str:
    """``1 error``, ``2 errors``, ``0 blocks``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


@dataclass(frozen=True)
class Prices:
    """US dollars per million tokens, for runs whose adapter reports no cost (``--prices``)."""

    input: float = 0.0
    output: float = 0.0
    cache_read: float = 0.0
    cache_write: float = 0.0

    def cost(self, usage: Mapping[str, Any]) -> float:
        def tokens(name: str) -> int:
            return int(usage.get(f"{name}_tokens") or 0)

        total: float = sum(tokens(name) * float(getattr(self, name)) for name in self._names())
        return total / 1_000_000

    @staticmethod
    def _names() -> tuple[str, ...]:
        return ("input", "output", "cache_read", "cache_write")

    @classmethod
    def load(cls, path: str) -> Prices:
        """A JSON or YAML mapping of ``input``, ``output``, ``cache_read``, ``cache_write``."""
        import yaml

        try:
            data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError, UnicodeDecodeError) as exc:
            raise ValueError(f"--prices: cannot read {path}: {exc}") from None
        if not isinstance(data, Mapping):
            example = "{input: 3, output: 15}"
            raise ValueError(f"--prices: {path} must hold a mapping such as {example}")
        unknown = sorted(set(map(str, data)) - set(cls._names()))
        if unknown:
            keys = ", ".join(cls._names())
            raise ValueError(f"--prices: unknown key {unknown[0]!r} in {path} (keys: {keys})")
        values: dict[str, float] = {}
        for key, value in data.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"--prices: {key} must be a number of dollars per million tokens")
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"--prices: {key} must be a finite number ≥ 0, got {value}")
            values[str(key)] = float(value)
        return cls(**values)


def run_cost(usage: Mapping[str, Any] | None, prices: Prices | None) -> tuple[float, bool] | None:
    """The run's cost in dollars and whether it was estimated from ``prices`` (``None``
    when neither the adapter nor a price table gives one)."""
    if usage is None:
        return None
    if usage.get("cost_usd") is not None:
        return float(usage["cost_usd"]), False
    if prices is not None and (usage.get("input_tokens") or usage.get("output_tokens")):
        return prices.cost(usage), True
    return None


def usage_text(usage: Mapping[str, Any] | None, prices: Prices | None) -> list[str]:
    """The usage and cost parts of a summary line."""
    parts = []
    usage = usage or {}
    if usage.get("input_tokens") is not None or usage.get("output_tokens") is not None:
        tokens_in, tokens_out = usage.get("input_tokens") or 0, usage.get("output_tokens") or 0
        tokens = f"tokens: {tokens_in} in, {tokens_out} out"
        extra = [
            f"{usage[key]} {label}"
            for key, label in (
                ("cache_read_tokens", "cache read"),
                ("cache_write_tokens", "cache write"),
                ("reasoning_tokens", "reasoning"),
            )
            if usage.get(key)
        ]
        parts.append(tokens + (f" ({', '.join(extra)})" if extra else ""))
    cost = run_cost(usage, prices)
    if cost is not None:
        parts.append(f"cost: {'≈' if cost[1] else ''}${cost[0]:.4f}")
    return parts


def summary_text(record: Mapping[str, Any], prices: Prices | None = None) -> str:
    """The one-line summary of a ``STREAM_FINISHED`` record."""
    counts = record["counts"]
    parts = [
        f"{plural(counts['blocks'], 'block')}, {plural(counts['errors'], 'error')}, "
        f"{plural(counts['chars'], 'char')}",
        f"stop: {record['stop_reason']}",
        *usage_text(record.get("usage"), prices),
    ]
    if record.get("error"):
        parts.append(f"error: {record['error']}")
    return " · ".join(parts)


class Tally:
    """Totals over the runs of several inputs, for the closing line."""

    def __init__(self, prices: Prices | None = None) -> None:
        self.prices = prices
        self.files = self.blocks = self.errors = 0
        self.failed: list[str] = []  # the runs that ended with ``stop: error``
        self.unreadable: list[str] = []  # the inputs that could not be read
        self.input_tokens = self.output_tokens = 0
        self.cost = 0.0
        self.estimated = False
        self.costed = False

    def add(self, record: Mapping[str, Any]) -> None:
        if record["type"] != "STREAM_FINISHED":
            return
        self.blocks += record["counts"]["blocks"]
        self.errors += record["counts"]["errors"]
        if record.get("stop_reason") == "error":
            self.failed.append(str(record.get("source") or "<stdin>"))
        usage = record.get("usage") or {}
        self.input_tokens += usage.get("input_tokens") or 0
        self.output_tokens += usage.get("output_tokens") or 0
        cost = run_cost(usage, self.prices)
        if cost is not None:
            self.cost += cost[0]
            self.estimated = self.estimated or cost[1]
            self.costed = True

    def line(self) -> str:
        parts = [
            plural(self.files, "file"),
            f"{plural(self.blocks, 'block')}, {plural(self.errors, 'error')}",
        ]
        if self.input_tokens or self.output_tokens:
            parts.append(f"tokens: {self.input_tokens} in, {self.output_tokens} out")
        if self.costed:
            parts.append(f"cost: {'≈' if self.estimated else ''}${self.cost:.4f}")
        if self.failed:
            parts.append(f"{plural(len(self.failed), 'run')} failed (stop: error)")
        if self.unreadable:
            parts.append(f"{len(self.unreadable)} unreadable")
        return " · ".join(parts) + "".join(
            f"\n{what}: {_names(names)}"
            for what, names in (("failed", self.failed), ("unreadable", self.unreadable))
            if names
        )


def _names(names: list[str], most: int = 10) -> str:
    """``names``, the first ``most`` of them and how many more."""
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown} … and {len(names) - most} more"


def block_label(block_type: str | None, block_id: str | None) -> str:
    """``note n1``: how every renderer names a block."""
    return " ".join(part for part in (block_type, block_id) if part) or "block"


def passthrough_label(event: Any) -> str:
    """The provider event's ``type`` (or its class name)."""
    kind = event.get("type") if isinstance(event, Mapping) else None
    return str(kind) if kind else type(event).__name__


def pretty(value: Any) -> str:
    """Content as text: strings as they are, anything else as indented JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=2)


__all__ = [
    "Prices",
    "Tally",
    "block_label",
    "passthrough_label",
    "plural",
    "pretty",
    "run_cost",
    "summary_text",
    "usage_text",
]
