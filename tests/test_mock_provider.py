"""MockProvider: scripted replies as each provider's real events, recognised by detection."""

from __future__ import annotations

import json

import pytest

from streamblocks import BlockRegistry, StopReason, StreamBlockProcessor, collect
from streamblocks.adapters import detect_input_adapter
from streamblocks.testing import MockProvider, MockReply, MockToolCall
from streamblocks.testing.mock import PROVIDERS

ADAPTERS = {
    "openai": "OpenAIInputAdapter",
    "openai-responses": "OpenAIInputAdapter",
    "anthropic": "AnthropicInputAdapter",
    "gemini": "GeminiInputAdapter",
    "agui": "AGUIInputAdapter",
}
SDK_CLASSES = {
    "openai": "ChatCompletionChunk",
    "openai-responses": "ResponseCreatedEvent",
    "anthropic": "RawMessageStartEvent",
    "gemini": "GenerateContentResponse",
    "agui": "RunStartedEvent",
}


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("sdk_types", [False, True])
def test_detection_recognises_what_it_plays(provider: str, sdk_types: bool) -> None:
    mock = MockProvider(["hello"], provider=provider, sdk_types=sdk_types)
    events = list(mock.stream())
    assert type(detect_input_adapter(events[0])).__name__ == ADAPTERS[provider]
    expected = SDK_CLASSES[provider] if sdk_types else "dict"
    assert type(events[0]).__name__ == expected
    assert mock.sdk_types is sdk_types


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("chunk_size", [1, 3, 1000])
def test_round_trip_through_the_adapters(provider: str, chunk_size: int) -> None:
    registry = BlockRegistry()
    registry.register("note")
    reply = MockReply(
        text="é👩‍💻\n!!n1:note\nbody\n!!end\ntail",
        thinking="think !!n2:note",
        tool_calls=[MockToolCall("a", {"x": [1, {"y": "z"}]}), MockToolCall("b")],
        usage=(7, 9),
    )
    mock = MockProvider([reply], provider=provider, chunk_size=chunk_size)
    step = collect(mock.stream(), processor=StreamBlockProcessor(registry))
    assert step.text == "é👩‍💻\ntail"
    assert [b.content for b in step.blocks] == ["body\n"]
    assert step.thinking == "think !!n2:note"
    assert [(c.name, c.arguments) for c in step.tool_calls] == [
        ("a", {"x": [1, {"y": "z"}]}),
        ("b", {}),
    ]
    assert step.stop_reason is StopReason.tool_use
    if provider != "agui":  # AG-UI runs carry no usage unless the agent adds it
        assert step.usage is not None
        assert (step.usage.input_tokens, step.usage.output_tokens) == (7, 9)


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "anthropic", "gemini"])
@pytest.mark.parametrize("stop", ["end_turn", "max_tokens", "content_filter"])
def test_stop_reasons(provider: str, stop: str) -> None:
    mock = MockProvider([MockReply(text="t", stop_reason=stop)], provider=provider)
    step = collect(mock.stream())
    expected = StopReason(stop)
    if provider == "anthropic" and stop == "content_filter":
        expected = StopReason.refusal  # Anthropic has no content filter reason
    assert step.stop_reason is expected


def test_calls_requests_and_exhaustion() -> None:
    mock = MockProvider(["one", "two"], provider="openai")
    list(mock.stream(model="m", messages=[{"role": "user", "content": "hi"}]))
    list(mock.stream(model="m2"))
    assert mock.calls == 2
    assert mock.requests[0]["messages"][0]["content"] == "hi"
    assert mock.requests[1] == {"model": "m2"}
    with pytest.raises(IndexError):
        mock.stream()
    again = MockProvider(["same"], repeat=True)
    assert collect(again.stream()).text == collect(again.stream()).text == "same"


def test_custom_chunking_and_dump() -> None:
    mock = MockProvider(
        [], provider="anthropic", chunk_size=lambda text: text.split(" "), sdk_types=False
    )
    events = mock.events("a b c")
    deltas = [e["delta"]["text"] for e in events if e["type"] == "content_block_delta"]
    assert deltas == ["a", "b", "c"]
    lines = mock.dump("x").splitlines()
    assert json.loads(lines[0])["type"] == "message_start"


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="provider"):
        MockProvider([], provider="nope")
    with pytest.raises(ValueError, match="chunk_size"):
        MockProvider([], chunk_size=0)
