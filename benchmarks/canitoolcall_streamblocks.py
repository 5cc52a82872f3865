"""streamblocks' ``markup=`` as a canitoolcall engine: an out-of-tree adapter for its
runner (``canitoolcall run --engine canitoolcall_streamblocks:StreamblocksAdapter``).

Each fixture is read as a client of an OpenAI-compatible server reads it: the markup
is ``markup_for(model, thinking=..., tools=...)`` — the model's name, the request's
thinking switch and the tools offered, never the generation prompt the corpus
records — and the reply goes through ``collect()`` in the strategy's pieces
(``stop_reason="max_tokens"`` for a truncated fixture).

No tokenizer is loaded (the run is offline): the units the runner groups are the
reply's characters, so ``token`` is one character per delta and ``rand:S:8`` groups
of 1 to 8 characters — harsher than any server, which never splits a special token.
The ``char:S`` strategies go through :meth:`parse_stream_text`. See
benchmarks/canitoolcall/README.md for the command and the results.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from canitoolcall.adapters.base import Adapter, ReplayInput, Support, ToolSpec
from canitoolcall.results import ParsedToolCall, ParseResult

import streamblocks
from streamblocks import BlockRegistry, StreamBlockProcessor, collect
from streamblocks.markup import markup_for


class StreamblocksAdapter(Adapter):
    """Replays a fixture through ``markup_for(model, thinking=..., tools=...)``."""

    name = "streamblocks"
    supports_text_deltas = True
    pinned_version = streamblocks.__version__
    tokens_per_step = "many"

    def version(self) -> str:
        return streamblocks.__version__

    def commit(self) -> str | None:
        here = Path(streamblocks.__file__).resolve().parent
        found = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True
        )
        return found.stdout.strip() or None

    def engine_details(self) -> dict[str, Any]:
        return {
            "package": str(Path(streamblocks.__file__).resolve().parent),
            "markup": "markup_for(model, thinking=fixture.thinking, tools=fixture.tools)",
            "units": "characters (no tokenizer offline: token = one character)",
        }

    def supports(self, family: str, model: str) -> Support:
        if markup_for(model) is None:
            return Support(False, f"no markup family for {model!r}")
        return Support(True)

    def parser_config(self, raw: ReplayInput) -> dict[str, Any]:
        markup = markup_for(raw.model, thinking=raw.thinking)
        return {
            "markup": repr(markup),
            "thinking": raw.thinking,
            "generation_prompt": "not used (a client knows the model and its switch)",
        }

    def units(self, raw: ReplayInput) -> list[int]:
        return [ord(char) for char in raw.text]

    def parse(self, raw: ReplayInput, tools: Sequence[ToolSpec]) -> ParseResult:
        return _read(raw, [raw.text], tools)

    def parse_stream(
        self, raw: ReplayInput, chunks: Sequence[Sequence[int]], tools: Sequence[ToolSpec]
    ) -> ParseResult:
        return _read(raw, ["".join(map(chr, chunk)) for chunk in chunks], tools)

    def parse_stream_text(
        self, raw: ReplayInput, deltas: Sequence[str], tools: Sequence[ToolSpec]
    ) -> ParseResult:
        return _read(raw, list(deltas), tools)


def _read(raw: ReplayInput, pieces: list[str], tools: Sequence[ToolSpec]) -> ParseResult:
    markup = markup_for(raw.model, thinking=raw.thinking, tools=list(tools))
    processor = StreamBlockProcessor(BlockRegistry(), markup=markup)
    step = collect(pieces, processor=processor, stop_reason="max_tokens" if raw.truncated else None)
    calls = tuple(  # a broken call (kept with its error, to tell the model) is no call
        ParsedToolCall(call.name, json.dumps(call.arguments, ensure_ascii=False))
        for call in step.tool_calls
        if call.error is None
    )
    return ParseResult(
        content=step.text or None, reasoning_content=step.thinking or None, tool_calls=calls
    )
