"""Loading what the user names: an input adapter (entry point) or a block registry."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from ..adapters import ENTRY_POINT_GROUP, InputAdapter
from ..core.registry import BlockRegistry
from .errors import CLIError


def adapter_names() -> list[str]:
    """The installed input adapters' entry point names."""
    return sorted({ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)})


def check_adapter_name(name: str) -> str:
    """``name`` when it is ``text`` or an installed adapter; else a usage error listing them."""
    if name != "text" and name not in adapter_names():
        names = ", ".join(["text", *adapter_names()])
        raise CLIError(f"unknown adapter {name!r}; installed adapters: {names}")
    return name


def load_adapter(name: str) -> InputAdapter:
    """The adapter registered under the entry point ``name``."""
    check_adapter_name(name)
    found = [ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    try:
        obj = found[0].load()
    except Exception as exc:
        raise CLIError(f"adapter {name!r} cannot be loaded: {exc}") from exc
    adapter = obj() if isinstance(obj, type) else obj
    if not (hasattr(adapter, "categorize") and hasattr(adapter, "extract_text")):
        raise CLIError(f"entry point {name!r} ({found[0].value}) is not an input adapter")
    return adapter  # type: ignore[no-any-return]


def adapter_name(adapter: Any) -> str:
    """The entry point name of an adapter instance (its class name when not registered)."""
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
        except Exception:  # a broken plugin: `streamblocks adapters` reports it
            continue
        if isinstance(obj, type) and isinstance(adapter, obj):
            return ep.name
    return type(adapter).__name__


def load_registry(spec: str) -> BlockRegistry:
    """``path/to/file.py:attr`` or ``package.module:attr`` → the registry it names.

    ``attr`` may be dotted, and may name a function returning a registry.
    """
    target, sep, attr = spec.rpartition(":")
    if not sep or not target or not attr:
        raise CLIError(f"--registry wants FILE.py:NAME or MODULE:NAME, got {spec!r}")
    try:
        obj: Any = _import(target)
        for part in attr.split("."):
            obj = getattr(obj, part)
        if not isinstance(obj, BlockRegistry) and callable(obj):
            obj = obj()
    except CLIError:
        raise
    except Exception as exc:
        raise CLIError(f"cannot load registry {spec!r}: {type(exc).__name__}: {exc}") from exc
    if not isinstance(obj, BlockRegistry):
        raise CLIError(f"{spec!r} is a {type(obj).__name__}, not a BlockRegistry")
    return obj


def _import(target: str) -> Any:
    if not (target.endswith(".py") or "/" in target or "\\" in target):
        return importlib.import_module(target)
    path = Path(target)
    if not path.is_file():
        raise CLIError(f"--registry: no such file: {target}")
    name = f"_streamblocks_registry_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise CLIError(f"--registry: cannot import {target}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


__all__ = ["adapter_name", "adapter_names", "check_adapter_name", "load_adapter", "load_registry"]
