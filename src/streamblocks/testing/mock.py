"""``MockProvider``: scripted model replies played back as a provider's stream events.

For tests of code that consumes a provider stream (an agent loop, a web endpoint)::

    provider = MockProvider(["Hello!", MockReply(tool_calls=[MockToolCall("ls", {})])])
    first = list(provider.stream(messages=[...]))   # the first reply's events
    second = list(provider.stream(messages=[...]))  # the second reply's events
    assert provider.calls == 2 and provider.requests[1] == {"messages": [...]}

Each reply is played as the chosen provider's events: the SDK's own objects when the
SDK is installed (``sdk_types=None``, the default, or ``True`` to insist), plain dicts
of the wire format otherwise (``sdk_types=False``). Either way, the input adapters'
auto-detection recognises them. Nothing touches the network.
"""

from __future__ import annotations

import importlib
import json
import typing
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.events import StopReason

PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "agui")
"""The stream formats :class:`MockProvider` can play."""


class MockProviderError(Exception):
    """Raised by a mock stream for a reply scripted with ``stop_reason="error"`` on a
    provider whose stream has no error event (the SDK would raise)."""


@dataclass(frozen=True)
class MockToolCall:
    """A native tool call in a scripted reply."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    id: str | None = None


@dataclass(frozen=True)
class MockReply:
    """One scripted model reply.

    ``stop_reason`` defaults to ``tool_use`` when there are tool calls, ``end_turn``
    otherwise. ``stop_reason="error"`` ends the stream with the provider's error event
    (``error_message``), or raises :class:`MockProviderError` where the provider has
    none. ``raise_error`` is raised by the stream after the reply's events (a dropped
    connection, an SDK exception).
    """

    text: str = ""
    thinking: str = ""
    tool_calls: Sequence[MockToolCall] = ()
    stop_reason: StopReason | str | None = None
    usage: tuple[int, int] | None = (10, 20)
    error_message: str = "mock provider error"
    raise_error: BaseException | None = None


def _stop(reply: MockReply) -> StopReason:
    if reply.stop_reason is not None:
        return StopReason(reply.stop_reason)
    return StopReason.tool_use if reply.tool_calls else StopReason.end_turn


class MockProvider:
    """Plays scripted replies as provider stream events, one reply per call.

    ``replies``: :class:`MockReply`, a ``str`` (a text reply) or an exception (raised
    when the stream is opened). ``provider``: one of :data:`PROVIDERS`. ``chunk_size``:
    characters per text/thinking/argument event, or a function splitting a string into
    pieces. ``model``: the model name put in the events. After the last reply, further
    calls raise ``IndexError`` unless ``repeat=True`` (the last reply again).
    """

    def __init__(
        self,
        replies: Sequence[MockReply | str | BaseException],
        *,
        provider: str = "openai",
        chunk_size: int | Callable[[str], Sequence[str]] = 4,
        sdk_types: bool | None = None,
        model: str = "mock-model",
        repeat: bool = False,
    ) -> None:
        if provider not in PROVIDERS:
            raise ValueError(f"provider must be one of {PROVIDERS}, got {provider!r}")
        if isinstance(chunk_size, int) and chunk_size < 1:
            raise ValueError("chunk_size must be at least 1")
        self.replies = list(replies)
        self.provider = provider
        self.chunk_size = chunk_size
        self.model = model
        self.repeat = repeat
        self.requests: list[dict[str, Any]] = []
        """The keyword arguments of each call, in order."""
        self._sdk = _sdk_builder(provider, sdk_types)

    @property
    def calls(self) -> int:
        """How many streams were opened."""
        return len(self.requests)

    @property
    def sdk_types(self) -> bool:
        """Whether events are the SDK's objects (else wire-format dicts)."""
        return self._sdk is not None

    # -- playing ---------------------------------------------------------------------

    def events(self, reply: MockReply | str) -> list[Any]:
        """The events of one reply (without recording a call)."""
        scripted = MockReply(text=reply) if isinstance(reply, str) else reply
        wire = _BUILDERS[self.provider](self, scripted)
        if self._sdk is None:
            return wire
        if self._raises_errors:
            # The SDK raises on the provider's error event instead of yielding it.
            wire = [item for item in wire if item.get("type") != "error"]
        return [self._sdk(item) for item in wire]

    @property
    def _raises_errors(self) -> bool:
        return self.provider in ("openai", "gemini") or (
            self.provider == "anthropic" and self._sdk is not None
        )

    def _next(self, request: dict[str, Any]) -> tuple[list[Any], MockReply]:
        index = len(self.requests)
        self.requests.append(request)
        if index >= len(self.replies):
            if not (self.repeat and self.replies):
                raise IndexError(f"MockProvider has {len(self.replies)} replies; call {index + 1}")
            index = len(self.replies) - 1
        reply = self.replies[index]
        if isinstance(reply, BaseException):
            raise reply
        scripted = MockReply(text=reply) if isinstance(reply, str) else reply
        return self.events(scripted), scripted

    def stream(self, **request: Any) -> Iterator[Any]:
        """Open the next reply's stream (records ``request``)."""
        events, reply = self._next(request)
        return self._play(events, reply)

    def astream(self, **request: Any) -> AsyncIterator[Any]:
        """Open the next reply's stream as an async iterator (records ``request``)."""
        events, reply = self._next(request)
        return self._aplay(events, reply)

    def _play(self, events: list[Any], reply: MockReply) -> Iterator[Any]:
        yield from events
        self._raise_after(reply)

    async def _aplay(self, events: list[Any], reply: MockReply) -> AsyncIterator[Any]:
        for event in events:
            yield event
        self._raise_after(reply)

    def _raise_after(self, reply: MockReply) -> None:
        if reply.raise_error is not None:
            raise reply.raise_error
        if _stop(reply) is StopReason.error and self._raises_errors:
            raise MockProviderError(reply.error_message)

    def pieces(self, text: str) -> list[str]:
        """``text`` cut as the stream will cut it."""
        if not text:
            return []
        size = self.chunk_size
        if callable(size):
            return [piece for piece in size(text) if piece]
        return [text[i : i + size] for i in range(0, len(text), size)]

    def dump(self, reply: MockReply | str) -> str:
        """One reply as NDJSON (wire format): a recording for ``streamblocks extract``."""
        scripted = MockReply(text=reply) if isinstance(reply, str) else reply
        wire = _BUILDERS[self.provider](self, scripted)
        return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in wire)


def _call_id(index: int, call: MockToolCall, prefix: str) -> str:
    return call.id or f"{prefix}_{index + 1}"


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


def _openai(mock: MockProvider, reply: MockReply) -> list[dict[str, Any]]:
    base = {"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 0}
    base["model"] = mock.model

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {**base, "choices": [choice]}

    out = [chunk({"role": "assistant", "content": ""})]
    out += [chunk({"reasoning_content": piece}) for piece in mock.pieces(reply.thinking)]
    out += [chunk({"content": piece}) for piece in mock.pieces(reply.text)]
    for index, call in enumerate(reply.tool_calls):
        opener = {
            "index": index,
            "id": _call_id(index, call, "call"),
            "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }
        out.append(chunk({"tool_calls": [opener]}))
        for piece in mock.pieces(json.dumps(dict(call.arguments))):
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


def _responses(mock: MockProvider, reply: MockReply) -> list[dict[str, Any]]:
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
        for piece in mock.pieces(reply.text):
            out.append(
                {
                    "type": "response.output_text.delta",
                    "item_id": "msg_mock",
                    "output_index": index,
                    "content_index": 0,
                    "delta": piece,
                    "logprobs": [],
                }
            )
        content = [{"type": "output_text", "text": reply.text, "annotations": []}]
        done = {**item, "content": content, "status": "completed"}
        out.append({"type": "response.output_item.done", "output_index": index, "item": done})
        items.append(done)
        index += 1
    for number, call in enumerate(reply.tool_calls):
        item_id = f"fc_mock_{number + 1}"
        arguments = json.dumps(dict(call.arguments))
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


def _anthropic(mock: MockProvider, reply: MockReply) -> list[dict[str, Any]]:
    prompt, completion = reply.usage if reply.usage is not None else (0, 0)
    message: dict[str, Any] = {
        "id": "msg_mock",
        "type": "message",
        "role": "assistant",
        "model": mock.model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": prompt, "output_tokens": 1},
    }
    out: list[dict[str, Any]] = [{"type": "message_start", "message": message}]
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
        signature = {"type": "signature_delta", "signature": "mock-signature"}
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
        block(start, "input_json_delta", "partial_json", json.dumps(dict(call.arguments)))
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


def _gemini(mock: MockProvider, reply: MockReply) -> list[dict[str, Any]]:
    def chunk(parts: list[dict[str, Any]], finish: str | None = None) -> dict[str, Any]:
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        if finish is not None:
            candidate["finishReason"] = finish
        return {"candidates": [candidate], "modelVersion": mock.model}

    out = [chunk([{"text": piece, "thought": True}]) for piece in mock.pieces(reply.thinking)]
    out += [chunk([{"text": piece}]) for piece in mock.pieces(reply.text)]
    for number, call in enumerate(reply.tool_calls):
        function = {"name": call.name, "args": dict(call.arguments)}
        function["id"] = _call_id(number, call, "call")
        out.append(chunk([{"functionCall": function}]))
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


def _agui(mock: MockProvider, reply: MockReply) -> list[dict[str, Any]]:
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
            for piece in mock.pieces(json.dumps(dict(call.arguments)))
        ]
        out.append({"type": "TOOL_CALL_END", "toolCallId": call_id})
    if _stop(reply) is StopReason.error:
        out.append({"type": "RUN_ERROR", "message": reply.error_message})
    else:
        out.append({"type": "RUN_FINISHED", **run})
    return out


_BUILDERS: dict[str, Callable[[MockProvider, MockReply], list[dict[str, Any]]]] = {
    "openai": _openai,
    "openai-responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "agui": _agui,
}


# -- SDK types -----------------------------------------------------------------------


def _sdk_builder(provider: str, wanted: bool | None) -> Callable[[dict[str, Any]], Any] | None:
    if wanted is False:
        return None
    try:
        build = _SDK_LOADERS[provider]()
    except ImportError:
        if wanted:
            raise ImportError(
                f"MockProvider(sdk_types=True) for {provider!r} needs the provider's SDK: "
                f"pip install '.[{provider.split('-')[0]}]' in the streamblocks checkout"
            ) from None
        return None
    return build


def _openai_sdk() -> Callable[[dict[str, Any]], Any]:
    chunk = importlib.import_module("openai.types.chat").ChatCompletionChunk
    return chunk.model_validate  # type: ignore[no-any-return]


def _type_adapter(module: str, name: str) -> Callable[[dict[str, Any]], Any]:
    """A builder choosing the member of the SDK's event union by its ``type`` literal."""
    union = getattr(importlib.import_module(module), name)
    by_type: dict[str, Any] = {}
    for member in typing.get_args(typing.get_args(union)[0] if _annotated(union) else union):
        annotation = member.model_fields["type"].annotation
        for literal in typing.get_args(annotation):
            by_type[getattr(literal, "value", literal)] = member

    def build(item: dict[str, Any]) -> Any:
        return by_type[item["type"]].model_validate(item)

    return build


def _annotated(union: Any) -> bool:
    return typing.get_origin(union) is typing.Annotated


def _responses_sdk() -> Callable[[dict[str, Any]], Any]:
    return _type_adapter("openai.types.responses", "ResponseStreamEvent")


def _anthropic_sdk() -> Callable[[dict[str, Any]], Any]:
    return _type_adapter("anthropic.types", "RawMessageStreamEvent")


def _gemini_sdk() -> Callable[[dict[str, Any]], Any]:
    response = importlib.import_module("google.genai.types").GenerateContentResponse
    return response.model_validate  # type: ignore[no-any-return]


def _agui_sdk() -> Callable[[dict[str, Any]], Any]:
    return _type_adapter("ag_ui.core", "Event")


_SDK_LOADERS: dict[str, Callable[[], Callable[[dict[str, Any]], Any]]] = {
    "openai": _openai_sdk,
    "openai-responses": _responses_sdk,
    "anthropic": _anthropic_sdk,
    "gemini": _gemini_sdk,
    "agui": _agui_sdk,
}

__all__ = [
    "PROVIDERS",
    "MockProvider",
    "MockProviderError",
    "MockReply",
    "MockToolCall",
]
