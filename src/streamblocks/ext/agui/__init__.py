"""AG-UI: the Agent User Interaction protocol (``pip install streamblocks[agui]``).

:class:`AGUIInputAdapter` reads an AG-UI event stream as input. The adapter reads events
by shape and never imports ``ag_ui`` itself, so replayed JSON works without the SDK too.
"""

from __future__ import annotations

from .adapter import AGUIInputAdapter

__all__ = ["AGUIInputAdapter"]
