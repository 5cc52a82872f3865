"""Inline citations from a Gemini stream: XML tags folded into an ordered Message.

`<cite source="...">quote</cite>` tags are blocks; MessageAccumulator keeps them where
they were written: [TextBlock, CustomBlock(cite), TextBlock, ...].

Offline (no GEMINI_API_KEY): replays recording.ndjson, recorded
GenerateContentResponse chunks in Gemini's wire JSON. Online: GEMINI_MODEL (default
gemini-2.5-flash).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from streamblocks import BlockRegistry, StreamBlockProcessor, XMLTagSyntax
from streamblocks.content import CustomBlock, MessageAccumulator, TextBlock

HERE = Path(__file__).resolve().parent

registry = BlockRegistry()
registry.register(
    "cite",
    syntax=XMLTagSyntax(),
    description="Quote the source of a fact right after it.",
    instructions='Write <cite source="where">the quoted words</cite>.',
)

QUESTION = "When was the Eiffel Tower finished and how tall is it? Cite sources."


def stream() -> Iterable[Any]:
    if not (os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")):
        lines = (HERE / "recording.ndjson").read_text("utf-8").splitlines()
        return [json.loads(line) for line in lines]
    from google import genai

    client: Any = genai.Client()
    return client.models.generate_content_stream(
        model=os.environ.get("GEMINI_MODEL", "gemini-2.5-flash"),
        contents=QUESTION,
        config={"system_instruction": registry.system_prompt()},
    )


def main() -> None:
    accumulator = MessageAccumulator()
    for event in StreamBlockProcessor(registry).process(stream()):
        accumulator.add(event)
    footnotes = []
    for part in accumulator.message.content:
        if isinstance(part, TextBlock):
            print(part.text, end="")
        elif isinstance(part, CustomBlock) and part.tag == "cite":
            footnotes.append(f"{part.attrs.get('source')}: “{part.content}”")
            print(f"[{len(footnotes)}]", end="")
    print()
    for number, note in enumerate(footnotes, 1):
        print(f"[{number}] {note}")


if __name__ == "__main__":
    main()
