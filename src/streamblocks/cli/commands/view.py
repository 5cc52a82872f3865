"""``streamblocks view``: show a stream or an agent run as a live web page.

The command's arguments; :func:`run` serves the page of :mod:`streamblocks.view` — the
one place the command line reaches the viewer. Starlette and uvicorn are imported only
when the command runs, so the rest of the CLI works without the ``[view]`` extra.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import threading
import webbrowser
from pathlib import Path
from typing import IO, Any

from ...runs.errors import RunError
from ...runs.reading import SNIFF_LIMIT, refuse_binary, wide_encoding
from ..options import add_markup_option, encoding, integer, number

EXTRA_MODULES = ("starlette", "uvicorn", "ag_ui")
INSTALL_HINT = (
    "streamblocks view needs the [view] extra (Starlette, uvicorn and the AG-UI SDK): "
    "from a checkout of this project run  pip install '.[view]'"
)


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``view`` to the ``streamblocks`` subcommands (``commands`` is the object
    ``ArgumentParser.add_subparsers()`` returned)."""
    view: argparse.ArgumentParser = commands.add_parser(
        "view",
        help="show a stream or an agent run as a live web page",
        description="Serve a local page that shows a stream as people want to read it: "
        "text, thinking, tool calls and results, commands, file changes, code and custom "
        "blocks. A file is replayed; - or a pipe is shown live as it arrives.",
    )
    view.add_argument(
        "file",
        nargs="?",
        default="-",
        help="a transcript, recorded stream, text file or exported run; - for stdin (default)",
    )
    view.add_argument(
        "--port", type=integer(0, 65535), default=0, help="port to serve on (default: a free one)"
    )
    view.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine)"
    )
    view.add_argument("--no-open", action="store_true", help="do not open a browser")
    view.add_argument(
        "--adapter",
        metavar="NAME",
        help="read the input with this input adapter (`streamblocks adapters` lists them), "
        "or `text` to read it as raw text",
    )
    view.add_argument(
        "--registry",
        metavar="SPEC",
        help="the block types: path/to/file.py:NAME or package.module:NAME",
    )
    add_markup_option(view)
    view.add_argument(
        "--encoding",
        type=encoding,
        default="utf-8",
        metavar="NAME",
        help="the input's encoding (default utf-8; a UTF-16 or UTF-32 byte-order mark is "
        "followed by itself)",
    )
    view.add_argument(
        "--replay-speed",
        type=number(0.001, 1000),
        default=None,
        metavar="X",
        help="replay a file at X times the pace of its timestamps (default: at once)",
    )
    view.add_argument(
        "--html",
        metavar="OUT.html",
        help="write the page with the run in it to OUT.html (one file that opens from disk, "
        "no server, no network) and exit",
    )
    view.add_argument(
        "--redact",
        action="store_true",
        help="mask API keys, tokens, private keys, NAME_SECRET= values, e-mail addresses "
        "and home directories (on the page and in what it saves)",
    )
    view.set_defaults(handler=run, usage_text=view.format_usage())
    return view


def _missing_extra() -> bool:
    return any(importlib.util.find_spec(name) is None for name in EXTRA_MODULES)


def _processor(args: argparse.Namespace) -> Any:
    from ... import StreamBlockProcessor
    from ...runs.loading import load_adapter
    from ...runs.registries import registry_for

    adapter: Any = None if args.adapter in (None, "text") else load_adapter(args.adapter)
    if args.adapter is None:
        adapter = "auto"
    registry, unknown = registry_for(args.registry, None)
    return StreamBlockProcessor(
        registry, input_adapter=adapter, unknown=unknown, markup=args.markup
    )


def _stdin_is_terminal() -> bool:
    stdin = sys.stdin
    return stdin is not None and hasattr(stdin, "isatty") and stdin.isatty()


def _input(args: argparse.Namespace) -> tuple[IO[bytes], str, bool]:
    """The input, its title and whether it is live; a binary file is refused (as by
    ``extract``). The check reads the first bytes of a file only: a pipe is checked by
    the reader as it arrives, so that a live page is never held up."""
    from ...view.server import ViewError

    if args.file == "-":
        return sys.stdin.buffer, "<stdin>", True
    path = Path(args.file)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise ViewError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    if path.is_file():
        head = handle.read(SNIFF_LIMIT)
        handle.seek(0)
        try:
            if wide_encoding(head, args.encoding) is None:  # (UTF-16 has NUL bytes)
                refuse_binary(head, args.file)
        except RunError as exc:
            handle.close()
            raise ViewError(str(exc)) from None
    return handle, path.name, not path.is_file()  # a named pipe is live too


def _warn(message: str) -> None:
    print(f"streamblocks view: warning: {message}", file=sys.stderr, flush=True)


def _read(args: argparse.Namespace, redact: bool) -> Any:
    """The whole input read at once into a run (for a saved page)."""
    from ...runs import live as source
    from ...runs.redact import Redactor
    from ...view import runs

    processor = _processor(args)
    handle, _, _ = _input(args)
    the_run = runs.Run()
    try:
        items = source.read(handle, text=args.adapter == "text", speed=None)
        redactor = Redactor() if redact else None
        runs.without_gc_while(
            runs.produce, the_run, processor, items, on_warning=_warn, redactor=redactor
        )
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()
    return the_run


def _write_html(args: argparse.Namespace) -> int:
    """``--html OUT``: the page with the run in it, written once."""
    from ...view.page import saved
    from ...view.server import ViewError

    title = "<stdin>" if args.file == "-" else Path(args.file).name
    try:
        the_run = _read(args, args.redact)
    except ViewError as exc:
        print(f"streamblocks: {exc}", file=sys.stderr)
        return 2
    try:
        Path(args.html).write_text(saved(the_run, title, args.redact), encoding="utf-8")
    except OSError as exc:
        print(f"streamblocks: cannot write {args.html}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"streamblocks view: wrote {args.html}", file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    """Serve the page until Ctrl-C. Exit codes: 0 stopped, 2 usage (missing extra, port
    in use, unreadable input)."""
    if _missing_extra():
        print(f"streamblocks: {INSTALL_HINT}", file=sys.stderr)
        return 2
    from ...runs import live as source
    from ...runs.redact import Redactor
    from ...view import runs
    from ...view.page import saved
    from ...view.server import ViewError, bind, create_app, host_names, serve, url_of

    if args.file == "-" and _stdin_is_terminal():
        sys.stderr.write(
            args.usage_text + "streamblocks view: standard input is a terminal; pipe a stream "
            "in (claude -p --output-format stream-json ... | streamblocks view) or name a "
            "file (`streamblocks view --help`)\n"
        )
        return 2
    if args.html:
        return _write_html(args)
    try:
        processor = _processor(args)
        handle, title, live = _input(args)
        sock = bind(args.host, args.port)
    except ViewError as exc:
        print(f"streamblocks: {exc}", file=sys.stderr)
        return 2
    speed = None if live else args.replay_speed
    items = source.read(handle, text=args.adapter == "text", speed=speed, encoding=args.encoding)
    the_run = runs.Run()
    redactor = Redactor() if args.redact else None

    def save_html(redact: bool) -> str | None:
        if redact and not args.redact:  # a file is read again, redacted; a pipe cannot be
            return None if live else saved(_read(args, True), title, True)
        return saved(the_run, title, args.redact)

    app = create_app(
        the_run,
        title=title,
        live=live,
        hosts=host_names(args.host),
        on_startup=lambda: runs.start(
            the_run, processor, items, on_warning=_warn, without_gc=True, redactor=redactor
        ),
        save_html=save_html,
        redacted=args.redact,
    )
    url = url_of(sock)

    def started() -> None:
        print(f"streamblocks view: {url}  (Ctrl-C to stop)", flush=True)
        if not args.no_open:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    try:
        serve(app, sock, started, the_run.stop)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("streamblocks view: stopped", file=sys.stderr)
    return 0
