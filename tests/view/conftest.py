"""Shared set-up of the viewer tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [view] extra is not installed")
pytest.importorskip("uvicorn", reason="the [view] extra is not installed")

from streamblocks import StreamBlockProcessor
from streamblocks.runs import live as source

from .served import Served


@pytest.fixture
def serve() -> Iterator[Any]:
    """``serve(path_or_items, processor=None)`` → a running :class:`Served`."""
    started: list[Served] = []
    handles: list[Any] = []

    def start(what: Path | Iterator[Any], processor: StreamBlockProcessor | None = None) -> Served:
        if isinstance(what, Path):
            handle = what.open("rb")
            handles.append(handle)
            items = source.read(handle)
        else:
            items = what
        served = Served(items, processor)
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop()
    for handle in handles:
        handle.close()
