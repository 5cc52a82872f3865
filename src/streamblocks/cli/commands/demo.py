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

from ...core.processor import StreamBlockProcessor
from ...runs.registries import demo_registry
from ..options import add_delay_option, add_output_options
from ..output import exit_code, render_events, renderer_for


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


def run(args: argparse.Namespace) -> int:
    events = demo_events()
    processor = StreamBlockProcessor(demo_registry())  # the adapter is auto-detected
    renderer = renderer_for(args, sys.stdout)
    if args.render != "json":
        sys.stdout.write(
            f"Replaying a recorded Anthropic stream ({len(events)} events, detected "
            "automatically) through streamblocks…\n\n"
        )
    render_events(processor.process(_paced(events, args.delay)), renderer)
    return exit_code(renderer, args.strict)


__all__ = ["add_parser", "demo_events", "run"]
