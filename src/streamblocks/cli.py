"""The ``streamblocks`` command: extract blocks from a file, or watch a demo stream."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, is_dataclass
from importlib import resources
from typing import Any, TextIO

from pydantic import BaseModel

from . import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockRegistry,
    BlockStart,
    DelimiterFrontmatterSyntax,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    StreamFinished,
    TextDelta,
)


def demo_registry() -> BlockRegistry:
    """The block types of the bundled demo reply."""
    registry = BlockRegistry()
    registry.register("note", description="An observation.")
    registry.register("todo", description="A list of next steps.")
    registry.register("patch", syntax=DelimiterFrontmatterSyntax(), description="A code change.")
    registry.register("shell", syntax=MarkdownFrontmatterSyntax(), description="A command to run.")
    return registry


def _chunks(text: str, size: int, delay: float) -> Iterator[str]:
    for start in range(0, len(text), size):
        if delay:
            time.sleep(delay)
        yield text[start : start + size]


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if is_dataclass(value) and not isinstance(value, type):
        return {key: _jsonable(item) for key, item in asdict(value).items()}
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def event_json(event: Any) -> str:
    """One event as a JSON object: ``{"type": ..., <fields>}``."""
    fields = {name: _jsonable(getattr(event, name)) for name in event._fields}
    return json.dumps({"type": event.type.value, **fields}, ensure_ascii=False)


class _Renderer:
    """Plain-text rendering: visible text as is, blocks framed by their markers."""

    def __init__(self, out: TextIO, hide_text: bool) -> None:
        self.out = out
        self.hide_text = hide_text

    def __call__(self, event: Any) -> None:
        write = self.out.write
        if isinstance(event, TextDelta) and not self.hide_text:
            write(event.text)
        elif isinstance(event, BlockStart):
            write(f"\n┌─ {event.block_type} {event.block_id} ({event.syntax})\n│ ")
        elif isinstance(event, BlockDelta):
            write(event.text.replace("\n", "\n│ "))
        elif isinstance(event, BlockEnd):
            block = event.block
            write(f"\n└─ {block.type} {block.id} ok, metadata={_jsonable(block.metadata)}\n")
        elif isinstance(event, BlockError):
            write(f"\n✗ {event.code.value} {event.block_type or ''} {event.block_id or ''}")
            write(f": {event.message}\n")
        elif isinstance(event, StreamFinished):
            counts = event.counts
            write(f"\n— {counts.blocks} blocks, {counts.errors} errors, {counts.chars} chars\n")
        self.out.flush()


def _run(text_chunks: Iterator[str], args: argparse.Namespace) -> int:
    processor = StreamBlockProcessor(demo_registry(), input_adapter=None)
    render = _Renderer(sys.stdout, hide_text=args.hide_text)
    errors = 0
    for event in processor.process(text_chunks):
        errors += isinstance(event, BlockError)
        if args.json:
            sys.stdout.write(event_json(event) + "\n")
        else:
            render(event)
    return 1 if errors and args.strict else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="streamblocks", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (
        ("demo", "stream the bundled example reply and show blocks as they arrive"),
        ("extract", "extract blocks from a text file (- for standard input)"),
    ):
        command = commands.add_parser(name, help=help_text)
        if name == "extract":
            command.add_argument("file", help="path of a text file, or - for stdin")
        command.add_argument("--json", action="store_true", help="one JSON event per line")
        command.add_argument("--hide-text", action="store_true", help="show only blocks")
        command.add_argument("--strict", action="store_true", help="exit 1 if a block fails")
        command.add_argument("--chunk", type=int, default=4, help="characters per chunk")
        command.add_argument("--delay", type=float, default=None, help="seconds between chunks")
    args = parser.parse_args(argv)
    if args.command == "demo":
        text = resources.files("streamblocks._demo").joinpath("reply.txt").read_text("utf-8")
        delay = 0.004 if args.delay is None else args.delay
    else:
        try:
            handle = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
            with handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            print(f"streamblocks: cannot read {args.file}: {exc}", file=sys.stderr)
            return 2
        delay = args.delay or 0.0
    return _run(_chunks(text, max(args.chunk, 1), delay), args)


if __name__ == "__main__":
    raise SystemExit(main())
