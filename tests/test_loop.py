"""collect() / acollect(): one agent step folded into a StepResult, with callbacks."""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from streamblocks import (
    BlockRegistry,
    GadgetSyntax,
    HookWarning,
    ProviderError,
    StopReason,
    StreamBlockProcessor,
    acollect,
    collect,
)
from streamblocks.testing import MockProvider, MockProviderError, MockReply, MockToolCall

PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini", "agui"]


def processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note")
    registry.register("Search", syntax=GadgetSyntax())
    return StreamBlockProcessor(registry)


REPLY = MockReply(
    text="Looking.\n!!n1:note\nx\n!!end\n!!!GADGET_START:Search\n!!!ARG:q\ncats\n!!!GADGET_END\n",
    thinking="Plan: search.",
    tool_calls=[MockToolCall("ls", {"path": "/"}, id="call_9")],
)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("sdk_types", [False, None])
def test_collect_every_provider(provider: str, sdk_types: bool | None) -> None:
    mock = MockProvider([REPLY], provider=provider, sdk_types=sdk_types, chunk_size=3)
    step = collect(mock.stream(), processor=processor())
    assert step.text == "Looking.\n"
    assert [b.type for b in step.blocks] == ["note", "Search"]
    assert [(c.name, c.arguments, c.source) for c in step.tool_calls] == [
        ("Search", {"q": "cats"}, "gadget"),
        ("ls", {"path": "/"}, "native"),
    ]
    assert step.tool_calls[1].id == "call_9"
    assert step.thinking == "Plan: search."
    assert step.stop_reason is StopReason.tool_use
    assert step.error is None
    assert step.ok


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_acollect_matches_collect(provider: str) -> None:
    mock = MockProvider([REPLY, REPLY], provider=provider)
    sync = collect(mock.stream(), processor=processor())
    asynchronous = await acollect(mock.astream(), processor=processor())
    assert asynchronous.text == sync.text
    assert asynchronous.tool_calls == sync.tool_calls
    assert asynchronous.stop_reason == sync.stop_reason
    assert asynchronous.usage == sync.usage


def test_exception_from_the_source_becomes_stop_reason_error() -> None:
    def source() -> Iterator[str]:
        yield "partial "
        raise ConnectionError("dropped")

    step = collect(source(), processor=processor())
    assert step.stop_reason is StopReason.error
    assert isinstance(step.error, ConnectionError)
    assert step.text == "partial "
    assert not step.ok


@pytest.mark.parametrize("provider", PROVIDERS)
def test_provider_error(provider: str) -> None:
    mock = MockProvider([MockReply(text="so far", stop_reason="error")], provider=provider)
    step = collect(mock.stream(), processor=processor())
    assert step.stop_reason is StopReason.error
    assert isinstance(step.error, (ProviderError, MockProviderError))
    assert "mock provider error" in str(step.error)
    assert step.text == "so far"


def test_raise_error_mid_stream_and_on_open() -> None:
    mock = MockProvider(
        [MockReply(text="abc", raise_error=TimeoutError("slow")), RuntimeError("no")],
        provider="anthropic",
    )
    step = collect(mock.stream(), processor=processor())
    assert isinstance(step.error, TimeoutError)
    assert step.text == "abc"
    with pytest.raises(RuntimeError):
        mock.stream()
    assert mock.calls == 2


def test_events_or_provider_stream_without_processor() -> None:
    p = processor()
    from_events = collect(p.process(["hi\n!!n1:note\nx\n!!end\n"]))
    assert from_events.text == "hi\n"
    assert from_events.blocks[0].id == "n1"
    mock = MockProvider([MockReply(text="plain", tool_calls=[MockToolCall("f")])])
    step = collect(mock.stream())  # no processor: an empty registry, adapter detected
    assert step.text == "plain"
    assert step.tool_calls[0].name == "f"
    assert collect([]).stop_reason is StopReason.unknown


def test_callbacks_see_everything_in_order() -> None:
    seen: list[tuple[str, Any]] = []
    mock = MockProvider([REPLY], provider="anthropic")
    collect(
        mock.stream(),
        processor=processor(),
        on_text_delta=lambda text: seen.append(("text", text)),
        on_block_start=lambda e: seen.append(("start", e.block_type)),
        on_block_delta=lambda e: None,
        on_block_end=lambda b: seen.append(("end", b.type)),
        on_thinking=lambda text: seen.append(("thinking", text)),
        on_tool_call=lambda c: seen.append(("tool", c.name)),
        on_error=lambda e: seen.append(("error", e)),
    )
    kinds = [k for k, _ in seen]
    assert kinds[0] == "start"
    assert "".join(v for k, v in seen if k == "thinking") == "Plan: search."
    assert [v for k, v in seen if k == "tool"] == ["Search", "ls"]
    assert [v for k, v in seen if k == "end"] == ["thinking", "note", "Search", "tool_call"]
    assert "error" not in kinds


def test_a_raising_callback_is_reported_and_the_stream_goes_on() -> None:
    calls: list[str] = []

    def bad(text: str) -> None:
        calls.append(text)
        raise ValueError("boom")

    with pytest.warns(HookWarning, match="on_text_delta callback .*bad raised ValueError"):
        step = collect(
            ["a\n", "!!n1:note\nx\n!!end\n", "b"], processor=processor(), on_text_delta=bad
        )
    assert len(calls) == 2
    assert step.text == "a\nb"
    assert step.blocks[0].id == "n1"


def test_on_error_gets_block_errors_and_exceptions() -> None:
    errors: list[Any] = []

    def source() -> Iterator[str]:
        yield "!!n1:note\nnever closed"
        raise OSError("gone")

    step = collect(source(), processor=processor(), on_error=errors.append)
    assert isinstance(errors[-1], OSError)
    step = collect(["!!n1:note\nopen"], processor=processor(), on_error=errors.append)
    assert step.block_errors[0].code.value == "UNCLOSED"
    assert errors[-1] is step.block_errors[0]


def test_unknown_callback_is_misuse() -> None:
    with pytest.raises(TypeError):
        collect([], processor=processor(), on_text_delta=42)


async def test_async_callbacks_are_awaited() -> None:
    seen: list[str] = []

    async def on_text(text: str) -> None:
        seen.append(text)

    async def broken(block: Any) -> None:
        raise RuntimeError("async boom")

    async def source() -> AsyncIterator[str]:
        for piece in ["x\n", "!!n1:note\nb\n!!end\n", "y"]:
            yield piece

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        step = await acollect(
            source(), processor=processor(), on_text_delta=on_text, on_block_end=broken
        )
    assert "".join(seen) == "x\ny"
    assert step.blocks[0].id == "n1"
    assert any(issubclass(w.category, HookWarning) for w in caught)


async def test_acollect_exception() -> None:
    async def source() -> AsyncIterator[str]:
        yield "a"
        raise ConnectionResetError("reset")

    step = await acollect(source(), processor=processor())
    assert step.stop_reason is StopReason.error
    assert isinstance(step.error, ConnectionResetError)
