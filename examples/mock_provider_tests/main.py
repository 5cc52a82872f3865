"""Testing your own agent code with streamblocks.testing.MockProvider.

MockProvider plays scripted replies as a real provider's stream events (SDK objects
when the SDK is installed, wire dicts otherwise), records each request, and never
touches the network. Run this file, or copy the test functions into your pytest suite.
"""

from __future__ import annotations

from typing import Any

from streamblocks import BlockRegistry, StopReason, StreamBlockProcessor, collect
from streamblocks.testing import MockProvider, MockReply, MockToolCall

registry = BlockRegistry()
registry.register("answer", description="The final answer.")
processor = StreamBlockProcessor(registry)


def agent(provider: Any, question: str, tools: dict[str, Any], max_steps: int = 5) -> str:
    """The code under test: a small agent loop over any provider stream."""
    history: list[Any] = [question]
    for _ in range(max_steps):
        step = collect(provider.stream(history=list(history)), processor=processor)
        if step.error is not None:
            return f"failed: {step.error}"
        if step.stop_reason is StopReason.tool_use:
            history += [tools[call.name](**call.arguments) for call in step.tool_calls]
            continue
        answers = [b.content.strip() for b in step.blocks if b.type == "answer"]
        return answers[0] if answers else step.text
    return "gave up"


def test_agent_uses_the_tool_then_answers(provider_name: str) -> None:
    provider = MockProvider(
        [
            MockReply(tool_calls=[MockToolCall("add", {"a": 2, "b": 3})]),
            MockReply(text="Done.\n!!a1:answer\n5\n!!end\n"),
        ],
        provider=provider_name,
        chunk_size=2,
    )
    result = agent(provider, "2 + 3?", {"add": lambda a, b: a + b})
    assert result == "5"
    assert provider.calls == 2
    assert provider.requests[1]["history"] == ["2 + 3?", 5]


def test_agent_survives_a_provider_error(provider_name: str) -> None:
    provider = MockProvider([MockReply(text="Hm", stop_reason="error")], provider=provider_name)
    assert agent(provider, "?", {}).startswith("failed:")


if __name__ == "__main__":
    for name in ("openai", "openai-responses", "anthropic", "gemini", "agui"):
        test_agent_uses_the_tool_then_answers(name)
        test_agent_survives_a_provider_error(name)
        print(f"{name}: ok")
