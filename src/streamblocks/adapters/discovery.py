"""Finding input adapters: entry points in the ``streamblocks.adapters`` group.

The built-in adapters are declared in streamblocks' own ``pyproject.toml`` exactly like a
third-party one, so they are peers::

    [project.entry-points."streamblocks.adapters"]
    my-provider = "my_extension:MyProviderInputAdapter"

Loading happens once, on the first detection or :func:`available` call, and each
``ep.load()`` is guarded: a plugin whose dependency is not installed is skipped quietly,
a plugin that raises is reported once with an :class:`~streamblocks.core.errors.AdapterWarning`
naming it, and the others keep working. :func:`available` lists every entry point found,
loaded or not, and why not.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, NamedTuple

import pluggy

from ..core.errors import AdapterWarning
from . import hookspecs
from .hookspecs import hookimpl
from .protocols import EventCategory, InputAdapter, as_category

ENTRY_POINT_GROUP = "streamblocks.adapters"
_DETECT_HOOK = "streamblocks_detect_input_adapter"


class PluginInfo(NamedTuple):
    """One entry point of the ``streamblocks.adapters`` group, as found."""

    name: str
    """The entry point's name (``openai``, ``my-provider``)."""
    value: str
    """What it points to (``module:attribute``)."""
    distribution: str | None
    """The installed distribution that declares it."""
    version: str | None
    """That distribution's version."""
    builtin: bool
    """Declared by streamblocks itself."""
    loaded: bool
    """Imported and registered; it takes part in detection."""
    error: str | None = None
    """Why it is not loaded: a missing dependency, or the exception it raised."""


class _AdapterPlugin:
    """Wraps an input adapter into a plugin answering the detection hook."""

    def __init__(self, adapter: InputAdapter) -> None:
        self.adapter = adapter
        self._matches: Callable[[Any], bool] | None = getattr(adapter, "matches", None)

    @hookimpl
    def streamblocks_detect_input_adapter(self, event: Any) -> InputAdapter | None:
        if self._matches is not None:
            claimed = bool(self._matches(event))
        else:
            # The minimal adapter: it answers SKIP for events it does not know.
            claimed = as_category(self.adapter.categorize(event)) is not EventCategory.SKIP
        return self.adapter if claimed else None


def _is_adapter(obj: object) -> bool:
    return callable(getattr(obj, "categorize", None)) and callable(
        getattr(obj, "extract_text", None)
    )


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _installed_entry_points() -> Iterable[Any]:
    from importlib import metadata  # (costs more to import than the whole core: on use)

    return metadata.entry_points(group=ENTRY_POINT_GROUP)


class PluginRegistry:
    """The plugins of one process: loaded lazily, once, into a pluggy ``PluginManager``.

    ``entry_points`` returns the entry points to load (by default those installed in the
    ``streamblocks.adapters`` group); tests pass their own.
    """

    def __init__(self, entry_points: Callable[[], Iterable[Any]] | None = None) -> None:
        self._entry_points = entry_points or _installed_entry_points
        self._lock = threading.Lock()
        self._loaded = False
        self._infos: list[PluginInfo] = []
        self._failed_hooks: set[str] = set()
        self.manager = pluggy.PluginManager("streamblocks")
        self.manager.add_hookspecs(hookspecs)

    # -- loading ---------------------------------------------------------------------

    def load(self) -> None:
        """Load the entry points now (otherwise done on first use). Idempotent."""
        if self._loaded:
            return
        with self._lock:
            if self._loaded:
                return
            self._load_all()
            self._loaded = True

    def _load_all(self) -> None:
        seen: set[tuple[str, str]] = set()
        found: list[Any] = []
        for ep in self._entry_points():
            key = (ep.name, ep.value)
            if key not in seen:
                seen.add(key)
                found.append(ep)
        builtins = sorted((ep for ep in found if self._is_builtin(ep)), key=lambda ep: ep.name)
        others = sorted((ep for ep in found if not self._is_builtin(ep)), key=lambda ep: ep.name)
        # pluggy calls the most recently registered plugin first: registering the
        # built-ins first, and each group in reverse, asks third-party plugins first,
        # each group in name order.
        for ep in [*reversed(builtins), *reversed(others)]:
            self._infos.append(self._load_one(ep))
        self._infos.reverse()

    @staticmethod
    def _is_builtin(ep: Any) -> bool:
        dist = getattr(ep, "dist", None)
        name = getattr(dist, "name", None) if dist is not None else None
        if name is not None:
            return str(name).lower() == "streamblocks"
        return str(ep.value).startswith("streamblocks.")

    def _load_one(self, ep: Any) -> PluginInfo:
        dist = getattr(ep, "dist", None)
        info = PluginInfo(
            name=ep.name,
            value=ep.value,
            distribution=getattr(dist, "name", None) if dist is not None else None,
            version=getattr(dist, "version", None) if dist is not None else None,
            builtin=self._is_builtin(ep),
            loaded=False,
        )
        try:
            obj = ep.load()
            plugin = self._as_plugin(obj)
            self.manager.register(plugin, name=ep.name)
        except ModuleNotFoundError as exc:
            own_package = str(ep.value).split(":", 1)[0].split(".", 1)[0]
            missing = (exc.name or "").split(".", 1)[0]
            if missing and missing != own_package:
                # An extra that is not installed: not an error, just not available.
                return info._replace(error=f"missing dependency {exc.name!r}")
            return self._failed(info, exc)
        except Exception as exc:  # a broken plugin must not break the others
            return self._failed(info, exc)
        return info._replace(loaded=True)

    @staticmethod
    def _as_plugin(obj: Any) -> object:
        if isinstance(obj, type) and _is_adapter(obj):
            return _AdapterPlugin(obj())
        if _is_adapter(obj):
            return _AdapterPlugin(obj)
        if isinstance(obj, ModuleType) or any(
            hasattr(getattr(obj, attr, None), "streamblocks_impl") for attr in dir(obj)
        ):
            return obj
        raise TypeError(
            f"{obj!r} is neither an input adapter (categorize + extract_text) "
            "nor a plugin with @hookimpl functions"
        )

    @staticmethod
    def _failed(info: PluginInfo, exc: BaseException) -> PluginInfo:
        warnings.warn(
            f"streamblocks plugin {info.name!r} ({info.value}) failed to load and is "
            f"disabled: {_describe(exc)}",
            AdapterWarning,
            stacklevel=6,
        )
        return info._replace(error=_describe(exc))

    # -- registering by hand ---------------------------------------------------------

    def register_adapter(self, adapter: Any, name: str | None = None) -> None:
        """Register an input adapter (class or instance) ahead of every discovered one."""
        self.load()
        instance = adapter() if isinstance(adapter, type) else adapter
        if not _is_adapter(instance):
            raise TypeError(f"{adapter!r} has no categorize()/extract_text()")
        plugin_name = name or f"{type(instance).__module__}.{type(instance).__qualname__}"
        if self.manager.has_plugin(plugin_name):  # registering again replaces
            self.manager.unregister(name=plugin_name)
        self.manager.register(_AdapterPlugin(instance), name=plugin_name)

    # -- queries ---------------------------------------------------------------------

    def available(self) -> list[PluginInfo]:
        """Every entry point found, in the order detection asks them."""
        self.load()
        return list(self._infos)

    def detect(self, event: Any) -> InputAdapter | None:
        """The first plugin's adapter for a stream starting with ``event``, or ``None``."""
        self.load()
        caller = getattr(self.manager.hook, _DETECT_HOOK)
        # Asked one by one (pluggy's order: last registered first) so that one plugin
        # raising is reported and skipped instead of aborting detection.
        for impl in reversed(caller.get_hookimpls()):
            try:
                adapter = impl.function(event=event)
            except Exception as exc:
                self._hook_failed(impl.plugin_name, exc)
                continue
            if adapter is not None:
                return adapter  # type: ignore[no-any-return]
        return None

    def _hook_failed(self, name: str, exc: BaseException) -> None:
        if name in self._failed_hooks:
            return
        self._failed_hooks.add(name)
        warnings.warn(
            f"streamblocks plugin {name!r} raised during detection and was skipped: "
            f"{_describe(exc)}",
            AdapterWarning,
            stacklevel=5,
        )


_registry = PluginRegistry()


def plugins() -> PluginRegistry:
    """The process-wide plugin registry."""
    return _registry


def available() -> list[PluginInfo]:
    """Every adapter entry point found: name, value, distribution, version, status."""
    return _registry.available()


def register_adapter(adapter: Any, name: str | None = None) -> None:
    """Make ``adapter`` (a class or an instance) take part in auto-detection, first."""
    _registry.register_adapter(adapter, name)


def _reset_for_tests(registry: PluginRegistry | None = None) -> PluginRegistry:
    """Swap the process-wide registry (tests only); returns the previous one."""
    global _registry
    previous = _registry
    _registry = registry if registry is not None else PluginRegistry()
    return previous
