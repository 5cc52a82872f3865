"""The ``streamblocks`` command.

``extract`` reads text or provider events (NDJSON/SSE) and shows the blocks; ``demo``
replays a bundled provider recording live; ``run`` calls a provider; ``adapters`` lists
the input adapters found; ``prompt`` prints a registry's system prompt. Exit codes: 0
success, 1 blocks rejected (or the provider failed) with ``--strict``, 2 bad input or
usage, 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from typing import Any

from .. import __version__
from ..core.processor import StreamBlockProcessor
from ..core.registry import BlockRegistry
from ..syntaxes import DelimiterFrontmatterSyntax, MarkdownFrontmatterSyntax, XMLTagSyntax
from .inputs import CLIError, load_registry, open_source
from .render import Renderer, event_json, make_renderer, rich_available

PROGRESS_MIN_BYTES = 4 * 1024 * 1024
"""Files at least this large get a progress bar (when stderr is a terminal)."""

SDK_MODULES: dict[str, str | None] = {
    "openai": "openai",
    "anthropic": "anthropic",
    "gemini": "google.genai",
    "agui": "ag_ui.core",
    "claude_cli": None,
    "codex_cli": None,
}
"""The SDK each built-in adapter reads (it also reads the SDK's JSON without it);
``None`` for the transcript adapters, which read JSON lines and need no SDK."""

API_KEYS = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
}


def demo_registry() -> BlockRegistry:
    """The block types of the bundled demo reply."""
    registry = BlockRegistry()
    registry.register("note", description="An observation.")
    registry.register("todo", description="A list of next steps.")
    registry.register("patch", syntax=DelimiterFrontmatterSyntax(), description="A code change.")
    registry.register("shell", syntax=MarkdownFrontmatterSyntax(), description="A command to run.")
    return registry


def default_registry() -> BlockRegistry:
    """What ``extract`` and ``run`` use without ``--registry``: a few common types in each
    line syntax and XML, so that every syntax is active; with ``--unknown block`` (the
    default then) any other type name shows as a generic block."""
    registry = demo_registry()
    xml = XMLTagSyntax()
    registry.register("cite", syntax=xml, description="A citation of a source.")
    registry.register("thinking", syntax=xml, description="Reasoning before the answer.")
    return registry


# -- commands --------------------------------------------------------------------------


def _registry(args: argparse.Namespace) -> tuple[BlockRegistry, str]:
    if getattr(args, "registry", None):
        return load_registry(args.registry), args.unknown or "text"
    return default_registry(), args.unknown or "block"


def _render_all(events: Iterable[Any], renderer: Renderer) -> None:
    try:
        for event in events:
            renderer(event)
    finally:
        renderer.close()


def _exit_code(renderer: Renderer, strict: bool) -> int:
    return 1 if strict and (renderer.errors or renderer.failed) else 0


def _paced(items: Iterable[Any], delay: float) -> Iterator[Any]:
    for item in items:
        if delay:
            time.sleep(delay)
        yield item


def cmd_extract(args: argparse.Namespace) -> int:
    registry, unknown = _registry(args)
    source, reader = open_source(args.file, adapter=args.adapter, chunk=args.chunk)
    progress = _progress(source.size, reader) if not args.json else None
    try:
        adapter: Any = source.adapter if source.format != "text" else None
        processor = StreamBlockProcessor(registry, input_adapter=adapter, unknown=unknown)
        renderer = make_renderer(
            sys.stdout,
            json_lines=args.json,
            plain=args.plain,
            hide_text=args.hide_text,
            live=bool(args.delay),
        )
        _render_all(processor.process(_paced(source.items, args.delay or 0.0)), renderer)
    finally:
        if progress is not None:
            progress.stop()
        reader.close()
    return _exit_code(renderer, args.strict)


def _progress(size: int | None, reader: Any) -> Any:
    if size is None or size < PROGRESS_MIN_BYTES or not sys.stderr.isatty():
        return None
    if not rich_available():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = progress.add_task("reading", total=size)
    reader.on_progress = lambda done: progress.update(task, completed=done)
    progress.start()
    return progress


def demo_events() -> list[Any]:
    """The bundled recording: an Anthropic Messages stream (wire JSON) of a reply with
    thinking, a note, a patch, a shown code fence and a todo list."""
    import json

    text = resources.files("streamblocks._demo").joinpath("anthropic.ndjson").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def cmd_demo(args: argparse.Namespace) -> int:
    events = demo_events()
    processor = StreamBlockProcessor(demo_registry())  # the adapter is auto-detected
    renderer = make_renderer(
        sys.stdout, json_lines=args.json, plain=args.plain, hide_text=args.hide_text
    )
    if args.delay is None:
        # Realistic pacing: ~40 events a second with jitter, like a model streaming.
        jitter = random.Random(7)
        delays = [0.012 + jitter.random() * 0.03 for _ in events]
    else:
        delays = [args.delay] * len(events)

    def paced() -> Iterator[Any]:
        for event, delay in zip(events, delays, strict=True):
            if delay:
                time.sleep(delay)
            yield event

    if not args.json:
        sys.stdout.write(
            f"Replaying a recorded Anthropic stream ({len(events)} events, detected "
            "automatically) through streamblocks…\n\n"
        )
    _render_all(processor.process(paced()), renderer)
    return _exit_code(renderer, args.strict)


def cmd_adapters(args: argparse.Namespace) -> int:
    from ..adapters import available

    infos = available()
    rows = []
    for info in infos:
        module = SDK_MODULES.get(info.name, "") if info.builtin else ""
        if module is None:
            sdk = "none needed"
        elif not module:
            sdk = "-"
        else:
            try:
                sdk = "yes" if importlib.util.find_spec(module) is not None else "no"
            except (ImportError, ValueError):
                sdk = "no"
        status = "loaded" if info.loaded else f"not loaded: {info.error or 'unknown reason'}"
        dist = f"{info.distribution or '?'} {info.version or ''}".strip()
        rows.append((info.name, info.value, dist, sdk, status))
    if args.json:
        import json

        for info, row in zip(infos, rows, strict=True):
            record = {**info._asdict(), "sdk": row[3]}
            sys.stdout.write(json.dumps(record) + "\n")
        return 0
    headers = ("name", "entry point", "distribution", "SDK", "status")
    if rich_available() and not args.plain:
        from rich.console import Console
        from rich.table import Table

        table = Table(title="streamblocks input adapters")
        for header in headers:
            table.add_column(header, overflow="fold")
        for row in rows:
            table.add_row(*row, style=None if row[4] == "loaded" else "red")
        Console(file=sys.stdout).print(table)
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows, strict=False)]
        for row in (headers, *rows):
            sys.stdout.write("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)))
            sys.stdout.write("\n")
    if not rows:
        sys.stdout.write("no adapters found (is streamblocks installed?)\n")
    return 0


def cmd_prompt(args: argparse.Namespace) -> int:
    registry, _ = _registry(args)
    sys.stdout.write(registry.system_prompt().rstrip("\n") + "\n")
    for name, reason in registry.unadvertised().items():  # recognised, but not in the prompt
        sys.stderr.write(f"note: block type {name!r} is not in the prompt: {reason}\n")
    return 0


def _api_key(provider: str) -> str:
    for name in API_KEYS[provider]:
        value = os.environ.get(name)
        if value:
            return value
    raise CLIError(
        f"set {API_KEYS[provider][0]} to call {provider} (no API key in the environment)"
    )


def provider_stream(
    provider: str, model: str, prompt: str, system: str, max_tokens: int
) -> Iterator[Any]:
    """Open a real streaming call; the API key must be set."""
    key = _api_key(provider)
    extra = {"openai": "openai", "anthropic": "anthropic", "gemini": "gemini"}[provider]
    module = SDK_MODULES[provider] or provider
    if importlib.util.find_spec(module.split(".")[0]) is None:
        raise CLIError(f"the {provider} SDK is not installed: pip install 'streamblocks[{extra}]'")
    if provider == "openai":
        from openai import OpenAI

        openai_client = OpenAI(api_key=key)
        return iter(
            openai_client.chat.completions.create(
                model=model,
                messages=[
                    {"role": "system", "content": system},
                    {"role": "user", "content": prompt},
                ],
                stream=True,
                stream_options={"include_usage": True},
                max_completion_tokens=max_tokens,
            )
        )
    if provider == "anthropic":
        from anthropic import Anthropic

        return iter(
            Anthropic(api_key=key).messages.create(
                model=model,
                max_tokens=max_tokens,
                system=system,
                messages=[{"role": "user", "content": prompt}],
                stream=True,
            )
        )
    from google import genai

    gemini_client: Any = genai.Client(api_key=key)
    return iter(
        gemini_client.models.generate_content_stream(
            model=model,
            contents=prompt,
            config={"system_instruction": system, "max_output_tokens": max_tokens},
        )
    )


def cmd_run(args: argparse.Namespace) -> int:
    registry, unknown = _registry(args)
    stream = provider_stream(
        args.provider, args.model, args.prompt, registry.system_prompt(), args.max_tokens
    )
    processor = StreamBlockProcessor(registry, unknown=unknown)
    renderer = make_renderer(
        sys.stdout, json_lines=args.json, plain=args.plain, hide_text=args.hide_text
    )
    _render_all(processor.process(stream), renderer)
    return _exit_code(renderer, args.strict)


# -- parser ----------------------------------------------------------------------------


def _output_options(command: argparse.ArgumentParser) -> None:
    group = command.add_argument_group("output")
    group.add_argument("--json", action="store_true", help="one JSON event per line")
    group.add_argument("--plain", action="store_true", help="plain text, no colours or panels")
    group.add_argument("--hide-text", action="store_true", help="show only blocks")
    group.add_argument(
        "--strict", action="store_true", help="exit 1 if a block is rejected or the stream failed"
    )


def _registry_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--registry",
        metavar="SPEC",
        help="the block types: path/to/file.py:NAME or package.module:NAME "
        "(a BlockRegistry, or a function returning one)",
    )
    command.add_argument(
        "--unknown",
        choices=("text", "error", "block"),
        help="what an unregistered block type is (default: block without --registry, text with it)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="streamblocks",
        description="Extract structured blocks from streaming LLM output.",
        epilog="Docs: https://streamblocks.invalid/docs — `streamblocks demo` to see it work.",
    )
    parser.add_argument("--version", action="version", version=f"streamblocks {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    extract = commands.add_parser(
        "extract",
        help="extract blocks from a text file or a recorded provider stream",
        description="Read raw text, or NDJSON/SSE of provider events (OpenAI, Anthropic, "
        "Gemini, AG-UI, Claude CLI and Codex CLI transcripts, and any installed adapter; "
        "detected from the first line), and show the blocks.",
    )
    extract.add_argument("file", nargs="?", default="-", help="a file, or - for stdin (default)")
    extract.add_argument(
        "--adapter",
        metavar="NAME",
        help="read the input with this adapter (`streamblocks adapters` lists them), "
        "or `text` to read it as raw text",
    )
    extract.add_argument(
        "--chunk", type=int, default=None, help="characters per chunk for text input"
    )
    extract.add_argument(
        "--delay", type=float, default=None, help="seconds to wait between chunks (replay)"
    )
    _registry_options(extract)
    _output_options(extract)
    extract.set_defaults(handler=cmd_extract)

    demo = commands.add_parser(
        "demo", help="replay a bundled model stream and show blocks as they arrive (offline)"
    )
    demo.add_argument(
        "--delay", type=float, default=None, help="seconds between events (default: realistic)"
    )
    _output_options(demo)
    demo.set_defaults(handler=cmd_demo)

    run = commands.add_parser(
        "run",
        help="call a provider with the registry's system prompt and extract blocks live",
    )
    run.add_argument("--provider", required=True, choices=("openai", "anthropic", "gemini"))
    run.add_argument("--model", required=True, help="the provider's model name")
    run.add_argument("--max-tokens", type=int, default=4096, help="output token limit")
    run.add_argument("prompt", help="the user message")
    _registry_options(run)
    _output_options(run)
    run.set_defaults(handler=cmd_run)

    adapters = commands.add_parser("adapters", help="list the input adapters found")
    adapters.add_argument("--json", action="store_true", help="one JSON object per adapter")
    adapters.add_argument("--plain", action="store_true", help="a plain table")
    adapters.set_defaults(handler=cmd_adapters)

    prompt = commands.add_parser("prompt", help="print a registry's system prompt")
    _registry_options(prompt)
    prompt.set_defaults(handler=cmd_prompt)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except CLIError as exc:
        if args.debug:
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
        if args.debug:
            raise
        print(
            f"streamblocks: error: {type(exc).__name__}: {exc} (--debug shows the traceback)",
            file=sys.stderr,
        )
        return 1


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
