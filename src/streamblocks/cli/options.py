"""Argument parsing shared by every command: strict parsers, checked numbers, the
global options (accepted before or after the command) and the output options."""

from __future__ import annotations

import argparse
import codecs
import difflib
import math
from collections.abc import Callable
from typing import NoReturn

from .render import RENDERERS


class Parser(argparse.ArgumentParser):
    """No abbreviated options, and a usage error is one line (exit status 2)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> NoReturn:
        if message.startswith("unrecognized arguments: "):
            message += self._guesses(message.split(": ", 1)[1].split())
        self.exit(2, f"{self.prog}: error: {message} (`{self.prog} --help` for usage)\n")

    def _guesses(self, unknown: list[str]) -> str:
        """`` (did you mean '--adapter'?)`` for misspelt options: the closest option of
        this parser or its commands (argparse reports a command's unknown options from
        the top parser)."""
        known = set(self._option_string_actions)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                for parser in action.choices.values():
                    known.update(parser._option_string_actions)
        guesses = [
            f"{close[0]!r} for {arg!r}"
            for arg in unknown
            if arg.startswith("--")
            for close in [difflib.get_close_matches(arg.split("=", 1)[0], known, n=1)]
            if close
        ]
        return f" (did you mean {', '.join(guesses)}?)" if guesses else ""


def _range(low: float, high: float | None) -> str:
    return f"from {low:g} to {high:g}" if high is not None else f"≥ {low:g}"


def _int_range(low: int, high: int | None) -> str:
    return f"from {low} to {high}" if high is not None else f"≥ {low}"


def integer(low: int, high: int | None = None) -> Callable[[str], int]:
    """An ``int`` option type that refuses values outside ``low..high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(
                f"must be a whole number {_int_range(low, high)}, got {text!r}"
            )
        return value

    return parse


def number(low: float, high: float | None = None) -> Callable[[str], float]:
    """A finite ``float`` option type that refuses values outside ``low..high``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be a number {_range(low, high)}, got {text!r}")
        return value

    return parse


def encoding(text: str) -> str:
    """A text encoding Python knows."""
    try:
        return codecs.lookup(text).name
    except LookupError:
        raise argparse.ArgumentTypeError(f"unknown encoding {text!r}") from None


def add_global_options(parser: argparse.ArgumentParser) -> None:
    """``--debug`` and ``--no-color``: on the top parser and on every command, so they
    work in any position (``SUPPRESS``: a command's default does not undo the top's)."""
    group = parser.add_argument_group("global options")
    group.add_argument(
        "--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks"
    )
    group.add_argument(
        "--no-color",
        action="store_true",
        default=argparse.SUPPRESS,
        help="no colours (NO_COLOR in the environment does the same)",
    )


def add_delay_option(command: argparse.ArgumentParser, default: float | None, help: str) -> None:
    """``--delay SECONDS`` (0 to 60): pacing for a replay."""
    command.add_argument(
        "--delay", type=number(0, 60), default=default, metavar="SECONDS", help=help
    )


def add_output_options(command: argparse.ArgumentParser) -> None:
    group = command.add_argument_group("output")
    group.add_argument(
        "--render",
        choices=RENDERERS,
        default="auto",
        help="rich panels, plain text or JSON lines (default auto: rich when standard "
        "output is a terminal and rich is installed, plain otherwise)",
    )
    group.add_argument(
        "--json", dest="render", action="store_const", const="json", help="= --render json"
    )
    group.add_argument(
        "--plain", dest="render", action="store_const", const="plain", help="= --render plain"
    )
    group.add_argument("--hide-text", action="store_true", help="show only blocks")
    group.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 if a block is rejected, the stream failed or an input line was skipped",
    )
    group.add_argument(
        "--prices",
        metavar="FILE",
        help="a price table (JSON or YAML: input, output, cache_read, cache_write in dollars "
        "per million tokens) for the summary's cost when the adapter reports none",
    )


def markup_family(text: str) -> str:
    """``--markup``: a model family (``streamblocks.markup.FAMILIES``) or ``auto``."""
    if text.strip().lower() == "auto":
        return "auto"
    from ..markup import FAMILIES, Markup

    try:
        return Markup(text).family
    except ValueError as exc:
        close = difflib.get_close_matches(text.strip().lower(), [*FAMILIES, "auto"], n=1)
        guess = f" (did you mean {close[0]!r}?)" if close else ""
        raise argparse.ArgumentTypeError(f"{exc}{guess}") from None


def add_markup_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--markup",
        type=markup_family,
        metavar="FAMILY",
        help="read an open-weight model's in-text thinking and tool calls: a family "
        "(qwen3, deepseek, kimi, glm, llama, mistral, gemma4, gpt-oss) or auto (the model "
        "the stream names)",
    )


def add_registry_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--registry",
        metavar="SPEC",
        help="the block types: path/to/file.py:NAME or package.module:NAME "
        "(a BlockRegistry, or a function returning one)",
    )
    command.add_argument(
        "--unknown",
        choices=("text", "error", "block"),
        help="what an unregistered block type is (default: text with --registry; without it, "
        "block, except an unregistered XML/HTML tag, which stays text)",
    )


__all__ = [
    "Parser",
    "add_delay_option",
    "add_global_options",
    "add_markup_option",
    "add_output_options",
    "add_registry_options",
    "encoding",
    "integer",
    "number",
]
