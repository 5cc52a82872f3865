"""Showing events: one JSON object per line, plain text, or rich panels.

Rich is optional (``pip install 'streamblocks[cli]'``); without it, or with ``--plain``,
the plain renderer frames blocks with box-drawing characters.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import Any, TextIO

from pydantic import BaseModel

from ..core.events import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockStart,
    Passthrough,
    StreamFinished,
    TextDelta,
)

LIVE_REFRESH = 1 / 30
"""Seconds between redraws of a live block."""

SCHEMA_VERSION = 1
"""Version of the ``--json`` line format (documented in docs/cli.md)."""


def jsonable(value: Any) -> Any:
    """``value`` as JSON-compatible data (models dumped, tuples as lists, enums as values)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return getattr(value, "value", value) if isinstance(value, (str, int)) else value
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if hasattr(value, "_asdict"):
        return {key: jsonable(item) for key, item in value._asdict().items()}
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(item) for item in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    enum_value = getattr(value, "value", None)
    if isinstance(enum_value, (str, int)):
        return enum_value
    return str(value)


def event_dict(event: Any) -> dict[str, Any]:
    """One event as the ``--json`` object: ``{"type": ..., <its fields>}``."""
    out: dict[str, Any] = {"type": event.type.value}
    if isinstance(event, BlockEnd):
        out["block"] = jsonable(event.block)
        return out
    for name in event._fields:
        out[name] = jsonable(getattr(event, name))
    return out


def event_json(event: Any) -> str:
    """One event as one line of JSON."""
    return json.dumps(event_dict(event), ensure_ascii=False)


def _summary(event: StreamFinished) -> str:
    counts = event.counts
    parts = [f"{counts.blocks} blocks, {counts.errors} errors, {counts.chars} chars"]
    parts.append(f"stop: {event.stop_reason.value}")
    usage = event.usage
    if usage is not None and (usage.input_tokens is not None or usage.output_tokens is not None):
        parts.append(f"tokens: {usage.input_tokens or 0} in, {usage.output_tokens or 0} out")
    if event.error:
        parts.append(f"error: {event.error}")
    return " · ".join(parts)


def _passthrough_label(event: Any) -> str:
    kind = getattr(event, "type", None)
    if kind is None and isinstance(event, Mapping):
        kind = event.get("type")
    kind = getattr(kind, "value", kind)
    return str(kind) if kind else type(event).__name__


def _pretty(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(jsonable(value), ensure_ascii=False, indent=2)


def _cell(value: Any, limit: int = 72) -> str:
    """A metadata value on one line when it is short (long ones are cut)."""
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        text = ", ".join(str(v) for v in value)
    elif isinstance(value, str):
        text = value
    else:
        text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Renderer:
    """Base: counts rejected blocks for ``--strict``."""

    def __init__(self) -> None:
        self.errors = 0
        self.failed = False

    def __call__(self, event: Any) -> None:
        if isinstance(event, BlockError):
            self.errors += 1
        elif isinstance(event, StreamFinished) and event.stop_reason.value == "error":
            self.failed = True
        self.show(event)

    def show(self, event: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def close(self) -> None:
        """Release the terminal (a live display)."""


class JSONRenderer(Renderer):
    def __init__(self, out: TextIO) -> None:
        super().__init__()
        self.out = out

    def show(self, event: Any) -> None:
        self.out.write(event_json(event) + "\n")
        self.out.flush()


class PlainRenderer(Renderer):
    """Visible text as is, blocks framed by box-drawing lines."""

    def __init__(self, out: TextIO, hide_text: bool = False) -> None:
        super().__init__()
        self.out = out
        self.hide_text = hide_text
        self.at_line_start = True
        self.streamed: set[str] = set()
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

    def show(self, event: Any) -> None:
        if isinstance(event, TextDelta):
            if not self.hide_text:
                self._write(event.text)
        elif isinstance(event, BlockStart):
            self._newline()
            attrs = f" {jsonable(event.attrs)}" if event.attrs else ""
            self._write(f"┌─ {event.block_type} {event.block_id} ({event.syntax}){attrs}\n")
        elif isinstance(event, BlockDelta):
            if event.section == "content":
                self.streamed.add(event.block_id)
            self._body(event.text)
        elif isinstance(event, BlockEnd):
            block = event.block
            if block.id not in self.streamed and isinstance(block.content, str):
                # A native block (a tool result, a command's output) arrives whole.
                self._body(block.content)
            self.streamed.discard(block.id)
            self._newline()
            detail = f" metadata={json.dumps(jsonable(block.metadata), ensure_ascii=False)}"
            if block.syntax in ("native", "gadget") and not isinstance(block.content, str):
                detail = f" content={json.dumps(jsonable(block.content), ensure_ascii=False)}"
            self._write(f"└─ {block.type} {block.id} ok,{detail}\n")
        elif isinstance(event, BlockError):
            self.streamed.discard(event.block_id or "")
            self._newline()
            label = " ".join(part for part in (event.block_type, event.block_id) if part)
            self._write(f"✗ {event.code.value} {label}: {event.message}\n")
        elif isinstance(event, Passthrough):
            self._newline()
            self._write(f"↷ {_passthrough_label(event.event)}\n")
        elif isinstance(event, StreamFinished):
            self._newline()
            self._write(f"— {_summary(event)}\n")
        self.out.flush()


class RichRenderer(Renderer):
    """Text dimmed (or hidden), each block a panel with its metadata, errors in red.

    On a terminal an open block is shown live (its panel grows as content streams);
    elsewhere each block is printed once, when it ends.
    """

    def __init__(self, out: TextIO, hide_text: bool = False, live: bool = True) -> None:
        super().__init__()
        from rich.console import Console

        self.use_live = live
        self.last_refresh = 0.0
        self.console = Console(file=out, highlight=False)
        self.hide_text = hide_text
        self.at_line_start = True
        self.live: Any = None
        self.open: dict[str, dict[str, Any]] = {}
        self.live_id: str | None = None

    # -- helpers -----------------------------------------------------------------------

    def _newline(self) -> None:
        if not self.at_line_start:
            self.console.print()
            self.at_line_start = True

    def _stop_live(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None

    def _panel(self, state: dict[str, Any], body: Any, *, done: bool) -> Any:
        from rich.panel import Panel

        title = f"[bold]{state['type']}[/] [cyan]{state['id']}[/]"
        style = "magenta" if state["syntax"] == "native" else "green" if done else "yellow"
        if state["type"] == "thinking":
            style = "bright_black"
        subtitle = state["syntax"] + ("" if done else " · streaming…")
        return Panel(body, title=title, title_align="left", subtitle=subtitle, border_style=style)

    def _body(self, metadata: Any, content: Any, attrs: Any) -> Any:
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        parts: list[Any] = []
        rows = {}
        if isinstance(metadata, (Mapping, BaseModel)):
            rows = dict(jsonable(metadata))
        elif metadata is not None:
            rows = {"metadata": metadata}
        rows.pop("block_type", None)
        rows.pop("id", None)
        if attrs:
            for key, value in dict(attrs).items():
                rows.setdefault(key, jsonable(value))
        rows = {key: value for key, value in rows.items() if value not in (None, [], {}, "")}
        if rows:
            table = Table.grid(padding=(0, 1))
            table.add_column(style="bold blue")
            table.add_column()
            for key, value in rows.items():
                table.add_row(str(key), _cell(value))
            parts.append(table)
        text = _pretty(content) if content is not None else ""
        parts.append(Text(text.rstrip("\n")))
        return Group(*parts)

    # -- events ------------------------------------------------------------------------

    def show(self, event: Any) -> None:
        from rich.text import Text

        console = self.console
        if isinstance(event, TextDelta):
            if self.hide_text:
                return
            if self.live is not None:
                self.live.console.print(Text(event.text, style="dim"), end="", soft_wrap=True)
            else:
                console.print(Text(event.text, style="dim"), end="", soft_wrap=True)
            self.at_line_start = event.text.endswith("\n")
        elif isinstance(event, BlockStart):
            state: dict[str, Any] = {
                "id": event.block_id,
                "type": event.block_type,
                "syntax": event.syntax,
                "attrs": dict(event.attrs),
                "metadata": None,
                "parts": [],
            }
            self.open[event.block_id] = state
            if self.use_live and console.is_terminal and self.live is None:
                from rich.live import Live

                self._newline()
                self.live = Live(
                    self._live_view(state), console=console, transient=True, auto_refresh=False
                )
                self.live.start()
                self.live_id = event.block_id
        elif isinstance(event, BlockMetadata):
            meta_state = self.open.get(event.block_id)
            if meta_state is not None:
                meta_state["metadata"] = event.metadata
        elif isinstance(event, BlockDelta):
            open_state = self.open.get(event.block_id)
            if open_state is not None:
                open_state["parts"].append(event.text)
                now = time.monotonic()
                if (
                    self.live is not None
                    and self.live_id == event.block_id
                    and now - self.last_refresh >= LIVE_REFRESH
                ):
                    self.last_refresh = now
                    self.live.update(self._live_view(open_state), refresh=True)
        elif isinstance(event, BlockEnd):
            block = event.block
            end_state: dict[str, Any] = self.open.pop(block.id, {}) or {
                "id": block.id,
                "type": block.type,
                "syntax": block.syntax,
            }
            if self.live is not None and self.live_id == block.id:
                self._stop_live()
            self._newline()
            body = self._body(block.metadata, block.content, block.attrs)
            console.print(self._panel(end_state, body, done=True))
        elif isinstance(event, BlockError):
            from rich.panel import Panel

            self.open.pop(event.block_id or "", None)
            if self.live is not None and self.live_id == event.block_id:
                self._stop_live()
            self._newline()
            label = " ".join(part for part in (event.block_type, event.block_id) if part)
            raw = event.raw if len(event.raw) <= 2000 else event.raw[:2000] + "…"
            body = Text.assemble((f"{event.code.value}: {event.message}\n", "bold red"), raw)
            console.print(
                Panel(
                    body,
                    title=f"[red]✗ {label or 'block'}[/]",
                    title_align="left",
                    border_style="red",
                )
            )
        elif isinstance(event, Passthrough):
            self._newline()
            console.print(Text(f"↷ {_passthrough_label(event.event)}", style="italic blue"))
        elif isinstance(event, StreamFinished):
            self._stop_live()
            self._newline()
            style = "red" if event.counts.errors or event.stop_reason.value == "error" else "bold"
            console.print(Text(f"— {_summary(event)}", style=style))

    def _live_view(self, state: dict[str, Any]) -> Any:
        from rich.text import Text

        text = "".join(state["parts"])
        lines = text.split("\n")
        if len(lines) > 20:
            text = "…\n" + "\n".join(lines[-20:])
        return self._panel(state, Text(text), done=False)

    def close(self) -> None:
        self._stop_live()


def rich_available() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def make_renderer(
    out: TextIO, *, json_lines: bool, plain: bool, hide_text: bool, live: bool = True
) -> Renderer:
    """The renderer for the output options. ``live``: draw open blocks as they stream
    (on a terminal, with rich) — for paced streams; a file read at full speed prints
    each block once."""
    if json_lines:
        return JSONRenderer(out)
    if plain or not rich_available():
        return PlainRenderer(out, hide_text=hide_text)
    return RichRenderer(out, hide_text=hide_text, live=live)


__all__ = [
    "SCHEMA_VERSION",
    "JSONRenderer",
    "PlainRenderer",
    "Renderer",
    "RichRenderer",
    "event_dict",
    "event_json",
    "jsonable",
    "make_renderer",
    "rich_available",
]
