"""The viewer's web server: the page's static files, the run as SSE, the export.

Starlette routes on uvicorn (the ``[view]`` extra). ``/events`` is the run as AG-UI
events over server-sent events (see :mod:`streamblocks.view.runs`; ``/events?batch``,
what the page reads, sends them as JSON arrays of many events), ``/export.json``
the run so far as a content-model ``Message``, ``/info.json`` what is being shown.
Every response carries a Content-Security-Policy that allows only the page's own
script and style files (no inline script, no other origin) and requires Trusted Types,
so no string from the stream can become markup; the Host header must name this
machine, so another web site cannot read the run through DNS rebinding.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import socket
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..ext.agui import SSE_MEDIA_TYPE
from .page import saved, static_dir
from .runs import Run

CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
        "require-trusted-types-for 'script'",
        "trusted-types sb-highlight",
    ]
)
"""The page's Content-Security-Policy. The one Trusted Types policy, ``sb-highlight``,
hands highlight.js's output to an inert parser whose result is rebuilt element by
element from a whitelist (see ``static/highlight.js``)."""

SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class ViewError(Exception):
    """A problem the user can fix (a port in use, a missing extra); one line, exit 2."""


_MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}


def _page_files(static: Path) -> dict[str, tuple[bytes, str]]:
    """The page's files read once (about 200 KB), with their media types: answered from
    memory, a page's dozen requests do not wait for file threads behind the reader."""
    return {
        path.relative_to(static).as_posix(): (path.read_bytes(), _MEDIA_TYPES[path.suffix])
        for path in static.rglob("*")
        if path.suffix in _MEDIA_TYPES
    }


class _SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    run: Run,
    *,
    title: str = "streamblocks",
    live: bool = False,
    hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "[::1]"),
    on_startup: Callable[[], object] | None = None,
    save_html: Callable[[bool], str | None] | None = None,
    redacted: bool = False,
) -> Starlette:
    """The viewer's ASGI app for ``run``. ``on_startup`` runs once the event loop is up
    (the place to start reading the input). ``save_html(redact)`` makes the page as one
    file (*Save as HTML*), ``None`` when it cannot redact (a live input cannot be read
    again); ``redacted``: the run itself is (``--redact``)."""
    files = _page_files(static_dir())

    def save_as_read(redact: bool) -> str | None:
        return None if redact and not redacted else saved(run, title, redacted)

    save = save_html or save_as_read

    async def index(request: Request) -> Response:
        body, media_type = files["index.html"]
        return Response(body, media_type=media_type, headers={"cache-control": "no-store"})

    async def static(request: Request) -> Response:
        found = files.get(request.path_params["path"])
        if found is None:
            return Response("not found", status_code=404, media_type="text/plain")
        return Response(found[0], media_type=found[1], headers={"cache-control": "no-cache"})

    async def info(request: Request) -> Response:
        rereadable = save_html is not None and not live and not redacted
        return JSONResponse(
            {"title": title, "live": live, "redacted": redacted, "rereadable": rereadable}
        )

    async def events(request: Request) -> Response:
        last = request.headers.get("last-event-id", "")
        start = int(last) if last.isdigit() else 0
        if run.done and start >= len(run.events):
            return Response(status_code=204)  # all sent: the page's EventSource stops
        return StreamingResponse(
            run.follow(start, batched="batch" in request.query_params),
            media_type=SSE_MEDIA_TYPE,
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    async def export(request: Request) -> Response:
        # folded now (see Run.message), in a thread: the pages' streams go on meanwhile
        body = await asyncio.to_thread(lambda: run.message.model_dump_json(indent=2))
        return Response(
            body,
            media_type="application/json",
            headers={"content-disposition": 'attachment; filename="streamblocks-run.json"'},
        )

    async def export_html(request: Request) -> Response:
        redact = "redact" in request.query_params
        body = await asyncio.to_thread(save, redact)
        if body is None:
            message = "a live input cannot be read again: start the viewer with --redact"
            return Response(message, status_code=409, media_type="text/plain")
        name = "streamblocks-run-redacted.html" if redact else "streamblocks-run.html"
        return Response(
            body,
            media_type="text/html; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="{name}"'},
        )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        run.attach(asyncio.get_running_loop())
        if on_startup is not None:
            on_startup()
        yield

    return Starlette(
        routes=[
            Route("/", index),
            Route("/info.json", info),
            Route("/events", events),
            Route("/export.json", export),
            Route("/export.html", export_html),
            Route("/static/{path:path}", static),
        ],
        middleware=[
            Middleware(_SecurityHeaders),
            Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts)),
        ],
        lifespan=lifespan,
    )


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: a free one), or a clear error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ViewError(
                f"port {port} on {host} is in use; choose another with --port, "
                "or leave --port out to get a free one"
            ) from None
        raise ViewError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(
    app: Starlette,
    sock: socket.socket,
    on_started: Callable[[], None],
    on_stopping: Callable[[], None],
) -> None:
    """Serve until Ctrl-C. uvicorn handles the signal; ``on_stopping`` then ends the
    pages' open streams, so the graceful shutdown has nothing to wait for."""
    import uvicorn

    # The reader thread holds the GIL for up to the switch interval (5 ms) each time the
    # server's loop asks for it, and a page's first requests ask dozens of times.
    sys.setswitchinterval(0.0005)
    # A run's models are millions of long-lived objects that the default thresholds
    # walk again and again as they grow (a fifth of a large transcript's time).
    gc.set_threshold(50_000, 50, 1000)
    config = uvicorn.Config(
        app, log_level="warning", timeout_graceful_shutdown=1, lifespan="on", access_log=False
    )
    server = uvicorn.Server(config)

    async def main() -> None:
        task = asyncio.ensure_future(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.02)
        if server.started:
            on_started()
        while not task.done():
            if server.should_exit:
                on_stopping()
                break
            await asyncio.sleep(0.05)
        await task

    asyncio.run(main())


def host_names(host: str) -> tuple[str, ...]:
    """The Host header values the app accepts when bound to ``host``."""
    names = {"127.0.0.1", "localhost", "[::1]", host, f"[{host}]" if ":" in host else host}
    if host in ("0.0.0.0", "::"):
        names.add("*")  # bound everywhere on purpose: any name reaches it
    return tuple(sorted(names))
