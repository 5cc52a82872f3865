"""Reading runs: what ``streamblocks extract``, ``streamblocks view`` and the batch engines
share.

A run is one input — a file, standard input, bytes an engine read, lines from Python.
:mod:`.reading` turns its bytes into text as they arrive, :mod:`.inputs` decides its
format (text, NDJSON, a JSON array, SSE) and its provider, :mod:`.records` runs it through
a processor into :mod:`.model`'s records, with the adapters and registries
:mod:`.loading` and :mod:`.registries` give; :mod:`.redact` masks secrets in a run's
events before it is shared. What cannot be read raises
:class:`~.errors.RunError`.
"""

from __future__ import annotations

from .errors import RunError

__all__ = ["RunError"]
