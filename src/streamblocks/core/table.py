"""The session's state table: the rows a chunk of text is read in.

The scanner's reading state (``line``, ``flow``, ``parser``, ``block``, ``region``,
``tail``: see :mod:`.scanner`) says where the stream stands. A few of those states are
*bulk* states: most chunks there change nothing but an offset, so a chunk that holds
nothing the state must stop for is read with one search and gives at most one event.
Each such state is a row of this table, numbered by ``Scanner.mode``; every other
state is the row ``SLOW``, read by the full step (:meth:`Session._feed
<.session.Session._feed>` → :meth:`Scanner.run <.scanner.Scanner.run>`), after which
:func:`.lean.settle` writes the row the next chunk is read in. The lean step of a row
answers exactly what the full step answers for such a chunk; any chunk it cannot take
goes to the full step (:mod:`streamblocks.testing.differential` checks it, feed by feed).

One word per kind of fast step (:mod:`.fast` names the switches): a row's *lean* step
reads one chunk in a bulk state (here); a *whole* block is read at once at a line start
(:mod:`.whole`), a *cut* block is one whose opener a syntax read whole but whose
closing line is not in hand yet (:mod:`.cut_blocks`); a region reader's *bulk* hooks
are what the ``REGION`` row's lean step asks; a *shown* span is an inline code span read
at once. "Pending" is a line start a syntax has not decided (``PENDING_LINE``); an
opener's beginning kept at a chunk's end is the scanner's ``tail`` (``OPENING``).

``docs/core.md`` draws this table; ``tests/test_core_table.py`` checks the page against
:data:`ROWS`.
"""

from __future__ import annotations

from typing import Final, NamedTuple

SLOW: Final = 0
VISIBLE: Final = 1
REGION: Final = 2
CONTENT_MODE: Final = 3
BLOCK_LINE: Final = 4
LINE_START: Final = 5
PENDING_LINE: Final = 6
THOUGHT: Final = 7
OPENING: Final = 8
"""The rows (``Scanner.mode``), numbered in the order ``Session.feed`` tests them: the
bulk states first; ``THOUGHT`` after ``CONTENT_MODE``; ``OPENING`` last."""


class Row(NamedTuple):
    """One row of the table: the scanner's state it stands for, the lean step that
    reads a chunk there (dotted names in :mod:`streamblocks.core`) and what it emits."""

    number: int
    name: str
    state: str
    step: tuple[str, ...]
    events: str


ROWS: Final = (
    Row(
        SLOW,
        "SLOW",
        "any other: a marker or a line start that may be one, a limit near, the first "
        "chunk, a provider event, a session with delta transforms",
        ("session.Session._feed", "scanner.Scanner.run"),
        "any",
    ),
    Row(
        VISIBLE,
        "VISIBLE",
        "visible text mid-line (`line` None, `flow` TEXT, no region, no tail), outside "
        "blocks or in a code fence the model shows",
        ("session.Session.feed", "lean.line_ends", "lean.pending_line", "lean.opening"),
        "one TEXT_DELTA",
    ),
    Row(
        REGION,
        "REGION",
        "an inline region whose reader has bulk steps (`bulk`, `bulk_raw`, `bulk_held`, "
        "`bulk_start`)",
        ("lean_regions.region_step",),
        "one BLOCK_DELTA, or none while held; BLOCK_START for `bulk_start`",
    ),
    Row(
        CONTENT_MODE,
        "CONTENT_MODE",
        "mid-line in a line block (`flow` CONTENT), or in its header lines held before it "
        "starts (`flow` HOLD)",
        ("session.Session.feed",),
        "one BLOCK_DELTA (none for a header line: the parser's `held` hook gets it)",
    ),
    Row(
        BLOCK_LINE,
        "BLOCK_LINE",
        'a line start in a line block (`line` ""), its first character not a marker\'s',
        ("session.Session.feed",),
        "one BLOCK_DELTA (none for a header line)",
    ),
    Row(
        LINE_START,
        "LINE_START",
        'a line start outside blocks or in a shown fence (`line` ""), its first character '
        "deciding it",
        ("session.Session.feed", "lean.line_ends", "lean.pending_line", "lean.opening"),
        "one TEXT_DELTA (none for a line start held)",
    ),
    Row(
        PENDING_LINE,
        "PENDING_LINE",
        "a line start outside blocks that a line syntax answers PENDING about (`line` the "
        "line so far)",
        ("lean.still_pending",),
        "none",
    ),
    Row(
        THOUGHT,
        "THOUGHT",
        "`REGION` in thinking: the reader names the one character that may stop its "
        "content (`<`) and the block has no partial object",
        ("session.Session.feed", "lean_regions.thought_step"),
        "one BLOCK_DELTA (none while only blanks arrive)",
    ),
    Row(
        OPENING,
        "OPENING",
        "visible text outside blocks with an inline opener's beginning held (`tail`)",
        ("lean.opening",),
        "none (the text before the beginning: one TEXT_DELTA)",
    ),
)
"""The rows, indexed by their number."""
