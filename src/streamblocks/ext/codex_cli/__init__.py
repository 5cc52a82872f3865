"""Codex CLI transcripts: ``codex exec --json``.

:class:`CodexCLIInputAdapter` reads the JSON lines as raw ``str``/``bytes`` chunks (name
the adapter: a ``str`` stream is plain text by default) or as parsed dicts (detected
automatically). No SDK is needed.
"""

from __future__ import annotations

from .adapter import CodexCLIInputAdapter

__all__ = ["CodexCLIInputAdapter"]
