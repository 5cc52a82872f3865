"""Snapshots: a session's state as bytes, resumable in another process.

``session.snapshot()`` pickles the stream's *state* only: held text, the open block and
its parser, offsets, counters, the input adapter's per-stream instance and the delta
transforms' per-stream instances. The *configuration* the state refers to (the
syntaxes, type tables, block types with their models and hooks, limits, the adapter and
transforms given to the processor) is written as references, and
``processor.restore(data)`` takes it from the restoring processor. So hooks and models
need not be picklable (lambdas are fine), but the restoring processor must be
configured like the one that made the snapshot: same block types in the same order,
equal syntaxes and limits. That is checked, and the library version must be the same.

Values that *are* pickled by value (a block's validated metadata, an adapter's or a
transform's per-stream state) must be picklable: metadata models importable by name.
A snapshot is pickle data: restore only snapshots you made yourself.

A plain ``pickle.dumps(session)`` works too when all of the configuration is picklable
(module-level hooks and models); it carries the configuration by value.

The objects of the library's own classes are written by attribute name (not in pickle's
default shape, which differs between a plain class and a class compiled by mypyc), so a
snapshot made by the pure-Python build restores in the compiled build and back.
"""

from __future__ import annotations

import _pickle
import io
import pickle
from enum import Enum
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from .._version import __version__
from .errors import SnapshotError

if TYPE_CHECKING:
    from .session import Session

Config = tuple[Any, Any, Any, tuple[Any, ...], Any]
"""What a session refers to, from its processor: plan, limits, input adapter,
transforms, abort policy."""

FORMAT = 2
_MAGIC = b"streamblocks-snapshot"


def _version() -> str:
    return __version__


def _config(
    plan: Any, limits: Any, adapter: Any, transforms: tuple[Any, ...], abort: Any
) -> tuple[list[Any], list[str]]:
    """The configuration objects a session refers to, in a stable order, and a
    description of each to check that two processors agree."""
    objects: list[Any] = []
    described: list[str] = []
    for syntax, table in plan:
        objects += [syntax, table]
        described += [_describe(syntax), f"table:{table.unknown}:{list(table.markers)}"]
        for marker, block_type in table.markers.items():
            objects.append(block_type)
            described.append(f"type:{marker}:{block_type.name}")
    objects.append(limits)
    described.append(repr(limits))
    if adapter is not None and not isinstance(adapter, str):
        objects.append(adapter)
        described.append(f"adapter:{type(adapter).__module__}.{type(adapter).__qualname__}")
    for transform in transforms:
        objects.append(transform)
        described.append(f"transform:{type(transform).__module__}.{type(transform).__qualname__}")
    if abort is not None:
        objects.append(abort)
        codes = sorted(code.value for code in abort.codes)
        described.append(f"abort:{codes}:{len(abort.predicates)}")
    return objects, described


def _describe(obj: Any) -> str:
    """``repr(obj)`` when it describes the value (a dataclass), else the class name."""
    cls = type(obj)
    if cls.__repr__ is object.__repr__:  # type: ignore[comparison-overlap]
        return f"{cls.__module__}.{cls.__qualname__}"
    return repr(obj)


class _Parts:
    """A file the pickler writes to that keeps the pieces, joined once at the end: a
    large held text is copied once into the snapshot, not into a growing buffer and
    then again into the result."""

    def __init__(self, *parts: bytes) -> None:
        self.parts = list(parts)

    def write(self, data: bytes) -> int:
        self.parts.append(data)
        return len(data)

    def joined(self) -> bytes:
        return b"".join(self.parts)


# The pickler and unpickler extend pickle's C classes (named by their module, ``_pickle``,
# which the compiled build needs imported), whose memory layout a compiled (native) class
# cannot share: they stay plain Python classes with compiled methods.
@mypyc_attr(native_class=False)
class _Pickler(_pickle.Pickler):
    def __init__(self, file: _Parts, refs: dict[int, int]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._refs = refs

    def persistent_id(self, obj: Any) -> Any:
        return self._refs.get(id(obj))

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        if (
            not cls.__module__.startswith("streamblocks.")
            or issubclass(cls, _BY_DEFAULT)
            or "__reduce__" in vars(cls)  # (it says how: ``Block``, ``PartialAt``)
        ):
            return NotImplemented
        # (made first, its state set after: the state may refer back to the object.
        # Never ``__getstate__``: a compiled class has mypyc's, whose state the pure
        # class cannot take.)
        return _new, (cls,), _attributes(obj), None, None, _set_state


_BY_DEFAULT = (tuple, Enum, BaseException, type)
"""Classes pickle writes the same way in both builds (named tuples, enums)."""


def _attributes(obj: Any) -> dict[str, Any]:
    """The attributes an object holds, by name, in either build: ``__slots__`` and
    ``__dict__`` for a plain class, ``__mypyc_attrs__`` for a compiled one."""
    names: dict[str, None] = {}
    for klass in type(obj).__mro__:
        for name in (*vars(klass).get("__slots__", ()), *vars(klass).get("__mypyc_attrs__", ())):
            names.setdefault(name)
    names.update(dict.fromkeys(getattr(obj, "__dict__", {})))
    state: dict[str, Any] = {}
    for name in names:
        if name.startswith("__"):
            continue
        try:
            state[name] = getattr(obj, name)
        except AttributeError:  # a slot never set
            continue
    return state


def _new(cls: Any) -> Any:
    return cls.__new__(cls)


def _set_state(obj: Any, state: dict[str, Any]) -> None:
    """Give ``obj`` the attributes :meth:`_Pickler.reducer_override` wrote."""
    for name, value in state.items():
        object.__setattr__(obj, name, value)


@mypyc_attr(native_class=False)
class _Unpickler(_pickle.Unpickler):
    def __init__(self, file: io.BytesIO, objects: list[Any]) -> None:
        super().__init__(file)
        self._objects = objects

    def persistent_load(self, pid: Any) -> Any:
        return self._objects[pid]


def dump_session(session: Session) -> bytes:
    if session.broken:
        raise SnapshotError("cannot snapshot a session whose feed() raised")
    objects, described = _config(
        session._plan,
        session._limits,
        session._provider._adapter_spec,
        session._transforms,
        getattr(session, "_policy", None),
    )
    refs = {id(obj): index for index, obj in enumerate(objects)}
    head = pickle.dumps((_MAGIC, FORMAT, _version(), described), protocol=4)
    out = _Parts(len(head).to_bytes(4, "big"), head)
    _Pickler(out, refs).dump(session)  # (its state: Session.__getstate__)
    return out.joined()


def load_session(config: Config, data: bytes) -> Any:
    """The object a snapshot holds, resolved against ``config`` (the restoring
    processor's; it checks that the object is a session)."""
    try:
        size = int.from_bytes(data[:4], "big")
        magic, version, library, described = pickle.loads(data[4 : 4 + size])
    except Exception as exc:
        raise SnapshotError(f"not a streamblocks snapshot: {exc!r}") from None
    if magic != _MAGIC or version != FORMAT:
        raise SnapshotError(f"not a streamblocks snapshot (format {version!r})")
    if library != _version():
        raise SnapshotError(
            f"the snapshot was made by streamblocks {library}; this is {_version()} "
            "(snapshots are only restored by the version that made them)"
        )
    objects, mine = _config(*config)
    if mine != described:
        differ = next(
            (f"{a!r} != {b!r}" for a, b in zip(described, mine, strict=False) if a != b),
            f"{len(described)} configuration items != {len(mine)}",
        )
        raise SnapshotError(
            f"the processor is configured differently from the one that made the snapshot: {differ}"
        )
    body = io.BytesIO(data)  # (shares the bytes: the body is not copied out first)
    body.seek(4 + size)
    try:
        session = _Unpickler(body, objects).load()
    except Exception as exc:
        raise SnapshotError(f"the snapshot could not be read: {exc!r}") from exc
    return session
