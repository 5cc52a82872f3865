"""The files a batch reads: a glob, a folder, a file, or a list of them, local or remote
(any filesystem fsspec knows), as the Ray and Dask ``read_runs`` take them."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Sequence

import fsspec

_MAGIC = frozenset("*?[")


def expand(paths: str | Sequence[str]) -> list[str]:
    """Every file ``paths`` names, in order: a glob's matches and a folder's files (all
    levels down, hidden ones left out) sorted, a file as it is. One string is one path,
    never a sequence of characters. A glob or folder that names no file is a
    :class:`FileNotFoundError` naming it."""
    found: list[str] = []
    for path in [paths] if isinstance(paths, str) else paths:
        if not isinstance(path, str):
            raise TypeError(f"a path must be a str, got {type(path).__name__}")
        found += _files(path)
    return found


def _files(path: str) -> list[str]:
    fs, root = fsspec.core.url_to_fs(path)
    if _MAGIC.isdisjoint(root):
        if not fs.isdir(root):
            return [path]
        names = fs.find(root)
        kind = "folder"
    else:
        names = [name for name in fs.glob(root) if not fs.isdir(name)]
        kind = "pattern"
    names = sorted(name for name in names if not posixpath.basename(name).startswith("."))
    if not names:
        raise FileNotFoundError(f"no files in the {kind} {path!r}")
    if "file" not in fs.protocol:
        return [fs.unstrip_protocol(name) for name in names]
    if os.path.isabs(path):
        return names
    return [os.path.relpath(name) for name in names]  # as given: relative to here
