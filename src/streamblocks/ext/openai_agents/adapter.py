"""OpenAI Agents SDK input adapter: the events of ``Runner.run_streamed()``."""

from __future__ import annotations

from typing import Any

from ...adapters.protocols import EventCategory, Native, NativeDelta, NativeEnd, NativeStart
from ...core.events import Usage
from .._base import PASSTHROUGH, SKIP, ProviderAdapter, Step, field, tool_call_start
from .._jsonl import is_mapping
from .._subagents import Nesting, parent_of
from .._usage import add_usage
from ..openai import OpenAIInputAdapter
from .types import EVENT_TYPES, RAW, RESULT_ITEMS, RUN_ITEM

_BOUNDARIES = (EventCategory.STREAM_START, EventCategory.STREAM_END)
_TEXT_ENDS = frozenset({"response.output_item.done", "response.completed"})


def _is_nested(event: Any) -> bool:
    """An ``AgentToolStreamEvent``: what ``Agent.as_tool(on_stream=...)`` hands over."""
    return is_mapping(event) and "event" in event and "agent" in event and "tool_call" in event


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
    - An ``AgentToolStreamEvent`` (the dict ``Agent.as_tool(on_stream=...)`` passes its
      callback: ``event``, ``agent``, ``tool_call``), fed into the same stream, is a
      sub-agent's: its event is read as above, by a reader of its own, and gives
      ``text``, ``thinking``, ``tool_call`` and ``tool_result`` blocks whose
      ``attrs["parent_id"]`` is the ``call_id`` of the call that ran the agent — never
      the run's text, stop reason or usage. A handoff is not a sub-agent: the agent
      handed to takes the run over, and its reply is the run's.
    """

    _inner: OpenAIInputAdapter
    _streamed: set[Any]
    _names: dict[str, Any]
    _usage: Usage | None
    _count: int
    _subs: dict[str, OpenAIAgentsInputAdapter]
    _nesting: Nesting

    def _reset(self) -> None:
        self._subs = {}  # call id -> the reader of the agent that call runs
        self._nesting = Nesting()
        self._inner = OpenAIInputAdapter()
        self._streamed = set()
        self._names = {}
        self._usage = None
        self._count = 0

    def matches(self, event: Any) -> bool:
        try:
            kind = field(event, "type")
            return (isinstance(kind, str) and kind in EVENT_TYPES) or _is_nested(event)
        except Exception:
            return False

    def _analyze(self, event: Any) -> Step:
        kind = field(event, "type")
        if kind == RAW:
            return self._raw(field(event, "data"))
        if kind == RUN_ITEM:
            return self._item(field(event, "name"), field(event, "item"))
        if _is_nested(event):
            return self._nested(event)
        return PASSTHROUGH

    def _nested(self, payload: Any) -> Step:
        """An event of an agent run as a tool, under the call that runs it."""
        parent = parent_of(field(payload["tool_call"], "call_id"))
        inner = payload["event"]
        if parent is None:
            return PASSTHROUGH  # no call to put it under: kept whole
        reader = self._subs.get(parent)
        if reader is None:
            reader = self._subs[parent] = OpenAIAgentsInputAdapter()
        step = reader._step(inner)
        nesting = self._nesting
        natives = nesting.pieces(parent, step.natives)
        if natives:  # a thinking block or a call comes after the text
            natives = [*nesting.end_text(parent, "text"), *natives]
        if field(inner, "type") == RUN_ITEM and field(inner, "name") in RESULT_ITEMS:
            ran = parent_of(field(field(field(inner, "item"), "raw_item"), "call_id"))
            if ran is not None:  # the agent this sub-agent's call ran (one level down) is done
                natives = [*nesting.close(ran), *natives]
        if step.category is EventCategory.TEXT_CONTENT and step.text:
            natives += nesting.text(parent, "text", step.text)
        if field(inner, "type") == RAW and field(field(inner, "data"), "type") in _TEXT_ENDS:
            natives += nesting.end_text(parent, "text")
        if step.category is EventCategory.PASSTHROUGH:
            return Step(EventCategory.PASSTHROUGH, natives=natives)
        return Step(EventCategory.SKIP, natives=natives) if natives else SKIP

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
                *self._nesting.close(call_id),  # an agent run by this call has finished
                NativeStart(key, "tool_result", None, attrs),
                NativeEnd(key, content if content is not None else ""),
            ),
        )
