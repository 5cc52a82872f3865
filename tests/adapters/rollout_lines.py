"""A Codex session file (``~/.codex/sessions/…/rollout-….jsonl``), written from the format
Codex records: a ``session_meta`` line, ``turn_context``, the Responses API items
(``response_item``) and the UI's events (``event_msg``), each with its timestamp.

Two turns: the first is interrupted while its command runs, the second reads the code,
fixes it with ``apply_patch``, updates the plan, asks an MCP tool and the web, and answers
with a ``note`` block in its text.
"""

from __future__ import annotations

import json
from typing import Any

SESSION = "0199a3c2-5e1f-7c30-9b2e-6d4f8a1b2c3d"
ROLLOUT_REPLY = (
    "Running the slow suite first.\nFixed `add()`.\n!!n1:note\nran the tests\n!!end\nAll green ✓\n"
)
PATCH = (
    "*** Begin Patch\n*** Update File: calc.py\n@@ def add(a, b):\n-    return a - b\n"
    "+    return a + b\n*** Add File: NOTES.md\n+# Notes\n+add() fixed\n"
    "*** Delete File: old.txt\n*** End Patch\n"
)
PATCH_DIFF = (
    "--- a/calc.py\n+++ b/calc.py\n@@ def add(a, b):\n-    return a - b\n+    return a + b\n"
)
CALLS = [
    (8120, 3072, 94, 64),
    (8400, 7936, 120, 64),
    (8700, 8320, 260, 128),
    (9100, 8576, 60, 0),
    (9200, 8960, 40, 0),
    (9500, 9088, 70, 32),
    (9700, 9344, 45, 0),
]
"""Each model call's (input, cached input, output, reasoning) tokens, in order."""


def _at(second: float) -> str:
    return f"2026-11-30T10:02:{second:06.3f}Z"


def _line(second: float, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": _at(second), "type": kind, "payload": payload}


def _item(second: float, payload: dict[str, Any]) -> dict[str, Any]:
    return _line(second, "response_item", payload)


def _event(second: float, payload: dict[str, Any]) -> dict[str, Any]:
    return _line(second, "event_msg", payload)


def _said(role: str, text: str) -> dict[str, Any]:
    part = "input_text" if role == "user" else "output_text"
    return {"type": "message", "role": role, "content": [{"type": part, "text": text}]}


def _call(name: str, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function_call",
        "name": name,
        "arguments": json.dumps(arguments),
        "call_id": call_id,
    }


def _output(call_id: str, output: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def _usage(*counts: int) -> dict[str, int]:
    names = ("input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens")
    usage = dict(zip(names, counts, strict=True))
    return {**usage, "total_tokens": usage["input_tokens"] + usage["output_tokens"]}


def total(calls: int = len(CALLS)) -> dict[str, int]:
    """The session's running total after its first ``calls`` model calls."""
    return _usage(*(sum(column) for column in zip(*CALLS[:calls], strict=True)))


def _tokens(second: float, call: int) -> dict[str, Any]:
    """The ``token_count`` event after the model call ``call`` (from 1)."""
    info = {
        "total_token_usage": total(call),
        "last_token_usage": _usage(*CALLS[call - 1]),
        "model_context_window": 272000,
    }
    return _event(second, {"type": "token_count", "info": info, "rate_limits": {"primary": None}})


def codex_rollout_run() -> list[dict[str, Any]]:
    """The lines of the session file."""
    environment = "<environment_context>\n  <cwd>/home/ana/calc</cwd>\n</environment_context>"
    exit_1 = json.dumps(
        {"output": "..F\n1 failed\n", "metadata": {"exit_code": 1, "duration_seconds": 0.8}}
    )
    applied = "Success. Updated the following files:\nM calc.py\nA NOTES.md\nD old.txt\n"
    patched = json.dumps({"output": applied, "metadata": {"exit_code": 0, "duration_seconds": 0.0}})
    return [
        _line(
            0.0,
            "session_meta",
            {
                "id": SESSION,
                "timestamp": _at(0.0),
                "cwd": "/home/ana/calc",
                "originator": "codex_cli_rs",
                "cli_version": "0.58.0",
                "source": "cli",
                "model_provider": "openai",
            },
        ),
        _item(0.1, _said("user", environment)),
        _line(
            0.2,
            "turn_context",
            {
                "cwd": "/home/ana/calc",
                "approval_policy": "on-request",
                "sandbox_policy": {"type": "workspace-write"},
                "model": "gpt-5-codex",
                "effort": "medium",
                "summary": "auto",
            },
        ),
        _item(0.3, _said("user", "run the slow suite")),
        _event(0.3, {"type": "user_message", "message": "run the slow suite", "images": []}),
        _event(0.4, {"type": "token_count", "info": None, "rate_limits": {"primary": None}}),
        _item(1.9, _said("assistant", "Running the slow suite first.")),
        _event(1.9, {"type": "agent_message", "message": "Running the slow suite first."}),
        _item(
            2.0,
            _call(
                "shell",
                "call_slow",
                {
                    "command": ["bash", "-lc", "pytest -m slow"],
                    "workdir": "/home/ana/calc",
                    "timeout_ms": 600000,
                },
            ),
        ),
        _tokens(2.1, 1),
        _event(9.5, {"type": "turn_aborted", "reason": "interrupted"}),
        _item(10.0, _said("user", "just fix add")),
        _event(10.0, {"type": "user_message", "message": "just fix add", "images": []}),
        _item(
            12.0,
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "**Finding the bug**"}],
                "content": None,
                "encrypted_content": "gAAAAABpQ2xv",
            },
        ),
        _event(12.0, {"type": "agent_reasoning", "text": "**Finding the bug**"}),
        _item(
            12.1,
            _call(
                "shell",
                "call_1",
                {"command": ["bash", "-lc", "pytest -q"], "workdir": "/home/ana/calc"},
            ),
        ),
        _tokens(12.2, 2),
        _item(13.0, _output("call_1", exit_1)),
        _item(
            14.2,
            {
                "type": "reasoning",
                "summary": [],
                "content": None,
                "encrypted_content": "gAAAAABpQ3Jk",
            },
        ),
        _item(
            14.3,
            {
                "type": "custom_tool_call",
                "status": "completed",
                "call_id": "call_2",
                "name": "apply_patch",
                "input": PATCH,
            },
        ),
        _tokens(14.3, 3),
        _item(14.4, {"type": "custom_tool_call_output", "call_id": "call_2", "output": patched}),
        _item(
            15.0,
            _call(
                "update_plan",
                "call_3",
                {
                    "plan": [
                        {"step": "Fix add()", "status": "completed"},
                        {"step": "Run tests", "status": "in_progress"},
                    ]
                },
            ),
        ),
        _tokens(15.0, 4),
        _item(15.0, _output("call_3", "Plan updated")),
        _item(15.5, _call("github__search_issues", "call_4", {"query": "add bug"})),
        _tokens(15.5, 5),
        _item(16.1, _output("call_4", "#12 add() subtracts")),
        _item(
            16.5,
            {
                "type": "web_search_call",
                "status": "completed",
                "action": {"type": "search", "query": "python add"},
            },
        ),
        _item(
            17.0,
            _call("shell_command", "call_5", {"command": "pytest -q", "workdir": "/home/ana/calc"}),
        ),
        _tokens(17.1, 6),
        _item(
            17.9,
            _output("call_5", "Exit code: 0\nWall time: 0.7 seconds\nOutput:\n...\n3 passed\n"),
        ),
        _item(19.0, _said("assistant", ROLLOUT_REPLY.split("\n", 1)[1])),
        _event(19.0, {"type": "agent_message", "message": ROLLOUT_REPLY.split("\n", 1)[1]}),
        _tokens(19.1, 7),
    ]
