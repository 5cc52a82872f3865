"""Microsoft Phi-4-mini: ``functools[{"name": …, "arguments": {…}}, …]`` in plain text
(no special token), each call read as it closes; Phi-4-reasoning's ``<think>…</think>``."""

from __future__ import annotations

from ..grammar import Grammar
from .llama import json_call_format

PHI4 = Grammar(
    thinking=(("<think>", "</think>"),),
    calls=(json_call_format("functools[", then=",", tail="]"),),
    chained=(json_call_format("", then=",", tail="]"),),
)
