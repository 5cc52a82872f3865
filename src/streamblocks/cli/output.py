"""From the output options to a renderer, and from a finished run to an exit status."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable
from typing import Any, TextIO

from ..runs.model import event_dict
from .errors import CLIError
from .model import Prices
from .render import JSONRenderer, PlainRenderer, Renderer, choose, rich_available


def color_wanted(args: argparse.Namespace) -> bool:
    """Colours unless ``--no-color`` or ``NO_COLOR`` (any non-empty value) says no."""
    return not (getattr(args, "no_color", False) or os.environ.get("NO_COLOR"))


def prices_from(args: argparse.Namespace) -> Prices | None:
    path = getattr(args, "prices", None)
    if not path:
        return None
    try:
        return Prices.load(path)
    except ValueError as exc:
        raise CLIError(str(exc)) from None


def make_renderer(
    out: TextIO,
    *,
    render: str = "auto",
    hide_text: bool = False,
    live: bool = True,
    color: bool = True,
    prices: Prices | None = None,
) -> Renderer:
    """The renderer for ``--render`` (``auto``: rich on a terminal, plain elsewhere).
    ``live``: draw an open block as it streams (rich, on a terminal)."""
    kind = choose(render, out)
    if kind == "json":
        return JSONRenderer(out, prices=prices)
    if kind == "rich" and rich_available():
        from .rich_render import RichRenderer  # (rich loads only when it draws)

        return RichRenderer(out, hide_text=hide_text, live=live, color=color, prices=prices)
    return PlainRenderer(out, hide_text=hide_text, prices=prices)


def renderer_for(args: argparse.Namespace, out: TextIO, *, live: bool = True) -> Renderer:
    """The renderer the output options ask for."""
    if args.render == "rich" and not rich_available():
        raise CLIError(
            "--render rich needs rich: pip install '.[cli]' in the streamblocks checkout"
        )
    return make_renderer(
        out,
        render=args.render,
        hide_text=args.hide_text,
        live=live,
        color=color_wanted(args),
        prices=prices_from(args),
    )


def render_events(events: Iterable[Any], renderer: Renderer) -> None:
    """Show a stream's events as they come (one run, no ``source``)."""
    try:
        for event in events:
            renderer(event_dict(event))
    finally:
        renderer.close()


def exit_code(renderer: Renderer, strict: bool, skipped: int = 0) -> int:
    """0, or 1 with ``--strict`` when a block was rejected, the stream failed or input
    was skipped."""
    return 1 if strict and (renderer.errors or renderer.failed or skipped) else 0


__all__ = ["color_wanted", "exit_code", "prices_from", "render_events", "renderer_for"]
