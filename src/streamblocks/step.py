"""What one model step produced (:class:`StepResult`) and what the loop does next
(:class:`Outcome`).

The outcome follows the stop reason, the calls and the structured output:

- ``done``: the model ended its turn (``end_turn``/``stop_sequence``) with nothing to
  run, or gave the structured output it was asked for (``output=``). A stream that
  names no stop reason at all (plain text, an adapter that reports none) and ends
  normally counts as an ended turn.
- ``run_tools``: calls to run came back (native calls, gadget calls, and calls the loop
  must answer with an error: arguments that were not JSON, an invalid finish call).
  A call whose result is already in the stream (an agent that ran its own tools:
  Claude Code, Codex, the Agent SDKs) is not one to run: it is in ``ran_calls``.
- ``failed``: ``max_tokens``, ``content_filter``, ``refusal``, ``error``, ``unknown``
  (named by the stream), or a step asked for structured output that ended without it;
  ``reason`` says which.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from .content import Message, ThinkingBlock
from .core.blocks import Block
from .core.errors import ErrorCode
from .core.events import BlockError, BlockStart, StopReason, Usage
from .core.json_values import loads
from .subagents import SubAgent
from .tools import FINISH_TOOL


class Outcome(str, Enum):
    """What the loop does after a step."""

    done = "done"
    run_tools = "run_tools"
    failed = "failed"


class ToolCall(NamedTuple):
    """A tool call the model asked for, native or written as a gadget block."""

    id: str
    """The provider's call id (native), or the block id (gadget)."""
    name: str
    """The tool's name."""
    arguments: Any
    """The argument object (a ``dict``, or the gadget's ``content`` model instance)."""
    source: str
    """``"native"`` (the provider's tool-calling API) or ``"gadget"`` (text)."""
    block: Block
    """The block the call came from."""
    error: str | None = None
    """Why the call cannot run as sent (its arguments were not JSON, an invalid finish
    call): :meth:`~streamblocks.Tools.run` answers it with this reason."""
    result: Block | None = None
    """The ``tool_result`` block of a call that already ran in the stream (its
    ``content`` and ``attrs["is_error"]``): such a call is in ``step.ran_calls``
    (``None`` there for a server tool whose result the stream does not carry)."""


@dataclass
class StepResult:
    """What one model step produced."""

    text: str = ""
    """The visible text (blocks stripped)."""
    blocks: list[Block] = field(default_factory=list)
    """Blocks written in the text, in order (gadget calls included; native blocks not)."""
    tool_calls: list[ToolCall] = field(default_factory=list)
    """The calls still to run: native tool calls and gadget calls, in order (a valid
    finish call is the output instead; a call whose result came in the stream is in
    ``ran_calls``)."""
    ran_calls: list[ToolCall] = field(default_factory=list)
    """Calls that already ran in the stream (an agent transcript: Claude Code, Codex,
    the Agent SDKs), in order, each with its ``result`` block. Not to run again."""
    thinking: str = ""
    """The text of the native thinking/reasoning blocks."""
    stop_reason: StopReason = StopReason.unknown
    """Why the step ended; ``error`` when the provider or the stream failed."""
    stop_named: bool = False
    """Whether the stream (or ``collect(..., stop_reason=...)``) named the stop reason;
    a step whose stream named none and ended normally is an ended turn."""
    usage: Usage | None = None
    """Token usage, when the provider reported it."""
    error: BaseException | None = None
    """The exception that ended the stream, or a :class:`ProviderError`."""
    block_errors: list[BlockError] = field(default_factory=list)
    """Blocks that were rejected (``BLOCK_ERROR`` events)."""
    passthrough: list[Any] = field(default_factory=list)
    """Provider events passed through untouched (citations, refusals, errors...)."""
    native_blocks: list[Block] = field(default_factory=list)
    """Provider-native blocks (thinking, tool calls), in order; a sub-agent's are in
    :attr:`sub_agents` instead."""
    sub_agents: list[SubAgent] = field(default_factory=list)
    """The sub-agents the step's own calls started (Claude Code's ``Task``, an agent run
    as a tool), each with its blocks and the sub-agents it started in turn. Their text,
    thinking and calls are not the step's :attr:`text`, :attr:`thinking` and
    :attr:`tool_calls`."""
    session_id: str | None = None
    """The provider's conversation id (Claude CLI session, Codex thread, AG-UI thread)."""
    run_id: str | None = None
    """The provider's run id (an AG-UI run), when the stream named one."""
    message: Message = field(default_factory=Message)
    """The step as an assistant message for the next request: thinking (with its
    signature or reasoning id), the text as the model wrote it (blocks included) and
    the native calls, in order."""
    output: Any = None
    """The structured output (an instance of ``output=``), when it came and was valid."""
    output_error: Message | None = None
    """Why the structured output is missing or invalid, as a message to send back: a
    ``"tool"`` result for an invalid finish call, else a ``"user"`` message."""
    outcome: Outcome = Outcome.done
    """What the loop does next (see the module docstring)."""
    reason: str | None = None
    """Why the outcome is ``failed``."""

    @property
    def ok(self) -> bool:
        """No error and no rejected block."""
        return self.error is None and not self.block_errors

    @property
    def should_stop(self) -> bool:
        """Whether the loop ends here: the outcome is not ``run_tools``."""
        return self.outcome is not Outcome.run_tools


_FAILED_STOPS = {
    StopReason.max_tokens: "the reply hit the token limit (max_tokens)",
    StopReason.content_filter: "the provider's content filter stopped the reply",
    StopReason.refusal: "the model refused",
    StopReason.unknown: "the step ended for an unknown reason",
}


def _validate(output: type[BaseModel], arguments: Any) -> tuple[Any, str | None]:
    if isinstance(arguments, BaseModel):
        arguments = arguments.model_dump()
    try:
        return output.model_validate(arguments if arguments is not None else {}), None
    except ValidationError as exc:
        return None, f"invalid answer for {FINISH_TOOL}: {_short(exc)}"


def _short(exc: ValidationError) -> str:
    return "; ".join(
        f"{'/'.join(str(p) for p in error['loc']) or '(answer)'}: {error['msg']}"
        for error in exc.errors(include_url=False)
    )


def _json_answer(text: str) -> Any:
    """The JSON object a reply's text holds (bare, or in a ``json`` fence)."""
    body = text.strip()
    if body.startswith("```"):
        body = body.split("\n", 1)[1] if "\n" in body else ""
        body = body.rsplit("```", 1)[0]
    return loads(body)


def ended_turn(result: StepResult) -> bool:
    """The model ended its turn: ``end_turn``/``stop_sequence``, or a stream that named
    no stop reason and ended normally."""
    stop = result.stop_reason
    if stop is StopReason.unknown:
        return not result.stop_named and result.error is None
    return stop in (StopReason.end_turn, StopReason.stop_sequence)


def take_output(result: StepResult, output: type[BaseModel]) -> None:
    """Fill ``output``/``output_error`` from the finish call, or from the reply's text
    (native JSON mode); an invalid finish call stays a call, carrying the reason."""
    calls = []
    finish: ToolCall | None = None
    for call in result.tool_calls:
        if call.name == FINISH_TOOL and finish is None:
            finish = call
        else:
            calls.append(call)
    if finish is not None:
        value, problem = _validate(output, finish.arguments)
        problem = finish.error or problem
        if problem is None:
            result.output = value
            result.tool_calls = calls
            return
        content = f"{problem}. Call {FINISH_TOOL} again with a valid answer."
        result.tool_calls = [*calls, finish._replace(error=content)]
        result.output_error = Message.tool(finish.id, content, name=FINISH_TOOL, is_error=True)
        return
    if calls or not ended_turn(result):
        return  # tools to run first, or a step that failed for its own reason
    text = result.text.strip()
    if text.startswith(("{", "```")):
        try:
            value, problem = _validate(output, _json_answer(text))
        except ValueError as exc:
            value, problem = None, f"the answer is not valid JSON: {exc}"
        if problem is None:
            result.output = value
            return
    else:
        problem = f"the step ended without calling {FINISH_TOOL}"
    result.output_error = Message.user(
        f"{problem}. Give the final answer by calling {FINISH_TOOL} "
        "(or as JSON matching the schema, when asked for JSON)."
    )


def set_aside_ran_calls(result: StepResult, results: dict[str, Block]) -> None:
    """Move the calls that already ran from ``tool_calls`` to ``ran_calls``: those whose
    ``tool_result`` is in ``results`` (by call id), and those the provider's side ran
    (a server tool, a call the agent reports completed or failed)."""
    to_run = []
    for call in result.tool_calls:
        ran = results.get(call.id) if call.source == "native" else None
        if ran is not None or (call.source == "native" and _ran_elsewhere(call.block)):
            result.ran_calls.append(call._replace(result=ran))
        else:
            to_run.append(call)
    result.tool_calls = to_run


def _ran_elsewhere(block: Block) -> bool:
    attrs = block.attrs
    return bool(attrs.get("server")) or attrs.get("status") in ("completed", "failed")


def classify(result: StepResult, output: type[BaseModel] | None) -> None:
    """Set ``outcome`` and ``reason`` (rules in the module docstring)."""
    stop = result.stop_reason
    if result.error is not None or stop is StopReason.error:
        result.outcome, result.reason = Outcome.failed, f"the step failed: {result.error}"
    elif result.output is not None:
        result.outcome = Outcome.done
    elif stop in _FAILED_STOPS and (result.stop_named or stop is not StopReason.unknown):
        result.outcome, result.reason = Outcome.failed, _FAILED_STOPS[stop]
    elif result.tool_calls:
        result.outcome = Outcome.run_tools
    elif stop is StopReason.tool_use and result.ran_calls:
        result.outcome = Outcome.failed
        result.reason = "the stream stopped after its own calls ran, before the turn ended"
    elif stop is StopReason.tool_use:
        result.outcome = Outcome.failed
        result.reason = "the model asked for tools, but no call came through whole"
    elif output is not None:
        result.outcome = Outcome.failed
        error = result.output_error
        result.reason = error.text() if error is not None else "no structured output"
    else:
        result.outcome = Outcome.done


def tool_call_of(block: Block) -> ToolCall | None:
    """The call a finished block is, if it is one."""
    if block.syntax == "native":
        if block.type != "tool_call":
            return None
        attrs = block.attrs
        name = attrs.get("name")
        call_id = attrs.get("id") or block.id
        return ToolCall(str(call_id), str(name or ""), block.content, "native", block)
    if block.syntax == "gadget":
        return ToolCall(block.id, block.type, block.content, "gadget", block)
    return None


NATIVE_CALL = ("native", "tool_call")


CALL_ERRORS = frozenset({ErrorCode.PARSE_FAILED, ErrorCode.VALIDATION_FAILED})
"""Errors of a call block that the model can fix when told (not a cut reply)."""


def failed_call(start: BlockStart, error: BlockError) -> ToolCall | None:
    """A call whose block was rejected, kept so the loop can tell the model why (not
    one cut by the end of the stream or a size limit)."""
    if error.code not in CALL_ERRORS:
        return None
    attrs = dict(start.attrs or {})
    native = start.syntax == "native"
    call_id = str(attrs.get("id") or start.block_id) if native else start.block_id
    name = str(attrs.get("name") or "") if native else start.block_type
    block = Block(start.block_id, start.block_type, start.syntax, None, None, attrs, error.raw)
    return ToolCall(call_id, name, None, start.syntax, block, error.message)


def passthrough_block(event: Any) -> ThinkingBlock | None:
    """The content a passed-through provider event adds to ``step.message``: Anthropic's
    redacted thinking, which must go back unchanged next turn."""
    from .ext._base import field

    if field(event, "type") != "content_block_start":
        return None
    block = field(event, "content_block")
    data = field(block, "data") if field(block, "type") == "redacted_thinking" else None
    return ThinkingBlock("", redacted=data) if isinstance(data, str) else None


__all__ = ["Outcome", "StepResult", "ToolCall"]
