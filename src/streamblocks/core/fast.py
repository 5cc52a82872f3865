"""The fast paths: shortcuts that must answer exactly what the line step answers.

Each is named, and each can be turned off (``StreamBlockProcessor(reference=True)`` turns
off all of them; :mod:`streamblocks.testing.differential` compares the two feed by feed):

* ``lean``: :meth:`Session.feed <streamblocks.core.session.Session.feed>`'s steps of a chunk
  in a bulk state (:mod:`.lean`, :mod:`.lean_regions`, a region reader's ``bulk*`` hooks);
* ``whole``: a block read at once at a line start (:mod:`.whole`, :mod:`.cut_blocks`,
  ``LineSyntax.read_whole``);
* ``closing``: a block's content read up to its closing line in one search;
* ``shown``: an inline code span read at once (``InlineSyntax.read_shown``);
* ``reader``: an inline reader's own shortcuts in ``read`` (see
  :attr:`.syntax.InlineOut.reference`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .provider import ProviderEvents
    from .scanner import Scanner

FAST_PATHS: Final = ("lean", "whole", "closing", "shown", "reader")
"""Every fast path, by name."""


def use(sc: Scanner, paths: Collection[str], *, lean: bool) -> None:
    """Turn on the fast paths named in ``paths`` and off the others; ``lean``: whether
    the session may take its lean steps now (text in, no transforms; ``lean_ok`` keeps
    the choice for a stream that auto-detection settles as text)."""
    sc.lean_ok = "lean" in paths
    sc.lean = lean and sc.lean_ok
    sc.whole = "whole" in paths
    sc.to_closing = "closing" in paths
    sc.shown_spans = sc.scanning.shown_spans if "shown" in paths else {}
    sc.reference = "reader" not in paths


def settle_text(sc: Scanner, provider: ProviderEvents, first: str, transforms: bool) -> bool:
    """Whether auto-detection settles, on a first ``str`` chunk, that the stream is text:
    it is then read as with ``input_adapter=None`` (the lean steps too), once for all."""
    if provider._adapter_spec != "auto":
        return False
    adapter = provider._adapter = provider._choose_adapter(first)
    provider._questions(adapter)
    sc.lean = sc.lean_ok and not transforms
    return True
