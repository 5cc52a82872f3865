"""Showing records (see :mod:`.model`): one JSON object per line, or plain text.

Rich panels live in :mod:`.rich_render` (rich is optional: ``pip install ".[cli]"`` from
a checkout). Every renderer flushes after each record, so a piped stream shows as it comes.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from ..runs.model import SCHEMA_VERSION, Record, event_dict, event_json, jsonable
from .model import (
    Prices,
    block_label,
    passthrough_label,
    summary_text,
)

RENDERERS = ("auto", "rich", "plain", "json")
"""``--render`` choices; ``auto`` is rich on a terminal (when installed), plain elsewhere."""


INDENT = "  "
"""One level of a sub-agent's blocks, under the call that started it."""

HEADER_WIDTH = 200
"""The longest attrs/metadata/content JSON a plain frame line shows (``--json`` has all)."""

VALUE_WIDTH = 100
"""The longest string value a frame line shows (a command's 2 MB ``stdout`` is cut)."""

SAME_OUTPUT = 1000
"""A typed block whose content repeats this much or more of its call's ``tool_result``
names that block instead of printing the text a second time."""


def _brief(value: Any) -> Any:
    """``value`` with long strings cut to :data:`VALUE_WIDTH` (with their length)."""
    if isinstance(value, str) and len(value) > VALUE_WIDTH:
        return f"{value[: VALUE_WIDTH - 1]}… ({len(value)} chars)"
    if isinstance(value, dict):
        return {key: _brief(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_brief(item) for item in value]
    return value


def frame_json(value: Any) -> str:
    """A value as JSON for a plain frame line: long strings cut, the whole at most
    :data:`HEADER_WIDTH` characters."""
    text = json.dumps(_brief(value), ensure_ascii=False)
    return text if len(text) <= HEADER_WIDTH else text[: HEADER_WIDTH - 1] + "…"


class Depths:
    """How deep each block sits: a sub-agent's block (``attrs["parent_id"]``) one level
    below the call that started it, so nested sub-agents indent further."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {}  # call id -> depth of its tool_call block
        self.blocks: dict[str, int] = {}  # open block id -> depth

    def start(self, block_id: str, block_type: str, attrs: Any) -> int:
        attrs = attrs if isinstance(attrs, dict) else {}
        parent = attrs.get("parent_id")
        depth = self.calls.get(parent, 0) + 1 if isinstance(parent, str) and parent else 0
        self.blocks[block_id] = depth
        if block_type == "tool_call":
            self.calls[str(attrs.get("id") or block_id)] = depth
        return depth

    def of(self, block_id: str | None) -> int:
        return self.blocks.get(block_id or "", 0)

    def end(self, block: Record) -> int:
        """The depth of a finished block (its start may not have been seen)."""
        depth = self.blocks.pop(block["id"], None)
        if depth is None:
            depth = self.start(block["id"], block["type"], block["attrs"])
            del self.blocks[block["id"]]
        return depth


class Renderer:
    """Base: shows records and counts what ``--strict`` looks at."""

    def __init__(self, out: TextIO, *, prices: Prices | None = None) -> None:
        self.out = out
        self.prices = prices
        self.errors = 0
        self.failed = False

    def __call__(self, record: Record) -> None:
        self.count(record)
        self.show(record)
        self.out.flush()

    def count(self, record: Record) -> None:
        """Note what ``--strict`` looks at in a record (shown or written elsewhere)."""
        kind = record["type"]
        if kind == "BLOCK_ERROR":
            self.errors += 1
        elif kind == "STREAM_FINISHED" and record["stop_reason"] == "error":
            self.failed = True

    def show(self, record: Record) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def begin_source(self, name: str) -> None:
        """A new input starts (shown when there are several)."""

    def totals(self, line: str) -> None:
        """The closing line of a run over several inputs."""

    def aside(self, title: str, lines: list[str]) -> None:
        """A note beside the records, not one of them (the demo's *the model wrote:*);
        ``--json`` leaves it out."""

    def close(self) -> None:
        """Release the terminal (a live display)."""

    def summary(self, record: Record) -> str:
        return summary_text(record, self.prices)


COUNTED = frozenset({"BLOCK_ERROR", "STREAM_FINISHED"})
"""The records :meth:`Renderer.count` and the totals look at."""


def json_line(record: Record) -> str:
    """A record as a line of the ``--json`` format."""
    return json.dumps(record, ensure_ascii=False) + "\n"


class JSONRenderer(Renderer):
    """One record per line: the ``--json`` format (``source`` names the input)."""

    def show(self, record: Record) -> None:
        self.out.write(json_line(record))


class PlainRenderer(Renderer):
    """Visible text as is, blocks framed by box-drawing lines; a sub-agent's blocks
    indented under the call that started it."""

    def __init__(
        self, out: TextIO, *, hide_text: bool = False, prices: Prices | None = None
    ) -> None:
        super().__init__(out, prices=prices)
        self.hide_text = hide_text
        self.at_line_start = True
        self.streamed: set[str] = set()
        self.labels: dict[str, str] = {}  # each open block's type, by id
        self.opened: dict[str, Any] = {}  # each open block's attrs at its start
        """Open blocks whose content has been written (from their deltas)."""
        self.depths = Depths()
        self.result: tuple[str, str, str] | None = None
        """The last ``tool_result`` shown: its call id, label and text."""

    def _write(self, text: str) -> None:
        if text:
            self.out.write(text)
            self.at_line_start = text.endswith("\n")

    def _newline(self) -> None:
        if not self.at_line_start:
            self._write("\n")

    def _body(self, text: str, depth: int = 0) -> None:
        """Block text, each line behind a ``│`` gutter."""
        gutter = INDENT * depth + "│ "
        for line in text.splitlines(keepends=True):
            self._write((gutter if self.at_line_start else "") + line)

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
            attrs = f" {frame_json(record['attrs'])}" if record["attrs"] else ""
            label = block_label(record["block_type"], record["block_id"])
            self.opened[record["block_id"]] = record["attrs"] or {}
            self.labels[record["block_id"]] = record["block_type"]
            depth = self.depths.start(record["block_id"], record["block_type"], record["attrs"])
            self._write(f"{INDENT * depth}┌─ {label} ({record['syntax']}){attrs}\n")
        elif kind == "BLOCK_DELTA":
            if record["section"] == "content":
                self.streamed.add(record["block_id"])
            self._body(record["text"], self.depths.of(record["block_id"]))
        elif kind == "BLOCK_END":
            self._end(record["block"])
        elif kind == "BLOCK_ERROR":
            self.streamed.discard(record["block_id"] or "")
            self.opened.pop(record["block_id"] or "", None)
            self.labels.pop(record["block_id"] or "", None)
            self._newline()
            label = block_label(record["block_type"], record["block_id"])
            self._write(f"✗ {record['code']} {label}: {record['message']}\n")
        elif kind == "PASSTHROUGH":
            self._newline()
            self._write(f"↷ {passthrough_label(record['event'])}\n")
        elif kind == "STREAM_FINISHED":
            self._newline()
            self._write(f"— {self.summary(record)}\n")

    def aside(self, title: str, lines: list[str]) -> None:
        self._newline()
        self._write(f"{INDENT}{title}\n" + "".join(f"{INDENT}┆ {line}\n" for line in lines))

    def close(self) -> None:
        """The end, or an interruption (Ctrl-C): a block still open gets its closing line."""
        for block_id, block_type in self.labels.items():
            self._newline()
            label = block_label(block_type, block_id)
            self._write(f"└─ {label} cut off: the input stopped inside it\n")
        self.labels.clear()
        self.opened.clear()
        self.out.flush()

    def _end(self, block: Record) -> None:
        depth = self.depths.end(block)
        if block["id"] not in self.streamed and isinstance(block["content"], str):
            # A native block (a tool result, a command's output) arrives whole.
            self._body(self._unshown(block), depth)
        self.streamed.discard(block["id"])
        self._newline()
        metadata = block["metadata"]  # (none on a native block: nothing to say)
        detail = "" if metadata is None else f" metadata={frame_json(metadata)}"
        if block["syntax"] in ("native", "gadget") and not isinstance(block["content"], str):
            detail = f" content={frame_json(block['content'])}"
        started = self.opened.pop(block["id"], {})
        self.labels.pop(block["id"], None)
        final = {k: v for k, v in (block["attrs"] or {}).items() if started.get(k) != v}
        if final:  # what the end told (a command's final status and exit code)
            detail += f" attrs={json.dumps(final, ensure_ascii=False)}"
        label = block_label(block["type"], block["id"])
        self._write(f"{INDENT * depth}└─ {label} ok{',' if detail else ''}{detail}\n")

    def _unshown(self, block: Record) -> str:
        """A whole native block's text, less what its call's ``tool_result`` just showed
        (a command's output is the result's text again): that part is named instead."""
        content: str = block["content"]
        attrs = block["attrs"] if isinstance(block["attrs"], dict) else {}
        call = attrs.get("tool_call_id")
        label = block_label(block["type"], block["id"])
        if block["type"] == "tool_result":
            self.result = (call, label, content) if isinstance(call, str) else None
            return content
        result, self.result = self.result, None
        if result is None or result[0] != call:
            return content
        shown = result[2].rstrip()
        if len(shown) < SAME_OUTPUT or not content.startswith(shown):
            return content
        rest = content[len(shown) :]
        note = f"(the output shown above in {result[1]})\n"
        return note + (rest.lstrip("\n") if rest.strip() else "")


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
    "COUNTED",
    "RENDERERS",
    "SCHEMA_VERSION",
    "JSONRenderer",
    "PlainRenderer",
    "Renderer",
    "choose",
    "event_dict",
    "event_json",
    "json_line",
    "jsonable",
    "rich_available",
]
