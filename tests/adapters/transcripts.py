"""Agent-CLI transcripts written from the tools' documented line formats.

Claude Code: ``claude -p --output-format stream-json --verbose`` (``system``/``init``,
``assistant`` and ``user`` messages, ``stream_event`` wrappers of Anthropic stream events
with ``--include-partial-messages``, ``result``). Codex: ``codex exec --json``
(``thread.started``, ``turn.*``, ``item.*`` with their item types).
"""

from __future__ import annotations

import json
from typing import Any

SESSION = "5c1d8e4a-2f7b-4c4e-9a59-0d6f7e1b2a33"

# The reply text the model writes, block marker included: the text syntaxes still run.
INTRO = "Let me look at the code.\n!!n1:note\nremember the tests\n!!end\n"
OUTRO = "Done: the bug is fixed ✓ — café 👩\u200d💻\n"

READ_CONTENT = "def add(a, b):\n    return a - b\n\n\nprint(add(1, 2))\n"
EDIT_PATCH = [
    {
        "oldStart": 1,
        "oldLines": 2,
        "newStart": 1,
        "newLines": 2,
        "lines": [" def add(a, b):", "-    return a - b", "+    return a + b"],
    }
]
TODOS = [
    {"content": "Read calc.py", "status": "completed", "activeForm": "Reading calc.py"},
    {"content": "Fix add()", "status": "in_progress", "activeForm": "Fixing add()"},
]


def jsonl(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def _system() -> dict[str, Any]:
    return {
        "type": "system",
        "subtype": "init",
        "cwd": "/repo",
        "session_id": SESSION,
        "tools": ["Bash", "Read", "Edit", "Write", "TodoWrite"],
        "mcp_servers": [],
        "model": "claude-sonnet-4-5",
        "permissionMode": "acceptEdits",
        "apiKeySource": "none",
    }


def _assistant(
    msg_id: str, content: list[dict[str, Any]], stop: str | None = None
) -> dict[str, Any]:
    return {
        "type": "assistant",
        "message": {
            "id": msg_id,
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": content,
            "stop_reason": stop,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        },
        "parent_tool_use_id": None,
        "session_id": SESSION,
    }


def _tool_use(call_id: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}


def _user_result(
    call_id: str, content: Any, payload: Any, *, is_error: bool = False
) -> dict[str, Any]:
    line: dict[str, Any] = {
        "type": "user",
        "message": {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": call_id,
                    "content": content,
                    "is_error": is_error,
                }
            ],
        },
        "parent_tool_use_id": None,
        "session_id": SESSION,
    }
    if payload is not None:
        line["tool_use_result"] = payload
    return line


def _result(**extra: Any) -> dict[str, Any]:
    line = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "duration_ms": 12045,
        "duration_api_ms": 11002,
        "num_turns": 6,
        "result": "Done: the bug is fixed",
        "session_id": SESSION,
        "total_cost_usd": 0.0421,
        "usage": {
            "input_tokens": 120,
            "cache_creation_input_tokens": 300,
            "cache_read_input_tokens": 4000,
            "output_tokens": 240,
        },
        "permission_denials": [],
    }
    line.update(extra)
    return line


def claude_tool_run() -> list[dict[str, Any]]:
    """A whole run without partial messages: every tool whose result becomes a typed block."""
    return [
        _system(),
        _assistant(
            "msg_1",
            [{"type": "thinking", "thinking": "The add() looks wrong.", "signature": "sig1"}],
        ),
        _assistant("msg_1", [{"type": "text", "text": INTRO}]),
        _assistant(
            "msg_1", [_tool_use("toolu_read", "Read", {"file_path": "/repo/calc.py"})], "tool_use"
        ),
        _user_result(
            "toolu_read",
            "     1\tdef add(a, b):\n     2\t    return a - b\n",
            {
                "type": "text",
                "file": {
                    "filePath": "/repo/calc.py",
                    "content": READ_CONTENT,
                    "numLines": 5,
                    "startLine": 1,
                    "totalLines": 5,
                },
            },
        ),
        _assistant(
            "msg_2", [_tool_use("toolu_bash", "Bash", {"command": "pytest -q"})], "tool_use"
        ),
        _user_result(
            "toolu_bash",
            "1 failed",
            {
                "stdout": "1 failed\n",
                "stderr": "warning: slow\n",
                "interrupted": False,
                "isImage": False,
            },
            is_error=True,
        ),
        _assistant(
            "msg_3",
            [
                _tool_use(
                    "toolu_edit",
                    "Edit",
                    {"file_path": "/repo/calc.py", "old_string": "a - b", "new_string": "a + b"},
                )
            ],
            "tool_use",
        ),
        _user_result(
            "toolu_edit",
            "The file /repo/calc.py has been updated.",
            {
                "filePath": "/repo/calc.py",
                "oldString": "a - b",
                "newString": "a + b",
                "originalFile": READ_CONTENT,
                "structuredPatch": EDIT_PATCH,
                "userModified": False,
                "replaceAll": False,
            },
        ),
        _assistant(
            "msg_4",
            [
                _tool_use(
                    "toolu_write", "Write", {"file_path": "/repo/NOTES.md", "content": "# Notes\n"}
                )
            ],
            "tool_use",
        ),
        _user_result(
            "toolu_write",
            [{"type": "text", "text": "File created successfully at: /repo/NOTES.md"}],
            {
                "type": "create",
                "filePath": "/repo/NOTES.md",
                "content": "# Notes\n",
                "structuredPatch": [],
            },
        ),
        _assistant("msg_5", [_tool_use("toolu_todo", "TodoWrite", {"todos": TODOS})], "tool_use"),
        _user_result(
            "toolu_todo",
            "Todos have been modified successfully.",
            {"oldTodos": [], "newTodos": TODOS},
        ),
        _assistant("msg_6", [{"type": "text", "text": OUTRO}], "end_turn"),
        _result(),
    ]


def _stream(event: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "stream_event",
        "event": event,
        "session_id": SESSION,
        "parent_tool_use_id": None,
        "uuid": "0e2a9a5e-0000-4000-8000-000000000000",
    }


def _message_start(msg_id: str) -> dict[str, Any]:
    return _stream(
        {
            "type": "message_start",
            "message": {
                "id": msg_id,
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [],
                "stop_reason": None,
                "usage": {"input_tokens": 10, "output_tokens": 1},
            },
        }
    )


def _text_pieces(index: int, text: str, size: int = 7) -> list[dict[str, Any]]:
    return [
        _stream(
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "text_delta", "text": text[i : i + size]},
            }
        )
        for i in range(0, len(text), size)
    ]


def claude_partial_run() -> list[dict[str, Any]]:
    """``--include-partial-messages``: stream events, then the same content as snapshots."""
    args = '{"command": "pytest -q"}'
    return [
        _system(),
        _message_start("msg_a"),
        _stream(
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "thinking", "thinking": "", "signature": ""},
            }
        ),
        _stream(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": "The add() "},
            }
        ),
        _stream(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": "looks wrong."},
            }
        ),
        _stream(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "signature_delta", "signature": "sig1"},
            }
        ),
        _stream({"type": "content_block_stop", "index": 0}),
        _assistant(
            "msg_a",
            [{"type": "thinking", "thinking": "The add() looks wrong.", "signature": "sig1"}],
        ),
        _stream(
            {
                "type": "content_block_start",
                "index": 1,
                "content_block": {"type": "text", "text": ""},
            }
        ),
        *_text_pieces(1, INTRO),
        _stream({"type": "content_block_stop", "index": 1}),
        _assistant("msg_a", [{"type": "text", "text": INTRO}]),
        _stream(
            {
                "type": "content_block_start",
                "index": 2,
                "content_block": {
                    "type": "tool_use",
                    "id": "toolu_bash",
                    "name": "Bash",
                    "input": {},
                },
            }
        ),
        *(
            _stream(
                {
                    "type": "content_block_delta",
                    "index": 2,
                    "delta": {"type": "input_json_delta", "partial_json": args[i : i + 5]},
                }
            )
            for i in range(0, len(args), 5)
        ),
        _stream({"type": "content_block_stop", "index": 2}),
        _assistant("msg_a", [_tool_use("toolu_bash", "Bash", {"command": "pytest -q"})]),
        _stream(
            {
                "type": "message_delta",
                "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                "usage": {"output_tokens": 42},
            }
        ),
        _stream({"type": "message_stop"}),
        _user_result(
            "toolu_bash",
            "3 passed",
            {"stdout": "3 passed\n", "stderr": "", "interrupted": False, "isImage": False},
        ),
        _message_start("msg_b"),
        _stream(
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            }
        ),
        *_text_pieces(0, OUTRO, 3),
        _stream({"type": "content_block_stop", "index": 0}),
        _assistant("msg_b", [{"type": "text", "text": OUTRO}]),
        _stream(
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 12},
            }
        ),
        _stream({"type": "message_stop"}),
        _result(num_turns=2),
    ]


def claude_error_run() -> list[dict[str, Any]]:
    return [
        _system(),
        _assistant("msg_1", [{"type": "text", "text": "Working on it.\n"}]),
        _result(
            subtype="error_during_execution",
            is_error=True,
            result="API Error: 529 overloaded",
            total_cost_usd=0.001,
        ),
    ]


# ---------------------------------------------------------------------- Codex

THREAD = "0199a213-81c0-7800-8aa1-bbab2a035a53"
CODEX_REPLY = "Fixed `add()`.\n!!n1:note\nran the tests\n!!end\nAll green ✓\n"
CODEX_DIFF = (
    "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n"
    " def add(a, b):\n-    return a - b\n+    return a + b\n"
)


def _item(kind: str, item: dict[str, Any]) -> dict[str, Any]:
    return {"type": kind, "item": item}


def codex_run() -> list[dict[str, Any]]:
    """Every item type, current field names (``type``, ``agent_message``)."""
    todo = {"id": "item_3", "type": "todo_list"}
    return [
        {"type": "thread.started", "thread_id": THREAD},
        {"type": "turn.started"},
        _item(
            "item.completed", {"id": "item_0", "type": "reasoning", "text": "**Finding the bug**"}
        ),
        _item(
            "item.started",
            {
                "id": "item_1",
                "type": "command_execution",
                "command": "bash -lc 'pytest -q'",
                "aggregated_output": "",
                "exit_code": None,
                "status": "in_progress",
            },
        ),
        _item(
            "item.updated",
            {
                "id": "item_1",
                "type": "command_execution",
                "command": "bash -lc 'pytest -q'",
                "aggregated_output": "..F\n",
                "exit_code": None,
                "status": "in_progress",
            },
        ),
        _item(
            "item.completed",
            {
                "id": "item_1",
                "type": "command_execution",
                "command": "bash -lc 'pytest -q'",
                "aggregated_output": "..F\n1 failed\n",
                "exit_code": 1,
                "status": "failed",
            },
        ),
        _item(
            "item.started",
            {
                **todo,
                "items": [
                    {"text": "Fix add()", "completed": False},
                    {"text": "Run tests", "completed": False},
                ],
            },
        ),
        _item(
            "item.completed",
            {
                "id": "item_2",
                "type": "file_change",
                "changes": [
                    {"path": "calc.py", "kind": "update", "diff": CODEX_DIFF},
                    {"path": "NOTES.md", "kind": "add"},
                    {"path": "old.txt", "kind": "delete"},
                ],
                "status": "completed",
            },
        ),
        _item(
            "item.updated",
            {
                **todo,
                "items": [
                    {"text": "Fix add()", "completed": True},
                    {"text": "Run tests", "completed": False},
                ],
            },
        ),
        _item(
            "item.started",
            {
                "id": "item_4",
                "type": "mcp_tool_call",
                "server": "github",
                "tool": "search_issues",
                "arguments": {"query": "add bug"},
                "status": "in_progress",
            },
        ),
        _item(
            "item.completed",
            {
                "id": "item_4",
                "type": "mcp_tool_call",
                "server": "github",
                "tool": "search_issues",
                "arguments": {"query": "add bug"},
                "result": {"content": [{"type": "text", "text": "#12 add() subtracts"}]},
                "status": "completed",
            },
        ),
        _item("item.started", {"id": "item_5", "type": "web_search", "query": "python add"}),
        _item("item.completed", {"id": "item_5", "type": "web_search", "query": "python add"}),
        _item(
            "item.completed",
            {"id": "item_6", "type": "error", "message": "stream hiccup, retrying"},
        ),
        _item("item.updated", {"id": "item_7", "type": "agent_message", "text": CODEX_REPLY[:20]}),
        _item("item.completed", {"id": "item_7", "type": "agent_message", "text": CODEX_REPLY}),
        _item(
            "item.completed",
            {
                **todo,
                "items": [
                    {"text": "Fix add()", "completed": True},
                    {"text": "Run tests", "completed": True},
                ],
            },
        ),
        {
            "type": "turn.completed",
            "usage": {"input_tokens": 1200, "cached_input_tokens": 200, "output_tokens": 345},
        },
    ]


def codex_legacy_run() -> list[dict[str, Any]]:
    """The older names: ``item_type``, ``assistant_message``."""
    return [
        {"type": "thread.started", "thread_id": THREAD},
        {"type": "turn.started"},
        _item("item.completed", {"id": "item_0", "item_type": "reasoning", "text": "thinking"}),
        _item(
            "item.completed",
            {
                "id": "item_1",
                "item_type": "command_execution",
                "command": "ls",
                "aggregated_output": "a\nb\n",
                "exit_code": 0,
                "status": "completed",
            },
        ),
        _item(
            "item.completed", {"id": "item_2", "item_type": "assistant_message", "text": "hello"}
        ),
        {
            "type": "turn.completed",
            "usage": {"input_tokens": 5, "cached_input_tokens": 0, "output_tokens": 2},
        },
    ]
