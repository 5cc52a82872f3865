"""An agent loop with Anthropic's native tool calls: `request()` writes each request,
`collect()` reads each streamed reply, `Tools` runs the calls.

Each step's stream goes through the processor, so the `summary` block the model writes
in its final answer is extracted while it streams. While the outcome is `run_tools`,
the tools run and their results go back in the next request (as `tool_result` blocks
in a user turn: `request()` knows Anthropic's rules, and keeps the thinking signature).

Offline (no ANTHROPIC_API_KEY): the two steps replay step1.ndjson and step2.ndjson,
recorded streams in Anthropic's wire format. Online: ANTHROPIC_MODEL (default
claude-sonnet-4-5).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from streamblocks import BlockRegistry, Outcome, StreamBlockProcessor, Tools, collect, request
from streamblocks.content import Message

HERE = Path(__file__).resolve().parent

registry = BlockRegistry()
registry.register("summary", description="The final answer, once the tools have answered.")
processor = StreamBlockProcessor(registry)

WEATHER = {"Paris": "21 °C, sunny", "Oslo": "9 °C, rain"}


def get_weather(city: str) -> str:
    """Current weather for a city."""
    return WEATHER.get(city, "unknown")


TOOLS = Tools([get_weather])


def step_stream(step: int, kw: dict[str, Any]) -> Iterable[Any]:
    if not os.environ.get("ANTHROPIC_API_KEY"):
        lines = (HERE / f"step{step}.ndjson").read_text("utf-8").splitlines()
        return [json.loads(line) for line in lines]
    from anthropic import Anthropic

    return Anthropic().messages.create(
        model=os.environ.get("ANTHROPIC_MODEL", "claude-sonnet-4-5"),
        max_tokens=1024,
        stream=True,
        **kw,
    )


def main() -> None:
    history = [
        Message.system(registry.system_prompt()),
        Message.user("Is it warmer in Paris or Oslo today? Summarise."),
    ]
    for number in (1, 2, 3):
        kw = request(history, provider="anthropic", tools=TOOLS)
        step = collect(
            step_stream(number, kw),
            processor=processor,
            on_text_delta=lambda text: print(text, end="", flush=True),
        )
        if step.thinking:
            print(f"  (thought: {step.thinking})")
        history.append(step.message)
        if step.outcome is Outcome.failed:
            print(f"\nstep {number} failed: {step.reason}")
            return
        if step.outcome is Outcome.done:
            for block in step.blocks:
                print(f"[{block.type}] {block.content.strip()}")
            print(f"done after {number} steps; last usage: {step.usage}")
            return
        for call in step.tool_calls:
            print(f"  → {call.name}({call.arguments})")
            history.append(TOOLS.run(call))


if __name__ == "__main__":
    main()
