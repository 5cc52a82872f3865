"""Rich panels for the records of :mod:`.model` (rich is an optional extra).

Text dimmed (or hidden), each block a panel with its metadata, errors in red. On a
terminal an open block is drawn live (its panel grows as content streams); elsewhere each
block is printed once, when it ends.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, TextIO

from rich.console import Console, Group
from rich.live import Live
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..runs.model import Record
from .model import Prices, block_label, passthrough_label, pretty
from .render import Depths, Renderer

LIVE_REFRESH = 1 / 30
"""Seconds between redraws of a live block."""

RAW_SHOWN = 2000
"""Characters of a rejected block's raw text shown in its panel."""


def _cell(value: Any, limit: int = 72) -> str:
    """A metadata value on one line when it is short (long ones are cut)."""
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        text = ", ".join(str(v) for v in value)
    elif isinstance(value, str):
        text = value
    else:
        text = pretty(value).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _body(metadata: Any, content: Any, attrs: Mapping[str, Any]) -> Group:
    rows = dict(metadata) if isinstance(metadata, Mapping) else {}
    if metadata is not None and not isinstance(metadata, Mapping):
        rows = {"metadata": metadata}
    rows.pop("block_type", None)
    rows.pop("id", None)
    for key, value in attrs.items():
        rows.setdefault(key, value)
    rows = {key: value for key, value in rows.items() if value not in (None, [], {}, "")}
    parts: list[Any] = []
    if rows:
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold blue")
        table.add_column()
        for key, value in rows.items():
            table.add_row(str(key), _cell(value))
        parts.append(table)
    parts.append(Text(pretty(content).rstrip("\n") if content is not None else ""))
    return Group(*parts)


class RichRenderer(Renderer):
    """Panels and colours (see the module docstring)."""

    def __init__(
        self,
        out: TextIO,
        *,
        hide_text: bool = False,
        live: bool = True,
        color: bool = True,
        prices: Prices | None = None,
    ) -> None:
        super().__init__(out, prices=prices)
        self.console = Console(file=out, highlight=False, no_color=not color)
        self.use_live = live and self.console.is_terminal
        self.hide_text = hide_text
        self.last_refresh = 0.0
        self.at_line_start = True
        self.live: Live | None = None
        self.live_id: str | None = None
        self.open: dict[str, dict[str, Any]] = {}
        self.depths = Depths()

    def _newline(self) -> None:
        if not self.at_line_start:
            self.console.print()
            self.at_line_start = True

    def _stop_live(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None

    def _panel(
        self, state: Mapping[str, Any], body: Any, *, done: bool, depth: int = 0
    ) -> Panel | Padding:
        """A block's panel; a sub-agent's is indented under the call that started it."""
        title = f"[bold]{state['type']}[/] [cyan]{state['id']}[/]"
        style = "magenta" if state["syntax"] == "native" else "green" if done else "yellow"
        if state["type"] == "thinking":
            style = "bright_black"
        subtitle = state["syntax"] + ("" if done else " · streaming…")
        panel = Panel(body, title=title, title_align="left", subtitle=subtitle, border_style=style)
        return Padding(panel, (0, 0, 0, 2 * depth)) if depth else panel

    def _live_view(self, state: Mapping[str, Any]) -> Panel | Padding:
        lines = "".join(state["parts"]).split("\n")
        text = "\n".join(lines) if len(lines) <= 20 else "…\n" + "\n".join(lines[-20:])
        return self._panel(state, Text(text), done=False, depth=self.depths.of(state["id"]))

    def _print(self, renderable: Any) -> None:
        self._newline()
        # A line of text stays one line (the terminal wraps it), as in the plain output.
        self.console.print(renderable, soft_wrap=isinstance(renderable, Text))

    def begin_source(self, name: str) -> None:
        self._print(Text(f"══ {name}", style="bold"))

    def totals(self, line: str) -> None:
        self._print(Text(f"══ {line}", style="bold"))
        self.out.flush()

    def show(self, record: Record) -> None:
        kind = record["type"]
        if kind == "TEXT_DELTA":
            if not self.hide_text:
                console = self.live.console if self.live is not None else self.console
                console.print(Text(record["text"], style="dim"), end="", soft_wrap=True)
                self.at_line_start = record["text"].endswith("\n")
        elif kind == "BLOCK_START":
            self._start(record)
        elif kind == "BLOCK_METADATA":
            if record["block_id"] in self.open:
                self.open[record["block_id"]]["metadata"] = record["metadata"]
        elif kind == "BLOCK_DELTA":
            self._delta(record)
        elif kind == "BLOCK_END":
            block = record["block"]
            state = self.open.pop(block["id"], None) or block
            if self.live_id == block["id"]:
                self._stop_live()
            body = _body(block["metadata"], block["content"], block["attrs"] or {})
            self._print(self._panel(state, body, done=True, depth=self.depths.end(block)))
        elif kind == "BLOCK_ERROR":
            self.open.pop(record["block_id"] or "", None)
            if self.live_id == record["block_id"]:
                self._stop_live()
            raw = record["raw"]
            raw = raw if len(raw) <= RAW_SHOWN else raw[:RAW_SHOWN] + "…"
            message = f"{record['code']}: {record['message']}\n"
            error = Text.assemble((message, "bold red"), raw)
            title = f"[red]✗ {block_label(record['block_type'], record['block_id'])}[/]"
            self._print(Panel(error, title=title, title_align="left", border_style="red"))
        elif kind == "PASSTHROUGH":
            self._print(Text(f"↷ {passthrough_label(record['event'])}", style="italic blue"))
        elif kind == "STREAM_FINISHED":
            self._stop_live()
            failed = record["counts"]["errors"] or record["stop_reason"] == "error"
            self._print(Text(f"— {self.summary(record)}", style="red" if failed else "bold"))

    def aside(self, title: str, lines: list[str]) -> None:
        note = Text("\n".join([title, *(f"┆ {line}" for line in lines)]), style="dim")
        self._print(Padding(note, (0, 0, 0, 2)))

    def _start(self, record: Record) -> None:
        state = {
            "id": record["block_id"],
            "type": record["block_type"],
            "syntax": record["syntax"],
            "parts": [],
        }
        self.depths.start(record["block_id"], record["block_type"], record["attrs"])
        self.open[record["block_id"]] = state
        if self.use_live and self.live is None:
            self._newline()
            self.live = Live(
                self._live_view(state), console=self.console, transient=True, auto_refresh=False
            )
            self.live.start()
            self.live_id = record["block_id"]

    def _delta(self, record: Record) -> None:
        state = self.open.get(record["block_id"])
        if state is None:
            return
        state["parts"].append(record["text"])
        now = time.monotonic()
        live = self.live is not None and self.live_id == record["block_id"]
        if live and self.live is not None and now - self.last_refresh >= LIVE_REFRESH:
            self.last_refresh = now
            self.live.update(self._live_view(state), refresh=True)

    def close(self) -> None:
        """The end, or an interruption (Ctrl-C): a block still open is drawn with what
        it received and a closing line saying it was cut off."""
        self._stop_live()
        for state in self.open.values():
            body = Text("".join(state["parts"]))
            self._print(self._panel(state, body, done=False))
            label = block_label(state["type"], state["id"])
            self._print(Text(f"└─ {label} cut off: the input stopped inside it", style="yellow"))
        self.open.clear()


__all__ = ["RichRenderer"]
