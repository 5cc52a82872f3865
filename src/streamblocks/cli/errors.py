"""The command's one exception: a problem the user can fix."""

from __future__ import annotations


class CLIError(Exception):
    """Printed as one line on standard error; exit status 2."""


__all__ = ["CLIError"]
