"""ByteDance Seed-OSS: ``<seed:think>…</seed:think>``; ``<seed:tool_call>`` around
Qwen3-Coder bodies ``<function=NAME><parameter=P>value</parameter>…</function>``;
``<seed:eos>`` never visible."""

from __future__ import annotations

from ..grammar import Grammar, Section
from .qwen import function_call

SEED = Grammar(
    thinking=(("<seed:think>", "</seed:think>"),),
    sections=(Section("<seed:tool_call>", "</seed:tool_call>", (function_call(""),)),),
    hidden=("<seed:eos>",),
)
