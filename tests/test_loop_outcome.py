"""A whole agent loop against MockProvider, for every provider: what the loop sends,
the step's outcome, structured output, and the failures a loop must tell apart."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import BaseModel

from streamblocks import (
    FINISH_TOOL,
    BlockRegistry,
    Outcome,
    StopReason,
    StreamBlockProcessor,
    Tools,
    acollect,
    collect,
    request,
)
from streamblocks.content import Message, TextBlock, ThinkingBlock, ToolCallBlock, ToolResultBlock
from streamblocks.testing import MockProvider, MockRateLimitError, MockReply, MockToolCall

PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini"]


class Answer(BaseModel):
    """The sum and a word about it."""

    value: int
    note: str = ""


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


TOOLS = Tools([add])


def run_loop(
    mock: MockProvider, provider: str, *, output: type[BaseModel] | None = Answer, steps: int = 6
) -> tuple[list[Message], Any]:
    """The loop the docs show: ask, run the calls, send the results, until it stops."""
    history = [Message.system("Be terse."), Message.user("What is 2 + 3?")]
    step = None
    for _ in range(steps):
        kw = request(history, provider=provider, tools=TOOLS, output=output)
        step = collect(mock.stream(**kw), output=output)
        history.append(step.message)
        if step.outcome is Outcome.run_tools:
            history += [TOOLS.run(call) for call in step.tool_calls]
        elif step.output_error is not None and step.outcome is Outcome.failed:
            history.append(step.output_error)
        else:
            break
    return history, step


def tool_round_trip(provider: str) -> MockProvider:
    return MockProvider(
        [
            MockReply(
                text="Adding.",
                thinking="2 and 3",
                tool_calls=[MockToolCall("add", {"a": 2, "b": "3"})],
            ),
            MockReply(tool_calls=[MockToolCall(FINISH_TOOL, {"value": 5, "note": "easy"})]),
        ],
        provider=provider,
    )


@pytest.mark.parametrize("provider", PROVIDERS)
def test_tool_round_trip_then_structured_output(provider: str) -> None:
    mock = tool_round_trip(provider)
    _history, step = run_loop(mock, provider)
    assert step.outcome is Outcome.done and step.should_stop
    assert step.output == Answer(value=5, note="easy")
    assert step.tool_calls == [] and step.output_error is None
    first, second = mock.received
    assert first.tools == second.tools == ["add", FINISH_TOOL]
    assert [m.role for m in first.messages] == ["system", "user"]
    # The second request carries the assistant turn and the tool's result.
    assert [m.role for m in second.messages] == ["system", "user", "assistant", "tool"]
    assistant = second.messages[2]
    calls = [b for b in assistant.content if isinstance(b, ToolCallBlock)]
    assert [(c.name, c.arguments) for c in calls] == [("add", {"a": 2, "b": "3"})]
    assert TextBlock("Adding.") in assistant.content
    (result,) = second.messages[3].content
    assert isinstance(result, ToolResultBlock)
    assert result.tool_call_id == calls[0].id
    assert str(result.content) == "5" and not result.is_error
    if provider in ("anthropic", "gemini"):  # signed thinking goes back, unchanged
        (thinking,) = [b for b in assistant.content if isinstance(b, ThinkingBlock)]
        assert thinking.signature == MockReply().signature
    if provider == "openai-responses":  # the reasoning item, by its id
        (thinking,) = [b for b in assistant.content if isinstance(b, ThinkingBlock)]
        assert thinking.id == "rs_mock"
    if provider == "gemini":
        assert calls[0].signature == MockReply().signature


@pytest.mark.parametrize("provider", PROVIDERS)
def test_invalid_arguments_are_sent_back_and_the_model_retries(provider: str) -> None:
    mock = MockProvider(
        [
            MockReply(tool_calls=[MockToolCall("add", {"a": "two", "b": 3})]),
            MockReply(tool_calls=[MockToolCall(FINISH_TOOL, {"value": "many"})]),
            MockReply(tool_calls=[MockToolCall(FINISH_TOOL, {"value": 5})]),
        ],
        provider=provider,
    )
    _history, step = run_loop(mock, provider)
    assert step.output == Answer(value=5)
    second, third = mock.received[1], mock.received[2]
    bad_args = second.messages[-1].content[0]
    assert isinstance(bad_args, ToolResultBlock) and bad_args.is_error
    assert "a: Input should be a valid integer" in str(bad_args.content)
    bad_answer = third.messages[-1].content[0]
    assert isinstance(bad_answer, ToolResultBlock) and bad_answer.is_error
    assert bad_answer.name == FINISH_TOOL
    assert "invalid answer for __finish__: value" in str(bad_answer.content)


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "anthropic"])
def test_arguments_that_are_not_json_are_a_call_with_an_error(provider: str) -> None:
    mock = MockProvider(
        [MockReply(tool_calls=[MockToolCall("add", '{"a": 2, "b": ')]), "5"], provider=provider
    )
    _history, step = run_loop(mock, provider, output=None)
    assert step.outcome is Outcome.done and step.message.text() == "5"
    sent = mock.received[1].messages
    (call,) = [b for b in sent[-2].content if isinstance(b, ToolCallBlock)]
    assert call.name == "add"
    result = sent[-1].content[0]
    assert isinstance(result, ToolResultBlock) and result.is_error
    assert "are not valid JSON" in str(result.content)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    ("stop", "reason"),
    [
        ("max_tokens", "token limit"),
        ("refusal", "refused"),
        ("content_filter", "content filter"),
    ],
)
def test_failures_stop_the_loop_with_a_reason(provider: str, stop: str, reason: str) -> None:
    mock = MockProvider([MockReply(text="I will not", stop_reason=stop)], provider=provider)
    _history, step = run_loop(mock, provider)
    assert step.outcome is Outcome.failed and step.should_stop
    expected = {StopReason(stop)}
    if provider == "gemini" or (provider == "anthropic" and stop == "content_filter"):
        expected |= {StopReason.content_filter, StopReason.refusal}  # SAFETY / refusal
    assert step.stop_reason in expected
    assert step.reason is not None
    assert mock.calls == 1


def test_max_tokens_with_a_complete_call_still_fails() -> None:
    mock = MockProvider(
        [MockReply(tool_calls=[MockToolCall("add", {"a": 1, "b": 2})], stop_reason="max_tokens")],
        provider="anthropic",
    )
    _history, step = run_loop(mock, "anthropic")
    assert step.outcome is Outcome.failed and "token limit" in (step.reason or "")
    assert len(step.tool_calls) == 1  # there, but the reply was cut: the loop stops


@pytest.mark.parametrize("provider", PROVIDERS)
def test_ending_without_the_answer_is_failed_with_a_message_to_send(provider: str) -> None:
    mock = MockProvider(
        ["It is 5.", MockReply(tool_calls=[MockToolCall(FINISH_TOOL, {"value": 5})])],
        provider=provider,
    )
    _history, step = run_loop(mock, provider)
    assert step.output == Answer(value=5)
    nudge = mock.received[1].messages[-1]
    assert nudge.role == "user" and f"without calling {FINISH_TOOL}" in nudge.text()


def test_without_output_an_end_turn_is_done() -> None:
    mock = MockProvider(["Five."], provider="anthropic")
    _history, step = run_loop(mock, "anthropic", output=None)
    assert (step.outcome, step.output, step.output_error) == (Outcome.done, None, None)


def test_tool_use_without_a_whole_call_fails() -> None:
    mock = MockProvider([MockReply(text="hm", stop_reason="tool_use")], provider="anthropic")
    _history, step = run_loop(mock, "anthropic", output=None)
    assert step.outcome is Outcome.failed and "no call came through" in (step.reason or "")


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "gemini"])
def test_native_json_mode_is_parsed_the_same_way(provider: str) -> None:
    mock = MockProvider(['```json\n{"value": "x"}\n```', '{"value": 5}'], provider=provider)
    history = [Message.user("2 + 3?")]
    kw = request(history, provider=provider, output=Answer, native_output=True)
    assert "tools" not in kw and "tools" not in kw.get("config", {})
    step = collect(mock.stream(**kw), output=Answer)
    assert step.outcome is Outcome.failed and step.output_error is not None
    assert "value: Input should be a valid integer" in step.output_error.text()
    history += [step.message, step.output_error]
    step = collect(
        mock.stream(**request(history, provider=provider, output=Answer, native_output=True)),
        output=Answer,
    )
    assert step.outcome is Outcome.done and step.output == Answer(value=5)


def test_native_output_options() -> None:
    chat = request([Message.user("x")], provider="openai", output=Answer, native_output=True)
    assert chat["response_format"]["json_schema"]["name"] == "Answer"
    responses = request(
        [Message.user("x")], provider="openai-responses", output=Answer, native_output=True
    )
    assert responses["text"]["format"]["type"] == "json_schema"
    gemini = request([Message.user("x")], provider="gemini", output=Answer, native_output=True)
    assert gemini["config"]["response_mime_type"] == "application/json"
    assert gemini["config"]["response_schema"]["properties"]["value"]["type"] == "integer"
    with pytest.raises(ValueError, match="no native structured output"):
        request([Message.user("x")], provider="anthropic", output=Answer, native_output=True)
    with pytest.raises(ValueError, match="needs output"):
        request([Message.user("x")], provider="openai", native_output=True)
    with pytest.raises(TypeError, match="Message objects"):
        request([{"role": "user", "content": "x"}], provider="openai")  # type: ignore[list-item]


def test_text_only_model_with_gadget_calls() -> None:
    registry = TOOLS.register(BlockRegistry(), output=Answer)
    processor = StreamBlockProcessor(registry)
    mock = MockProvider(
        [
            "Adding.\n!!!GADGET_START:add\n!!!ARG:a\n2\n!!!ARG:b\n3\n!!!GADGET_END\n",
            f"!!!GADGET_START:{FINISH_TOOL}\n!!!ARG:value\n5\n!!!GADGET_END\n",
        ],
        provider="openai",
    )
    history = [Message.system(TOOLS.prompt(output=Answer)), Message.user("2 + 3?")]
    for _ in range(3):
        step = collect(
            mock.stream(**request(history, provider="openai")), processor=processor, output=Answer
        )
        history.append(step.message)
        if step.should_stop:
            break
        history += [TOOLS.run(call) for call in step.tool_calls]
    assert step.outcome is Outcome.done and step.output == Answer(value=5)
    sent = mock.received[1].kwargs["messages"]
    # The call goes back as the text the model wrote, the result as user text.
    assert "!!!GADGET_START:add" in sent[-2]["content"] and "tool_calls" not in sent[-2]
    assert sent[-1] == {"role": "user", "content": "[add (call block-1) returned]\n5"}


def test_rate_limit_then_success_and_add_reply() -> None:
    mock = MockProvider(provider="anthropic")
    mock.add_reply(MockRateLimitError(retry_after=0.5)).add_reply("Five.")
    kw = request([Message.user("2 + 3?")], provider="anthropic")
    waits = []
    for _attempt in range(3):
        try:
            stream = mock.stream(**kw)
        except MockRateLimitError as exc:
            waits.append((exc.status_code, exc.retry_after))
            continue
        step = collect(stream)
        break
    assert waits == [(429, 0.5)] and step.text == "Five." and mock.calls == 2
    assert [m.messages for m in mock.received] == [[Message.user("2 + 3?")]] * 2


def test_received_without_request_arguments() -> None:
    mock = MockProvider(["hi"], provider="agui")
    list(mock.stream(thread="t"))
    assert mock.received[0].messages == [] and mock.received[0].kwargs == {"thread": "t"}


def test_on_thinking_reports_completion() -> None:
    seen: list[tuple[str, bool]] = []
    mock = MockProvider(
        [MockReply(text="ok", thinking="abcdefgh")], provider="anthropic", chunk_size=3
    )
    collect(mock.stream(), on_thinking=lambda chunk, done: seen.append((chunk, done)))
    assert seen == [("abc", False), ("def", False), ("gh", False), ("", True)]
    old: list[str] = []  # a one-argument callback still gets the chunks
    collect(
        MockProvider([MockReply(thinking="xy")], provider="gemini").stream(), on_thinking=old.append
    )
    assert old == ["xy"]


def test_acollect_with_output_and_async_tools() -> None:
    async def slow_add(a: int, b: int) -> int:
        """Add, later."""
        return a + b

    tools = Tools([slow_add])
    mock = MockProvider(
        [
            MockReply(tool_calls=[MockToolCall("slow_add", {"a": 2, "b": 3})]),
            MockReply(tool_calls=[MockToolCall(FINISH_TOOL, {"value": 5})]),
        ],
        provider="openai-responses",
    )

    async def main() -> Any:
        history = [Message.user("2 + 3?")]
        while True:
            kw = request(history, provider="openai-responses", tools=tools, output=Answer)
            step = await acollect(mock.astream(**kw), output=Answer)
            history.append(step.message)
            if step.should_stop:
                return step
            history += [await tools.arun(call) for call in step.tool_calls]

    step = asyncio.run(main())
    assert step.output == Answer(value=5)
    assert mock.received[1].messages[-1].content[0].content == "5"


def test_message_json_round_trip() -> None:
    mock = tool_round_trip("anthropic")
    _history, step = run_loop(mock, "anthropic", steps=1)
    again = Message.model_validate_json(step.message.model_dump_json())
    assert again == step.message and again.role == "assistant"


def test_an_invalid_answer_is_a_call_whose_result_is_the_output_error() -> None:
    mock = MockProvider([MockReply(tool_calls=[MockToolCall(FINISH_TOOL, {"value": []})])])
    step = collect(mock.stream(), output=Answer)
    assert step.outcome is Outcome.run_tools and step.output is None
    (call,) = step.tool_calls
    assert call.name == FINISH_TOOL and call.error is not None
    assert TOOLS.run(call) == step.output_error
