"""The hooks a streamblocks plugin may implement.

A plugin is whatever an entry point in the ``streamblocks.adapters`` group names. An
input adapter class (or instance) is wrapped into a plugin implementing
:func:`streamblocks_detect_input_adapter` from its ``matches``/``categorize``; a module
or object carrying ``@hookimpl`` functions is registered as it is, so later hooks (syntaxes,
output adapters) need no new loading machinery.
"""

from __future__ import annotations

from typing import Any

import pluggy

from .protocols import InputAdapter

hookspec = pluggy.HookspecMarker("streamblocks")
hookimpl = pluggy.HookimplMarker("streamblocks")


@hookspec(firstresult=True)
def streamblocks_detect_input_adapter(event: Any) -> InputAdapter | None:
    """Return an input adapter for a stream whose first event is ``event``, or ``None``.

    Must not import a provider SDK to decide; must not consume ``event``. Plugins are
    asked one by one, third-party plugins before the built-in ones, and the first adapter
    returned serves the stream.
    """
