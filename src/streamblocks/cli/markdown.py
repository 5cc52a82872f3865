"""A run as a Markdown transcript: ``streamblocks extract RUN --markdown``.

Readable in any Markdown viewer: the run's turns as sections, its text as written (it is
Markdown already), thinking as a quote, each tool call with its arguments and its result
as fenced blocks, commands, file changes, code, plans and custom blocks likewise, a
sub-agent's rows nested under the call that started it (as a quote, one level deeper per
sub-agent), rejected blocks with their error, each turn's tokens and time under its
heading where the run records them (:mod:`~streamblocks.runs.usage`), and the run's
outcome and usage at the end. A fence is always longer than any run of backticks inside
it, so no text from the run can end it. Blocks become content-model blocks the way
:class:`~streamblocks.content.MessageAccumulator` makes them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..content import (
    CodeBlock,
    CommandBlock,
    CustomBlock,
    FileChangeBlock,
    MessageAccumulator,
    ThinkingBlock,
    TodoBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from ..core.events import (
    BlockEnd,
    BlockError,
    BlockStart,
    Passthrough,
    StreamFinished,
    TextDelta,
)
from ..runs.redact import Redactor
from ..runs.usage import TurnUsage

_PLAIN_ATTRS = ("id", "block_type", "parent_id")  # said in the row's head, or by nesting
_TYPED = (CommandBlock, FileChangeBlock, CodeBlock, TodoBlock)  # rows a tool result stands for
_STARTS_TURN = (list, ThinkingBlock, ToolCallBlock)  # (a list: a run of text)
_TODO = {"in_progress": " *(in progress)*"}
_TURN_FIELDS = (
    ("input_tokens", "in"),
    ("output_tokens", "out"),
    ("cache_read_tokens", "cached"),
    ("cache_write_tokens", "cache write"),
    ("reasoning_tokens", "reasoning"),
)


def fenced(text: str, info: str = "") -> str:
    """``text`` in a backtick fence longer than any backtick run inside it."""
    runs = re.findall(r"`+", text)
    fence = "`" * max(3, 1 + max((len(run) for run in runs), default=0))
    body = text if text.endswith("\n") or not text else text + "\n"
    return f"{fence}{info}\n{body}{fence}\n"


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def _quoted(text: str, depth: int = 1) -> str:
    prefix = "> " * depth
    return "".join(f"{prefix}{line}".rstrip() + "\n" for line in text.splitlines() or [""])


def _inline(text: str) -> str:
    """``text`` as inline code (its backticks cannot end it)."""
    text = text.replace("\n", " ")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _result_text(content: Any) -> tuple[str, str]:
    if isinstance(content, str):
        return content, "text"
    if isinstance(content, list) and all(isinstance(p, dict) for p in content):
        texts = [str(p.get("text", "")) for p in content if p.get("type") == "text"]
        if texts and len(texts) == len(content):
            return "\n".join(texts), "text"
    return _json(content), "json"


class _Failed(NamedTuple):
    """A typed row (the terminal, the code…) standing for a tool result that failed."""

    row: Any


_TOOL_OUTPUT = (ToolResultBlock, _Failed, *_TYPED)


class _Run:
    """The run's rows, and each sub-agent's, in order."""

    def __init__(self) -> None:
        self.convert = MessageAccumulator().convert
        self.rows: dict[str | None, list[Any]] = {None: []}
        self.parent_of: dict[str, str] = {}
        self.finished: StreamFinished | None = None
        self.raw: dict[str, Any] = {}
        self.turns: list[TurnUsage] = []

    def add(self, event: Any) -> None:
        kind = type(event)
        if kind is TextDelta:
            rows = self.rows[None]
            if rows and type(rows[-1]) is list:
                rows[-1].append(event.text)
            elif event.text:
                rows.append([event.text])
        elif kind is BlockStart:
            parent = event.attrs.get("parent_id")
            if parent not in (None, ""):
                self.parent_of[event.block_id] = str(parent)
        elif kind is BlockEnd:
            block = event.block
            parent = block.attrs.get("parent_id") or self.parent_of.get(block.id)
            if block.syntax == "native" and block.type == "text":  # a sub-agent's text
                converted: Any = [str(block.content or "")]
            else:
                converted = self.convert(block)
            if converted is not None:
                self._append(self._rows(parent), converted, block.attrs.get("tool_call_id"))
        elif kind is BlockError:
            self._rows(self.parent_of.get(event.block_id or "")).append(event)
        elif kind is StreamFinished:
            self.finished = event
        elif kind is TurnUsage:
            self.turns.append(event)
            self._rows(event.parent_id).append(event)
        elif kind is Passthrough and isinstance(event.event, dict):
            for key in ("duration_ms", "total_cost_usd", "num_turns"):
                if isinstance(event.event.get(key), (int, float)):
                    self.raw[key] = event.event[key]

    @staticmethod
    def _append(rows: list[Any], row: Any, call: Any) -> None:
        """Add ``row``; a typed row that names the call of the result just before it
        (Claude Code's Bash, Read, Edit, Write and TodoWrite results come as a result and
        then the row they stand for) takes the result's place: each output once."""
        last = rows[-1] if rows else None
        typed = call and isinstance(row, _TYPED)
        if typed and isinstance(last, ToolResultBlock) and last.tool_call_id == call:
            rows[-1] = _Failed(row) if last.is_error else row
            return
        rows.append(row)

    def _rows(self, parent: Any) -> list[Any]:
        return self.rows.setdefault(None if parent in (None, "") else str(parent), [])


def _row(row: Any, run: _Run, depth: int) -> str:
    if type(row) is _Failed:
        head, _, rest = _row(row.row, run, depth).partition("\n")
        return f"{head} (error)\n{rest}"
    if type(row) is list:
        return "".join(row).strip("\n") + "\n"
    if isinstance(row, ThinkingBlock):
        return _quoted("**Thinking**\n\n" + (row.text or row.redacted or "(redacted)").strip())
    if isinstance(row, ToolCallBlock):
        out = f"**Tool call** {_inline(row.name)} · {_inline(row.id)}\n\n"
        out += fenced(_json(row.arguments), "json")
        agent = run.rows.get(row.id)
        if agent:
            inner = _rows(agent, run, depth + 1, turns=False)
            out += "\n" + _quoted(f"**Sub-agent** of {_inline(row.id)}\n\n{inner}")
        return out
    if isinstance(row, ToolResultBlock):
        text, info = _result_text(row.content)
        name = f" of {_inline(row.name)}" if row.name else ""
        error = " (error)" if row.is_error else ""
        return f"**Result**{name}{error}\n\n" + fenced(text, info)
    if isinstance(row, CommandBlock):
        exit_code = "" if row.exit_code is None else f" · exit {row.exit_code}"
        output = row.output or "\n".join(filter(None, [row.stdout, row.stderr]))
        return f"**Command**{exit_code}\n\n" + fenced(f"$ {row.command}\n{output or ''}", "console")
    if isinstance(row, FileChangeBlock):
        body = row.diff or row.content
        head = f"**File {row.kind}** {_inline(row.path)}\n"
        return head + ("\n" + fenced(body, "diff" if row.diff else "") if body else "")
    if isinstance(row, CodeBlock):
        where = f" {_inline(row.path)}" if row.path else ""
        return f"**Code**{where}\n\n" + fenced(row.code, row.language or "")
    if isinstance(row, TodoBlock):
        items = "".join(
            f"- [{'x' if i.status == 'completed' else ' '}] {i.text}{_TODO.get(i.status, '')}\n"
            for i in row.items
        )
        return "**Plan**\n\n" + items
    if isinstance(row, BlockError):
        head = f"**Rejected block** {_inline(row.block_type or 'block')}: {row.code}: {row.message}"
        return f"{head}\n\n" + fenced(row.raw)
    if isinstance(row, CustomBlock):
        attrs = {k: v for k, v in row.attrs.items() if k not in _PLAIN_ATTRS and v not in ([], "")}
        block_id = row.attrs.get("id")
        out = f"**{row.tag}**" + (f" {_inline('#' + str(block_id))}" if block_id else "") + "\n\n"
        if attrs:
            out += fenced(_json(attrs), "json") + "\n"
        content = row.content if isinstance(row.content, str) else _json(row.content)
        return out + (fenced(content) if content else "")
    return fenced(_json(row.model_dump(mode="json")), "json")


def _summed(turns: list[TurnUsage]) -> dict[str, float]:
    """The turns' fields added up, each over the turns that record it."""
    sums: dict[str, float] = {}
    for turn in turns:
        for name, value in turn.said().items():
            if name != "parent_id":
                sums[name] = sums.get(name, 0) + value
    return sums


def _seconds(ms: float) -> str:
    return f"{ms / 1000:.2f} s" if ms < 10_000 else f"{ms / 1000:.1f} s"


def _turn_line(turns: list[TurnUsage], label: str = "") -> str:
    """``*in 3 · out 96 · took 2.50 s*``: the tokens and time of a turn's model calls."""
    sums = _summed(turns)
    said = [f"{label} {int(sums[name]):,}" for name, label in _TURN_FIELDS if name in sums]
    if "duration_ms" in sums:
        said.append(f"took {_seconds(sums['duration_ms'])}")
    calls = f" ({len(turns)} model calls)" if len(turns) > 1 else ""
    return f"*{label}{' · '.join(said)}{calls}*\n" if said else ""


def _rows(rows: list[Any], run: _Run, depth: int, *, turns: bool) -> str:
    parts: list[str] = []
    turn, last = 0, None
    headings: list[int] = []  # where each turn's heading is in parts
    metered: list[Any] = []  # [first turn, last turn, usage]: what the last usage covered
    for row in rows:
        if type(row) is TurnUsage:
            if len(headings) > (metered[1] if metered else 0):  # turns since the last usage
                metered = [metered[1] + 1 if metered else 1, len(headings), [row]]
            elif metered:  # another model call in the same turn
                metered[2].append(row)
            else:
                if line := _turn_line([row], "model call: "):
                    parts.append(line)
                continue
            first, upto, used = metered
            span = f"turns {first}–{upto}: " if upto > first else ""
            parts[headings[first - 1]] = f"## Turn {first}\n\n{_turn_line(used, span)}"
            continue
        if (
            turns
            and isinstance(row, _STARTS_TURN)
            and (last is None or isinstance(last, _TOOL_OUTPUT))
        ):
            turn += 1
            headings.append(len(parts))
            parts.append(f"## Turn {turn}\n")
        parts.append(_row(row, run, depth))
        last = row
    return "\n".join(parts)


def _usage(run: _Run) -> str:
    finished = run.finished
    lines = []
    if finished is not None:
        lines.append(("stop reason", finished.stop_reason.value))
        usage = finished.usage
        if usage is not None:
            for name in ("input_tokens", "output_tokens", "cache_read_tokens", "reasoning_tokens"):
                value = getattr(usage, name)
                if value is not None:
                    lines.append((name.replace("_", " "), f"{value:,}"))
            if usage.cost_usd is not None:
                lines.append(("cost", f"${usage.cost_usd:.4f}"))
        if usage is None and run.turns:  # the run states no total: its turns' sum
            sums = _summed(run.turns)
            for name, label in _TURN_FIELDS:
                if name in sums:
                    lines.append((f"{label} tokens", f"{int(sums[name]):,}"))
        lines.append(("blocks", f"{finished.counts.blocks:,}"))
        if finished.error:
            lines.append(("error", finished.error))
    if "total_cost_usd" in run.raw and not any(name == "cost" for name, _ in lines):
        lines.append(("cost", f"${run.raw['total_cost_usd']:.4f}"))
    if "duration_ms" in run.raw:
        lines.append(("duration", f"{run.raw['duration_ms'] / 1000:.1f} s"))
    if run.turns:
        lines.append(("turns metered", f"{len(run.turns):,}"))
        model_time = _summed(run.turns).get("duration_ms")
        if model_time is not None:
            lines.append(("model time", _seconds(model_time)))
    if not lines:
        return ""
    table = "".join(f"| {name} | {value.replace('|', '/')} |\n" for name, value in lines)
    return "## Usage\n\n| | |\n|---|---|\n" + table


def transcript(events: Iterable[Any], title: str, *, redactor: Redactor | None = None) -> str:
    """The run of ``events`` as Markdown, headed ``title``; ``redactor``: the one that
    masked ``events`` (``--redact``), whose counts end the transcript."""
    run = _Run()
    for event in events:
        run.add(event)
    body = _rows(run.rows[None], run, 0, turns=True)
    called = {
        row.id for rows in run.rows.values() for row in rows if isinstance(row, ToolCallBlock)
    }
    orphans = [  # sub-agent rows whose call the run does not hold: shown all the same
        _quoted(f"**Sub-agent** of {_inline(parent)}\n\n" + _rows(rows, run, 1, turns=False))
        for parent, rows in run.rows.items()
        if parent is not None and parent not in called
    ]
    parts = [f"# {title}\n", body, *orphans, _usage(run)]
    if redactor is not None:
        counts = redactor.counts.items()
        said = ", ".join(f"{n} {kind}" for kind, n in counts if n) or "nothing found"
        parts.append(f"*Redacted: {said}.*\n")
    return "\n".join(part for part in parts if part)
