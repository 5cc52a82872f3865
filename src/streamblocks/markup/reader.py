"""The reader: a reply's text in, attributed pieces out, following a
:class:`~streamblocks.markup.grammar.Grammar`.

Sans-IO and chunk-blind: ``feed`` takes any piece of the reply, ``finish`` decides what
is still open. Every character read is attributed once, in order, by a piece (see
:mod:`streamblocks.markup.attribution`).

Text is released as soon as it cannot start a marker; a call's body is read once, as it
arrives, by a :class:`~streamblocks.markup.scan.BodyScanner` and parsed when it ends.
After a block's closer, blanks and framing markers (``<|end|>``, a section's closer)
that follow belong to the block, so its ``BLOCK_END`` waits for the next character.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mypy_extensions import mypyc_attr

from . import around, calls
from .attribution import Attribution, Piece
from .body import AFTER, BODY, BODY_START, LEAD, SECTION, TEXT, THINK, CallBody
from .grammar import Grammar, Section, tables
from .head import add_text
from .scan import Literals
from .schema import ToolSchemas


@mypyc_attr(allow_interpreted_subclasses=True)
class Reader:
    """Reads one stream's markup of one grammar (or one region of it: ``region=True``
    stops at the first visible text, see :mod:`streamblocks.markup.syntax`)."""

    def __init__(
        self,
        grammar: Grammar,
        schemas: ToolSchemas,
        *,
        starts_in_thinking: bool = False,
        at_reply_start: bool = True,
        region: bool = False,
        calls_in_thinking: bool = False,
    ) -> None:
        self.grammar = grammar
        self.schemas = schemas
        self.region = region
        self.examined = 0  # characters the steps looked at (re-reads included), for tests
        self.given = 0  # characters fed so far
        self.work = 0  # characters the parses of call bodies looked at
        self.sink = Attribution(region=region)
        self.held = ""
        self.section: Section | None = None
        self.body: CallBody | None = None
        self.lead = True  # thinking: blanks at its start are not content
        self.blank = ""  # blanks held at the end of thinking / after a closer
        self.finished: Piece | None = None  # the end of a block, waiting for what follows
        self.replay = ""  # text to read again (a reply-start body that is no call)
        self.chain = ""  # after this separator, another bare call may follow
        self.gap = ""  # blanks in a section, framing unless text follows
        self.calls_in_thinking = calls_in_thinking
        self.resume = False  # thinking goes on after the call written inside it
        self.tables = tables(grammar)
        self.closers: Literals = self.tables.thinking_closers
        self.think_literals = self.closers
        self.mode = TEXT
        if starts_in_thinking and grammar.thinking:
            self.mode = LEAD
        elif at_reply_start and grammar.start:
            self.mode = BODY_START

    @property
    def ended(self) -> bool:
        """In a region: visible text came, so the region ended."""
        return self.sink.ended

    @property
    def attributed(self) -> int:
        """Characters attributed (not as visible text) so far."""
        return self.sink.attributed

    # -- driving

    def feed(self, text: str) -> list[Piece]:
        """Read the next piece of the reply."""
        blank = self.blank
        n = self.thinking_only(text)
        if n is not None:
            return [("content", (blank + text)[:n])] if n else []
        return self.feed_full(text)

    def feed_full(self, text: str) -> list[Piece]:
        """:meth:`feed` once :meth:`thinking_only` has declined ``text``."""
        self.given += len(text)
        buf = self.held + text if self.held else text
        self.held = ""
        if buf and not self.sink.ended:
            self._read(buf)
        return self.sink.take()

    def thinking_only(self, text: str) -> int | None:
        """The common case in one step: inside thinking, a chunk that cannot hold its
        closer is thinking text. Returns how many characters it gives as content, the
        blanks held before ``text`` first (0: ``text`` is blanks, held), or ``None``
        without reading anything when the chunk needs :meth:`feed_full`."""
        if self.mode != THINK or self.held or self.lead:
            return None
        literals = self.think_literals
        stop = literals.firsts
        if len(stop) == 1:
            if stop in text:
                return None
        elif literals.first.search(text) is not None:  # type: ignore[union-attr]
            return None
        n = len(text)
        self.examined += n
        self.given += n
        body = text.rstrip()
        if not body:
            self.blank += text
            return 0
        blank = self.blank
        self.blank = text[len(body) :]
        n = len(blank) + len(body)
        self.sink.attributed += n
        return n

    def content_stop(self) -> str | None:
        """Inside thinking with nothing held, when one character begins every closer:
        that character. A chunk without it is what :meth:`thinking_only` gives as
        content (its blanks at the end held), changing nothing here but :attr:`given`,
        :attr:`examined` and :attr:`attributed`; a region's lean step takes it without
        asking (only the difference of the first and last is read)."""
        if self.mode != THINK or self.held or self.lead or self.blank:
            return None
        stop = self.think_literals.firsts
        return stop if len(stop) == 1 else None

    def body_only(self, text: str) -> tuple[str, int] | None:
        """The common case of a call's body in one step: once its block has started, a
        chunk that cannot end the body (:meth:`BodyScanner.whole`) is all ``raw`` of the
        call; one that ends in what may begin its closer (``}}\\n<``) is ``raw`` up to
        there, the rest held (:meth:`BodyScanner.taken`). Returns the argument JSON it
        streams (``""``: none) and how many characters are ``raw``, or ``None`` without
        reading anything when the chunk needs :meth:`feed_full`."""
        body = self.body
        if self.mode != BODY or self.held or body is None or not self.sink.started:
            return None
        scanner = body.scanner
        if body.items is not None or not body.named or scanner is None:
            return None
        size = len(text)
        n = size if scanner.whole(text) else scanner.taken(text)
        if n < 0:
            return None
        self.examined += size
        self.given += size
        self.sink.attributed += n
        if n < size:
            self.held, text = text[n:], text[:n]
        body.parts.append(text)
        body.size += n
        arguments = body.arguments.feed(text)
        if body.held:
            arguments, body.held = body.held + arguments, ""
        return arguments, n

    def head_only(self, text: str) -> bool:
        """The common case of a call's body before its name shows, in one step: a
        chunk that cannot end the body (:meth:`BodyScanner.whole`) and leaves the name
        unknown is held for the call's ``raw``, nothing attributed; and, before or
        after the name, a chunk that a closer arriving in pieces holds still
        (:meth:`BodyScanner.held_whole`: ``</too``, then ``l_ca``) is held with it.
        Whether it was read; ``False`` without reading anything when the chunk needs
        :meth:`feed_full`."""
        body = self.body
        if self.mode != BODY or body is None:
            return False
        scanner = body.scanner
        if body.items is not None or scanner is None:
            return False
        held = self.held
        if held:
            if not scanner.held_whole(held + text):
                return False
            self.held = held + text
            self.examined += len(held) + len(text)
            self.given += len(text)
            return True
        if self.sink.started or body.named or not body.unnamed(text) or not scanner.whole(text):
            return False
        n = len(text)
        self.examined += n
        self.given += n
        self.sink.pending.append(text)
        body.parts.append(text)
        body.size += n
        body.held += body.arguments.feed(text)
        return True

    def head_named(self, text: str) -> list[Piece] | None:
        """The chunk of a call's body that shows its name, when it ends nothing
        (:meth:`BodyScanner.whole`), in one step: read as :meth:`feed_full` reads it
        (its block starts); the pieces. ``None`` without reading anything when the
        chunk needs :meth:`feed_full` (or a bare call at the reply's start may turn out
        to be text)."""
        body = self.body
        if self.mode != BODY or body is None or self.held or self.sink.started:
            return None
        scanner = body.scanner
        if body.items is not None or scanner is None or body.named or self.sink.ended:
            return None
        if not body.call.opener or not scanner.whole(text):
            return None
        n = len(text)
        self.examined += n
        self.given += n
        add_text(self, body, text)
        return self.sink.take()

    def finish(self, *, cut: bool = False) -> list[Piece]:
        """The stream ended (``cut``: by ``max_tokens``): decide what is still open."""
        held, self.held = self.held, ""
        if not self.sink.ended:
            self._finish(held, cut)
        return self.sink.take()

    def _finish(self, held: str, cut: bool) -> None:
        mode = self.mode
        if mode == LEAD:
            around.start_thinking(self)
            mode = THINK
        if mode == BODY or (mode == BODY_START and self.body is not None):
            calls.body_ended(self, held, cut)
        elif mode == BODY_START:  # a chain's separator with no call after it: text
            pending, self.sink.pending = "".join(self.sink.pending), []
            self.sink.text(pending + held)
        elif mode == THINK:
            around.thinking(self, held)
            self.sink.mark(self.blank)
            around.end_thinking(self)
        elif mode == AFTER:
            self.resume = self.resume and bool(held.strip())  # no thinking after a last call
            self.close_after(held)
            if self.mode == THINK:  # (thinking went on after the call: it ends here)
                self.sink.mark(self.blank)
                around.end_thinking(self)
        elif mode == SECTION:
            around.section_text(self, held)
        else:
            self.sink.text(held)
        if self.gap:  # blanks at the end of an unclosed section
            gap, self.gap = self.gap, ""
            self.sink.shown(gap)
        if self.replay:  # a reply-start body that is no call, read again as text
            replay, self.replay = self.replay, ""
            self._read(replay)
            self._finish(self.held, cut)
            self.held = ""
        self.sink.flush_hidden()

    def _read(self, buf: str) -> None:
        i, n = 0, len(buf)
        while i < n and not self.sink.ended:
            mode = self.mode
            if mode == TEXT:
                j = self._in_text(buf, i)
            elif mode == THINK:
                j = around.in_thinking(self, buf, i)
            elif mode == BODY:
                j = calls.in_body(self, buf, i)
            elif mode == SECTION:
                j = around.in_section(self, buf, i)
            elif mode == AFTER:
                j = around.after(self, buf, i)
            elif mode == LEAD:
                j = around.in_lead(self, buf, i)
            else:
                j = calls.body_start(self, buf, i)
            if j < 0:
                self.examined += n - i
                self.held = buf[-j - 1 :]
                if not self.replay:
                    return
                j = -j - 1
            else:
                self.examined += j - i
            if self.replay:  # a reply-start body that is no call: read again as text
                buf = self.replay + buf[j:]
                self.replay = self.held = ""
                i, n = 0, len(buf)
                continue
            i = j

    @staticmethod
    def hold(at: int) -> int:
        """What a step returns to keep ``buf[at:]`` for the next chunk."""
        return -at - 1

    # -- visible text

    def until(
        self, literals: Literals, buf: str, i: int, take: Callable[[Reader, str], None]
    ) -> Any:
        """Hand ``take`` (with the reader) the text before the next marker; returns the
        marker's match, or (no marker, or a region that ended) what the step returns."""
        found = literals.find(buf, i)
        end = found.start() if found is not None else literals.held(buf, i)
        if end > i:
            take(self, buf[i:end])
            if self.sink.ended:
                return i
        if found is not None:
            return found
        return self.hold(end) if end < len(buf) else len(buf)

    def _in_text(self, buf: str, i: int) -> int:
        found = self.until(self.tables.text, buf, i, visible)
        if isinstance(found, int):
            return found
        self.marker(found.group())
        return int(found.end())

    def marker(self, marker: str) -> None:
        kind, what = self.tables.actions[marker]
        self.sink.pending.append(marker)
        if kind == "think":
            self.closers = self.think_literals = what
            around.start_thinking(self)
        elif kind == "call":
            calls.start_call(self, what)
        elif kind == "section":
            self.section = what
            self.mode = SECTION

    # -- after a block's closer

    def close_after(self, held: str) -> None:
        blank, self.blank = self.blank, ""
        if self.sink.kind == "thinking":
            self.sink.mark(blank)
            blank = ""
        finished = self.finished
        assert finished is not None
        self.sink.out.append(finished)
        self.finished = None
        self.reset()
        if self.mode == SECTION:
            around.section_text(self, blank + held)
        elif self.mode == THINK:
            around.thinking(self, blank + held)
        else:
            self.sink.text(blank + held)

    def reset(self) -> None:
        """A block ended: back to the section, the thinking or the text around it."""
        was_call = self.sink.kind == "tool_call"
        if self.body is not None:
            self.work += self.body.spent()
        self.sink.kind, self.sink.started, self.body = "", False, None
        if self.section is not None:
            self.mode = SECTION
        elif was_call and self.resume:
            around.start_thinking(self)
        else:
            self.mode = TEXT


def visible(r: Reader, text: str) -> None:
    """Visible text, as :meth:`Reader.until` hands it on."""
    r.sink.text(text)
