"""OpenAI Agents SDK input adapter: the events of ``Runner.run_streamed()``."""

from __future__ import annotations

from typing import Any

from ...adapters.protocols import EventCategory, Native, NativeDelta, NativeEnd, NativeStart
from ...core.events import Usage
from .._base import PASSTHROUGH, ProviderAdapter, Step, field, tool_call_start
from .._usage import add_usage
from ..openai import OpenAIInputAdapter
from .types import EVENT_TYPES, RAW, RESULT_ITEMS, RUN_ITEM

_BOUNDARIES = (EventCategory.STREAM_START, EventCategory.STREAM_END)


def _text_of(message: Any) -> str:
    """The output text of a Responses ``message`` item."""
    out = []
    for part in field(message, "content") or ():
        text = field(part, "text")
        if field(part, "type") == "output_text" and isinstance(text, str):
            out.append(text)
    return "".join(out)


def _summary_of(reasoning: Any) -> str:
    parts = [field(p, "text") for p in field(reasoning, "summary") or ()]
    return "\n\n".join(p for p in parts if isinstance(p, str))


class OpenAIAgentsInputAdapter(ProviderAdapter):
    """Reads ``Runner.run_streamed(agent, ...).stream_events()`` of the OpenAI Agents SDK.

    - ``raw_response_event``: the model's Responses API events, read by
      :class:`~streamblocks.ext.openai.OpenAIInputAdapter` — text, reasoning as
      ``thinking`` blocks, function calls (handoffs included) as ``tool_call`` blocks. A
      run makes one model call per turn: each call's ``response.completed`` adds its usage
      to the run's, and the last one's stop reason is the run's.
    - ``run_item_stream_event``: ``tool_output`` and ``handoff_occured`` are
      ``tool_result`` blocks (``tool_call_id``, the tool's ``name``; a handoff's attrs name
      the agents). ``tool_called``, ``reasoning_item_created`` and
      ``message_output_created`` repeat what the raw events streamed and pass through —
      unless their item was never streamed (a stream filtered to run items), then they
      become the ``tool_call`` / ``thinking`` block or the text themselves.
    - ``agent_updated_stream_event`` and everything else pass through.
    """

    _inner: OpenAIInputAdapter
    _streamed: set[Any]
    _names: dict[str, Any]
    _usage: Usage | None
    _count: int

    def _reset(self) -> None:
        self._inner = OpenAIInputAdapter()
        self._streamed = set()
        self._names = {}
        self._usage = None
        self._count = 0

    def matches(self, event: Any) -> bool:
        try:
            kind = field(event, "type")
            return isinstance(kind, str) and kind in EVENT_TYPES
        except Exception:
            return False

    def _analyze(self, event: Any) -> Step:
        kind = field(event, "type")
        if kind == RAW:
            return self._raw(field(event, "data"))
        if kind == RUN_ITEM:
            return self._item(field(event, "name"), field(event, "item"))
        return PASSTHROUGH

    def _raw(self, data: Any) -> Step:
        inner = self._inner
        if field(data, "type") in ("response.output_item.added", "response.output_item.done"):
            item = field(data, "item")
            self._streamed.add(field(item, "id"))
            self._remember(item)
        category = inner.categorize(data)
        usage = inner.usage(data)
        if usage is not None and category is EventCategory.STREAM_END:
            self._usage = add_usage(self._usage, usage)  # one model call of the run
            usage = self._usage
        if category in _BOUNDARIES:
            category = EventCategory.SKIP  # a model call starts or ends, not the run
        return Step(
            category,
            inner.extract_text(data),
            inner.native_events(data),
            inner.stop_reason(data),
            usage,
        )

    def _remember(self, item: Any) -> None:
        call_id = field(item, "call_id")
        if isinstance(call_id, str) and field(item, "name") is not None:
            self._names[call_id] = field(item, "name")

    def _item(self, name: Any, item: Any) -> Step:
        raw = field(item, "raw_item")
        if name in RESULT_ITEMS:
            return self._result(name, item, raw)
        if raw is None or field(raw, "id") in self._streamed:
            return PASSTHROUGH  # already read from the raw events
        self._remember(raw)
        if name == "message_output_created":
            text = _text_of(raw)
            return Step(EventCategory.TEXT_CONTENT, text) if text else PASSTHROUGH
        self._count += 1
        key = ("item", self._count)
        natives: list[Native]
        if name == "reasoning_item_created":
            natives = [
                NativeStart(key, "thinking"),
                NativeDelta(key, _summary_of(raw)),
                NativeEnd(key),
            ]
        elif name in ("tool_called", "handoff_requested") and field(raw, "type") == "function_call":
            args = field(raw, "arguments")
            natives = [tool_call_start(key, field(raw, "call_id"), field(raw, "name"))]
            if isinstance(args, str):
                natives.append(NativeDelta(key, args))
            natives.append(NativeEnd(key))
        else:
            return PASSTHROUGH
        return Step(EventCategory.PASSTHROUGH, natives=natives)

    def _result(self, name: Any, item: Any, raw: Any) -> Step:
        call_id = field(raw, "call_id")
        if not isinstance(call_id, str):
            return PASSTHROUGH
        self._count += 1
        key = ("item", self._count)
        attrs: dict[str, Any] = {
            "tool_call_id": call_id,
            "name": self._names.get(call_id),
            "is_error": False,
        }
        output = field(item, "output")
        if name != "tool_output":  # a handoff: the output names the new agent
            attrs["handoff"] = {
                "from": field(field(item, "source_agent"), "name"),
                "to": field(field(item, "target_agent"), "name"),
            }
            output = field(raw, "output")
        content = output if output is not None else field(raw, "output")
        return Step(
            EventCategory.PASSTHROUGH,
            natives=(
                NativeStart(key, "tool_result", None, attrs),
                NativeEnd(key, content if content is not None else ""),
            ),
        )
