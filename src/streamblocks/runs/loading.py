"""Loading what the user names: an input adapter (entry point) or a block registry."""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import inspect
import os
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from ..adapters import ENTRY_POINT_GROUP, InputAdapter
from ..core.registry import BlockRegistry
from .errors import RunError


def adapter_names() -> list[str]:
    """The installed input adapters' entry point names."""
    return sorted({ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)})


def check_adapter_name(name: str) -> str:
    """``name`` when it is ``text`` or an installed adapter; else a usage error listing them."""
    if name != "text" and name not in adapter_names():
        known = ["text", *adapter_names()]
        close = difflib.get_close_matches(name.replace("-", "_"), known, n=1, cutoff=0.75)
        guess = f"did you mean {close[0]!r}? " if close else ""
        raise RunError(f"unknown adapter {name!r}; {guess}installed adapters: {', '.join(known)}")
    return name


def load_adapter(name: str) -> InputAdapter:
    """The adapter registered under the entry point ``name``."""
    check_adapter_name(name)
    found = [ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    try:
        obj = found[0].load()
    except Exception as exc:
        raise RunError(f"adapter {name!r} cannot be loaded: {exc}") from exc
    adapter = obj() if isinstance(obj, type) else obj
    if not (hasattr(adapter, "categorize") and hasattr(adapter, "extract_text")):
        raise RunError(f"entry point {name!r} ({found[0].value}) is not an input adapter")
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

    ``attr`` may be dotted, and may name a function returning a registry. A module is
    looked for in the current folder too (as ``python -m`` does). Every mistake is one
    :class:`RunError` line saying what to fix.
    """
    target, sep, attr = spec.rpartition(":")
    if not sep or not target or not attr:
        raise RunError(f"--registry wants FILE.py:NAME or MODULE:NAME, got {spec!r}")
    try:
        obj: Any = _import(target)
    except RunError:
        raise
    except ModuleNotFoundError as exc:
        missing = exc.name or target
        if missing == target.split(".")[0] or target.startswith(f"{missing}."):
            hint = f"no module {target!r} in the current folder or on the Python path"
            hint += f"; for a file, write --registry path/to/{target.replace('.', '/')}.py:{attr}"
            raise RunError(f"--registry {spec}: {hint}") from exc
        raise RunError(
            f"--registry {spec}: {target} imports {missing!r}, which is not installed"
        ) from exc
    except Exception as exc:
        raise RunError(
            f"--registry {spec}: importing {target} failed: {type(exc).__name__}: {exc}"
        ) from exc
    where = target
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise RunError(f"--registry {spec}: {where} has no {part!r}; {_names(obj, part)}")
        obj, where = getattr(obj, part), f"{where}:{part}" if where == target else f"{where}.{part}"
    if not isinstance(obj, BlockRegistry) and callable(obj):
        try:
            obj = obj()
        except Exception as exc:
            raise RunError(
                f"--registry {spec}: calling {attr}() raised {type(exc).__name__}: {exc}"
            ) from exc
        what = f"{attr}() returned a {type(obj).__name__}"
    else:
        what = f"{attr} is a {type(obj).__name__}"
    if not isinstance(obj, BlockRegistry):
        raise RunError(f"--registry {spec}: {what}, not a BlockRegistry")
    return obj


def _names(obj: Any, wanted: str) -> str:
    """The names ``obj`` has that could be meant: its registries (and functions) first."""
    public = [name for name in dir(obj) if not name.startswith("_")]
    registries = [n for n in public if isinstance(getattr(obj, n, None), BlockRegistry)]
    close = difflib.get_close_matches(wanted, public, n=1)
    guess = f"did you mean {close[0]!r}? " if close else ""
    if registries:
        return guess + "registries there: " + ", ".join(registries)
    functions = [n for n in public if inspect.isfunction(getattr(obj, n, None))]
    listed = functions or public
    return guess + ("names there: " + ", ".join(listed[:20]) if listed else "it defines nothing")


def _import(target: str) -> Any:
    if not (target.endswith(".py") or "/" in target or "\\" in target):
        here = os.getcwd()
        added = here not in sys.path and "" not in sys.path
        if added:
            sys.path.insert(0, here)
        try:
            return importlib.import_module(target)
        finally:
            if added:
                sys.path.remove(here)
    path = Path(target)
    if not path.is_file():
        raise RunError(f"--registry: no such file: {target}")
    name = f"_streamblocks_registry_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise RunError(f"--registry: cannot import {target}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


__all__ = ["adapter_name", "adapter_names", "check_adapter_name", "load_adapter", "load_registry"]
