"""``streamblocks demo``: a bundled provider recording replayed live (offline)."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from importlib import resources
from typing import Any

from ...core.events import BlockEnd
from ...core.processor import StreamBlockProcessor
from ...runs.registries import demo_registry
from ..options import add_delay_option, add_output_options
from ..output import exit_code, render_events, renderer_for
from ..render import Renderer

WROTE_LINES = 12
"""The longest excerpt of a block's raw text shown under it (the first and last lines)."""


def demo_events() -> list[Any]:
    """The bundled recording: an Anthropic Messages stream (wire JSON) of a reply with
    thinking, a note, a patch, a shown code fence and a todo list."""
    text = resources.files("streamblocks._demo").joinpath("anthropic.ndjson").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "demo", help="replay a bundled model stream and show blocks as they arrive (offline)"
    )
    add_delay_option(parser, None, "seconds between events (default: realistic)")
    add_output_options(parser)
    parser.set_defaults(handler=run)
    return parser


def _paced(events: list[Any], delay: float | None) -> Iterator[Any]:
    jitter = random.Random(7)
    for event in events:
        # Realistic pacing by default: ~40 events a second with jitter, like a model.
        pause = 0.012 + jitter.random() * 0.03 if delay is None else delay
        if pause:
            time.sleep(pause)
        yield event


def excerpt(raw: str, most: int = WROTE_LINES) -> list[str]:
    """A block's raw text as lines, the middle cut (``…``) when it has more than ``most``."""
    lines = raw.rstrip("\n").split("\n")
    if len(lines) <= most:
        return lines
    head = most - 3
    return [*lines[:head], f"… ({len(lines) - head - 2} more lines)", *lines[-2:]]


def _with_markers(events: Iterator[Any], renderer: Renderer) -> Iterator[Any]:
    """``events``, and after each block the model wrote (once the renderer has shown
    it: the generator resumes when the next event is asked for) its raw text, markers
    included, so what was extracted from what is plain to see."""
    for event in events:
        yield event
        if isinstance(event, BlockEnd) and event.block.raw:
            renderer.aside("the model wrote:", excerpt(event.block.raw))


def run(args: argparse.Namespace) -> int:
    events = demo_events()
    processor = StreamBlockProcessor(demo_registry())  # the adapter is auto-detected
    renderer = renderer_for(args, sys.stdout)
    if args.render != "json":
        sys.stdout.write(
            f"Replaying a recorded Anthropic stream ({len(events)} events, detected "
            "automatically) through streamblocks…\n\n"
        )
    stream = processor.process(_paced(events, args.delay))
    render_events(_with_markers(stream, renderer), renderer)
    return exit_code(renderer, args.strict)


__all__ = ["add_parser", "demo_events", "excerpt", "run"]
