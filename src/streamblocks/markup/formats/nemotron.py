"""NVIDIA Nemotron Nano v2 and Llama-Nemotron: ``<think>…</think>``;
``<TOOLCALL>[{"name": …, "arguments": {…}}, …]</TOOLCALL>``."""

from __future__ import annotations

from ..grammar import Grammar
from .arrays import array_call

NEMOTRON = Grammar(
    thinking=(("<think>", "</think>"),), calls=(array_call("<TOOLCALL>", "</TOOLCALL>"),)
)
