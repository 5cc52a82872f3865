"""``streamblocks prompt``: a registry's system prompt, on standard output."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ...runs.registries import registry_for
from ..options import add_registry_options


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "prompt", help="print a registry's system prompt"
    )
    add_registry_options(parser)
    parser.set_defaults(handler=run)
    return parser


def run(args: argparse.Namespace) -> int:
    registry, _ = registry_for(args.registry, args.unknown)
    sys.stdout.write(registry.system_prompt().rstrip("\n") + "\n")
    for name, reason in registry.unadvertised().items():  # recognised, but not in the prompt
        sys.stderr.write(f"note: block type {name!r} is not in the prompt: {reason}\n")
    return 0


__all__ = ["add_parser", "run"]
