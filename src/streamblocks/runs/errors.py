"""The one exception of reading runs: an input that cannot be read as asked."""

from __future__ import annotations


class RunError(Exception):
    """A problem the user can fix — a missing or binary file, an unknown adapter or event
    format, a ``--registry`` that does not load — said in one line naming the cause.

    Whoever reads runs raises it as it is: a Ray or Dask worker, a script calling
    :func:`streamblocks.batch.records`. The command line prints it as one line on standard
    error with exit status 2, as it prints its own usage errors
    (:class:`streamblocks.cli.CLIError`, a subclass)."""


__all__ = ["RunError"]
