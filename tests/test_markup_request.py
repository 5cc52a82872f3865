"""The request's thinking switch stated once (issue 38): ``request(..., thinking=…)``
writes it, ``collect(..., request=kw)`` gives it and the request's tools to
``markup="auto"``, which reads the model from the stream."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("openai")

from openai.types.chat import ChatCompletionChunk

from streamblocks import BlockRegistry, StreamBlockProcessor, acollect, collect, request
from streamblocks.content import Message
from streamblocks.markup import thinking_of

HISTORY = [Message.user("What is 2 + 2?")]
NS = "]<]minimax[>["


def chunks(model: str, text: str, size: int = 3) -> list[ChatCompletionChunk]:
    def chunk(delta: dict[str, Any], reason: str | None) -> ChatCompletionChunk:
        choice = {"index": 0, "delta": delta, "finish_reason": reason}
        return ChatCompletionChunk(
            id="c",
            object="chat.completion.chunk",
            created=1,
            model=model,
            choices=[choice],  # type: ignore[list-item]
        )

    pieces = [text[i : i + size] for i in range(0, len(text), size)]
    return [*(chunk({"content": p}, None) for p in pieces), chunk({}, "stop")]


def auto() -> StreamBlockProcessor:
    return StreamBlockProcessor(BlockRegistry(), markup="auto")


@pytest.mark.parametrize("thinking", [True, False])
def test_request_writes_the_switch_every_template_reads(thinking: bool) -> None:
    kw = request(HISTORY, provider="openai", thinking=thinking)
    switch = kw["extra_body"]["chat_template_kwargs"]
    assert switch["thinking"] is switch["enable_thinking"] is thinking
    assert switch["thinking_mode"] == ("enabled" if thinking else "disabled")
    assert thinking_of(kw) is thinking
    assert "extra_body" not in request(HISTORY, provider="openai")


def test_the_switch_is_an_openai_compatible_servers_option() -> None:
    with pytest.raises(ValueError, match="provider='openai'"):
        request(HISTORY, provider="anthropic", thinking=True)


def test_collect_gives_the_switch_to_auto_markup() -> None:
    # DeepSeek V3.2's template closes thinking unless the request turns it on
    text = "The sum is 4.</think>4"
    stream = chunks("deepseek-ai/DeepSeek-V3.2", text)
    kw = request(HISTORY, provider="openai", thinking=True)
    step = collect(stream, processor=auto(), request=kw)
    assert (step.thinking, step.text) == ("The sum is 4.", "4")
    step = collect(stream, processor=auto())  # the template's default: no thinking
    assert (step.thinking, step.text) == ("", text)


def test_collect_gives_the_requests_tools_to_auto_markup() -> None:
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    kw = request(HISTORY, provider="openai", tools=[add], thinking=False)
    text = f'{NS}<tool_call>{NS}<invoke name="add">{NS}<a>2{NS}</a>{NS}<b>2{NS}</b>'
    text += f"{NS}</invoke>{NS}</tool_call>"
    stream = chunks("MiniMaxAI/MiniMax-M3", text)
    step = collect(stream, processor=auto(), request=kw)
    assert [(c.name, c.arguments) for c in step.tool_calls] == [("add", {"a": 2, "b": 2})]
    step = collect(stream, processor=auto())  # no schema: the values stay text
    assert [c.arguments for c in step.tool_calls] == [{"a": "2", "b": "2"}]


def test_acollect_and_a_session_take_the_request_too() -> None:
    kw = {"extra_body": {"chat_template_kwargs": {"thinking": True}}}
    text = "Plan.</think>Done."
    stream = chunks("deepseek-ai/DeepSeek-V3.2", text)

    async def run() -> Any:
        return await acollect(stream, processor=auto(), request=kw)

    step = asyncio.run(run())
    assert (step.thinking, step.text) == ("Plan.", "Done.")
    session = auto().session(model="deepseek-ai/DeepSeek-V3.2", request=kw)
    events = [*session.feed(text), *session.close()]
    assert [e.block.type for e in events if type(e).__name__ == "BlockEnd"] == ["thinking"]


def test_gemini_tools_in_a_request_do_not_break_auto_markup() -> None:
    kw = {"tools": [{"function_declarations": [{"name": "f"}]}]}
    step = collect(chunks("Qwen/Qwen3-8B", "<think>a</think>b"), processor=auto(), request=kw)
    assert (step.thinking, step.text) == ("a", "b")
