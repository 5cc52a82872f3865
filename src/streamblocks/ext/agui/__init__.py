"""AG-UI: the Agent User Interaction protocol (the ``agui`` extra).

:class:`AGUIInputAdapter` reads an AG-UI event stream as input; it reads events by shape
and never imports ``ag_ui`` itself, so replayed JSON works without the SDK too.
:class:`AGUIOutputAdapter` turns any processed stream into ``ag_ui.core`` events for a
front end, and :func:`sse_body` / :func:`asse_body` encode them as a server-sent-events
response body with the SDK's own encoder (both import ``ag_ui`` when used).
"""

from __future__ import annotations

from .adapter import AGUIInputAdapter
from .output import GROUPS, AGUIOutputAdapter, agui_events
from .payloads import block_payload
from .sse import SSE_MEDIA_TYPE, aencode_sse, asse_body, encode_sse, sse_body

__all__ = [
    "GROUPS",
    "SSE_MEDIA_TYPE",
    "AGUIInputAdapter",
    "AGUIOutputAdapter",
    "aencode_sse",
    "agui_events",
    "asse_body",
    "block_payload",
    "encode_sse",
    "sse_body",
]
