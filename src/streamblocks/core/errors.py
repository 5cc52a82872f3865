"""Exceptions, warnings and error codes.

Model text never raises: problems in it become ``BLOCK_ERROR`` events carrying an
:class:`ErrorCode`. Exceptions are for misuse by the caller (a wrong registry, ``feed``
after ``close``); warnings are for things the stream survives (a broken plugin, an
undetected provider).
"""

from __future__ import annotations

from enum import Enum

from mypy_extensions import mypyc_attr


class ErrorCode(str, Enum):
    """Why a block was rejected (the ``code`` of a ``BLOCK_ERROR``)."""

    UNCLOSED = "UNCLOSED"
    """The stream ended inside the block."""
    TOO_LARGE = "TOO_LARGE"
    """The block crossed ``Limits.max_block_chars``."""
    MARKER_TOO_LARGE = "MARKER_TOO_LARGE"
    """An opening marker crossed ``Limits.max_marker_chars`` before it was complete."""
    METADATA_TOO_LARGE = "METADATA_TOO_LARGE"
    """A metadata section crossed ``Limits.max_metadata_chars``."""
    PARSE_FAILED = "PARSE_FAILED"
    """The block's text could not be parsed (malformed YAML, JSON, pointers)."""
    VALIDATION_FAILED = "VALIDATION_FAILED"
    """A metadata/content model or a validator rejected the block."""
    HOOK_FAILED = "HOOK_FAILED"
    """A user hook (``on_start``, ``transform``) raised."""
    UNKNOWN_TYPE = "UNKNOWN_TYPE"
    """The block names a type the registry does not know (``unknown="error"``)."""


# A native (compiled) class has one base; these errors have two built-in ones (so that
# ``except ValueError`` catches them too), which makes them plain Python classes.
@mypyc_attr(native_class=False)
class StreamBlocksError(Exception):
    """Base class of every exception raised by streamblocks."""


@mypyc_attr(native_class=False)
class RegistryError(StreamBlocksError, ValueError):
    """A block type or syntax was declared wrongly."""


@mypyc_attr(native_class=False)
class SessionClosedError(StreamBlocksError, RuntimeError):
    """``feed`` or ``close`` was called on a session that is already closed."""


@mypyc_attr(native_class=False)
class SnapshotError(StreamBlocksError, ValueError):
    """A snapshot cannot be restored by this processor or this library version."""


class StreamBlocksWarning(UserWarning):
    """Base class of every warning issued by streamblocks."""


class AdapterWarning(StreamBlocksWarning):
    """An input adapter could not be loaded, detected or run; the stream went on."""


class HookWarning(StreamBlocksWarning):
    """A user callback raised; the stream went on."""
