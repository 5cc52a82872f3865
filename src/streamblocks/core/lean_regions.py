"""The lean steps of an inline region's content: thinking and a call's body.

In mode ``THOUGHT`` :meth:`Session.feed <streamblocks.core.session.Session.feed>` appends
a chunk of thinking to its block inline, and :func:`thought_step` takes a chunk that ends
in blanks; in mode ``REGION`` :func:`region_step` reads a chunk of the region's content
with the reader's bulk hooks. Anything else goes to :meth:`Region.step
<.region.Region.step>`; the other bulk states are in :mod:`.lean`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .events import CONTENT_SECTION, BlockDelta, Event, new_event
from .lean import THOUGHT_BLANKS, arm, settle, thought_sync

if TYPE_CHECKING:
    from .open_block import OpenBlock
    from .region import Region
    from .scanner import Scanner


def thought_step(sc: Scanner, region: Region, text: str) -> list[Event] | None:
    """Mode ``THOUGHT``'s chunks that ``Session.feed`` does not take inline (it takes
    only one with no blank held before it or at its end): the blanks held as
    :func:`split_blanks` says, up to ``THOUGHT_BLANKS`` of them; any other (a ``<`` in
    it, the limit or the run near) goes to :func:`region_step`, the chunks before it
    synced."""
    block = region.block
    assert block is not None
    if region.thought not in text:
        blanks = region.blanks
        piece, held = split_blanks(blanks, text)
        size = block.raw_len + (len(piece) if piece else len(blanks))
        if len(held) <= THOUGHT_BLANKS and size <= sc.lean_limit:
            region.blanks = held
            if not piece:
                sc.examined += len(text)
                return []
            sc.examined += len(held) - len(blanks)  # (the rest counted when synced)
            block.raw.append(piece)
            block.raw_len += len(piece)
            fields = (block.block_id, block.type_name, CONTENT_SECTION, piece, None, None)
            return [new_event(BlockDelta, fields)]
    thought_sync(sc, region)
    events = region_step(region, text)
    if events is not None:
        arm(sc, region)
    return events


def split_blanks(blanks: str, text: str) -> tuple[str, str]:
    """Thinking's content ``text``, with the ``blanks`` held before it: the piece that is
    content now (those blanks first) and the blanks held after it. Blanks at the end of
    a chunk are held, unseen, until what follows shows whether thinking ends there (its
    trailing whitespace is stripped); a chunk of blanks alone is all held (the piece
    ``""``). The one place this is decided, for both lean steps of thinking."""
    if not text[-1].isspace():
        return (blanks + text if blanks else text), ""
    body = text.rstrip()
    if not body:
        return "", blanks + text
    return (blanks + body if blanks else body), text[len(body) :]


def region_step(region: Region, text: str) -> list[Event] | None:
    """The lean step of a region (mode ``REGION``, see :func:`settle`):
    ``text`` taken whole (see :class:`InlineReader`'s bulk steps); ``None`` when the
    reader declines, or the limit is near, so :meth:`Region.step` reads it instead."""
    block = region.block
    sc = region.sc
    if block is None:  # (the reader holds the chunk or starts the block, or the full step)
        if region.lead_len + region.pend_len + len(text) > sc.room:
            return None
        if region.reader.bulk_held(text):
            sc.examined += len(text)
            region.hold(text)
            return []
        return _region_start(region, text) if region.has_bulk_start else None
    stop = region.stop
    pend = region.pend_len  # (held: Region.hold, taken once)
    if stop is not None and stop not in text and not pend:
        # (content, the reader not asked; blanks at its end wait for what follows)
        blanks = region.blanks
        if block.raw_len + len(blanks) + len(text) > region.limit:
            return None
        sc.examined += len(text)
        piece, region.blanks = split_blanks(blanks, text)
        if not piece:
            return []
        n = len(piece)
    else:
        blanks = region.blanks
        if block.raw_len + pend + len(blanks) + len(text) > region.limit:
            return None
        if blanks:  # (shown to the reader first)
            return None
        if not pend and region.has_bulk_raw:
            events = _region_raw(region, block, text)
            if events is not None:
                return events
        elif pend and region.has_bulk_held:  # (a closer arriving in pieces, held)
            if not region.reader.bulk_held(text):
                return None
            sc.examined += len(text)
            region.hold(text)
            return []
        bulk = region.reader.bulk(text)
        if bulk is None:
            return None
        sc.examined += len(text)
        n = bulk
        if n <= 0:
            region.hold(text)
            return []
        if n < pend:
            piece = region.unhold(n)
            region.hold(text)
        else:
            piece = region.held() + text if pend else text
            if n < len(piece):
                rest = piece[n:]
                piece = piece[:n]
                region.hold(rest)
    region.attributed = True
    region.last = piece[-1]
    at = block.raw_len
    spans, raw = block.spans, block.raw  # (OpenBlock.add_content, inline)
    if spans and spans[-1] == at:
        spans[-1] = at + n
    else:
        spans += (at, at + n)
    raw.append(piece)
    block.raw_len = at + n
    if len(raw) > block.compact_at:
        block.compact()
    sc.em.pos += n
    source = block.partial  # (Emitter.delta, inline)
    where = source.add(piece, None) if source is not None else None
    fields = (block.block_id, block.type_name, CONTENT_SECTION, piece, None, where)
    return [new_event(BlockDelta, fields)]


def _region_start(region: Region, text: str) -> list[Event] | None:
    """:func:`region_step` for a chunk that starts the region's block and ends nothing (a
    call's head whose name shows: ``bulk_start``): its events, the scanner settled again
    as after a full step."""
    if region.blanks:  # (shown to the reader first)
        return None
    em = region.sc.em
    out = em.out = []
    if not region.lean_start(text):
        return None
    if em.texts:
        em.flush_texts()
    if em.deltas:
        em.flush_deltas()
    settle(region.sc)
    return out


def _region_raw(region: Region, block: OpenBlock, text: str) -> list[Event] | None:
    """:func:`region_step` for a chunk that is ``raw`` of the block (a call's body), all of
    it or but for a tail held: ``bulk_raw``."""
    taken = region.reader.bulk_raw(text)
    if taken is None:
        return None
    streamed, n = taken
    sc = region.sc
    sc.examined += len(text)
    if n < len(text):
        region.hold(text[n:])
        text = text[:n]
    region.attributed = True
    region.last = text[-1]
    raw = block.raw  # (OpenBlock.add, inline)
    raw.append(text)
    block.raw_len += n
    if len(raw) > block.compact_at:
        block.compact()
    sc.em.pos += n
    if not streamed:
        return []
    source = block.partial  # (Emitter.delta, inline)
    where = source.add(streamed, None) if source is not None else None
    fields = (block.block_id, block.type_name, CONTENT_SECTION, streamed, None, where)
    return [new_event(BlockDelta, fields)]
