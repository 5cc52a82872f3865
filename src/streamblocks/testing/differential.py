"""The differential harness: every fast path against the reference reading, feed by feed.

The session reads most text through fast paths — shortcuts that must answer exactly
what the line-by-line reading answers (:mod:`streamblocks.core.fast` names them).
``StreamBlockProcessor(registry, reference=True)`` turns all of them off. This module
feeds one text both ways and compares, after every ``feed`` and ``close``, the events
(each ``BLOCK_DELTA`` with its ``partial`` value), :attr:`Session.examined` and the
stream offset::

    from streamblocks.testing.differential import assert_same_feeds

    def test_my_syntax_reads_fast_as_it_reads_slowly():
        assert_same_feeds(StreamBlockProcessor(registry, syntax=MySyntax()), SAMPLE)

It runs each fast path alone and all of them together over the whole text, chunk sizes
1 to 8, random chunkings, every cut into two pieces, and with the session snapshotted and
restored after every feed. A syntax of your own that implements ``read_whole``,
``read_shown`` or a reader's ``bulk*`` hooks checks them this way.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any, NamedTuple

from ..core.events import BlockDelta
from ..core.fast import FAST_PATHS
from ..core.processor import StreamBlockProcessor
from .invariants import split_random

__all__ = ["FAST_PATHS", "Feed", "assert_same_feeds", "chunkings", "feeds"]

STREAM_ID = "differential"


class Feed(NamedTuple):
    """What one ``feed`` (or the ``close``) gave: its events (a ``BLOCK_DELTA`` as
    ``(event, event.partial)``; a call that raised as ``("raised", type, message)``),
    ``examined`` and the stream offset after it."""

    events: list[Any]
    examined: int
    offset: int


def feeds(
    processor: StreamBlockProcessor,
    chunks: Sequence[Any],
    *,
    paths: Collection[str] = FAST_PATHS,
    restore: bool = False,
) -> list[Feed]:
    """Each ``feed`` of ``chunks`` and the ``close``, by a session that takes only the
    fast paths named in ``paths`` (``()``: the reference). ``restore``: the session is
    snapshotted and restored after every feed."""
    session = processor.session(STREAM_ID)
    session.use(paths)
    out: list[Feed] = []
    for chunk in [*chunks, None]:
        events: list[Any]
        try:
            events = session.close() if chunk is None else session.feed(chunk)
        except Exception as exc:
            events = [("raised", type(exc).__name__, str(exc))]
        examined = session.examined
        offset = session._em.pos  # (brought up to date by ``examined``)
        out.append(Feed([(e, e.partial) if isinstance(e, BlockDelta) else e for e in events],
                        examined, offset))  # fmt: skip
        if restore and chunk is not None and not session.closed and not session.broken:
            session = processor.restore(session.snapshot())
    return out


def chunkings(
    text: str, *, seed: int = 0, randoms: int = 3, cuts: int | None = None
) -> Iterable[list[str]]:
    """The chunkings of :func:`assert_same_feeds`: the whole text, chunks of 1 to 8
    characters, ``randoms`` random chunkings, and the text cut into two pieces at every
    offset (at ``cuts`` offsets evenly spaced, when given)."""
    yield [text]
    for size in range(1, 9):
        if size < len(text):
            yield [text[i : i + size] for i in range(0, len(text), size)]
    for k in range(randoms):
        yield split_random(text, seed + k, 4 + 12 * k)
    step = 1 if cuts is None else max(1, len(text) // max(1, cuts))
    for at in range(1, len(text), step):
        yield [text[:at], text[at:]]


def assert_same_feeds(
    processor: StreamBlockProcessor,
    text: str,
    *,
    seed: int = 0,
    randoms: int = 3,
    cuts: int | None = None,
    paths: Sequence[str] = FAST_PATHS,
) -> None:
    """Assert that ``text`` read through the fast paths in ``paths`` — each alone, and
    all together, also across snapshots — gives what the reference reading gives, feed
    by feed, at every chunking of :func:`chunkings`. Raises ``AssertionError`` naming
    the fast path, the chunks and the first feed that differs."""
    configurations = [(path,) for path in paths] + ([tuple(paths)] if len(paths) > 1 else [])
    for chunks in chunkings(text, seed=seed, randoms=randoms, cuts=cuts):
        reference = feeds(processor, chunks, paths=())
        for taken in configurations:
            _compare(reference, feeds(processor, chunks, paths=taken), taken, chunks)
        if 2 < len(chunks) < len(text):  # (the random chunkings, and sizes 2 to 8)
            restored = feeds(processor, chunks, paths=paths, restore=True)
            _compare(reference, restored, ("restored", *paths), chunks)


def _compare(
    expected: list[Feed], got: list[Feed], paths: Sequence[str], chunks: list[str]
) -> None:
    if got == expected:
        return
    at = next(k for k, (a, b) in enumerate(zip(expected, got, strict=True)) if a != b)
    what = "close()" if at == len(chunks) else f"feed({chunks[at]!r}), feed #{at}"
    raise AssertionError(
        f"fast paths {', '.join(paths)} differ from the reference at {what} of chunks "
        f"{chunks!r}:\n  reference: {expected[at]}\n  fast:      {got[at]}"
    )
