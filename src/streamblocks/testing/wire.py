"""Each provider's stream events for a scripted reply, as wire-format dicts (what the
provider's SSE ``data:`` lines hold); the SDK builds its objects from them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..core.events import StopReason
from .replies import MockReply
from .replies import call_id as _call_id
from .replies import stop_of as _stop


class Player(Protocol):
    """What a builder needs of the provider: the model name and the text cutter."""

    model: str

    def pieces(self, text: str) -> list[str]: ...


# -- OpenAI Chat Completions ---------------------------------------------------------

_CHAT_FINISH = {
    StopReason.end_turn: "stop",
    StopReason.stop_sequence: "stop",
    StopReason.tool_use: "tool_calls",
    StopReason.max_tokens: "length",
    StopReason.content_filter: "content_filter",
    StopReason.refusal: "stop",
    StopReason.unknown: "stop",
}


def _openai(mock: Player, reply: MockReply) -> list[dict[str, Any]]:
    base = {"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 0}
    base["model"] = mock.model

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {**base, "choices": [choice]}

    out = [chunk({"role": "assistant", "content": ""})]
    out += [chunk({"reasoning_content": piece}) for piece in mock.pieces(reply.thinking)]
    key = "refusal" if _stop(reply) is StopReason.refusal else "content"
    out += [chunk({key: piece}) for piece in mock.pieces(reply.text)]
    for index, call in enumerate(reply.tool_calls):
        opener = {
            "index": index,
            "id": _call_id(index, call, "call"),
            "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }
        out.append(chunk({"tool_calls": [opener]}))
        for piece in mock.pieces(call.json()):
            piece_call = {"index": index, "function": {"arguments": piece}}
            out.append(chunk({"tool_calls": [piece_call]}))
    stop = _stop(reply)
    if stop is not StopReason.error:
        out.append(chunk({}, _CHAT_FINISH[stop]))
        if reply.usage is not None:
            prompt, completion = reply.usage
            usage = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }
            out.append({**base, "choices": [], "usage": usage})
    return out


# -- OpenAI Responses ----------------------------------------------------------------

_INCOMPLETE = {
    StopReason.max_tokens: "max_output_tokens",
    StopReason.content_filter: "content_filter",
}


def _responses(mock: Player, reply: MockReply) -> list[dict[str, Any]]:
    response = {
        "id": "resp_mock",
        "object": "response",
        "created_at": 0,
        "model": mock.model,
        "output": [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "status": "in_progress",
    }
    out: list[dict[str, Any]] = [{"type": "response.created", "response": response}]
    items: list[dict[str, Any]] = []
    index = 0
    if reply.thinking:
        item = {"type": "reasoning", "id": "rs_mock", "summary": [], "status": "in_progress"}
        out.append({"type": "response.output_item.added", "output_index": index, "item": item})
        for piece in mock.pieces(reply.thinking):
            out.append(
                {
                    "type": "response.reasoning_summary_text.delta",
                    "item_id": "rs_mock",
                    "output_index": index,
                    "summary_index": 0,
                    "delta": piece,
                }
            )
        done = {**item, "summary": [{"type": "summary_text", "text": reply.thinking}]}
        out.append({"type": "response.output_item.done", "output_index": index, "item": done})
        items.append(done)
        index += 1
    if reply.text:
        item = {
            "type": "message",
            "id": "msg_mock",
            "role": "assistant",
            "content": [],
            "status": "in_progress",
        }
        out.append({"type": "response.output_item.added", "output_index": index, "item": item})
        refused = _stop(reply) is StopReason.refusal
        for piece in mock.pieces(reply.text):
            delta = {
                "type": "response.refusal.delta" if refused else "response.output_text.delta",
                "item_id": "msg_mock",
                "output_index": index,
                "content_index": 0,
                "delta": piece,
            }
            out.append(delta if refused else {**delta, "logprobs": []})
        content: list[dict[str, Any]] = [
            {"type": "refusal", "refusal": reply.text}
            if refused
            else {"type": "output_text", "text": reply.text, "annotations": []}
        ]
        done = {**item, "content": content, "status": "completed"}
        out.append({"type": "response.output_item.done", "output_index": index, "item": done})
        items.append(done)
        index += 1
    for number, call in enumerate(reply.tool_calls):
        item_id = f"fc_mock_{number + 1}"
        arguments = call.json()
        item = {
            "type": "function_call",
            "id": item_id,
            "call_id": _call_id(number, call, "call"),
            "name": call.name,
            "arguments": "",
            "status": "in_progress",
        }
        out.append({"type": "response.output_item.added", "output_index": index, "item": item})
        for piece in mock.pieces(arguments):
            out.append(
                {
                    "type": "response.function_call_arguments.delta",
                    "item_id": item_id,
                    "output_index": index,
                    "delta": piece,
                }
            )
        done = {**item, "arguments": arguments, "status": "completed"}
        out.append({"type": "response.output_item.done", "output_index": index, "item": done})
        items.append(done)
        index += 1
    stop = _stop(reply)
    if stop is StopReason.error:
        out.append({"type": "error", "message": reply.error_message, "code": None, "param": None})
        return _numbered(out)
    final: dict[str, Any] = {**response, "output": items}
    if reply.usage is not None:
        prompt, completion = reply.usage
        final["usage"] = {
            "input_tokens": prompt,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens": completion,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": prompt + completion,
        }
    if stop in _INCOMPLETE:
        final["status"] = "incomplete"
        final["incomplete_details"] = {"reason": _INCOMPLETE[stop]}
        out.append({"type": "response.incomplete", "response": final})
    else:
        final["status"] = "completed"
        out.append({"type": "response.completed", "response": final})
    return _numbered(out)


def _numbered(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for number, event in enumerate(events):
        event["sequence_number"] = number
    return events


# -- Anthropic -----------------------------------------------------------------------

_ANTHROPIC_STOP = {
    StopReason.end_turn: "end_turn",
    StopReason.stop_sequence: "stop_sequence",
    StopReason.tool_use: "tool_use",
    StopReason.max_tokens: "max_tokens",
    StopReason.refusal: "refusal",
    StopReason.content_filter: "refusal",
    StopReason.unknown: "pause_turn",
}


def anthropic_message_start(
    model: str, usage: dict[str, Any], message_id: str = "msg_1"
) -> dict[str, Any]:
    """Anthropic's ``message_start`` event (wire format): a reply of ``model`` begins,
    with the ``usage`` known at its start (the adapters' tests and benchmarks share it)."""
    message: dict[str, Any] = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    return {"type": "message_start", "message": message}


def _anthropic(mock: Player, reply: MockReply) -> list[dict[str, Any]]:
    prompt, completion = reply.usage if reply.usage is not None else (0, 0)
    usage = {"input_tokens": prompt, "output_tokens": 1}
    out: list[dict[str, Any]] = [anthropic_message_start(mock.model, usage, "msg_mock")]
    index = 0

    def block(start: dict[str, Any], kind: str, key: str, text: str) -> None:
        out.append({"type": "content_block_start", "index": index, "content_block": start})
        for piece in mock.pieces(text):
            delta = {"type": kind, key: piece}
            out.append({"type": "content_block_delta", "index": index, "delta": delta})

    start: dict[str, Any]
    if reply.thinking:
        start = {"type": "thinking", "thinking": "", "signature": ""}
        block(start, "thinking_delta", "thinking", reply.thinking)
        signature = {"type": "signature_delta", "signature": reply.signature}
        out.append({"type": "content_block_delta", "index": index, "delta": signature})
        out.append({"type": "content_block_stop", "index": index})
        index += 1
    if reply.text:
        block({"type": "text", "text": ""}, "text_delta", "text", reply.text)
        out.append({"type": "content_block_stop", "index": index})
        index += 1
    for number, call in enumerate(reply.tool_calls):
        start = {
            "type": "tool_use",
            "id": _call_id(number, call, "toolu_mock"),
            "name": call.name,
            "input": {},
        }
        block(start, "input_json_delta", "partial_json", call.json())
        out.append({"type": "content_block_stop", "index": index})
        index += 1
    stop = _stop(reply)
    if stop is StopReason.error:
        error = {"type": "api_error", "message": reply.error_message}
        out.append({"type": "error", "error": error})
        return out
    delta = {"stop_reason": _ANTHROPIC_STOP[stop], "stop_sequence": None}
    out.append({"type": "message_delta", "delta": delta, "usage": {"output_tokens": completion}})
    out.append({"type": "message_stop"})
    return out


# -- Gemini --------------------------------------------------------------------------

_GEMINI_FINISH = {
    StopReason.end_turn: "STOP",
    StopReason.stop_sequence: "STOP",
    StopReason.tool_use: "STOP",
    StopReason.max_tokens: "MAX_TOKENS",
    StopReason.content_filter: "SAFETY",
    StopReason.refusal: "SAFETY",
    StopReason.unknown: "OTHER",
}


def _gemini(mock: Player, reply: MockReply) -> list[dict[str, Any]]:
    def chunk(parts: list[dict[str, Any]], finish: str | None = None) -> dict[str, Any]:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        if finish is not None:
            candidate["finishReason"] = finish
        return {"candidates": [candidate], "modelVersion": mock.model}

    out = [chunk([{"text": piece, "thought": True}]) for piece in mock.pieces(reply.thinking)]
    if out:  # the signature comes with the last thought part
        out[-1]["candidates"][0]["content"]["parts"][0]["thoughtSignature"] = reply.signature
    out += [chunk([{"text": piece}]) for piece in mock.pieces(reply.text)]
    for number, call in enumerate(reply.tool_calls):
        function = {"name": call.name, "args": call.object()}
        function["id"] = _call_id(number, call, "call")
        part: dict[str, Any] = {"functionCall": function}
        if number == 0:  # Gemini signs the first call of a step
            part["thoughtSignature"] = reply.signature
        out.append(chunk([part]))
    stop = _stop(reply)
    if stop is StopReason.error:
        return out
    last = chunk([{"text": ""}], _GEMINI_FINISH[stop])
    if reply.usage is not None:
        prompt, completion = reply.usage
        last["usageMetadata"] = {
            "promptTokenCount": prompt,
            "candidatesTokenCount": completion,
            "totalTokenCount": prompt + completion,
        }
    out.append(last)
    return out


# -- AG-UI ---------------------------------------------------------------------------


def _agui(mock: Player, reply: MockReply) -> list[dict[str, Any]]:
    run = {"threadId": "thread-mock", "runId": "run-mock"}
    out: list[dict[str, Any]] = [{"type": "RUN_STARTED", **run}]
    if reply.thinking:
        ids = {"messageId": "reasoning-mock"}
        out.append({"type": "REASONING_MESSAGE_START", **ids, "role": "reasoning"})
        out += [
            {"type": "REASONING_MESSAGE_CONTENT", **ids, "delta": piece}
            for piece in mock.pieces(reply.thinking)
        ]
        out.append({"type": "REASONING_MESSAGE_END", **ids})
    if reply.text:
        ids = {"messageId": "msg-mock"}
        out.append({"type": "TEXT_MESSAGE_START", **ids, "role": "assistant"})
        out += [
            {"type": "TEXT_MESSAGE_CONTENT", **ids, "delta": piece}
            for piece in mock.pieces(reply.text)
        ]
        out.append({"type": "TEXT_MESSAGE_END", **ids})
    for number, call in enumerate(reply.tool_calls):
        call_id = _call_id(number, call, "call")
        out.append(
            {
                "type": "TOOL_CALL_START",
                "toolCallId": call_id,
                "toolCallName": call.name,
                "parentMessageId": "msg-mock",
            }
        )
        out += [
            {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": piece}
            for piece in mock.pieces(call.json())
        ]
        out.append({"type": "TOOL_CALL_END", "toolCallId": call_id})
    if _stop(reply) is StopReason.error:
        out.append({"type": "RUN_ERROR", "message": reply.error_message})
    else:
        out.append({"type": "RUN_FINISHED", **run})
    return out


BUILDERS: dict[str, Callable[[Player, MockReply], list[dict[str, Any]]]] = {
    "openai": _openai,
    "openai-responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "agui": _agui,
}
