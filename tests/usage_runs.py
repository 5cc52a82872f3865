# ruff: noqa: E501  (records as the tools write them, one a line)
"""Runs that record tokens and time per turn, shaped as the tools write them.

A Claude Code session file (``~/.claude/projects/…/<session>.jsonl``: every line with
``uuid``, ``parentUuid``, ``timestamp`` and ``sessionId``; each content block of an
assistant message on a line of its own, repeating the message's ``usage``), a two-turn
``codex exec --json`` run and a Codex rollout file's lines.
"""

from __future__ import annotations

import itertools
from typing import Any

SESSION = "7f1c2a9e-5b3d-4e8f-a1c2-3d4e5f6a7b8c"


def _stamp(seconds: float) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"2026-11-30T09:{14 + int(minutes):02d}:{rest:06.3f}Z"


class _Session:
    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self.ids = (f"0b9e{n:04d}-1111-4222-8333-444455556666" for n in itertools.count())

    def _line(self, kind: str, message: dict[str, Any], at: float, **extra: Any) -> None:
        parent = self.lines[-1]["uuid"] if self.lines else None
        self.lines.append(
            {
                "parentUuid": parent,
                "isSidechain": False,
                "userType": "external",
                "cwd": "/home/ana/calc",
                "sessionId": SESSION,
                "version": "2.0.37",
                "gitBranch": "main",
                "type": kind,
                "message": message,
                "uuid": next(self.ids),
                "timestamp": _stamp(at),
                **extra,
            }
        )

    def prompt(self, text: str, at: float) -> None:
        self._line("user", {"role": "user", "content": text}, at)

    def reply(
        self, message_id: str, blocks: list[tuple[dict[str, Any], float]], usage: dict[str, int]
    ) -> None:
        for block, at in blocks:
            message = {
                "model": "claude-sonnet-4-5-20250929",
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "content": [block],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {**usage, "service_tier": "standard"},
            }
            self._line("assistant", message, at, requestId="req_" + message_id[4:])

    def result(self, call_id: str, text: str, at: float) -> None:
        block = {"tool_use_id": call_id, "type": "tool_result", "content": text}
        self._line("user", {"role": "user", "content": [block]}, at)


def claude_session() -> list[dict[str, Any]]:
    """Three model turns: 2.5 s, 4.25 s and 1.5 s after the line before each."""
    run = _Session()
    run.prompt("Why does test_add fail?", 0.0)
    run.reply(
        "msg_01A",
        [
            ({"type": "thinking", "thinking": "Run the tests first.", "signature": "c2ln"}, 1.8),
            ({"type": "text", "text": "I'll run the tests."}, 2.1),
            (
                {
                    "type": "tool_use",
                    "id": "toolu_01",
                    "name": "Bash",
                    "input": {"command": "pytest -q"},
                },
                2.5,
            ),
        ],
        {
            "input_tokens": 3,
            "cache_creation_input_tokens": 4200,
            "cache_read_input_tokens": 12000,
            "output_tokens": 96,
        },
    )
    run.result("toolu_01", "F.\n1 failed, 1 passed\n", 5.0)
    run.reply(
        "msg_01B",
        [
            ({"type": "text", "text": "add() subtracts; fixing it."}, 7.0),
            (
                {
                    "type": "tool_use",
                    "id": "toolu_02",
                    "name": "Edit",
                    "input": {
                        "file_path": "/home/ana/calc/calc.py",
                        "old_string": "a - b",
                        "new_string": "a + b",
                    },
                },
                9.25,
            ),
        ],
        {
            "input_tokens": 6,
            "cache_creation_input_tokens": 310,
            "cache_read_input_tokens": 16200,
            "output_tokens": 1234,
        },
    )
    run.result("toolu_02", "The file calc.py has been updated.", 9.5)
    run.reply(
        "msg_01C",
        [({"type": "text", "text": "Fixed: add() now adds."}, 11.0)],
        {
            "input_tokens": 4,
            "cache_creation_input_tokens": 120,
            "cache_read_input_tokens": 16510,
            "output_tokens": 12,
        },
    )
    return run.lines


def codex_two_turns() -> list[dict[str, Any]]:
    """``codex exec --json`` resumed for a second prompt: each ``turn.completed`` states
    the thread's running total."""
    return [
        {"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"},
        {"type": "turn.started"},
        {
            "type": "item.completed",
            "item": {"id": "item_0", "type": "agent_message", "text": "First answer."},
        },
        {
            "type": "turn.completed",
            "usage": {"input_tokens": 24763, "cached_input_tokens": 24448, "output_tokens": 122},
        },
        {"type": "turn.started"},
        {
            "type": "item.completed",
            "item": {"id": "item_1", "type": "agent_message", "text": "Second answer."},
        },
        {
            "type": "turn.completed",
            "usage": {"input_tokens": 50001, "cached_input_tokens": 49024, "output_tokens": 300},
        },
    ]


def codex_rollout() -> list[dict[str, Any]]:
    """A rollout file's lines around one model call (``~/.codex/sessions/…/rollout-….jsonl``)."""
    at = "2026-11-30T10:02:{:06.3f}Z".format
    return [
        {"timestamp": at(0.0), "type": "session_meta", "payload": {"id": "0199", "cwd": "/home/ana/calc", "originator": "codex_cli_rs", "cli_version": "0.58.0"}},
        {"timestamp": at(0.5), "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix add"}]}},
        {"timestamp": at(0.6), "type": "event_msg", "payload": {"type": "token_count", "info": None, "rate_limits": {}}},
        {"timestamp": at(3.1), "type": "response_item", "payload": {"type": "reasoning", "summary": [], "encrypted_content": "gAAAA"}},
        {"timestamp": at(3.2), "type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"pytest\"]}", "call_id": "call_1"}},
        {"timestamp": at(3.3), "type": "event_msg", "payload": {"type": "token_count", "info": {
            "total_token_usage": {"input_tokens": 9000, "cached_input_tokens": 4000, "output_tokens": 210, "reasoning_output_tokens": 128, "total_tokens": 9210},
            "last_token_usage": {"input_tokens": 9000, "cached_input_tokens": 4000, "output_tokens": 210, "reasoning_output_tokens": 128, "total_tokens": 9210},
            "model_context_window": 272000}, "rate_limits": {}}},
    ]  # fmt: skip
