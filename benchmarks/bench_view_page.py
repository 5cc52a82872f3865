"""The viewer's page alone: the server's messages recorded once, replayed to the page.

    python benchmarks/bench_view_page.py [--mb 10] [--kinds claude codex markdown]
        [--rounds 3] [--pace SECONDS] [--static DIR ...]

``bench_view.py`` measures the page while the server makes the run; here the server's
``/events?batch`` body for each input is recorded first (a real ``streamblocks view``),
then served from memory by a small HTTP server with the page's files and its
Content-Security-Policy, so the page's main thread is measured on its own: Chrome's
``TaskDuration`` and ``ScriptDuration``, the JS heap after a garbage collection, when
every event was applied and the rows. ``--pace`` spreads the body over that many seconds
(the page then paints as many frames as it does behind a real server); several
``--static`` folders (a copy of the page from another commit:
``git archive REV src/streamblocks/view/static | tar -x --strip-components=4 -C DIR``)
are measured in turns, round after round, so that they share the machine's load.
``--src`` names, for each ``--static`` folder in order, the ``src`` folder of the
server that records its run (``git archive REV src | tar -x -C DIR``, then ``DIR/src``):
a page and the messages of its own server, when the two changed together.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bench_view import ARGS, KINDS, inputs

from streamblocks.view.server import CSP, static_dir

MEDIA = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}


def record(path: Path, src: Path | None = None) -> tuple[bytes, bytes]:
    """What a page reads of ``streamblocks view PATH``: ``/events?batch`` and ``/info.json``
    (the server run from ``src`` when given)."""
    env = None if src is None else {**os.environ, "PYTHONPATH": str(src)}
    process = subprocess.Popen(
        [sys.executable, "-m", "streamblocks", "view", str(path), "--no-open"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        found = re.search(r"http://\S+", process.stdout.readline())
        assert found
        url = found.group(0)
        body = urllib.request.urlopen(url + "events?batch").read()
        return body, urllib.request.urlopen(url + "info.json").read()
    finally:
        process.terminate()
        process.wait()


def replay(static: Path, body: bytes, info: bytes, pace: float) -> ThreadingHTTPServer:
    """A server of the page's files and the recorded run (a reconnection gets 204, as
    from a run that is over), on a free port."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def head(self, code: int, media: str, length: int | None = None) -> None:
            self.send_response(code)
            self.send_header("content-security-policy", CSP)
            self.send_header("content-type", media)
            if length is not None:
                self.send_header("content-length", str(length))
            self.end_headers()

        def send(self, data: bytes, media: str) -> None:
            self.head(200, media, len(data))
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/":
                self.send((static / "index.html").read_bytes(), MEDIA[".html"])
            elif self.path.startswith("/static/"):
                file = static / self.path.removeprefix("/static/")
                self.send(file.read_bytes(), MEDIA.get(file.suffix, "application/octet-stream"))
            elif self.path == "/info.json":
                self.send(info, "application/json")
            elif self.path.startswith("/events") and self.headers.get("Last-Event-ID"):
                self.head(204, "text/plain", 0)
            elif self.path.startswith("/events") and not pace:
                self.send(body, "text/event-stream")
            elif self.path.startswith("/events"):
                self.head(200, "text/event-stream")
                step = 65536
                for at in range(0, len(body), step):
                    self.wfile.write(body[at : at + step])
                    self.wfile.flush()
                    time.sleep(pace * step / len(body))
            else:
                self.head(404, "text/plain", 0)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def one_round(browser: Any, url: str) -> dict[str, float]:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(url)
    deadline = time.monotonic() + 600
    while not page.evaluate("Boolean(document.body.dataset.rendered)"):
        assert time.monotonic() < deadline, "the page did not apply every event in 600 s"
        time.sleep(0.05)
    rendered = page.evaluate("performance.getEntriesByName('sb-rendered')[0].startTime")
    cdp.send("HeapProfiler.enable")
    cdp.send("HeapProfiler.collectGarbage")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    rows = page.evaluate("document.querySelector('sb-run').list.items.length")
    page.close()
    return {
        "main thread busy (ms)": metrics["TaskDuration"] * 1000,
        "script (ms)": metrics["ScriptDuration"] * 1000,
        "JS heap (MB)": metrics["JSHeapUsedSize"] / 1e6,
        "all events applied (ms)": rendered,
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, nargs="+", default=[10.0])
    parser.add_argument("--kinds", nargs="+", choices=list(KINDS), default=list(KINDS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pace", type=float, default=0.0, help="send the run over SECONDS")
    parser.add_argument("--static", type=Path, nargs="+", default=[static_dir()])
    parser.add_argument("--src", type=Path, nargs="+", help="each --static's server source")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    sources = args.src or [None] * len(args.static)
    if len(sources) != len(args.static):
        parser.error("--src names one folder for each --static folder")
    from playwright.sync_api import sync_playwright

    print(f"load average at start: {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
        for title, path, size in inputs(folder, args.mb, args.kinds):
            recorded = {src: record(path, src) for src in dict.fromkeys(sources)}
            for src, (body, _) in recorded.items():
                print(f"{title} {size:.1f} MB: {len(body) / 1e6:.1f} MB of messages ({src})")
            found: dict[Path, list[dict[str, float]]] = {static: [] for static in args.static}
            for _ in range(args.rounds):
                for static, src in zip(args.static, sources, strict=True):
                    body, info = recorded[src]
                    server = replay(static, body, info, args.pace)
                    try:
                        url = f"http://127.0.0.1:{server.server_address[1]}/"
                        found[static].append(one_round(browser, url))
                    finally:
                        server.shutdown()
            for static, rounds in found.items():
                print(f"  {static}, median of {len(rounds)} (load {os.getloadavg()[0]:.1f}):")
                for key in rounds[0]:
                    median = statistics.median(r[key] for r in rounds)
                    print(f"    {key:26} {median:10.1f}", flush=True)
        browser.close()
    print(f"load average at the end: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
