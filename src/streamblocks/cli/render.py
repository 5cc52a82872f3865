"""Showing records (see :mod:`.model`): one JSON object per line, or plain text.

Rich panels live in :mod:`.rich_render` (rich is optional: ``pip install ".[cli]"`` from
a checkout). Every renderer flushes after each record, so a piped stream shows as it comes.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from .model import (
    SCHEMA_VERSION,
    Prices,
    Record,
    block_label,
    event_dict,
    event_json,
    jsonable,
    passthrough_label,
    summary_text,
)

RENDERERS = ("auto", "rich", "plain", "json")
"""``--render`` choices; ``auto`` is rich on a terminal (when installed), plain elsewhere."""


class Renderer:
    """Base: shows records and counts what ``--strict`` looks at."""

    def __init__(self, out: TextIO, *, prices: Prices | None = None) -> None:
        self.out = out
        self.prices = prices
        self.errors = 0
        self.failed = False

    def __call__(self, record: Record) -> None:
        kind = record["type"]
        if kind == "BLOCK_ERROR":
            self.errors += 1
        elif kind == "STREAM_FINISHED" and record["stop_reason"] == "error":
            self.failed = True
        self.show(record)
        self.out.flush()

    def show(self, record: Record) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def begin_source(self, name: str) -> None:
        """A new input starts (shown when there are several)."""

    def totals(self, line: str) -> None:
        """The closing line of a run over several inputs."""

    def close(self) -> None:
        """Release the terminal (a live display)."""

    def summary(self, record: Record) -> str:
        return summary_text(record, self.prices)


class JSONRenderer(Renderer):
    """One record per line: the ``--json`` format (``source`` names the input)."""

    def show(self, record: Record) -> None:
        self.out.write(json.dumps(record, ensure_ascii=False) + "\n")


class PlainRenderer(Renderer):
    """Visible text as is, blocks framed by box-drawing lines."""

    def __init__(
        self, out: TextIO, *, hide_text: bool = False, prices: Prices | None = None
    ) -> None:
        super().__init__(out, prices=prices)
        self.hide_text = hide_text
        self.at_line_start = True
        self.streamed: set[str] = set()
        self.opened: dict[str, Any] = {}  # each open block's attrs at its start
        """Open blocks whose content has been written (from their deltas)."""

    def _write(self, text: str) -> None:
        if text:
            self.out.write(text)
            self.at_line_start = text.endswith("\n")

    def _newline(self) -> None:
        if not self.at_line_start:
            self._write("\n")

    def _body(self, text: str) -> None:
        """Block text, each line behind a ``│`` gutter."""
        for line in text.splitlines(keepends=True):
            self._write(("│ " if self.at_line_start else "") + line)

    def begin_source(self, name: str) -> None:
        self._newline()
        self._write(f"══ {name}\n")

    def totals(self, line: str) -> None:
        self._newline()
        self._write(f"══ {line}\n")
        self.out.flush()

    def show(self, record: Record) -> None:
        kind = record["type"]
        if kind == "TEXT_DELTA":
            if not self.hide_text:
                self._write(record["text"])
        elif kind == "BLOCK_START":
            self._newline()
            attrs = f" {json.dumps(record['attrs'], ensure_ascii=False)}" if record["attrs"] else ""
            label = block_label(record["block_type"], record["block_id"])
            self.opened[record["block_id"]] = record["attrs"] or {}
            self._write(f"┌─ {label} ({record['syntax']}){attrs}\n")
        elif kind == "BLOCK_DELTA":
            if record["section"] == "content":
                self.streamed.add(record["block_id"])
            self._body(record["text"])
        elif kind == "BLOCK_END":
            self._end(record["block"])
        elif kind == "BLOCK_ERROR":
            self.streamed.discard(record["block_id"] or "")
            self._newline()
            label = block_label(record["block_type"], record["block_id"])
            self._write(f"✗ {record['code']} {label}: {record['message']}\n")
        elif kind == "PASSTHROUGH":
            self._newline()
            self._write(f"↷ {passthrough_label(record['event'])}\n")
        elif kind == "STREAM_FINISHED":
            self._newline()
            self._write(f"— {self.summary(record)}\n")

    def _end(self, block: Record) -> None:
        if block["id"] not in self.streamed and isinstance(block["content"], str):
            # A native block (a tool result, a command's output) arrives whole.
            self._body(block["content"])
        self.streamed.discard(block["id"])
        self._newline()
        detail = f" metadata={json.dumps(block['metadata'], ensure_ascii=False)}"
        if block["syntax"] in ("native", "gadget") and not isinstance(block["content"], str):
            detail = f" content={json.dumps(block['content'], ensure_ascii=False)}"
        started = self.opened.pop(block["id"], {})
        final = {k: v for k, v in (block["attrs"] or {}).items() if started.get(k) != v}
        if final:  # what the end told (a command's final status and exit code)
            detail += f" attrs={json.dumps(final, ensure_ascii=False)}"
        self._write(f"└─ {block_label(block['type'], block['id'])} ok,{detail}\n")


def rich_available() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def choose(render: str, out: TextIO) -> str:
    """The renderer ``auto`` stands for: rich on a terminal when installed, else plain."""
    if render != "auto":
        return render
    return "rich" if rich_available() and out.isatty() else "plain"


__all__ = [
    "RENDERERS",
    "SCHEMA_VERSION",
    "JSONRenderer",
    "PlainRenderer",
    "Renderer",
    "choose",
    "event_dict",
    "event_json",
    "jsonable",
    "rich_available",
]
