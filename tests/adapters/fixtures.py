"""Every adapter's fixture streams in one place, as the real SDK objects (read with each
SDK's own sync client over a mock transport) or, for the agent CLIs, the parsed lines.

The contract tests (immutability, odd field types) run over all of them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

from streamblocks.adapters import InputAdapter
from streamblocks.ext.agui import AGUIInputAdapter
from streamblocks.ext.anthropic import AnthropicInputAdapter
from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter
from streamblocks.ext.codex_cli import CodexCLIInputAdapter
from streamblocks.ext.gemini import GeminiInputAdapter
from streamblocks.ext.openai import OpenAIInputAdapter

from . import test_agui, test_anthropic, test_gemini, test_openai, transcripts
from .sse import Recorder


class Fixture(NamedTuple):
    name: str
    adapter: Callable[[], InputAdapter]
    events: list[Any]


def openai_chat(body: bytes | None = None) -> list[Any]:
    server = Recorder(body if body is not None else test_openai.chat_body())
    client = test_openai.openai_client("sync", server)
    stream = client.chat.completions.create(
        model="gpt-test", messages=test_openai.MESSAGES, stream=True
    )
    return list(stream)


def openai_responses(body: bytes | None = None) -> list[Any]:
    server = Recorder(body if body is not None else test_openai.responses_body())
    client = test_openai.openai_client("sync", server)
    return list(client.responses.create(model="gpt-test", input="hi", stream=True))


def anthropic_messages(body: bytes | None = None) -> list[Any]:
    server = Recorder(body if body is not None else test_anthropic.messages_body())
    client = test_anthropic.client("sync", server)
    return list(client.messages.create(**test_anthropic.KWARGS, stream=True))


def gemini_stream(body: bytes | None = None) -> list[Any]:
    server = Recorder(body if body is not None else test_gemini.stream_body())
    client = test_gemini.client("sync", server)
    return list(client.models.generate_content_stream(model="gemini-test", contents="hi"))


@functools.cache
def _all() -> tuple[Fixture, ...]:
    return (
        Fixture("openai-chat", OpenAIInputAdapter, openai_chat()),
        Fixture("openai-responses", OpenAIInputAdapter, openai_responses()),
        Fixture("anthropic", AnthropicInputAdapter, anthropic_messages()),
        Fixture("gemini", GeminiInputAdapter, gemini_stream()),
        Fixture("agui", AGUIInputAdapter, test_agui.run_events()),
        Fixture("claude-tools", ClaudeCLIInputAdapter, transcripts.claude_tool_run()),
        Fixture("claude-partial", ClaudeCLIInputAdapter, transcripts.claude_partial_run()),
        Fixture("claude-error", ClaudeCLIInputAdapter, transcripts.claude_error_run()),
        Fixture("codex", CodexCLIInputAdapter, transcripts.codex_run()),
        Fixture("codex-legacy", CodexCLIInputAdapter, transcripts.codex_legacy_run()),
    )


def all_fixtures() -> tuple[Fixture, ...]:
    """Every fixture stream (built once per test process)."""
    return _all()


NAMES = [
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "agui",
    "claude-tools",
    "claude-partial",
    "claude-error",
    "codex",
    "codex-legacy",
]


def fixture(name: str) -> Fixture:
    return next(f for f in all_fixtures() if f.name == name)
