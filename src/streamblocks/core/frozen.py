"""Frozen dataclasses pickle as a constructor call.

Python restores a frozen dataclass by setting its fields after ``__new__``, which the
compiled build's frozen ``__setattr__`` refuses: the library's frozen dataclasses (limits,
block types, the syntaxes) name their class and fields instead, in either build.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def by_constructor(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    """What ``obj.__reduce__`` returns: rebuild it from its ``__init__`` fields."""
    return (_rebuild, (type(obj), {f.name: getattr(obj, f.name) for f in fields(obj) if f.init}))


def _rebuild(cls: Any, values: dict[str, Any]) -> Any:
    return cls(**values)
