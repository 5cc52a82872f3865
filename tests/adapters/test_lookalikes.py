"""With every adapter installed, each source's events are claimed by its own adapter and
by no other: OpenAI-shaped chunks, Ollama, LangChain, the agent frameworks and the CLI
transcripts look alike in places (a ``type`` field, a ``message``, ``choices``)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from anthropic.types import RawMessageStartEvent
from google.genai import types as genai_types
from langchain_core.messages import AIMessageChunk
from ollama import ChatResponse, GenerateResponse
from openai.types.chat import ChatCompletionChunk

from streamblocks.adapters import available, detect_input_adapter
from streamblocks.ext.agui import AGUIInputAdapter
from streamblocks.ext.anthropic import AnthropicInputAdapter
from streamblocks.ext.claude_agent_sdk import ClaudeAgentSDKInputAdapter
from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter
from streamblocks.ext.codex_cli import CodexCLIInputAdapter
from streamblocks.ext.gemini import GeminiInputAdapter
from streamblocks.ext.langchain import LangChainInputAdapter
from streamblocks.ext.ollama import OllamaInputAdapter
from streamblocks.ext.openai import OpenAIInputAdapter
from streamblocks.ext.openai_agents import OpenAIAgentsInputAdapter
from streamblocks.ext.pydantic_ai import PydanticAIInputAdapter

from . import (
    test_agui,
    test_claude_agent_sdk,
    test_gemini_shaped,
    test_ollama,
    test_openai,
    test_openai_agents,
    test_pydantic_ai,
)
from . import transcripts as t

ADAPTERS = [
    OpenAIInputAdapter,
    AnthropicInputAdapter,
    GeminiInputAdapter,
    AGUIInputAdapter,
    ClaudeCLIInputAdapter,
    CodexCLIInputAdapter,
    OllamaInputAdapter,
    LangChainInputAdapter,
    PydanticAIInputAdapter,
    OpenAIAgentsInputAdapter,
    ClaudeAgentSDKInputAdapter,
]


def first_events() -> list[tuple[str, Any, type]]:
    chat = test_openai.chunk({"content": "hi"})[1]
    ollama_line = test_ollama.line(message={"role": "assistant", "content": "hi"})
    agents_events, _ = asyncio.run(
        test_openai_agents.run_events(
            test_openai.responses_body(), test_openai_agents.answer_body()
        )
    )
    pyd_events = asyncio.run(
        test_pydantic_ai.run_events(
            test_pydantic_ai.FunctionModel(stream_function=test_pydantic_ai.model_stream)
        )
    )
    lc_chunk = AIMessageChunk(content="hi", response_metadata={"finish_reason": "stop"})
    gemini_wire = test_gemini_shaped.wire()[0]
    sdk_messages = test_claude_agent_sdk.messages(t.claude_partial_run())
    return [
        ("openai chat chunk", ChatCompletionChunk.model_validate(chat), OpenAIInputAdapter),
        ("openai chat wire", chat, OpenAIInputAdapter),
        ("openai responses", {"type": "response.output_text.delta", "delta": "x"},
         OpenAIInputAdapter),
        (
            "anthropic",
            RawMessageStartEvent.model_validate(
                {"type": "message_start", "message": {"id": "m", "type": "message",
                 "role": "assistant", "content": [], "model": "c", "stop_reason": None,
                 "stop_sequence": None,
                 "usage": {"input_tokens": 1, "output_tokens": 0}}}
            ),
            AnthropicInputAdapter,
        ),
        ("gemini genai", genai_types.GenerateContentResponse.model_validate(gemini_wire),
         GeminiInputAdapter),
        ("gemini wire", gemini_wire, GeminiInputAdapter),
        ("gemini proto-plus", test_gemini_shaped.protos()[0], GeminiInputAdapter),
        ("gemini vertex-shaped", test_gemini_shaped.GenerationResponse(gemini_wire),
         GeminiInputAdapter),
        ("agui", test_agui.run_events()[0], AGUIInputAdapter),
        ("claude cli line", t.claude_tool_run()[0], ClaudeCLIInputAdapter),
        ("claude cli stream_event", t.claude_partial_run()[1], ClaudeCLIInputAdapter),
        ("codex cli line", t.codex_run()[0], CodexCLIInputAdapter),
        ("ollama chat", ChatResponse.model_validate(ollama_line), OllamaInputAdapter),
        ("ollama generate", GenerateResponse.model_validate(test_ollama.line(response="hi")),
         OllamaInputAdapter),
        ("ollama wire", ollama_line, OllamaInputAdapter),
        ("langchain chunk", lc_chunk, LangChainInputAdapter),
        ("langchain dumped chunk", lc_chunk.model_dump(), LangChainInputAdapter),
        (
            "langchain astream_events",
            {"event": "on_chat_model_stream", "run_id": "r", "name": "m", "tags": [],
             "metadata": {}, "data": {"chunk": lc_chunk}, "parent_ids": []},
            LangChainInputAdapter,
        ),
        *[(f"pydantic-ai {type(e).__name__}", e, PydanticAIInputAdapter) for e in pyd_events[:2]],
        (
            "pydantic-ai dumped",
            json.loads(json.dumps({"event_kind": "part_delta", "index": 0,
                                   "delta": {"part_delta_kind": "text", "content_delta": "x"}})),
            PydanticAIInputAdapter,
        ),
        *[
            (f"agents {getattr(e, 'name', e.type)}", e, OpenAIAgentsInputAdapter)
            for e in {type(e).__name__: e for e in agents_events}.values()
        ],
        *[
            (f"claude sdk {type(m).__name__}", m, ClaudeAgentSDKInputAdapter)
            for m in {type(m).__name__: m for m in sdk_messages}.values()
        ],
    ]  # fmt: skip


CASES = first_events()


@pytest.mark.parametrize(("name", "event", "owner"), CASES, ids=[c[0] for c in CASES])
def test_only_its_own_adapter_claims_it(name: str, event: Any, owner: type) -> None:
    claimed = [a.__name__ for a in ADAPTERS if a().matches(event)]
    assert claimed == [owner.__name__], name
    assert type(detect_input_adapter(event)) is owner, name


def test_every_builtin_is_installed_and_loaded() -> None:
    builtins = {i.name: i for i in available() if i.builtin}
    assert all(i.loaded for i in builtins.values()), [i for i in builtins.values() if not i.loaded]
    assert len(builtins) == len(ADAPTERS)
