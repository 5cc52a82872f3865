"""The command's own exception: a usage problem the user can fix."""

from __future__ import annotations

from ..runs.errors import RunError


class CLIError(RunError):
    """A problem with how the command was called (a glob that matches nothing, an
    ``--out`` that cannot be written). Like every :class:`~streamblocks.runs.errors.RunError`
    — which is what reading an input raises — it is printed as one line on standard error;
    exit status 2."""


__all__ = ["CLIError"]
