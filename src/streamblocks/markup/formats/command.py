"""Cohere Command A (and R7B): ``<|START_THINKING|>…<|END_THINKING|>``;
``<|START_ACTION|>[{"tool_call_id": …, "tool_name": …, "parameters": {…}}, …]<|END_ACTION|>``
(the id is the call's); ``<|START_RESPONSE|>`` / ``<|END_RESPONSE|>`` around the answer
are never visible."""

from __future__ import annotations

from ..grammar import Grammar
from .arrays import action_item, array_call

COMMAND = Grammar(
    thinking=(("<|START_THINKING|>", "<|END_THINKING|>"),),
    calls=(array_call("<|START_ACTION|>", "<|END_ACTION|>", action_item, "tool_name"),),
    hidden=("<|START_RESPONSE|>", "<|END_RESPONSE|>"),
)
