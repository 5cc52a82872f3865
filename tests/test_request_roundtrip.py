"""Property: a conversation written as a provider's request and read back keeps every
message — up to what that API itself cannot carry (listed in ``kept``)."""

from __future__ import annotations

import base64
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from streamblocks import request
from streamblocks.content import (
    DocumentBlock,
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from streamblocks.conversation import content_text
from streamblocks.request import read_request

PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini"]
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=12)
plain = text.filter(lambda t: not t.startswith("Error: "))
scalar = st.one_of(st.integers(-1000, 1000), st.booleans(), plain, st.none())
json_value = st.recursive(
    scalar,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(plain, inner, max_size=3),
    max_leaves=6,
)
arguments = st.dictionaries(plain, json_value, max_size=3)
b64 = st.binary(min_size=1, max_size=12).map(lambda b: base64.b64encode(b).decode("ascii"))
image = st.one_of(
    st.builds(ImageBlock, url=st.sampled_from(["https://x.test/a.png", "https://x.test/b.jpg"])),
    st.builds(ImageBlock, data=b64, media_type=st.sampled_from(["image/png", "image/webp"])),
)
document = st.builds(DocumentBlock, data=b64, title=st.none() | plain)


@st.composite
def conversations(draw: Any) -> list[Message]:
    messages: list[Message] = []
    if draw(st.booleans()):
        messages.append(Message.system(draw(plain)))
    calls = 0
    for _ in range(draw(st.integers(1, 5))):
        parts = [draw(plain), *draw(st.lists(image | document, max_size=2))]
        messages.append(Message.user(*parts))
        content: list[Any] = []
        if draw(st.booleans()):
            content.append(ThinkingBlock(draw(plain), signature=draw(b64), id=f"rs_{calls}"))
        if draw(st.integers(0, 3)) == 0:
            content.append(ThinkingBlock("", redacted=draw(b64)))
        if draw(st.booleans()):
            content.append(TextBlock(draw(plain)))
        names = draw(st.lists(st.sampled_from(["add", "look_up", "plot"]), max_size=2))
        made = []
        for name in names:
            calls += 1
            signature = draw(st.none() | b64)
            made.append((f"call_{calls}", name))
            content.append(
                ToolCallBlock(
                    id=f"call_{calls}", name=name, arguments=draw(arguments), signature=signature
                )
            )
        if content:
            messages.append(Message(role="assistant", content=content))
        for call_id, name in made:
            value = draw(json_value)
            messages.append(Message.tool(call_id, value, name=name, is_error=draw(st.booleans())))
    return messages


def kept(provider: str, messages: list[Message]) -> list[tuple[str, list[Any]]]:
    """What ``provider``'s API carries of ``messages``, turns of one role merged."""
    out: list[tuple[str, list[Any]]] = []
    for message in messages:
        blocks = [b for block in message.content for b in _kept(provider, block)]
        if not blocks:
            continue
        if out and out[-1][0] == message.role and message.role != "tool":
            out[-1][1].extend(blocks)
        else:
            out.append((message.role, blocks))
    return [(role, _join_text(blocks)) for role, blocks in out]


def _kept(provider: str, block: Any) -> list[Any]:
    if isinstance(block, ThinkingBlock):
        if block.redacted is not None and provider != "anthropic":
            return []  # Anthropic's encrypted thinking means nothing elsewhere
        if provider == "openai":
            return []  # Chat Completions takes no reasoning back
        if provider == "openai-responses":
            return [block.model_copy(update={"signature": None})]
        return [block.model_copy(update={"id": None})]
    if isinstance(block, ToolCallBlock) and provider != "gemini":
        return [block.model_copy(update={"signature": None})]
    if isinstance(block, ToolResultBlock) and provider != "gemini":
        return [block.model_copy(update={"content": content_text(block.content)})]
    if isinstance(block, ImageBlock) and block.url is not None:
        return [block.model_copy(update={"media_type": None})]
    if isinstance(block, DocumentBlock) and provider == "gemini":
        return [block.model_copy(update={"title": None})]
    return [block]


def _join_text(blocks: list[Any]) -> list[Any]:
    out: list[Any] = []
    for block in blocks:
        if isinstance(block, TextBlock) and out and isinstance(out[-1], TextBlock):
            out[-1] = TextBlock(out[-1].text + block.text)
        else:
            out.append(block)
    return out


def _chat_order(messages: list[Message]) -> list[Message]:
    """Chat Completions writes an assistant turn as its text, then its calls."""
    out = []
    for message in messages:
        if message.role == "assistant":
            first = [b for b in message.content if not isinstance(b, ToolCallBlock)]
            calls = [b for b in message.content if isinstance(b, ToolCallBlock)]
            message = Message(role="assistant", content=[*first, *calls])
        out.append(message)
    return out


@SETTINGS
@given(conversations())
def test_written_and_read_back_keeps_every_message(messages: list[Message]) -> None:
    for provider in PROVIDERS:
        back = read_request(request(messages, provider=provider), provider=provider)
        expected = _chat_order(messages) if provider == "openai" else messages
        assert kept(provider, back) == kept(provider, expected), provider


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conversations())
def test_messages_survive_json(messages: list[Message]) -> None:
    for message in messages:
        assert Message.model_validate_json(message.model_dump_json()) == message


def test_anthropic_merges_turns_of_one_role() -> None:
    messages = [
        Message.user("a"),
        Message.user("b"),
        Message(
            role="assistant",
            content=[ToolCallBlock(id="c1", name="f"), ToolCallBlock(id="c2", name="g")],
        ),
        Message.tool("c1", "one", name="f"),
        Message.tool("c2", "two", name="g", is_error=True),
        Message.user("next"),
    ]
    kw = request(messages, provider="anthropic")
    assert [turn["role"] for turn in kw["messages"]] == ["user", "assistant", "user"]
    assert kw["messages"][2]["content"] == [
        {"type": "tool_result", "tool_use_id": "c1", "content": "one"},
        {"type": "tool_result", "tool_use_id": "c2", "content": "two", "is_error": True},
        {"type": "text", "text": "next"},
    ]
    gemini = request(messages, provider="gemini")
    assert [turn["role"] for turn in gemini["contents"]] == ["user", "model", "user"]
    assert gemini["contents"][2]["parts"][1] == {
        "function_response": {"id": "c2", "name": "g", "response": {"error": "two"}}
    }


def test_unsigned_thinking_is_left_out_for_anthropic() -> None:
    messages = [
        Message.user("q"),
        Message(role="assistant", content=[ThinkingBlock("from elsewhere"), TextBlock("a")]),
    ]
    (turn,) = request(messages, provider="anthropic")["messages"][1:]
    assert turn["content"] == [{"type": "text", "text": "a"}]
