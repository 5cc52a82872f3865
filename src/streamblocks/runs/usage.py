"""Tokens and time per turn, where a recorded run says them.

A run's total usage ends its ``STREAM_FINISHED``; each model turn's is in the run's own
records, which the processor reads for their content only. :class:`Meter` reads the same
records (the input's parsed lines) as they go by and tells each turn's usage once the
turn has ended:

- Claude Code (``stream-json`` lines and session files): ``message.usage`` of each
  assistant message (every line of one message repeats it: the last counts), or with
  partial messages its ``message_start`` and ``message_delta`` stream events; a line whose
  ``parent_tool_use_id`` names a call is a sub-agent's turn;
- ``codex exec --json``: ``turn.completed`` (its usage is the thread's running total: a
  turn is what it added); a Codex rollout file: each ``token_count`` event's
  ``info.last_token_usage``;
- provider streams: OpenAI Chat's chunk with ``usage`` (the last), Responses'
  ``response.completed``, Anthropic's ``message_start`` / ``message_delta`` up to
  ``message_stop``, Gemini's ``usageMetadata`` (the chunk with a ``finishReason``, or the
  stream's last), Ollama's ``done`` line.

Time: when the lines carry timestamps (session files, rollouts), a turn took from the line
before its first line — the prompt or the tool results it answers — to its last line: the
model's time, not the tools'. Ollama and the Responses API state it themselves.
:func:`metered` puts each :class:`TurnUsage` into the processor's events right after the
events of the record that ended its turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from .live import timestamp

_NOTHING: tuple[()] = ()
_ANTHROPIC = frozenset(
    {"message_start", "message_delta", "message_stop", "content_block_start",
     "content_block_delta", "content_block_stop", "ping"}
)  # fmt: skip
_TOKENS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")


class TurnUsage(NamedTuple):
    """One model turn's tokens (``None``: not recorded) and, where the run's timestamps
    say it, how long it took; ``parent_id``: the call whose sub-agent made the turn."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None
    duration_ms: float | None = None
    parent_id: str | None = None

    def said(self) -> dict[str, Any]:
        """The fields recorded, as JSON-able values."""
        return {key: value for key, value in self._asdict().items() if value is not None}

    def recorded(self) -> bool:
        """Whether it says anything at all."""
        return any(value is not None for value in self[:6])


def _ms(seconds: float) -> float | None:
    """A duration in milliseconds; none when the clocks ran backwards."""
    return round(seconds * 1000, 1) if seconds >= 0 else None


def _int(value: Any) -> int | None:
    return (
        value
        if value.__class__ is int or (isinstance(value, int) and not isinstance(value, bool))
        else None
    )


def _mapping(value: Any) -> bool:
    """Whether ``value`` is a mapping (a parsed record's dict: no ABC check for those)."""
    return value.__class__ is dict or isinstance(value, Mapping)


def _get(raw: Any, *path: str) -> Any:
    for key in path:
        if not _mapping(raw):
            return None
        raw = raw.get(key)
    return raw


def _anthropic(raw: Any) -> dict[str, Any]:
    return {
        "input_tokens": _int(_get(raw, "input_tokens")),
        "output_tokens": _int(_get(raw, "output_tokens")),
        "cache_read_tokens": _int(_get(raw, "cache_read_input_tokens")),
        "cache_write_tokens": _int(_get(raw, "cache_creation_input_tokens")),
    }


def _codex(raw: Any) -> dict[str, Any]:
    return {
        "input_tokens": _int(_get(raw, "input_tokens")),
        "output_tokens": _int(_get(raw, "output_tokens")),
        "cache_read_tokens": _int(_get(raw, "cached_input_tokens")),
        "reasoning_tokens": _int(_get(raw, "reasoning_output_tokens")),
    }


def _openai(raw: Any, prompt: str, completion: str) -> dict[str, Any]:
    return {
        "input_tokens": _int(_get(raw, prompt)),
        "output_tokens": _int(_get(raw, completion)),
        "cache_read_tokens": _int(_get(raw, prompt + "_details", "cached_tokens")),
        "reasoning_tokens": _int(_get(raw, completion + "_details", "reasoning_tokens")),
    }


def _gemini(raw: Any) -> dict[str, Any]:
    def field(snake: str, camel: str) -> int | None:
        return _int(raw.get(camel, raw.get(snake)))

    candidates = field("candidates_token_count", "candidatesTokenCount")
    thoughts = field("thoughts_token_count", "thoughtsTokenCount")
    both = None if candidates is None and thoughts is None else (candidates or 0) + (thoughts or 0)
    return {
        "input_tokens": field("prompt_token_count", "promptTokenCount"),
        "output_tokens": both,
        "cache_read_tokens": field("cached_content_token_count", "cachedContentTokenCount"),
        "reasoning_tokens": thoughts,
    }


class _Turn:
    """A turn under way: its usage so far, when it started and last said something."""

    __slots__ = ("ended", "key", "parent", "started", "tokens")

    def __init__(self, key: Any, parent: Any, started: float | None) -> None:
        self.key = key
        self.parent = parent if isinstance(parent, str) and parent else None
        self.started = started
        self.ended = started
        self.tokens: dict[str, Any] = {}

    def usage(self) -> TurnUsage:
        duration_ms = None
        if self.started is not None and self.ended is not None:
            duration_ms = _ms(self.ended - self.started)
        return TurnUsage(**self.tokens, duration_ms=duration_ms, parent_id=self.parent)


class Meter:
    """Reads a run's records in order; :meth:`read` answers the turns that ended before
    the record and those it ended, :meth:`close` the turn still open at the end."""

    def __init__(self) -> None:
        self._open: _Turn | None = None  # a Claude message or Anthropic stream under way
        self._metered: set[Any] = set()  # the messages whose turn was opened once
        self._before: float | None = None  # the previous record's time
        self._codex_total: dict[str, Any] | None = None
        self._rollout_start: float | None = None  # a rollout turn's start, once it answers
        self._gemini: dict[str, Any] | None = None

    def read(self, item: Any) -> tuple[Iterable[TurnUsage], Iterable[TurnUsage]]:
        """(the turns that ended before ``item``, the turn ``item`` ended)."""
        if item.__class__ is not dict:
            return _NOTHING, _NOTHING
        kind = item.get("type")
        if kind.__class__ is not str:
            kind = None  # (a type that is not a string names no format's record)
        stamp = _stamp(item) if "timestamp" in item else None
        read = _BY_TYPE.get(kind)
        found: tuple[Any, Any]
        if read is not None:
            found = read(self, kind, item, stamp)
        elif self._open is not None:  # a record of no turn: it ends the open one
            found = self._ended(), _NOTHING
        elif kind is None:  # the formats whose records have no type
            found = _NOTHING, self._untyped(item)
        else:
            found = _NOTHING, _NOTHING  # (most records: nothing to read)
        if stamp is not None:
            self._before = stamp
        if found[1]:  # (a usage record whose every count was unreadable says nothing)
            found = found[0], tuple(usage for usage in found[1] if usage.recorded())
        return found

    def close(self) -> list[TurnUsage]:
        """The turn still open when the run ends."""
        out = [] if self._open is None else [self._open.usage()]
        self._open = None
        if self._gemini is not None:
            out.append(TurnUsage(**self._gemini))
            self._gemini = None
        return [usage for usage in out if usage.recorded()]

    def _claude_line(self, kind: str, item: dict[str, Any], stamp: float | None) -> Any:
        message = item.get("message") if kind == "assistant" else item.get("event")
        return self._claude(kind, message, item.get("parent_tool_use_id"), stamp)

    def _anthropic_line(self, kind: str, item: dict[str, Any], stamp: float | None) -> Any:
        return self._anthropic_event(item, None, stamp)

    def _codex_line(self, kind: str, item: dict[str, Any], stamp: float | None) -> Any:
        return self._ended(), self._codex_turn(item.get("usage"))

    def _rollout_line(self, kind: str, item: dict[str, Any], stamp: float | None) -> Any:
        return self._ended(), self._rollout(kind, item.get("payload"), stamp)

    def _responses_line(self, kind: str, item: dict[str, Any], stamp: float | None) -> Any:
        return self._ended(), self._responses(item.get("response"))

    def _untyped(self, item: dict[str, Any]) -> Any:
        """An OpenAI Chat chunk's, a Gemini chunk's or Ollama's last line's usage."""
        if "usage" in item and "choices" in item:  # an OpenAI Chat chunk
            usage = item.get("usage")
            if _mapping(usage):
                return (TurnUsage(**_openai(usage, "prompt_tokens", "completion_tokens")),)
        elif "usageMetadata" in item or "usage_metadata" in item:
            return self._gemini_chunk(item)
        elif item.get("done") is True and "eval_count" in item:  # Ollama's last line
            duration = _int(item.get("total_duration"))
            return (
                TurnUsage(
                    input_tokens=_int(item.get("prompt_eval_count")),
                    output_tokens=_int(item.get("eval_count")),
                    duration_ms=None if duration is None else _ms(duration / 1e9),
                ),
            )
        return _NOTHING

    def _ended(self) -> Any:
        """The open turn, ended by a record that is not part of it."""
        turn = self._open
        if turn is None:
            return _NOTHING
        self._open = None
        usage = turn.usage()
        return (usage,) if usage.recorded() else _NOTHING

    def _claude(self, kind: str, message: Any, parent: Any, stamp: float | None) -> tuple[Any, Any]:
        if not _mapping(message):
            return self._ended(), _NOTHING
        if kind == "stream_event":
            return self._anthropic_event(message, parent, stamp)
        key = message.get("id")
        turn = self._open
        before = _NOTHING
        if turn is None or key is None or turn.key != key:
            if key is not None and key in self._metered:
                # its stream events said its usage, or its lines came apart (parallel
                # sub-agents): counted once
                return _NOTHING, _NOTHING
            before = self._ended()
            turn = self._open = _Turn(key, parent, self._before)
            self._metered.add(key)
        usage = message.get("usage")
        if _mapping(usage):
            turn.tokens = _anthropic(usage)
        if stamp is not None:
            turn.ended = stamp
        return before, _NOTHING

    def _anthropic_event(
        self, event: Mapping[str, Any], parent: Any, stamp: float | None
    ) -> tuple[Any, Any]:
        kind = event.get("type")
        turn = self._open
        if kind == "message_start":
            before = self._ended()
            message = event.get("message")
            key = _get(message, "id")
            self._metered.add(key)
            turn = self._open = _Turn(("stream", key), parent, self._before)
            turn.tokens = _anthropic(_get(message, "usage"))
            return before, _NOTHING
        if turn is None or not isinstance(turn.key, tuple):
            return self._ended(), _NOTHING  # not a streamed message's: it ends the open one
        if stamp is not None:
            turn.ended = stamp
        if kind == "message_delta":
            for name, value in _anthropic(event.get("usage")).items():
                if value is not None:  # (the delta's counts are the message's so far)
                    turn.tokens[name] = value
        elif kind == "message_stop":
            return _NOTHING, self._ended()
        return _NOTHING, _NOTHING

    def _codex_turn(self, raw: Any) -> Any:
        if not _mapping(raw):
            return _NOTHING
        total = _codex(raw)
        before, self._codex_total = self._codex_total, total
        if before is None:
            return (TurnUsage(**total),)
        added = {
            name: None if value is None else value - (before[name] or 0)
            for name, value in total.items()
        }
        # A running total grows (every turn reads input); counts that do not are the
        # turn's own (a writer that reports each turn alone).
        if any(value is not None and value < 0 for value in added.values()) or not (
            added["input_tokens"] or added["output_tokens"]
        ):
            return (TurnUsage(**total),)
        return (TurnUsage(**added),)

    def _rollout(self, kind: str, payload: Any, stamp: float | None) -> Any:
        if not _mapping(payload):
            return _NOTHING
        if kind == "response_item":  # the model said something: its turn has begun
            answers = payload.get("role") != "user" and not str(payload.get("type")).endswith(
                "_output"
            )
            if answers and self._rollout_start is None:
                self._rollout_start = self._before
            return _NOTHING
        if payload.get("type") != "token_count":
            return _NOTHING
        last = _get(payload, "info", "last_token_usage")
        if not _mapping(last):
            return _NOTHING
        start, self._rollout_start = self._rollout_start, None
        duration = None
        if start is not None and stamp is not None:
            duration = _ms(stamp - start)
        return (TurnUsage(**_codex(last), duration_ms=duration),)

    def _responses(self, response: Any) -> Any:
        usage = _get(response, "usage")
        if not _mapping(usage):
            return _NOTHING
        duration = None
        started, ended = _get(response, "created_at"), _get(response, "completed_at")
        if isinstance(started, (int, float)) and isinstance(ended, (int, float)):
            duration = _ms(ended - started)
        return (TurnUsage(**_openai(usage, "input_tokens", "output_tokens"), duration_ms=duration),)

    def _gemini_chunk(self, item: Mapping[str, Any]) -> Any:
        raw = item.get("usageMetadata", item.get("usage_metadata"))
        if _mapping(raw):
            self._gemini = _gemini(raw)
        candidates = item.get("candidates")
        first = candidates[0] if isinstance(candidates, list) and candidates else None
        if _get(first, "finishReason") is None and _get(first, "finish_reason") is None:
            return _NOTHING
        said, self._gemini = self._gemini, None
        return _NOTHING if said is None else (TurnUsage(**said),)


_BY_TYPE: dict[Any, Callable[[Meter, Any, dict[str, Any], float | None], tuple[Any, Any]]] = {
    "assistant": Meter._claude_line,
    "stream_event": Meter._claude_line,
    **dict.fromkeys(_ANTHROPIC, Meter._anthropic_line),
    "turn.completed": Meter._codex_line,
    "event_msg": Meter._rollout_line,
    "response_item": Meter._rollout_line,
    "response.completed": Meter._responses_line,
    "response.incomplete": Meter._responses_line,
}
"""The reader of each record type that may end a turn or say its usage."""


def _stamp(item: dict[str, Any]) -> float | None:
    try:
        return timestamp(item)
    except (OverflowError, ValueError):  # (a number no float holds)
        return None


def metered(
    process: Callable[[Iterator[Any]], Iterable[Any]], items: Iterable[Any]
) -> Iterator[Any]:
    """``process(items)``'s events with each turn's :class:`TurnUsage` among them, right
    after the events of the record that ended the turn. (The processor asks for the next
    record only once the events of the one before are taken: what the meter reads then
    comes before that record's events.)"""
    meter = Meter()
    ready: list[TurnUsage] = []

    def records() -> Iterator[Any]:
        read = meter.read
        for item in items:
            before, after = read(item)
            ready.extend(before)
            yield item
            ready.extend(after)
        ready.extend(meter.close())

    for event in process(records()):
        if ready:
            yield from ready
            ready.clear()
        yield event
    yield from ready


__all__ = ["Meter", "TurnUsage", "metered"]
