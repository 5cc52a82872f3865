"""``streamblocks extract``: the blocks of files, globs or a live pipe."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from ...runs.errors import RunError
from ...runs.loading import check_adapter_name
from ...runs.reading import warn_on_stderr
from ...runs.records import RunReader
from ...runs.redact import Redactor, redact_events
from ..batch import Input, ReadOptions, expand, read_all
from ..errors import CLIError
from ..markdown import transcript
from ..model import Tally
from ..options import (
    add_delay_option,
    add_markup_option,
    add_output_options,
    add_registry_options,
    encoding,
    integer,
)
from ..output import exit_code, renderer_for
from ..progress import Progress
from ..render import JSONRenderer, Renderer

PROGRESS_MIN_BYTES = 4 * 1024 * 1024
"""A single file at least this large gets a progress bar (when stderr is a terminal)."""

DESCRIPTION = """\
Read raw text, or NDJSON/SSE of provider events (OpenAI, Anthropic, Gemini, AG-UI,
Claude CLI and Codex CLI transcripts, and any installed adapter; detected from the first
line), and show the blocks. A pipe is read as it arrives: `claude -p --output-format
stream-json ... | streamblocks extract` shows each event when the agent writes it.

Without --registry the block types cover all five syntaxes: note and todo (!!id:type),
patch (!!start + YAML), shell (``` fences with a block_type), cite and thinking (XML tags),
Search (!!!GADGET_START:Search); any other type name, a gadget call too, shows as a
generic block (--unknown block)."""

EPILOG = """\
exit status: 0 done (skipped lines are warnings); 1 when a run failed (stop: error;
--allow-failed: 0), or with --strict when a block was rejected or a line was skipped; 2
usage error or an unreadable input; 130 interrupted."""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "extract",
        help="extract blocks from text, recorded provider streams or agent transcripts",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="files or glob patterns (runs/*.jsonl); - or none: standard input",
    )
    parser.add_argument(
        "--adapter",
        metavar="NAME",
        help="read the input with this adapter (`streamblocks adapters` lists them), "
        "or `text` to read it as raw text",
    )
    parser.add_argument(
        "--chunk",
        type=integer(1),
        metavar="N",
        help="characters per chunk of a text file (4096)",
    )
    add_delay_option(parser, 0.0, "seconds between chunks (a replay)")
    parser.add_argument(
        "--encoding",
        type=encoding,
        default="utf-8",
        metavar="NAME",
        help="the inputs' encoding (default utf-8); undecodable bytes become � with a warning",
    )
    parser.add_argument(
        "--allow-failed",
        action="store_true",
        help="exit 0 even when a run failed (stop: error); the totals still name it",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=integer(1, 256),
        default=1,
        metavar="N",
        help="read files in this many worker processes (each file's events stay together)",
    )
    parser.add_argument("--out", metavar="FILE", help="write the events as JSON Lines to FILE")
    parser.add_argument(
        "--partial",
        action="store_true",
        help="with --json: each BLOCK_DELTA of a tool call (or gadget) carries `partial`, "
        "the arguments written so far",
    )
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="write each run as a Markdown transcript (turns, thinking, tool calls and "
        "results, sub-agents, usage) instead of its blocks",
    )
    parser.add_argument(
        "--redact",
        action="store_true",
        help="with --markdown: mask API keys, tokens, private keys, NAME_SECRET= values, "
        "e-mail addresses and home directories",
    )
    add_registry_options(parser)
    add_markup_option(parser)
    add_output_options(parser)
    parser.set_defaults(handler=run, usage_text=parser.format_usage())
    return parser


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size if path != "-" else 0
    except OSError:
        return 0


def _stdin_is_terminal() -> bool:
    stdin = sys.stdin
    return stdin is not None and hasattr(stdin, "isatty") and stdin.isatty()


def _progress(paths: list[str]) -> Progress:
    """A bar for several files, or one large file, when stderr is a terminal."""
    sizes = [_size(path) for path in paths]
    wanted = sys.stderr.isatty() and paths != ["-"]
    if len(paths) == 1 and sizes[0] < PROGRESS_MIN_BYTES:
        wanted = False
    return Progress(sys.stderr if wanted else None, len(paths), sum(sizes))


def run(args: argparse.Namespace) -> int:
    if args.adapter is not None:
        check_adapter_name(args.adapter)
    if not args.files and _stdin_is_terminal():
        sys.stderr.write(
            args.usage_text + "streamblocks extract: standard input is a terminal; pipe a "
            "stream in (claude -p --output-format stream-json ... | streamblocks extract) "
            "or name files (`streamblocks extract --help`)\n"
        )
        return 2
    paths = expand(args.files or ["-"])
    out: TextIO = sys.stdout
    if args.out:
        try:
            out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise CLIError(f"--out: cannot write {args.out}: {exc.strerror or exc}") from None
    try:
        if args.markdown:
            return _markdown(args, paths, out)
        if args.redact:
            raise CLIError("--redact goes with --markdown (or streamblocks view --redact)")
        if args.out:
            args.render = "json"
        # Open blocks are drawn live (rich, on a terminal) for a replay or a pipe.
        renderer = renderer_for(args, out, live=bool(args.delay) or paths == ["-"])
        if args.partial and not isinstance(renderer, JSONRenderer):
            warn_on_stderr("--partial changes only JSON output (--json or --out); ignored")
        return _extract(args, paths, renderer)
    except KeyboardInterrupt:
        if args.out:  # what was written is valid JSON Lines, but not the whole run
            print(f"streamblocks: {args.out} is incomplete (interrupted)", file=sys.stderr)
        raise
    finally:
        if out is not sys.stdout:
            out.close()


def _options(args: argparse.Namespace) -> ReadOptions:
    return ReadOptions(
        adapter=args.adapter,
        chunk=args.chunk,
        encoding=args.encoding,
        registry=args.registry,
        unknown=args.unknown,
        delay=args.delay,
        markup=args.markup,
        partial=args.partial,
    )


def _markdown(args: argparse.Namespace, paths: list[str], out: TextIO) -> int:
    """``--markdown``: each run as a transcript, one after another."""
    reader = RunReader(_options(args))
    for path in paths:
        events: Iterable[Any] = (event for _, event in reader.events(path, usage=True))
        redactor = Redactor() if args.redact else None
        if redactor is not None:
            events = redact_events(events, redactor)
        title = "<stdin>" if path == "-" else os.path.basename(path)
        out.write(transcript(events, title, redactor=redactor))
        out.flush()
    return 0


def _extract(args: argparse.Namespace, paths: list[str], renderer: Renderer) -> int:
    options = _options(args)
    batch = Batch(renderer, _progress(paths), several=len(paths) > 1)
    inputs = read_all(
        paths,
        options,
        jobs=args.jobs,
        warn=batch.warn,
        on_bytes=batch.on_bytes,
        lines=isinstance(renderer, JSONRenderer),
    )
    try:
        for found in inputs:
            batch.show(found)
    finally:
        inputs.close()  # stops the worker processes at once when the output went away
        renderer.close()
        batch.progress.clear()
    if batch.several:
        if not isinstance(renderer, JSONRenderer):
            renderer.totals(batch.tally.line())
        elif args.out:
            print(f"streamblocks: {batch.tally.line()}", file=sys.stderr)
    if batch.failed:
        return 2
    if renderer.failed and not args.allow_failed:
        return 1
    return exit_code(renderer, args.strict, batch.warnings)


class Batch:
    """The inputs of one ``extract`` run, shown in turn: the records, the warnings,
    a progress bar kept off the output's lines, the totals."""

    def __init__(self, renderer: Renderer, progress: Progress, *, several: bool) -> None:
        self.renderer = renderer
        self.progress = progress
        self.several = several
        self.tally = Tally(renderer.prices)
        self.warnings = self.failed = self.done_bytes = 0
        # Sharing the terminal with the output, the bar is drawn only between inputs.
        self.between_only = progress.err is not None and renderer.out.isatty()

    def warn(self, message: str) -> None:
        self.warnings += 1
        self.progress.clear()
        warn_on_stderr(message)

    def on_bytes(self, position: int) -> None:
        if not self.between_only:
            self.progress.bytes = self.done_bytes + position
            self.progress.update()

    def show(self, found: Input) -> None:
        """One input's records (or the lines a worker wrote, and the records to count);
        a :class:`RunError` fails only this input when there are several."""
        path, renderer = found.path, self.renderer
        if self.between_only:
            self.progress.clear()
        if self.several:
            renderer.begin_source("<stdin>" if path == "-" else path)
        try:
            if found.lines is not None:
                renderer.out.write(found.lines)
                renderer.out.flush()
            for record in found.records:
                if found.lines is None:
                    renderer(record)
                else:
                    renderer.count(record)
                self.tally.add(record)
                self.progress.blocks, self.progress.errors = self.tally.blocks, self.tally.errors
        except RunError as exc:
            if not self.several:
                raise
            self.failed += 1
            self.tally.unreadable.append(path)
            self.progress.clear()
            print(f"streamblocks: {exc}", file=sys.stderr, flush=True)
        self.tally.files += 1
        self.done_bytes += _size(path)
        self.progress.files, self.progress.bytes = self.tally.files, self.done_bytes
        self.progress.update(force=self.tally.files == self.progress.total_files)


__all__ = ["add_parser", "run"]
