"""``streamblocks adapters``: the input adapters found, and why one did not load."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from typing import Any

from ...adapters import available
from ..output import color_wanted
from ..render import rich_available

SDK_MODULES: dict[str, str | None] = {
    "openai": "openai",
    "anthropic": "anthropic",
    "gemini": "google.genai",
    "agui": "ag_ui.core",
    "claude_cli": None,
    "codex_cli": None,
    "claude_agent_sdk": "claude_agent_sdk",
    "openai_agents": "agents",
    "pydantic_ai": "pydantic_ai",
    "langchain": "langchain_core",
    "ollama": "ollama",
}
"""The SDK each built-in adapter reads (it also reads the SDK's JSON without it);
``None`` for the transcript adapters, which read JSON lines and need no SDK."""

HEADERS = ("name", "entry point", "distribution", "SDK", "status")


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "adapters", help="list the input adapters found"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per adapter")
    parser.add_argument("--plain", action="store_true", help="a plain table")
    parser.set_defaults(handler=run)
    return parser


def _sdk(name: str, builtin: bool) -> str:
    module = SDK_MODULES.get(name, "") if builtin else ""
    if module is None:
        return "none needed"
    if not module:
        return "-"
    try:
        return "yes" if importlib.util.find_spec(module) is not None else "no"
    except (ImportError, ValueError):
        return "no"


def run(args: argparse.Namespace) -> int:
    infos = available()
    rows = []
    for info in infos:
        status = "loaded" if info.loaded else f"not loaded: {info.error or 'unknown reason'}"
        dist = f"{info.distribution or '?'} {info.version or ''}".strip()
        rows.append((info.name, info.value, dist, _sdk(info.name, info.builtin), status))
    if args.json:
        for info, row in zip(infos, rows, strict=True):
            sys.stdout.write(json.dumps({**info._asdict(), "sdk": row[3]}) + "\n")
        return 0
    if rich_available() and not args.plain and sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table

        table = Table(title="streamblocks input adapters")
        for header in HEADERS:
            table.add_column(header, overflow="fold")
        for row in rows:
            table.add_row(*row, style=None if row[4] == "loaded" else "red")
        Console(file=sys.stdout, no_color=not color_wanted(args)).print(table)
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(HEADERS, *rows, strict=False)]
        for row in (HEADERS, *rows):
            line = "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True))
            sys.stdout.write(line.rstrip() + "\n")
    if not rows:
        sys.stdout.write("no adapters found (is streamblocks installed?)\n")
    return 0


__all__ = ["SDK_MODULES", "add_parser", "run"]
