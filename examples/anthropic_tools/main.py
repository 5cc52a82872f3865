"""An agent loop with Anthropic's native tool calls, using streamblocks.collect().

Each step's stream goes through the processor; collect() folds it into a StepResult
(text, blocks, tool_calls, thinking, stop_reason, usage, error). While the stop reason is
tool_use, the tools run and the loop asks again.

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

from streamblocks import BlockRegistry, StopReason, StreamBlockProcessor, collect

HERE = Path(__file__).resolve().parent

registry = BlockRegistry()
registry.register("summary", description="The final answer, once the tools have answered.")
processor = StreamBlockProcessor(registry)

TOOLS = [
    {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "input_schema": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    }
]
WEATHER = {"Paris": "21 °C, sunny", "Oslo": "9 °C, rain"}


def get_weather(city: str) -> str:
    return WEATHER.get(city, "unknown")


def step_stream(step: int, messages: list[dict[str, Any]]) -> Iterable[Any]:
    if not os.environ.get("ANTHROPIC_API_KEY"):
        lines = (HERE / f"step{step}.ndjson").read_text("utf-8").splitlines()
        return [json.loads(line) for line in lines]
    from anthropic import Anthropic

    return Anthropic().messages.create(
        model=os.environ.get("ANTHROPIC_MODEL", "claude-sonnet-4-5"),
        max_tokens=1024,
        system=registry.system_prompt(),
        tools=TOOLS,  # type: ignore[arg-type]
        messages=messages,  # type: ignore[arg-type]
        stream=True,
    )


def main() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "Is it warmer in Paris or Oslo today? Summarise."}
    ]
    for step in (1, 2, 3):
        result = collect(
            step_stream(step, messages),
            processor=processor,
            on_text_delta=lambda text: print(text, end="", flush=True),
        )
        if result.error is not None:
            print(f"\nstep {step} failed: {result.error}")
            return
        if result.thinking:
            print(f"  (thought: {result.thinking})")
        if result.stop_reason is not StopReason.tool_use:
            for block in result.blocks:
                print(f"[{block.type}] {block.content.strip()}")
            print(f"done after {step} steps; last usage: {result.usage}")
            return
        content: list[dict[str, Any]] = [{"type": "text", "text": result.text}]
        answers = []
        for call in result.tool_calls:
            print(f"  → {call.name}({call.arguments})")
            content.append(
                {"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}
            )
            answers.append(
                {
                    "type": "tool_result",
                    "tool_use_id": call.id,
                    "content": get_weather(**call.arguments),
                }
            )
        messages += [
            {"role": "assistant", "content": content},
            {"role": "user", "content": answers},
        ]


if __name__ == "__main__":
    main()
