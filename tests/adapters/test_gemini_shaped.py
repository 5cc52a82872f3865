"""Gemini-shaped objects from SDKs other than google-genai, detected by shape and read
like google-genai's: the proto-plus ``GenerateContentResponse`` of
``google-ai-generativelanguage`` (the types of google-generativeai and the shape of Vertex
AI's protos), built by its own JSON parser, and a stand-in for Vertex AI's
``GenerationResponse`` wrapper (the Vertex SDK itself is too heavy to install for tests)."""

from __future__ import annotations

import enum
import json
from typing import Any

import pytest
from google.ai import generativelanguage_v1 as glm_v1
from google.ai import generativelanguage_v1beta as glm

from streamblocks.adapters import detect_input_adapter
from streamblocks.core.events import StopReason, Usage
from streamblocks.ext.gemini import GeminiInputAdapter
from streamblocks.testing import AdapterConformance, AdapterSample, run_adapter

from . import test_gemini
from .sse import REPLY, THINKING, TOOL_ARGS, read_reply

USAGE = Usage(
    input_tokens=9, output_tokens=42, total_tokens=51, cache_read_tokens=3, reasoning_tokens=12
)


def wire() -> list[dict[str, Any]]:
    body = test_gemini.stream_body().decode()
    return [json.loads(x[len("data: ") :]) for x in body.splitlines() if x.startswith("data: ")]


def protos() -> list[Any]:
    return [glm.GenerateContentResponse.from_json(json.dumps(x)) for x in wire()]


def test_proto_plus_responses() -> None:
    chunks = protos()
    assert type(chunks[0]).__module__.startswith("google.ai.generativelanguage")
    run = read_reply(chunks, GeminiInputAdapter)  # thought parts never become text
    assert run.natives[0].attrs == {"signature": test_gemini.SIGNATURE}
    assert run.stop_reason is StopReason.tool_use  # an int enum, read by its name
    assert run.usage == USAGE


# -- a stand-in for vertexai.generative_models.GenerationResponse -------------------------
# Vertex wraps its protos in classes whose properties raise AttributeError for an absent
# field (``Part.text`` of a function-call part) and whose finish reason is an int enum.


class FinishReason(enum.IntEnum):
    FINISH_REASON_UNSPECIFIED = 0
    STOP = 1
    MAX_TOKENS = 2
    SAFETY = 3


class Part:
    def __init__(self, raw: dict[str, Any]) -> None:
        self._raw = raw

    @property
    def text(self) -> str:
        if "text" not in self._raw:
            raise AttributeError("Part has no text.")
        return str(self._raw["text"])

    @property
    def thought(self) -> bool:
        return bool(self._raw.get("thought", False))

    @property
    def function_call(self) -> Any:
        call = self._raw.get("functionCall")
        return (
            type("FunctionCall", (), {"name": call["name"], "args": call["args"]})()
            if call
            else None
        )


class Content:
    def __init__(self, raw: dict[str, Any]) -> None:
        self.role = raw.get("role")
        self.parts = [Part(p) for p in raw.get("parts", [])]


class Candidate:
    def __init__(self, raw: dict[str, Any]) -> None:
        self.content = Content(raw["content"])
        self.finish_reason = FinishReason[raw.get("finishReason", "FINISH_REASON_UNSPECIFIED")]


class UsageMetadata:
    def __init__(self, raw: dict[str, int]) -> None:
        self.prompt_token_count = raw["promptTokenCount"]
        self.candidates_token_count = raw["candidatesTokenCount"]
        self.total_token_count = raw["totalTokenCount"]


class GenerationResponse:
    def __init__(self, raw: dict[str, Any]) -> None:
        self._raw = raw

    @property
    def candidates(self) -> list[Candidate]:
        return [Candidate(c) for c in self._raw.get("candidates", [])]

    @property
    def usage_metadata(self) -> UsageMetadata | None:
        raw = self._raw.get("usageMetadata")
        return UsageMetadata(raw) if raw else None


def test_vertex_shaped_wrapper() -> None:
    run = read_reply([GenerationResponse(x) for x in wire()], GeminiInputAdapter)
    assert run.stop_reason is StopReason.tool_use
    assert run.usage == Usage(input_tokens=9, output_tokens=30, total_tokens=51)


def test_look_alikes_are_not_gemini() -> None:
    class Choices:
        candidates = "not a list"

    class NoParts:
        candidates = (object(),)

    adapter = GeminiInputAdapter()
    assert not adapter.matches(Choices())
    assert not adapter.matches(NoParts())
    assert not adapter.matches(type("Empty", (), {"candidates": []})())


class TestGeminiShapedConformance(AdapterConformance):
    adapter_factory = GeminiInputAdapter
    registered = True
    samples = (
        AdapterSample(
            "proto-plus",
            protos(),
            REPLY,
            StopReason.tool_use,
            USAGE,
            [("thinking", THINKING), ("tool_call", TOOL_ARGS)],
        ),
        AdapterSample(
            "vertex-shaped", [GenerationResponse(x) for x in wire()], REPLY, StopReason.tool_use
        ),
    )
    text_event = staticmethod(
        lambda piece: glm.GenerateContentResponse.from_json(
            json.dumps(test_gemini.response([{"text": piece}])[1])
        )
    )


def test_any_generativelanguage_response_is_detected() -> None:
    from streamblocks.adapters import detect_input_adapter

    adapter = GeminiInputAdapter()
    usage_only = glm.GenerateContentResponse.from_json('{"usageMetadata": {"promptTokenCount": 3}}')
    for chunk in (glm.GenerateContentResponse(), usage_only, *protos()):
        assert type(chunk).__module__.startswith("google.ai.generativelanguage")
        assert adapter.matches(chunk)
    assert isinstance(detect_input_adapter(usage_only), GeminiInputAdapter)
    assert not adapter.matches(glm.Candidate())  # not a response


def test_an_object_with_text_and_candidates_is_gemini_shaped() -> None:
    class Wrapper:  # another package's response wrapper: a text property and candidates
        def __init__(self) -> None:
            self.candidates: list[Any] = []

        @property
        def text(self) -> str:
            raise ValueError("no text yet")  # never evaluated by matches()

    adapter = GeminiInputAdapter()
    assert adapter.matches(Wrapper())
    assert not adapter.matches(type("TextOnly", (), {"text": "hi"})())
    assert not adapter.matches(type("Odd", (), {"text": "hi", "candidates": "no"})())


# -- every API version's module of google-ai-generativelanguage ---------------------------


@pytest.mark.parametrize("module", [glm, glm_v1], ids=["v1beta", "v1"])
def test_detected_by_module_whatever_the_chunk_holds(module: Any) -> None:
    """A chunk with only usage, or only a blocked prompt's feedback, has no Gemini shape:
    the module prefix and the class name detect it."""
    usage_only = module.GenerateContentResponse.from_json(
        json.dumps({"usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 3}})
    )
    blocked = module.GenerateContentResponse(prompt_feedback={"block_reason": 1})
    text = module.GenerateContentResponse.from_json(
        json.dumps({"candidates": [{"content": {"parts": [{"text": "hi"}], "role": "model"},
                                    "finishReason": "STOP"}]})
    )  # fmt: skip
    for chunk in (usage_only, blocked, text):
        assert type(chunk).__module__.startswith("google.ai.generativelanguage_")
        assert isinstance(detect_input_adapter(chunk), GeminiInputAdapter)
    assert run_adapter(GeminiInputAdapter(), [blocked]).stop_reason is StopReason.content_filter
    run = run_adapter(GeminiInputAdapter(), [text, usage_only])
    assert (run.text, run.stop_reason, run.usage.input_tokens) == ("hi", StopReason.end_turn, 3)
    # a part of a response is not one
    assert not GeminiInputAdapter().matches(module.Candidate(index=0))
