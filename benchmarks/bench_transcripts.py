"""Agent-CLI transcripts: lines per second through the Claude CLI and Codex CLI adapters.

    python benchmarks/bench_transcripts.py [--lines 50000]

Builds a transcript of about ``--lines`` JSON lines for each tool — for Claude a run with
partial messages (token-sized ``stream_event`` text deltas, the ``assistant`` snapshots
that repeat them, tool calls with streamed input, typed tool results), for Codex a run of
reasoning, commands with growing output, file changes and agent messages — and processes
it three ways: as parsed dicts (auto-detected), as raw NDJSON ``str`` cut into 4 KB pieces,
and as raw ``bytes`` cut into 64 KB pieces. Prints lines per second for each.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from streamblocks import BlockRegistry, StreamBlockProcessor
from streamblocks.content import MessageAccumulator
from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter
from streamblocks.ext.codex_cli import CodexCLIInputAdapter

WORDS = ["Looking", " at", " the", " code", ",", " the", " add", "()", " is", " wrong", ".\n"]


def _stream(event: dict[str, Any]) -> dict[str, Any]:
    return {"type": "stream_event", "event": event, "session_id": "s", "parent_tool_use_id": None}


def claude_lines(count: int) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = [
        {"type": "system", "subtype": "init", "session_id": "s", "model": "m", "tools": ["Bash"]}
    ]
    turn = 0
    while len(lines) < count - 1:
        turn += 1
        msg_id = f"msg_{turn}"
        call_id = f"toolu_{turn}"
        lines.append(_stream({"type": "message_start", "message": {"id": msg_id, "content": []}}))
        block = {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}}
        lines.append(_stream(block))
        for word in WORDS * 3:
            delta = {"type": "text_delta", "text": word}
            lines.append(_stream({"type": "content_block_delta", "index": 0, "delta": delta}))
        if turn % 5 == 0:
            for piece in ("!!n", f"{turn}:note\nturn ", f"{turn}\n!!end\n"):
                delta = {"type": "text_delta", "text": piece}
                lines.append(_stream({"type": "content_block_delta", "index": 0, "delta": delta}))
        lines.append(_stream({"type": "content_block_stop", "index": 0}))
        text = "".join(WORDS * 3)
        snapshot = {"id": msg_id, "role": "assistant", "content": [{"type": "text", "text": text}]}
        lines.append({"type": "assistant", "message": snapshot, "session_id": "s"})
        tool = {"type": "tool_use", "id": call_id, "name": "Bash", "input": {}}
        lines.append(_stream({"type": "content_block_start", "index": 1, "content_block": tool}))
        for piece in ('{"comm', 'and": "py', 'test -q"}'):
            delta = {"type": "input_json_delta", "partial_json": piece}
            lines.append(_stream({"type": "content_block_delta", "index": 1, "delta": delta}))
        lines.append(_stream({"type": "content_block_stop", "index": 1}))
        delta = {"stop_reason": "tool_use"}
        lines.append(_stream({"type": "message_delta", "delta": delta, "usage": {}}))
        lines.append(_stream({"type": "message_stop"}))
        result = {"type": "tool_result", "tool_use_id": call_id, "content": "3 passed"}
        lines.append(
            {
                "type": "user",
                "message": {"role": "user", "content": [result]},
                "tool_use_result": {"stdout": "3 passed\n", "stderr": "", "interrupted": False},
            }
        )
    lines.append(
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "total_cost_usd": 1.5,
            "usage": {"input_tokens": 10, "output_tokens": 20},
        }
    )
    return lines


def codex_lines(count: int) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = [
        {"type": "thread.started", "thread_id": "t"},
        {"type": "turn.started"},
    ]
    n = 0
    while len(lines) < count - 1:
        n += 1
        reasoning = {"id": f"r{n}", "type": "reasoning", "text": "**Planning the fix**"}
        lines.append({"type": "item.completed", "item": reasoning})
        output = ""
        command = {"id": f"c{n}", "type": "command_execution", "command": "pytest -q"}
        lines.append({"type": "item.started", "item": {**command, "status": "in_progress"}})
        for _ in range(3):
            output += "....F....\n"
            item = {**command, "aggregated_output": output, "status": "in_progress"}
            lines.append({"type": "item.updated", "item": item})
        item = {**command, "aggregated_output": output, "exit_code": 1, "status": "failed"}
        lines.append({"type": "item.completed", "item": item})
        change = {"id": f"f{n}", "type": "file_change", "status": "completed"}
        change["changes"] = [{"path": "calc.py", "kind": "update"}]
        lines.append({"type": "item.completed", "item": change})
        message = {"id": f"m{n}", "type": "agent_message", "text": "".join(WORDS * 2)}
        lines.append({"type": "item.completed", "item": message})
    lines.append({"type": "turn.completed", "usage": {"input_tokens": 10, "output_tokens": 5}})
    return lines


def measure(label: str, count: int, feed: Callable[[], list[Any]]) -> None:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        events = feed()
        best = min(best, time.perf_counter() - started)
    message = MessageAccumulator().add_all(events)
    print(
        f"  {label:<28} {count / best:>12,.0f} lines/s   "
        f"({best * 1e3:7.1f} ms, {len(message.content)} content blocks)"
    )


def run(name: str, lines: list[dict[str, Any]], factory: Callable[[], Any]) -> None:
    registry = BlockRegistry()
    registry.register("note")
    text = "".join(json.dumps(line) + "\n" for line in lines)
    data = text.encode("utf-8")
    str_pieces = [text[i : i + 4096] for i in range(0, len(text), 4096)]
    byte_pieces = [data[i : i + 65536] for i in range(0, len(data), 65536)]
    auto = StreamBlockProcessor(registry)
    named = StreamBlockProcessor(registry, input_adapter=factory())
    print(f"{name}: {len(lines):,} lines, {len(data) / 1e6:.1f} MB")
    measure("parsed dicts (auto)", len(lines), lambda: list(auto.process(lines)))
    measure("raw str, 4 KB pieces", len(lines), lambda: list(named.process(str_pieces)))
    measure("raw bytes, 64 KB pieces", len(lines), lambda: list(named.process(byte_pieces)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=50_000)
    args = parser.parse_args()
    run("Claude CLI", claude_lines(args.lines), ClaudeCLIInputAdapter)
    run("Codex CLI", codex_lines(args.lines), CodexCLIInputAdapter)


if __name__ == "__main__":
    main()
