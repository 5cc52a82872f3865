"""An agent loop for every provider: ask, run the tools, send the results back, and
finish with structured output. No provider dict is written by hand: `request()` writes
each SDK's arguments, `collect()` reads each reply, `Tools` runs the calls.

    python examples/agent_loop/main.py                 # the four providers + a text-only model
    python examples/agent_loop/main.py anthropic       # one of them

Offline (no API key for a provider): `MockProvider` plays scripted replies in that
provider's own stream format, so the same loop runs end to end. Online: OPENAI_API_KEY
(OPENAI_MODEL, default gpt-5-mini), ANTHROPIC_API_KEY (ANTHROPIC_MODEL, default
claude-sonnet-4-5), GEMINI_API_KEY (GEMINI_MODEL, default gemini-2.5-flash).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel, Field

from streamblocks import (
    FINISH_TOOL,
    BlockRegistry,
    Outcome,
    StreamBlockProcessor,
    Tools,
    collect,
    request,
)
from streamblocks.content import Message
from streamblocks.testing import MockProvider, MockReply, MockToolCall

WEATHER = {"Paris": 21.0, "Oslo": 9.0}


def get_weather(city: str) -> dict[str, Any]:
    """Today's temperature (°C) and sky in a city."""
    if city not in WEATHER:
        raise KeyError(f"no station in {city}")
    return {"city": city, "celsius": WEATHER[city], "sky": "sunny" if city == "Paris" else "rain"}


class Comparison(BaseModel):
    """Which city is warmer today, and by how much."""

    warmer: str
    difference_celsius: float = Field(description="warmer minus colder, in °C")
    summary: str


TOOLS = Tools([get_weather])
QUESTION = "Is it warmer in Paris or Oslo today? Use the tools, then give the comparison."
KEYS = {
    "openai": "OPENAI_API_KEY",
    "openai-responses": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
}
ANSWER = {"warmer": "Paris", "difference_celsius": 12, "summary": "Paris 21 °C, Oslo 9 °C."}


def scripted(provider: str) -> MockProvider:
    """What a model typically does here, in `provider`'s stream format."""
    calls = [
        MockToolCall("get_weather", {"city": "Paris"}),
        MockToolCall("get_weather", {"city": "Oslo"}),
    ]
    return MockProvider(
        [
            MockReply(
                text="Let me look both up.", thinking="Two lookups, then compare.", tool_calls=calls
            ),
            MockReply(tool_calls=[MockToolCall(FINISH_TOOL, ANSWER)]),
        ],
        provider=provider,
    )


def opener(provider: str) -> Callable[[dict[str, Any]], Iterable[Any]]:
    """The provider's streaming call, given `request()`'s keyword arguments."""
    if not os.environ.get(KEYS[provider]):
        return lambda kw: scripted_streams[provider].stream(**kw)
    if provider.startswith("openai"):
        from openai import OpenAI

        openai, model = OpenAI(), os.environ.get("OPENAI_MODEL", "gpt-5-mini")
        if provider == "openai":
            return lambda kw: openai.chat.completions.create(model=model, stream=True, **kw)
        return lambda kw: openai.responses.create(model=model, stream=True, **kw)
    if provider == "anthropic":
        from anthropic import Anthropic

        claude, model = Anthropic(), os.environ.get("ANTHROPIC_MODEL", "claude-sonnet-4-5")
        return lambda kw: claude.messages.create(model=model, max_tokens=2048, stream=True, **kw)
    from google import genai

    gemini, model = genai.Client(), os.environ.get("GEMINI_MODEL", "gemini-2.5-flash")
    return lambda kw: gemini.models.generate_content_stream(model=model, **kw)


scripted_streams = {provider: scripted(provider) for provider in KEYS}


def run(provider: str) -> Comparison | None:
    """The loop: the same for every provider."""
    open_stream = opener(provider)
    history = [Message.system("You compare weather. Be brief."), Message.user(QUESTION)]
    for _ in range(6):
        kw = request(history, provider=provider, tools=TOOLS, output=Comparison)
        step = collect(open_stream(kw), output=Comparison)
        history.append(step.message)  # thinking signatures and reasoning items kept
        if step.outcome is Outcome.run_tools:
            for call in step.tool_calls:
                result = TOOLS.run(call)  # invalid arguments or a raising tool: an error result
                print(f"  {call.name}({call.arguments}) -> {result.content[0].content}")
                history.append(result)
        elif step.outcome is Outcome.done:
            return step.output
        elif step.output_error is not None:  # no valid answer yet: tell the model, go on
            history.append(step.output_error)
        else:
            print(f"  failed: {step.reason}")
            return None
    return None


def run_text_only() -> Comparison | None:
    """A model without a tool API: the same tools, called as gadget blocks in its text."""
    registry = TOOLS.register(BlockRegistry(), output=Comparison)
    processor = StreamBlockProcessor(registry)
    model = MockProvider(
        [
            "I'll check.\n!!!GADGET_START:get_weather\n!!!ARG:city\nParis\n!!!GADGET_END\n"
            "!!!GADGET_START:get_weather\n!!!ARG:city\nOslo\n!!!GADGET_END\n",
            f"!!!GADGET_START:{FINISH_TOOL}\n!!!ARG:warmer\nParis\n!!!ARG:difference_celsius\n12\n"
            "!!!ARG:summary\nParis 21 °C, Oslo 9 °C.\n!!!GADGET_END\n",
        ],
        provider="openai",  # an OpenAI-compatible server running an open model
    )
    history = [Message.system(TOOLS.prompt(output=Comparison)), Message.user(QUESTION)]
    for _ in range(6):
        step = collect(
            model.stream(**request(history, provider="openai")),
            processor=processor,
            output=Comparison,
        )
        history.append(step.message)  # the calls stay in the text, as the model wrote them
        if step.outcome is not Outcome.run_tools:
            return step.output
        for call in step.tool_calls:
            print(f"  {call.name}({call.arguments}) [gadget]")
            history.append(TOOLS.run(call))  # sent back as user text
    return None


def main() -> None:
    chosen = sys.argv[1:] or [*KEYS, "text-only"]
    for provider in chosen:
        mode = "online" if provider in KEYS and os.environ.get(KEYS[provider]) else "offline"
        print(f"{provider} ({mode}):")
        answer = run_text_only() if provider == "text-only" else run(provider)
        print(f"  => {answer!r}")
        if mode == "offline":
            assert answer == Comparison(**ANSWER), answer


if __name__ == "__main__":
    main()
