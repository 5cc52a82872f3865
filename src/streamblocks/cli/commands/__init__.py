"""The subcommands. Each is a module with ``add_parser(subparsers)`` (returning its
parser, with ``handler`` set to its ``run(args) -> int``); ``COMMANDS`` lists them in
``--help`` order. A name without a dot is a module of this package; a dotted name is
another package's command module."""

from __future__ import annotations

import importlib
from types import ModuleType

COMMANDS: list[str] = ["extract", "demo", "run", "adapters", "prompt", "view"]


def load(name: str) -> ModuleType:
    """The module of the command listed as ``name``."""
    return importlib.import_module(name if "." in name else f"{__name__}.{name}")


__all__ = ["COMMANDS", "load"]
