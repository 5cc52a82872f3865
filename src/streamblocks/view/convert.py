"""Our events → the AG-UI events a page is sent (:class:`Converter`), for one run.

The conversion itself is :class:`~streamblocks.view.wire.WireAdapter`'s; this module
decides what is converted when, and hands the encoded events to the
:class:`~streamblocks.view.runs.Run` in batches.

Consecutive deltas of the same text, thinking, tool call or block part are merged into
one event before they are converted while the reader has them in hand (until reading
would wait, see :class:`~streamblocks.runs.live.Waits`): a text
read a line at a time is one ``TEXT_MESSAGE_CONTENT`` per run of text between blocks, not
one per line. Likewise a block shown as a card (every block but thinking, tool calls
and tool results) that starts and ends while the reader has it in hand is sent as its
``streamblocks.block_end`` alone: the page makes the card's row from it, as it does for
a block whose start it did not see, and the end carries what the row shows (the
viewer's lean end, :func:`~streamblocks.view.wire.lean_payload`: no raw text or
offsets). A run of text, a thinking block or a provider's tool call whose end is in
hand is one ``*_CHUNK`` event (:meth:`~streamblocks.view.wire.WireAdapter.text_chunk`,
:meth:`~streamblocks.view.wire.WireAdapter.whole_end`), except the last event published
before the reader waits, sent as its message's events
(:func:`~streamblocks.view.wire.opened`): a chunk's message ends with the next event. A
dense markdown file is 2 AG-UI events a section instead of 7, a Claude transcript's turn
8 instead of 21. Published events never change, so an event's number (the SSE ``id``)
is the same for every page and a reconnecting page resumes exactly; the text is the
same.

What the AG-UI events do not carry is added as ``CUSTOM`` events named
``streamblocks.view.*``: ``warning`` (input the viewer could not read, a warning the
library raised; also printed on stderr), ``tool_error`` (``TOOL_CALL_RESULT`` has no
error flag), ``parent`` (with an AG-UI SDK older than 1.0 only: the next row belongs to
the sub-agent started by the tool call ``parent_id``; in 1.0 the events carry the
sub-agent's ``subagent_run_id`` and ``SUBAGENT_STARTED`` names its call),
``usage`` (a model turn's tokens and time, :class:`~streamblocks.runs.usage.TurnUsage`:
after the turn's rows), ``partial`` (a tool call's arguments as far as written,
``BlockDelta.partial``, so the card fills while they stream: sent on every delta up to
2 KB of arguments, then each time they grew by a quarter, so a long call costs a few
times its size, not its square; not for a call read whole, whose card fills at once)
and ``stopped`` (the run will not finish: the viewer was stopped, or reading the input
failed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockStart,
    Passthrough,
    StopReason,
    StreamFinished,
    StreamStarted,
    TextDelta,
)
from ..ext.agui.payloads import jsonable
from ..runs.usage import TurnUsage
from .wire import CHUNKS, WireAdapter, custom_event, encode, opened

if TYPE_CHECKING:
    from .runs import Run

VIEW_PREFIX = "streamblocks.view."
_PARTIAL_EVERY = 2048  # argument characters up to which every delta's partial is sent
_PUBLISH_EVERY = 1024  # events a reader holds back at most before publishing them
# A long run of text is sent when this much of it is in hand (then twice as much each
# time, up to _HOLD_MOST): a reply of 10 MB of text reaches the page as it is read, its
# first screen in the first 64 KB, in a dozen events.
_HOLD_FIRST = 65_536
_HOLD_MOST = 4_194_304
# what ends a text (the adapter's, and a turn's usage: its model call is over)
_ENDS_TEXT = frozenset({BlockStart, BlockEnd, BlockError, StreamFinished, TurnUsage})


def viewer_event(name: str, value: dict[str, Any]) -> dict[str, Any]:
    return custom_event(VIEW_PREFIX + name, value)


def _merges(held: Any, event: Any) -> bool:
    """Whether ``event`` continues the delta ``held`` (the same text, or the same part
    of the same block)."""
    kind = type(event)
    if kind is not type(held):
        return False
    if kind is TextDelta:
        return True
    return (
        kind is BlockDelta
        and event.block_id == held.block_id
        and event.section == held.section
        and event.path == held.path
    )


def _held(start: BlockStart) -> bool:
    """Whether the block is held from its start, to be sent as one event when it ends
    in hand: a card (its ``block_end``), thinking or a provider's tool call (a chunk);
    not a tool result (its one event comes at its end) nor a gadget call."""
    if start.syntax == "native":
        return start.block_type != "tool_result"
    return start.syntax != "gadget"


def _whole(block: list[Any], end: BlockEnd) -> bool:
    """Whether ``end``'s ``block_end`` alone gives the page the row its held events
    would: the page makes a card's row from a ``block_end`` whose start it did not see,
    and a card's end sets its metadata and content from the block, except a native code
    or text row, which shows its deltas when the content is not text or (text) not
    their text."""
    ended = end.block
    if ended.syntax != "native" or ended.type not in ("code", "text"):
        return True
    content = ended.content
    if not isinstance(content, str) or ended.type == "code":
        return isinstance(content, str)
    text = "".join([event.text for event in block if type(event) is BlockDelta])
    return not text or text == content  # a text row without deltas shows the content


class Converter:
    """Our events → AG-UI events (+ the viewer's own), encoded, for one run."""

    def __init__(self, run: Run, on_warning: Callable[[str], None] | None = None) -> None:
        self.run = run
        self.output = WireAdapter(lean=True)  # fresh: this stream's own
        self.to_agui = self.output.to_protocol_event  # (a new list each call)
        self.on_warning = on_warning
        self.nested: set[str] = set()  # sub-agent blocks whose row was announced
        self.calls: dict[str, list[Any]] = {}  # open calls: [call id, chars, chars sent]
        self.pending: list[Any] = []  # converted, not yet folded, encoded and published
        self.held: list[Any] = []  # consecutive deltas to merge, not converted yet
        self.held_chars = 0  # their characters (text only)
        self.hold_most = _HOLD_FIRST  # text characters merged before they are sent
        self.block: list[Any] = []  # a card's start, metadata and deltas, not converted yet

    def take(self, event: Any) -> None:
        """One of our events, in order: a block that becomes a card is held from its
        start while its own events follow, and sent as its ``block_end`` alone when it
        ends in hand (:meth:`_whole`); a delta is held while the next ones continue it,
        and converted merged (see the module's docstring)."""
        block = self.block
        if block:
            kind, opened = type(event), block[0].block_id
            if (kind is BlockDelta or kind is BlockMetadata) and event.block_id == opened:
                block.append(event)
                return
            if kind is BlockEnd and event.block.id == opened and _whole(block, event):
                self.block = []
                if self.held:
                    self.release(ends_text=True)
                self.publish(self._end(event, block))
                return
            self.release_block()
        if type(event) is BlockStart and _held(event):
            self.block = [event]
            return
        self._take(event)

    def release_block(self) -> None:
        """Convert the block in hand event by event (something else came, or the
        reader is about to wait: a live page sees the block as it grows)."""
        block = self.block
        self.block = []
        for event in block:
            self._take(event)

    def _take(self, event: Any) -> None:
        held = self.held
        if type(event) is TextDelta or type(event) is BlockDelta:
            if held and not _merges(held[0], event):
                self.release()
                held = self.held
            held.append(event)
            if type(event) is TextDelta:
                self.held_chars += len(event.text)
                if self.held_chars >= self.hold_most:  # a long text: sent as it grows
                    self.hold_most = min(2 * self.hold_most, _HOLD_MOST)
                    self.release()
                    self.flush()
            return
        if held:
            self.release(type(event) in _ENDS_TEXT)
        self.publish(self.convert(event))

    def release(self, ends_text: bool = False) -> None:
        """Convert the held deltas as one; ``ends_text``: the event in hand ends the
        text, so a text not begun before is whole, one ``TEXT_MESSAGE_CHUNK``."""
        held = self.held
        if not held:
            return
        self.held = []
        self.held_chars = 0
        event = held[0]
        if len(held) > 1:
            text = "".join([delta.text for delta in held])
            if type(event) is TextDelta:
                event = TextDelta(text)
            else:
                event = event._replace(text=text, partial_at=held[-1].partial_at)
        if ends_text and type(event) is TextDelta and event.text:
            chunk = self.output.text_chunk(event.text)
            if chunk is not None:
                self.run.kept.append(event)
                self.publish(chunk)
                return
        self.publish(self.convert(event))

    def convert(self, event: Any, whole: list[Any] | None = None) -> list[Any]:
        """The AG-UI events for ``event``; ``whole``: the start, metadata and deltas of
        the block ``event`` ends, held back (:meth:`WireAdapter.whole_end`)."""
        kind = type(event)
        if kind is TextDelta:  # the common cases first: nothing of the viewer's own to add
            if event.text:
                self.run.kept.append(event)
            return self.to_agui(event)
        if (kind is BlockDelta and event.block_id not in self.calls) or kind is BlockMetadata:
            return self.to_agui(event)
        if kind is BlockEnd:
            return self._end(event, whole)
        if kind is BlockStart:
            return self._start(event)
        if kind is BlockDelta:
            return self._call_delta(event)
        if isinstance(event, Passthrough):
            return list(self.output.passthrough(event.event))
        if kind is TurnUsage:
            return [viewer_event("usage", event.said())]
        out = self.to_agui(event)
        if isinstance(event, BlockError):
            self.calls.pop(event.block_id or "", None)
        elif type(event) is StreamStarted:
            self.output.shorten_ids()
        elif (
            isinstance(event, StreamFinished)
            and event.stop_reason is StopReason.error
            and self.on_warning is not None
        ):
            self.on_warning(f"the run failed: {event.error or 'the stream stopped with an error'}")
        return out

    def _call_delta(self, event: BlockDelta) -> list[Any]:
        """A tool call's arguments, with the ``partial`` value as far as written: on
        every delta up to :data:`_PARTIAL_EVERY` characters, then as they grow by a
        quarter."""
        out = self.to_agui(event)
        call = self.calls[event.block_id]
        call[1] += len(event.text)
        if event.partial_at is None:  # no value to show (``--redact`` drops them)
            return out
        if call[1] <= _PARTIAL_EVERY or call[1] >= call[2] * 5 // 4:
            call[2] = call[1]
            value = {"tool_call_id": call[0], "value": jsonable(event.partial)}
            out.append(viewer_event("partial", value))
        return out

    def _start(self, event: BlockStart) -> list[Any]:
        """A block's start: the ``parent`` before a sub-agent's row (not a tool
        result's: its row is made at its end); a tool call's arguments followed."""
        out = self.to_agui(event)
        native = event.syntax == "native"
        parent = event.attrs.get("parent_id") if self.output.protocol == "0.1" else None
        if parent not in (None, "") and not (native and event.block_type == "tool_result"):
            self.nested.add(event.block_id)
            if out:
                out.insert(0, viewer_event("parent", {"parent_id": str(parent)}))
        if (native and event.block_type == "tool_call") or event.syntax == "gadget":
            call_id = (event.attrs.get("id") if native else None) or event.block_id
            self.calls[event.block_id] = [str(call_id), 0, 0]
        return out

    def _end(self, event: BlockEnd, whole: list[Any] | None) -> list[Any]:
        """A block's end (kept for the export): the ``parent`` before a sub-agent's
        row made now (its start was not announced), ``tool_error`` after a failed
        tool result."""
        self.run.kept.append(event)
        out = self.to_agui(event) if whole is None else self.output.whole_end(event, whole)
        block = event.block
        attrs = block.attrs
        parent = attrs.get("parent_id") if self.output.protocol == "0.1" else None
        if parent not in (None, ""):
            if block.id in self.nested:
                self.nested.discard(block.id)
            elif out:
                out.insert(0, viewer_event("parent", {"parent_id": str(parent)}))
        self.calls.pop(block.id, None)
        if block.syntax == "native" and block.type == "tool_result" and attrs.get("is_error"):
            call_id = str(attrs.get("tool_call_id") or block.id)
            out.append(viewer_event("tool_error", {"tool_call_id": call_id}))
        return out

    def publish(self, agui: list[Any]) -> None:
        """Encode ``agui`` now (after the deltas held before it); hand it to the pages
        with what is held back when :data:`_PUBLISH_EVERY` events are, or at the next
        :meth:`flush`."""
        if self.block:
            self.release_block()
        if self.held:
            self.release()
        pending = self.pending
        pending.extend(agui)
        if len(pending) >= _PUBLISH_EVERY:
            self.flush()

    def flush(self) -> None:
        """Publish what is held back (before the reader waits for more input), encoded;
        a chunk that would end it as the events of its message (:func:`opened`)."""
        if self.block:
            self.release_block()
        if self.held:
            self.release()
        pending = self.pending
        if pending:
            last = pending[-1]
            if type(last) is dict and last["type"] in CHUNKS:
                pending[-1:] = opened(last)
            self.run.extend(map(encode, pending))
            self.pending = []

    def warn(self, message: str) -> None:
        """A warning row on the page, and the same line on stderr."""
        self.publish([viewer_event("warning", {"message": message})])
        self.flush()
        if self.on_warning is not None:
            self.on_warning(message)


__all__ = ["VIEW_PREFIX", "Converter", "viewer_event"]
