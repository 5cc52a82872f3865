# ruff: noqa: E501  (records as the tools write them, one a line)
"""Tokens and time per turn read from the run's own records (streamblocks.runs.usage)."""

from __future__ import annotations

import json
from typing import Any

from adapters.subagent_transcripts import claude_subagent_run
from adapters.transcripts import claude_partial_run, claude_tool_run
from streamblocks import BlockEnd, BlockRegistry, StreamBlockProcessor, TextDelta
from streamblocks.runs.usage import Meter, TurnUsage, metered
from usage_runs import claude_session, codex_rollout, codex_two_turns


def _events(lines: list[dict[str, Any]]) -> list[Any]:
    processor = StreamBlockProcessor(BlockRegistry())
    return list(metered(processor.process, iter(lines)))


def _turns(lines: list[Any]) -> list[TurnUsage]:
    meter = Meter()
    out: list[TurnUsage] = []
    for line in lines:
        before, after = meter.read(line)
        out += [*before, *after]
    return out + meter.close()


def test_a_claude_session_file_gives_each_message_its_tokens_and_the_models_time() -> None:
    turns = _turns(claude_session())
    assert [t.output_tokens for t in turns] == [96, 1234, 12]
    assert turns[0] == TurnUsage(
        input_tokens=3, output_tokens=96, cache_read_tokens=12000, cache_write_tokens=4200,
        duration_ms=2500.0,
    )  # fmt: skip
    # from the line before the message (the prompt, the tool result) to its last line
    assert [t.duration_ms for t in turns] == [2500.0, 4250.0, 1500.0]


def test_each_turns_usage_follows_its_rows_and_comes_before_the_next_turns() -> None:
    events = _events(claude_session())
    kinds = [
        "usage" if type(e) is TurnUsage else
        e.block.type if type(e) is BlockEnd else "text" if type(e) is TextDelta else None
        for e in events
    ]  # fmt: skip
    shown = [kind for kind in kinds if kind is not None]
    assert shown[:5] == ["thinking", "text", "tool_call", "usage", "tool_result"]
    assert shown.count("usage") == 3 and shown[-1] == "usage"
    assert type(events[-1]).__name__ == "StreamFinished"  # the last turn's usage before it


def test_a_message_read_again_from_its_lines_is_counted_once() -> None:
    turns = _turns(claude_tool_run())  # stream-json: three lines of msg_1, no timestamps
    assert len(turns) == len(
        {line["message"]["id"] for line in claude_tool_run() if line["type"] == "assistant"}
    )
    assert all(turn.duration_ms is None for turn in turns)


def test_a_message_whose_lines_come_apart_is_counted_once() -> None:
    # two sub-agents working at once: their messages' lines interleave
    lines = [
        line
        for line in claude_session()
        if line["type"] == "assistant" and line["message"]["id"] in ("msg_01A", "msg_01B")
    ]
    a, b = (
        [line for line in lines if line["message"]["id"] == "msg_01A"],
        [line for line in lines if line["message"]["id"] == "msg_01B"],
    )
    mixed = [a[0], b[0], a[1], b[1], a[2]]
    assert [turn.output_tokens for turn in _turns(mixed)] == [96, 1234]


def test_partial_messages_are_metered_from_their_stream_events_once() -> None:
    lines = claude_partial_run()
    deltas = [
        line["event"]["usage"]["output_tokens"]
        for line in lines
        if line["type"] == "stream_event" and line["event"]["type"] == "message_delta"
    ]
    turns = _turns(lines)
    assert [turn.output_tokens for turn in turns] == deltas  # not again from the snapshots


def test_a_sub_agents_turns_name_the_call_that_started_it() -> None:
    turns = _turns(claude_subagent_run())
    parents = {turn.parent_id for turn in turns}
    assert None in parents and len(parents - {None}) >= 1
    task_ids = {
        block["id"]
        for line in claude_subagent_run()
        if line["type"] == "assistant"
        for block in line["message"]["content"]
        if block.get("name") == "Task"
    }
    assert parents - {None} <= task_ids


def test_codex_exec_turns_are_what_each_running_total_added() -> None:
    turns = _turns(codex_two_turns())
    assert turns == [
        TurnUsage(input_tokens=24763, output_tokens=122, cache_read_tokens=24448),
        TurnUsage(input_tokens=25238, output_tokens=178, cache_read_tokens=24576),
    ]


def test_codex_turns_that_report_themselves_alone_are_taken_as_they_are() -> None:
    lines = codex_two_turns()
    lines[-1]["usage"] = dict(lines[3]["usage"])  # the same counts again: not a running total
    assert [turn.input_tokens for turn in _turns(lines)] == [24763, 24763]
    lines[-1]["usage"] = {"input_tokens": 900, "cached_input_tokens": 0, "output_tokens": 40}
    assert [turn.input_tokens for turn in _turns(lines)] == [24763, 900]


def test_a_codex_rollouts_token_counts_with_the_time_since_the_model_was_asked() -> None:
    (turn,) = _turns(codex_rollout())  # the token_count without info says nothing
    assert turn == TurnUsage(
        input_tokens=9000, output_tokens=210, cache_read_tokens=4000, reasoning_tokens=128,
        duration_ms=2700.0,  # from the line before the reasoning (0.6 s) to the count (3.3 s)
    )  # fmt: skip


def test_provider_streams_usage_events() -> None:
    chat = [
        {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": None}], "usage": None},
        {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": None},
        {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1", "choices": [], "usage": {"prompt_tokens": 19, "completion_tokens": 10, "total_tokens": 29, "prompt_tokens_details": {"cached_tokens": 0}, "completion_tokens_details": {"reasoning_tokens": 0}}},
    ]  # fmt: skip
    assert _turns(chat) == [TurnUsage(19, 10, 0, None, 0)]
    responses = [
        {"type": "response.created", "sequence_number": 0, "response": {"id": "resp_1", "created_at": 1764490000, "usage": None}},
        {"type": "response.output_text.delta", "sequence_number": 1, "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "Hi"},
        {"type": "response.completed", "sequence_number": 2, "response": {"id": "resp_1", "created_at": 1764490000, "completed_at": 1764490003, "usage": {"input_tokens": 36, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 87, "output_tokens_details": {"reasoning_tokens": 64}, "total_tokens": 123}}},
    ]  # fmt: skip
    assert _turns(responses) == [TurnUsage(36, 87, 0, None, 64, 3000)]
    anthropic = [
        {"type": "message_start", "message": {"id": "msg_9", "type": "message", "role": "assistant", "content": [], "usage": {"input_tokens": 25, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 2048, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hello"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 15}},
        {"type": "message_stop"},
    ]  # fmt: skip
    assert _turns(anthropic) == [TurnUsage(25, 15, 2048, 0)]
    gemini = [
        {"candidates": [{"content": {"parts": [{"text": "Hel"}], "role": "model"}}], "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8}},
        {"candidates": [{"content": {"parts": [{"text": "lo"}], "role": "model"}, "finishReason": "STOP"}], "usageMetadata": {"promptTokenCount": 8, "candidatesTokenCount": 2, "thoughtsTokenCount": 30, "totalTokenCount": 40}},
    ]  # fmt: skip
    assert _turns(gemini) == [TurnUsage(8, 32, None, None, 30)]
    ollama = [
        {"model": "qwen3:8b", "created_at": "2026-11-30T10:00:00Z", "message": {"role": "assistant", "content": "Hi"}, "done": False},
        {"model": "qwen3:8b", "created_at": "2026-11-30T10:00:01Z", "message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop", "total_duration": 1234567890, "prompt_eval_count": 12, "eval_count": 40},
    ]  # fmt: skip
    assert _turns(ollama) == [TurnUsage(12, 40, duration_ms=1234.6)]


def test_a_run_that_records_no_usage_says_none() -> None:
    assert (
        _turns(["plain text", {"type": "unknown"}, {"usage": "not a mapping", "choices": []}]) == []
    )
    events = _events([{"type": "thread.started", "thread_id": "t"}, {"type": "turn.completed"}])
    assert not any(type(event) is TurnUsage for event in events)


def test_usage_is_json() -> None:
    (turn, *_) = _turns(claude_session())
    assert json.loads(json.dumps(turn.said())) == {
        "input_tokens": 3, "output_tokens": 96, "cache_read_tokens": 12000,
        "cache_write_tokens": 4200, "duration_ms": 2500.0,
    }  # fmt: skip


def test_odd_records_say_nothing_and_never_raise() -> None:
    odd: list[Any] = [
        {"type": ["assistant"], "message": {"usage": {"output_tokens": 1}}},
        {"type": "assistant", "message": "not a mapping", "timestamp": 10**400},
        {"type": "assistant", "message": {"id": "m", "usage": [1, 2]}, "timestamp": "yesterday"},
        {
            "type": "stream_event",
            "event": {"type": "message_delta", "usage": {"output_tokens": "9"}},
        },
        {"type": "turn.completed", "usage": {"input_tokens": True, "output_tokens": None}},
        {"type": "event_msg", "payload": {"type": "token_count", "info": {"last_token_usage": 7}}},
        {"type": "response.completed", "response": None},
        {"candidates": "none", "usageMetadata": {"promptTokenCount": "8"}},
        {"done": True, "eval_count": "many", "total_duration": -1},
    ]
    assert _turns(odd) == []  # (a duration below zero, from clocks run backwards, neither)
