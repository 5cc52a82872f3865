"""Meeting notes as typed blocks from an OpenAI Chat Completions stream.

Offline (no OPENAI_API_KEY): replays recording.ndjson, a recorded stream in OpenAI's wire
format. Online: calls the model (OPENAI_MODEL, default gpt-4.1-mini) with the registry's
system prompt. Either way the adapter is detected from the first event.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from streamblocks import BlockRegistry, EventType, StreamBlockProcessor

HERE = Path(__file__).resolve().parent


class NoteMeta(BaseModel):
    id: str
    block_type: str
    params: list[Literal["decision", "risk", "action"]]


registry = BlockRegistry()
registry.register(
    "note",
    metadata=NoteMeta,
    description="One point from the meeting.",
    instructions="Give its kind as the parameter: decision, risk or action (!!n1:note:risk).",
)

USER = (
    "Summarise: we ship the beta Friday, QA Thursday; "
    "billing migration lacks rollback; Dana owns it."
)


def stream() -> Iterable[Any]:
    if not os.environ.get("OPENAI_API_KEY"):
        lines = (HERE / "recording.ndjson").read_text("utf-8").splitlines()
        return [json.loads(line) for line in lines]
    from openai import OpenAI

    messages = registry.inject_system_prompt([{"role": "user", "content": USER}])
    return OpenAI().chat.completions.create(
        model=os.environ.get("OPENAI_MODEL", "gpt-4.1-mini"),
        messages=messages,  # type: ignore[arg-type]
        stream=True,
        stream_options={"include_usage": True},
    )


def main() -> None:
    by_kind: dict[str, list[str]] = {}
    for event in StreamBlockProcessor(registry).process(stream()):
        if event.type is EventType.TEXT_DELTA:
            print(event.text, end="", flush=True)
        elif event.type is EventType.BLOCK_END:
            kind = event.block.metadata.params[0]
            by_kind.setdefault(kind, []).append(event.block.content.strip())
        elif event.type is EventType.BLOCK_ERROR:
            print(f"\n[rejected {event.block_id}: {event.message}]")
        elif event.type is EventType.STREAM_FINISHED:
            print(f"\n(stop: {event.stop_reason.value}, usage: {event.usage})")
    for kind, notes in by_kind.items():
        print(f"{kind}:")
        for note in notes:
            print(f"  - {note}")


if __name__ == "__main__":
    main()
