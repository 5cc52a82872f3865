"""The pytest plugin (entry point ``pytest11``): fixtures for adapter authors.

Loaded automatically when streamblocks is installed; it only defines fixtures, so it
costs nothing to a test session that does not use them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ..adapters.protocols import InputAdapter
from .runner import AdapterRun, run_adapter
from .splits import adversarial_splits


@pytest.fixture
def adapter_run() -> Callable[[InputAdapter, Any], AdapterRun]:
    """``adapter_run(adapter, events)``: drive an adapter as a session does."""
    return run_adapter


@pytest.fixture
def text_splits() -> Callable[..., Any]:
    """``text_splits(text)``: the adversarial chunkings of ``text``."""
    return adversarial_splits
