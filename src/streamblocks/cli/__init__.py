"""The ``streamblocks`` command.

``extract`` reads text or provider events (NDJSON/SSE, agent transcripts) from files,
globs or a live pipe and shows the blocks; ``demo`` replays a bundled provider recording
live; ``run`` calls a provider; ``adapters`` lists the input adapters found; ``prompt``
prints a registry's system prompt. Each command is a module of :mod:`.commands`. Exit
statuses: 0 success, 1 ``--strict`` found rejected blocks, a failed stream or skipped
input (or an unexpected error), 2 bad input or usage, 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from .. import compiled
from .._version import __version__
from ..runs.errors import RunError
from .errors import CLIError

if TYPE_CHECKING:
    from ..runs.model import event_json
    from ..runs.registries import default_registry, demo_registry
    from .commands.demo import demo_events

EPILOG = (
    "`streamblocks demo` to see it work; `streamblocks COMMAND --help` for a command. "
    "Documentation: docs/cli.md in the streamblocks source tree."
)


VERSION = f"streamblocks {__version__} ({'compiled' if compiled else 'pure Python'})"
"""What ``--version`` prints: the version and which build runs (``docs/builds.md``)."""


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command in :data:`.commands.COMMANDS`."""
    from .commands import COMMANDS, load
    from .options import Parser, add_global_options

    parser = Parser(
        prog="streamblocks",
        description="Extract structured blocks from streaming LLM output.",
        epilog=EPILOG,
    )
    parser.add_argument("--version", action="version", version=VERSION)
    add_global_options(parser)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        add_global_options(load(name).add_parser(subparsers))
    return parser


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """The library's warnings as one line each, like the command's own."""
    print(f"streamblocks: warning: {message}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    if list(sys.argv[1:] if argv is None else argv) == ["--version"]:
        print(VERSION)  # (before the commands load: a script asks this often)
        raise SystemExit(0)
    args = build_parser().parse_args(argv)
    debug = getattr(args, "debug", False)
    try:
        with warnings.catch_warnings():
            if not debug:
                warnings.showwarning = _show_warning
            # --jobs forks its workers; Python 3.12+ warns whenever the process has other
            # threads (an embedding app, a test runner), which the workers never touch.
            warnings.filterwarnings(
                "ignore", "This process .* is multi-threaded", DeprecationWarning
            )
            return int(args.handler(args))
    except RunError as exc:  # CLIError too
        if debug:
            raise
        print(f"streamblocks: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("streamblocks: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly.
        _silence_stdout()
        return 0
    except Exception as exc:
        if debug:
            raise
        print(
            f"streamblocks: error: {type(exc).__name__}: {exc} (--debug shows the traceback)",
            file=sys.stderr,
        )
        return 1


# Names of the command's modules this package offers, loaded on first use.
_LAZY = {
    "demo_events": ".commands.demo",
    "event_json": "..runs.model",
    "default_registry": "..runs.registries",
    "demo_registry": "..runs.registries",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


__all__ = [
    "CLIError",
    "build_parser",
    "default_registry",
    "demo_events",
    "demo_registry",
    "event_json",
    "main",
]
