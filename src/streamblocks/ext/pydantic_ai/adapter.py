"""pydantic-ai input adapter: the events of an agent run."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from ...adapters.protocols import EventCategory, Native, NativeDelta, NativeEnd, NativeStart
from ...core.events import StopReason, Usage
from .._base import PASSTHROUGH, SKIP, ProviderAdapter, Step, as_int, field, tool_call_start
from .types import EVENT_KINDS, FINISH_REASONS, RESULT_EVENTS, TOOL_CALL_PARTS


def _usage(run: Any) -> Usage | None:
    raw = field(run, "usage")
    if callable(raw) and field(raw, "input_tokens") is None:  # a method before pydantic-ai 2.6x
        raw = raw()
    if raw is None:
        return None
    inp, out = as_int(field(raw, "input_tokens")), as_int(field(raw, "output_tokens"))
    details = field(raw, "details") or {}
    return Usage(
        input_tokens=inp,
        output_tokens=out,
        total_tokens=(inp or 0) + (out or 0) if inp is not None or out is not None else None,
        cache_read_tokens=as_int(field(raw, "cache_read_tokens")) or None,
        cache_write_tokens=as_int(field(raw, "cache_write_tokens")) or None,
        reasoning_tokens=as_int(details.get("reasoning_tokens")) if details else None,
    )


def _final_stop(run: Any) -> StopReason:
    try:
        response = field(run, "response")  # the run's last ModelResponse
    except Exception:  # a run without one
        response = None
    reason = field(response, "finish_reason") if response is not None else None
    return FINISH_REASONS.get(str(reason), StopReason.end_turn)


class PydanticAIInputAdapter(ProviderAdapter):
    """Reads ``agent.run_stream_events()`` and the event streams of ``agent.iter()`` nodes
    (``node.stream(ctx)``), for any model.

    - ``PartStartEvent``/``PartDeltaEvent`` of a ``TextPart`` are text; of a
      ``ThinkingPart`` a ``thinking`` block (its signature in ``attrs``); of a
      ``ToolCallPart`` a ``tool_call`` block (argument JSON assembled from its deltas, or
      the argument dict), a built-in tool call (run by the provider) with
      ``attrs["server"]``. ``PartEndEvent`` closes the part's block.
    - ``FunctionToolResultEvent`` is a ``tool_result`` block (``tool_call_id``, ``name``,
      ``is_error`` when the tool failed, was denied or asked for a retry).
      ``FunctionToolCallEvent`` repeats the call already streamed as a part and passes
      through, as do ``FinalResultEvent`` and everything else.
    - ``AgentRunResultEvent`` (the last event of ``run_stream_events()``) passes through
      and gives the run's usage and stop reason: ``end_turn`` unless the last response
      finished on ``length``, ``content_filter`` or ``error``.
    """

    _open: dict[Hashable, str]
    _signature: dict[Hashable, str]
    _dict_args: dict[Hashable, dict[str, Any]]
    _results: int

    def _reset(self) -> None:
        self._open = {}
        self._signature = {}
        self._dict_args = {}
        self._results = 0

    def matches(self, event: Any) -> bool:
        try:
            kind = field(event, "event_kind")
            if not isinstance(kind, str):
                return False
            if type(event).__module__.startswith("pydantic_ai"):
                return True
            return isinstance(event, Mapping) and kind in EVENT_KINDS
        except Exception:
            return False

    def _analyze(self, event: Any) -> Step:
        kind = field(event, "event_kind")
        if kind == "part_delta":
            return self._delta(("part", field(event, "index")), field(event, "delta"))
        if kind == "part_start":
            return self._start(("part", field(event, "index")), field(event, "part"))
        if kind == "part_end":
            key = ("part", field(event, "index"))
            natives = [self._end(key)] if key in self._open else []
            return Step(EventCategory.SKIP, natives=natives) if natives else SKIP
        if kind in RESULT_EVENTS:
            return self._result(field(event, "result") or field(event, "part"))
        if kind == "agent_run_result":
            run = field(event, "result")
            return Step(
                EventCategory.PASSTHROUGH,
                natives=self._end_all(),
                stop=_final_stop(run),
                usage=_usage(run),
            )
        if kind in ("function_tool_call", "final_result") and self._open:
            return Step(EventCategory.PASSTHROUGH, natives=self._end_all())
        return PASSTHROUGH

    # -- parts -------------------------------------------------------------------------

    def _end(self, key: Hashable) -> Native:
        block_type = self._open.pop(key)
        if block_type == "thinking":
            signature = self._signature.pop(key, "")
            return NativeEnd(key, None, {"signature": signature} if signature else None)
        args = self._dict_args.pop(key, None)
        return NativeEnd(key, args)

    def _end_all(self) -> list[Native]:
        return [self._end(key) for key in list(self._open)]

    def _start(self, key: Hashable, part: Any) -> Step:
        natives: list[Native] = [self._end(key)] if key in self._open else []
        part_kind = field(part, "part_kind")
        content = field(part, "content")
        if part_kind == "text":
            text = content if isinstance(content, str) else ""
            return Step(EventCategory.TEXT_CONTENT if text else EventCategory.SKIP, text, natives)
        if part_kind == "thinking":
            self._open[key] = "thinking"
            natives.append(NativeStart(key, "thinking"))
            if isinstance(content, str) and content:
                natives.append(NativeDelta(key, content))
            signature = field(part, "signature")
            if isinstance(signature, str) and signature:
                self._signature[key] = signature
            return Step(EventCategory.SKIP, natives=natives)
        server = TOOL_CALL_PARTS.get(part_kind) if isinstance(part_kind, str) else None
        if server is None:
            return Step(EventCategory.PASSTHROUGH, natives=natives)  # files, tool returns
        self._open[key] = "tool_call"
        extra = {"server": True} if server else {}
        call_id, name = field(part, "tool_call_id"), field(part, "tool_name")
        natives.append(tool_call_start(key, call_id, name, **extra))
        self._args(natives, key, field(part, "args"))
        return Step(EventCategory.SKIP, natives=natives)

    def _args(self, natives: list[Native], key: Hashable, args: Any) -> None:
        if isinstance(args, str) and args:
            natives.append(NativeDelta(key, args))
        elif isinstance(args, Mapping):
            self._dict_args.setdefault(key, {}).update(args)

    def _delta(self, key: Hashable, delta: Any) -> Step:
        kind = field(delta, "part_delta_kind")
        if kind == "text":
            text = field(delta, "content_delta")
            return (
                Step(EventCategory.TEXT_CONTENT, text) if isinstance(text, str) and text else SKIP
            )
        if key not in self._open:
            return SKIP
        natives: list[Native] = []
        if kind == "thinking":
            text = field(delta, "content_delta")
            if isinstance(text, str) and text:
                natives.append(NativeDelta(key, text))
            signature = field(delta, "signature_delta")
            if isinstance(signature, str):
                self._signature[key] = self._signature.get(key, "") + signature
        elif kind == "tool_call":
            self._args(natives, key, field(delta, "args_delta"))
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP

    def _result(self, part: Any) -> Step:
        call_id = field(part, "tool_call_id")
        if part is None or not isinstance(call_id, str):
            return PASSTHROUGH
        self._results += 1
        key = ("tool_result", self._results)
        outcome = field(part, "outcome")  # recent pydantic-ai; before: a RetryPromptPart
        is_error = field(part, "part_kind") == "retry-prompt" or outcome not in (None, "success")
        attrs = {"tool_call_id": call_id, "name": field(part, "tool_name"), "is_error": is_error}
        content = field(part, "content")
        natives = [
            *self._end_all(),
            NativeStart(key, "tool_result", None, attrs),
            NativeEnd(key, content if content is not None else ""),
        ]
        return Step(EventCategory.SKIP, natives=natives)
