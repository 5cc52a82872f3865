"""A Claude Code run that delegates, two levels deep, written from the ``stream-json``
format: the main agent calls ``Task``; the sub-agent's lines carry that call's id in
``parent_tool_use_id``, read a file and call ``Task`` itself; the inner sub-agent's lines
name the inner call. Each ``Task`` result comes back to its caller as a ``tool_result``.

:func:`claude_subagent_partial_run` is the same run with ``--include-partial-messages``:
each message streamed as Anthropic stream events (with the sender's
``parent_tool_use_id``) before its snapshot.
"""

from __future__ import annotations

import json
from typing import Any

from .transcripts import READ_CONTENT, SESSION, _result, _system
from .transcripts import _assistant as _main_assistant

TASK_1 = "toolu_task_1"
TASK_2 = "toolu_task_2"

MAIN_TEXT = ["I'll delegate the search.\n", "Done: the sub-agent found it.\n"]
SUB_TEXT = ["SUBAGENT reading calc.py\n", "SUBAGENT found: add() subtracts\n"]
NESTED_TEXT = ["NESTED running the tests\n", "NESTED: 1 failed\n"]
SUB_THINKING = "The bug must be in calc.py."


def _line(kind: str, message: dict[str, Any], parent: str | None, **extra: Any) -> dict[str, Any]:
    return {
        "type": kind,
        "message": message,
        "parent_tool_use_id": parent,
        "session_id": SESSION,
        **extra,
    }


def _assistant(
    msg_id: str, content: list[dict[str, Any]], parent: str | None, stop: str | None = None
) -> dict[str, Any]:
    """The main transcript's assistant line, said by the sub-agent of ``parent``."""
    return {**_main_assistant(msg_id, content, stop), "parent_tool_use_id": parent}


def _prompt(text: str, parent: str) -> dict[str, Any]:
    """The prompt a sub-agent starts from, echoed as its first user message."""
    return _line("user", {"role": "user", "content": [{"type": "text", "text": text}]}, parent)


def _result_line(call_id: str, content: Any, parent: str | None, payload: Any) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": call_id, "content": content}
    return _line("user", {"role": "user", "content": [block]}, parent, tool_use_result=payload)


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _call(call_id: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}


def _task(call_id: str, prompt: str) -> dict[str, Any]:
    return _call(
        call_id,
        "Task",
        {"description": prompt[:20], "prompt": prompt, "subagent_type": "general-purpose"},
    )


def _task_result(text: str) -> dict[str, Any]:
    return {
        "status": "completed",
        "prompt": "...",
        "content": [_text(text)],
        "totalDurationMs": 5120,
        "totalTokens": 900,
        "totalToolUseCount": 2,
    }


def claude_subagent_run() -> list[dict[str, Any]]:
    """The run, without partial messages."""
    return [
        _system(),
        _assistant("msg_m1", [_text(MAIN_TEXT[0])], None),
        _assistant("msg_m1", [_task(TASK_1, "Find the bug in calc.py")], None, "tool_use"),
        _prompt("Find the bug in calc.py", TASK_1),
        _assistant(
            "msg_s1",
            [
                {"type": "thinking", "thinking": SUB_THINKING, "signature": "sig_s1"},
                _text(SUB_TEXT[0]),
                _call("toolu_s_read", "Read", {"file_path": "/repo/calc.py"}),
            ],
            TASK_1,
            "tool_use",
        ),
        _result_line(
            "toolu_s_read",
            "     1\tdef add(a, b):\n     2\t    return a - b\n",
            TASK_1,
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
        _assistant("msg_s2", [_task(TASK_2, "Run the tests")], TASK_1, "tool_use"),
        _prompt("Run the tests", TASK_2),
        _assistant(
            "msg_n1",
            [_text(NESTED_TEXT[0]), _call("toolu_n_bash", "Bash", {"command": "pytest -q"})],
            TASK_2,
            "tool_use",
        ),
        _result_line(
            "toolu_n_bash",
            "1 failed",
            TASK_2,
            {"stdout": "1 failed\n", "stderr": "", "interrupted": False, "isImage": False},
        ),
        _assistant("msg_n2", [_text(NESTED_TEXT[1])], TASK_2, "end_turn"),
        _result_line(TASK_2, [_text(NESTED_TEXT[1])], TASK_1, _task_result(NESTED_TEXT[1])),
        _assistant("msg_s3", [_text(SUB_TEXT[1])], TASK_1, "end_turn"),
        _result_line(TASK_1, [_text(SUB_TEXT[1])], None, _task_result(SUB_TEXT[1])),
        _assistant("msg_m2", [_text(MAIN_TEXT[1])], None, "end_turn"),
        _result(num_turns=2, result=MAIN_TEXT[1]),
    ]


def _stream(event: dict[str, Any], parent: str | None) -> dict[str, Any]:
    return {
        "type": "stream_event",
        "event": event,
        "session_id": SESSION,
        "parent_tool_use_id": parent,
        "uuid": "0e2a9a5e-0000-4000-8000-000000000001",
    }


def _streamed_block(index: int, block: dict[str, Any], parent: str | None) -> list[dict[str, Any]]:
    """One content block as its start, deltas (cut in pieces of 6) and stop."""
    kind = block["type"]
    if kind == "text":
        start, field, delta, body = (
            {"type": "text", "text": ""},
            "text",
            "text_delta",
            block["text"],
        )
    elif kind == "thinking":
        start = {"type": "thinking", "thinking": "", "signature": ""}
        field, delta, body = "thinking", "thinking_delta", block["thinking"]
    else:
        start = {**block, "input": {}}
        field, delta, body = "partial_json", "input_json_delta", json.dumps(block["input"])
    events = [{"type": "content_block_start", "index": index, "content_block": start}]
    events += [
        {"type": "content_block_delta", "index": index, "delta": {"type": delta, field: piece}}
        for piece in (body[i : i + 6] for i in range(0, len(body), 6))
    ]
    if kind == "thinking":
        signature = {"type": "signature_delta", "signature": block["signature"]}
        events.append({"type": "content_block_delta", "index": index, "delta": signature})
    events.append({"type": "content_block_stop", "index": index})
    return [_stream(e, parent) for e in events]


def claude_subagent_partial_run() -> list[dict[str, Any]]:
    """The same run with ``--include-partial-messages``: each assistant message first as
    stream events, then its snapshot lines (one per content block, as Claude Code
    writes them)."""
    out: list[dict[str, Any]] = []
    lines = claude_subagent_run()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line["type"] != "assistant":
            out.append(line)
            i += 1
            continue
        message, parent = line["message"], line["parent_tool_use_id"]
        group = [line]
        while i + len(group) < len(lines):
            following = lines[i + len(group)]
            if following["type"] != "assistant" or following["message"]["id"] != message["id"]:
                break
            group.append(following)
        start = {**message, "content": [], "stop_reason": None}
        out.append(_stream({"type": "message_start", "message": start}, parent))
        index = 0
        stop = None
        for snapshot in group:
            for block in snapshot["message"]["content"]:
                out += _streamed_block(index, block, parent)
                index += 1
            out.append(snapshot)
            stop = snapshot["message"]["stop_reason"] or stop
        delta = {"stop_reason": stop, "stop_sequence": None}
        out.append(
            _stream(
                {"type": "message_delta", "delta": delta, "usage": {"output_tokens": 9}}, parent
            )
        )
        out.append(_stream({"type": "message_stop"}, parent))
        i += len(group)
    return out
