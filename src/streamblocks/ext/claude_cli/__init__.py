"""Claude Code CLI transcripts: ``claude -p --output-format stream-json --verbose``.

:class:`ClaudeCLIInputAdapter` reads the JSON lines as raw ``str``/``bytes`` chunks (name
the adapter: a ``str`` stream is plain text by default) or as parsed dicts (detected
automatically). No SDK is needed.
"""

from __future__ import annotations

from .adapter import ClaudeCLIInputAdapter

__all__ = ["ClaudeCLIInputAdapter"]
