"""A provider's text takes the steps a ``str`` chunk takes (DESIGN.md, invariant 7): the
default processor fed OpenAI Chat chunks and Anthropic events — the SDK's own objects,
read by its client over a mock transport, and wire dicts — answers feed by feed what
the reference reading (every fast path off) answers, at several chunkings of the reply
text, with thinking, tool calls, pings and usage between the text deltas; and a
third-party adapter's text takes them too, its questions asked once per event."""

from __future__ import annotations

from typing import Any

import pytest

from streamblocks import (
    BlockRegistry,
    DelimiterPreambleSyntax,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    XMLTagSyntax,
)
from streamblocks.adapters import EventCategory
from streamblocks.core.events import BlockEnd
from streamblocks.core.lean import SLOW
from streamblocks.testing import split_random
from streamblocks.testing.differential import FAST_PATHS, feeds

from . import fixtures, test_openai
from .sse import THINKING_PIECES, TOOL_ARGS_PIECES, sse
from .test_anthropic import delta, ev, message_start
from .test_direct import wire

REPLY = (
    "Intro text, then a block:\n!!b1:note\nfirst line\nsecond line\n!!end\n"
    "mid <think>pondering\n  at length \n</think> after <b>bold</b>\n"
    "```python\nx = '!!b2:note'\n```\n```note\n---\nid: f1\n---\nfenced\n```\n"
    "tail ✓ text\n!!b3:note\nnever closed 👩\u200d💻\n"
)


def registry() -> BlockRegistry:
    reg = BlockRegistry()
    reg.register("note", syntax=DelimiterPreambleSyntax())
    reg.register("think", syntax=XMLTagSyntax())
    reg.register("fenced", syntax=MarkdownFrontmatterSyntax(), tag="note")
    return reg


def chunkings() -> list[list[str]]:
    sizes = [[REPLY[i : i + n] for i in range(0, len(REPLY), n)] for n in (1, 3, 4, 7)]
    return [[REPLY], *sizes, split_random(REPLY, 1, 5), split_random(REPLY, 2, 17)]


def chat_body(pieces: list[str]) -> bytes:
    chunk = test_openai.chunk
    half = len(pieces) // 2
    tool = {"index": 0, "id": "call_1", "type": "function"}
    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"reasoning_content": piece}) for piece in THINKING_PIECES]
    events += [chunk({"content": piece}) for piece in pieces[:half]]
    events.append(chunk({"tool_calls": [{**tool, "function": {"name": "f", "arguments": ""}}]}))
    events += [
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
        for piece in TOOL_ARGS_PIECES
    ]
    events += [chunk({"content": piece}) for piece in pieces[half:]]
    events.append(chunk({"content": "!"}, usage=test_openai.CHAT_USAGE))
    events.append(chunk({}, "stop"))
    return sse(events, done=True)


def anthropic_body(pieces: list[str]) -> bytes:
    half = len(pieces) // 2
    thinking = {"type": "thinking", "thinking": "", "signature": ""}
    events = [
        message_start(input_tokens=25, output_tokens=1),
        ev("content_block_start", index=0, content_block=thinking),
        *(delta(0, "thinking_delta", thinking=piece) for piece in THINKING_PIECES),
        ev("content_block_stop", index=0),
        ev("content_block_start", index=1, content_block={"type": "text", "text": ""}),
        *(delta(1, "text_delta", text=piece) for piece in pieces[:half]),
        ev("ping"),
        *(delta(1, "text_delta", text=piece) for piece in pieces[half:]),
        ev("content_block_stop", index=1),
        ev(
            "message_delta",
            delta={"stop_reason": "end_turn", "stop_sequence": None},
            usage={"output_tokens": 60},
        ),
        ev("message_stop"),
    ]
    return sse(events)


STREAMS = {"openai-chat": (chat_body, fixtures.openai_chat)}
STREAMS["anthropic"] = (anthropic_body, fixtures.anthropic_messages)


@pytest.mark.parametrize("kind", ["sdk", "dict"])
@pytest.mark.parametrize("provider", list(STREAMS))
def test_provider_text_reads_as_the_reference(provider: str, kind: str) -> None:
    body_of, read = STREAMS[provider]
    processor = StreamBlockProcessor(registry())
    for pieces in chunkings():
        body = body_of(pieces)
        events = read(body) if kind == "sdk" else wire(body)
        expected = feeds(processor, events, paths=())
        assert feeds(processor, events) == expected, pieces
        assert feeds(processor, events, restore=True) == expected, pieces
        ends = [e.block for feed in expected for e in feed.events if isinstance(e, BlockEnd)]
        assert [block.id for block in ends if block.syntax != "native"] == ["b1", "block-2", "f1"]


@pytest.mark.parametrize("provider", list(STREAMS))
def test_provider_text_takes_the_lean_steps(provider: str) -> None:
    """Mid-line visible text, as a provider's text deltas: each is a lean step (the session
    stays in a bulk state), and the same events as the reference."""
    body_of, read = STREAMS[provider]
    pieces = ["Plain words, ", "no markers ", "in them, ", "a long line."]
    events = read(body_of(pieces))
    lean, reference = (
        StreamBlockProcessor(registry()),
        StreamBlockProcessor(registry(), reference=True),
    )
    session, slow = lean.session("s"), reference.session("s")
    modes = []
    for event in events:
        assert session.feed(event) == slow.feed(event)
        modes.append(session._scan.mode)
    assert session.close() == slow.close()
    texts = [i for i, event in enumerate(wire(body_of(pieces))) if _text_of(event) in pieces]
    assert all(modes[i] != SLOW for i in texts[1:-1]), modes


def _text_of(event: dict[str, Any]) -> str | None:
    if "choices" in event:
        return event["choices"][0]["delta"].get("content") if event["choices"] else None
    return event.get("delta", {}).get("text")


class CountingAdapter:
    """A third-party adapter as DESIGN.md's protocol fixes it: ``categorize`` and
    ``extract_text`` only, over its own events; it counts the questions it is asked."""

    def __init__(self) -> None:
        self.asked: dict[int, int] = {}

    def categorize(self, event: dict[str, Any]) -> EventCategory:
        self.asked[id(event)] = self.asked.get(id(event), 0) + 1
        return {
            "text": EventCategory.TEXT_CONTENT,
            "note": EventCategory.PASSTHROUGH,
            "end": EventCategory.STREAM_END,
        }.get(event["kind"], EventCategory.SKIP)

    def extract_text(self, event: dict[str, Any]) -> str:
        return event["text"]


def _third_party_events(pieces: list[str]) -> list[Any]:
    """``pieces`` as the third-party stream's text events, with notes and pings between."""
    events: list[Any] = [{"kind": "start"}]
    for index, piece in enumerate(pieces):
        events.append({"kind": "text", "text": piece})
        if index % 5 == 2:
            events.append({"kind": "note" if index % 2 else "ping"})
    events.append({"kind": "end"})
    return events


def test_a_third_party_adapters_text_takes_the_same_steps() -> None:
    for pieces in chunkings():
        events = _third_party_events(pieces)
        adapters = [CountingAdapter(), CountingAdapter()]
        got = [
            feeds(StreamBlockProcessor(registry(), input_adapter=adapter), events, paths=paths)
            for adapter, paths in zip(adapters, [(), FAST_PATHS], strict=True)
        ]
        assert got[0] == got[1], pieces
        assert set(adapters[1].asked.values()) == {1}  # (each event asked once)


class GetterAdapter(CountingAdapter):
    """The same adapter with the optional direct getter: ``text_delta`` answers a text
    event's text (``None`` for the rest, which it leaves to the two questions)."""

    def __init__(self) -> None:
        super().__init__()
        self.got: list[int] = []

    def text_delta(self, event: dict[str, Any]) -> str | None:
        if event["kind"] != "text":
            return None
        self.got.append(id(event))
        return str(event["text"])


def test_a_third_party_adapters_text_delta_is_asked_first() -> None:
    answered = 0
    for pieces in chunkings():
        events = _third_party_events(pieces)
        plain = CountingAdapter()
        expected = feeds(StreamBlockProcessor(registry(), input_adapter=plain), events, paths=())
        got = feeds(StreamBlockProcessor(registry(), input_adapter=GetterAdapter()), events)
        assert got == expected, pieces
        getter = GetterAdapter()  # one stream: each text event read once, one way or the other
        session = StreamBlockProcessor(registry(), input_adapter=getter).session()
        for event in events:
            session.feed(event)
        session.close()
        texts = {id(event) for event in events if event["kind"] == "text"}
        assert len(getter.got) == len(set(getter.got))
        assert not set(getter.got) & set(getter.asked)
        assert texts == set(getter.got) | (texts & set(getter.asked))
        answered += len(getter.got)
    assert answered > 0
