"""The conformance kit, applied to every built-in adapter, and checked against bad adapters."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from streamblocks.adapters import EventCategory
from streamblocks.core.events import StopReason
from streamblocks.ext.agui import AGUIInputAdapter
from streamblocks.ext.anthropic import AnthropicInputAdapter
from streamblocks.ext.gemini import GeminiInputAdapter
from streamblocks.ext.openai import OpenAIInputAdapter
from streamblocks.testing import (
    AdapterConformance,
    AdapterSample,
    adversarial_points,
    adversarial_splits,
    chunk_bytes,
    split_at,
)

from . import test_agui, test_anthropic, test_gemini, test_openai
from .sse import REPLY, THINKING, TOOL_ARGS


def wire(body: bytes) -> list[Any]:
    return [
        json.loads(line[len("data: ") :])
        for line in body.decode().splitlines()
        if line.startswith("data: {")
    ]


class TestOpenAIChatConformance(AdapterConformance):
    adapter_factory = OpenAIInputAdapter
    registered = True
    samples = (
        AdapterSample(
            "chat",
            wire(test_openai.chat_body()),
            REPLY,
            StopReason.tool_use,
            test_openai.CHAT_USAGE_EXPECTED,
            [("thinking", THINKING), ("tool_call", TOOL_ARGS)],
        ),
        AdapterSample("responses", wire(test_openai.responses_body()), REPLY, StopReason.tool_use),
    )
    text_event = staticmethod(lambda piece: test_openai.chunk({"content": piece})[1])


class TestAnthropicConformance(AdapterConformance):
    adapter_factory = AnthropicInputAdapter
    registered = True
    samples = (
        AdapterSample(
            "messages",
            wire(test_anthropic.messages_body()),
            REPLY,
            StopReason.tool_use,
            test_anthropic.USAGE,
            [("thinking", THINKING), ("tool_call", TOOL_ARGS)],
        ),
    )
    text_event = staticmethod(
        lambda piece: {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": piece},
        }
    )


class TestGeminiConformance(AdapterConformance):
    adapter_factory = GeminiInputAdapter
    registered = True
    samples = (
        AdapterSample(
            "stream",
            wire(test_gemini.stream_body()),
            REPLY,
            StopReason.tool_use,
            native=[("thinking", THINKING), ("tool_call", TOOL_ARGS)],
        ),
    )
    text_event = staticmethod(lambda piece: test_gemini.response([{"text": piece}])[1])


class TestAGUIConformance(AdapterConformance):
    adapter_factory = AGUIInputAdapter
    registered = True
    samples = (
        AdapterSample(
            "run",
            [json.loads(e.model_dump_json(by_alias=True)) for e in test_agui.run_events()],
            REPLY,
            StopReason.tool_use,
            native=[("thinking", THINKING), ("tool_call", TOOL_ARGS)],
        ),
    )
    text_event = staticmethod(
        lambda piece: {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": piece}
    )


# -- the kit catches broken adapters ---------------------------------------------------


class Doubling:
    """Takes text from two sources, as a careless adapter of a helper stream would."""

    def matches(self, event: Any) -> bool:
        return isinstance(event, dict) and event.get("kind") in ("delta", "repeat")

    def categorize(self, event: Any) -> EventCategory:
        if isinstance(event, dict) and event.get("kind") in ("delta", "repeat"):
            return EventCategory.TEXT_CONTENT
        return EventCategory.SKIP

    def extract_text(self, event: Any) -> str:
        return str(event["text"])


class Greedy(Doubling):
    def matches(self, event: Any) -> bool:
        return True


class Importing(Doubling):
    def matches(self, event: Any) -> bool:
        import csv  # noqa: F401  (an SDK import, in miniature)

        return super().matches(event)


DOUBLED = AdapterSample(
    "doubled", [{"kind": "delta", "text": "hi"}, {"kind": "repeat", "text": "hi"}], "hi"
)


@pytest.mark.parametrize(
    ("adapter", "test", "sample"),
    [
        (Doubling, "test_samples_give_text_exactly_once", DOUBLED),
        (Greedy, "test_matches_refuses_foreign_events", DOUBLED),
        (Importing, "test_matches_imports_nothing", DOUBLED),
    ],
)
def test_kit_rejects_broken_adapters(
    adapter: Any, test: str, sample: AdapterSample, monkeypatch: pytest.MonkeyPatch
) -> None:
    kit = type("Kit", (AdapterConformance,), {"adapter_factory": adapter, "samples": (sample,)})
    if adapter is Importing:
        monkeypatch.delitem(sys.modules, "csv", raising=False)
    with pytest.raises(AssertionError):
        getattr(kit(), test)()


# -- the split helpers -----------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "x", REPLY, "a\n!!b1:note\nx\n!!end\nz", "e\u0301🇫🇷"])
def test_every_split_joins_back(text: str) -> None:
    splits = list(adversarial_splits(text))
    assert splits[0] == [text]
    for pieces in splits:
        assert "".join(pieces) == text
        assert all(pieces) or text == ""


def test_markers_and_clusters_are_cut() -> None:
    text = "ab!!b1:x\ne\u0301🇫🇷"
    points = adversarial_points(text)
    assert 3 in points  # inside "!!"
    assert text.index("\u0301") in points  # between e and its accent
    assert text.index("🇷") in points  # between the two halves of the flag
    assert split_at("abc", [2, 1, 1, 0, 3]) == ["a", "b", "c"]


def test_chunk_bytes_cuts_utf8() -> None:
    data = "é".encode()
    assert chunk_bytes(data, 1) == [b"\xc3", b"\xa9"]
    with pytest.raises(ValueError, match="at least 1"):
        chunk_bytes(data, 0)


def test_pytest_plugin_fixtures(adapter_run: Any, text_splits: Any) -> None:
    run = adapter_run(OpenAIInputAdapter(), [test_openai.chunk({"content": "hi"})[1]])
    assert run.text == "hi"
    assert next(iter(text_splits("ab"))) == ["ab"]
