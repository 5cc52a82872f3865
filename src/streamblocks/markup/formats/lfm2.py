"""Liquid LFM2 / LFM2.5: ``<think>…</think>``; a pythonic list of calls
``<|tool_call_start|>[f(a="x"), g()]<|tool_call_end|>``; ``<|im_end|>`` never visible."""

from __future__ import annotations

from ..grammar import Grammar
from .llama import pythonic_call

LFM2 = Grammar(
    thinking=(("<think>", "</think>"),),
    calls=(pythonic_call("<|tool_call_start|>", "<|tool_call_end|>"),),
    hidden=("<|im_end|>",),
)
