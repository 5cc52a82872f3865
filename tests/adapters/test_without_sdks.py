"""With no provider SDK importable, streamblocks and every adapter still work (on
replayed JSON), and detection never tries to import an SDK."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import json, sys

    BLOCKED = (
        "openai", "anthropic", "google.genai", "ag_ui", "httpx2", "ollama", "langchain_core",
        "pydantic_ai",
        "agents",
        "claude_agent_sdk",
    )
    attempts = []

    class Block:
        def find_spec(self, name, path=None, target=None):
            if any(name == b or name.startswith(b + ".") for b in BLOCKED):
                attempts.append(name)
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Block())

    from streamblocks import BlockRegistry, StreamBlockProcessor
    from streamblocks.adapters import available

    registry = BlockRegistry()
    registry.register("note")
    processor = StreamBlockProcessor(registry)

    def text(stream):
        return "".join(e.text for e in processor.process(stream) if e.type == "TEXT_DELTA")

    streams = {
        "str": ["a\\n!!b1:note\\nx\\n!!end\\n", "z"],
        "openai": [{"object": "chat.completion.chunk", "choices": [
            {"index": 0, "delta": {"content": "z"}, "finish_reason": "stop"}]}],
        "anthropic": [{"type": "content_block_delta", "index": 0,
                       "delta": {"type": "text_delta", "text": "z"}}],
        "gemini": [{"candidates": [{"content": {"parts": [{"text": "z"}]}}]}],
        "agui": [{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "z"}],
        "ollama": [{"model": "m", "created_at": "t", "done": True,
                    "message": {"role": "assistant", "content": "z"}}],
        "langchain": [{"type": "AIMessageChunk", "content": "z"}],
        "pydantic_ai": [{"event_kind": "part_delta", "index": 0,
                         "delta": {"part_delta_kind": "text", "content_delta": "z"}}],
        "openai_agents": [{"type": "raw_response_event",
                           "data": {"type": "response.output_text.delta", "delta": "z"}}],
    }
    print(json.dumps({
        "texts": {name: text(s) for name, s in streams.items()},
        "loaded": sorted(i.name for i in available() if i.loaded),
        "attempts": attempts,
    }))
    """
)


def test_everything_works_without_the_sdks() -> None:
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", SCRIPT], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert got["texts"] == {
        "str": "a\nz",
        "openai": "z",
        "anthropic": "z",
        "gemini": "z",
        "agui": "z",
        "ollama": "z",
        "langchain": "z",
        "pydantic_ai": "z",
        "openai_agents": "z",
    }
    assert got["loaded"] == [
        "agui",
        "anthropic",
        "claude_agent_sdk",
        "claude_cli",
        "codex_cli",
        "gemini",
        "langchain",
        "ollama",
        "openai",
        "openai_agents",
        "pydantic_ai",
    ]
    assert got["attempts"] == []  # nothing even tried to import an SDK
