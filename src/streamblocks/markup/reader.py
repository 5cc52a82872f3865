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

from typing import Any

from mypy_extensions import mypyc_attr

from . import calls
from .attribution import Attribution, Piece
from .body import AFTER, BODY, BODY_START, LEAD, SECTION, TEXT, THINK, WINDOW, CallBody
from .grammar import Grammar, Section, tables, with_calls
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
        self._held = ""
        self._section: Section | None = None
        self.body: CallBody | None = None
        self._lead = True  # thinking: blanks at its start are not content
        self.blank = ""  # blanks held at the end of thinking / after a closer
        self.finished: Piece | None = None  # the end of a block, waiting for what follows
        self.replay = ""  # text to read again (a reply-start body that is no call)
        self.chain = ""  # after this separator, another bare call may follow
        self.gap = ""  # blanks in a section, framing unless text follows
        self.calls_in_thinking = calls_in_thinking
        self._resume = False  # thinking goes on after the call written inside it
        self._tables = tables(grammar)
        self._closers: Literals = self._tables.thinking_closers
        self._think_literals = self._closers
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
        buf = self._held + text if self._held else text
        self._held = ""
        if buf and not self.sink.ended:
            self._read(buf)
        return self.sink.take()

    def thinking_only(self, text: str) -> int | None:
        """The common case in one step: inside thinking, a chunk that cannot hold its
        closer is thinking text. Returns how many characters it gives as content, the
        blanks held before ``text`` first (0: ``text`` is blanks, held), or ``None``
        without reading anything when the chunk needs :meth:`feed_full`."""
        if self.mode != THINK or self._held or self._lead:
            return None
        literals = self._think_literals
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
        if self.mode != THINK or self._held or self._lead or self.blank:
            return None
        stop = self._think_literals.firsts
        return stop if len(stop) == 1 else None

    def body_only(self, text: str) -> tuple[str, int] | None:
        """The common case of a call's body in one step: once its block has started, a
        chunk that cannot end the body (:meth:`BodyScanner.whole`) is all ``raw`` of the
        call; one that ends in what may begin its closer (``}}\\n<``) is ``raw`` up to
        there, the rest held (:meth:`BodyScanner.taken`). Returns the argument JSON it
        streams (``""``: none) and how many characters are ``raw``, or ``None`` without
        reading anything when the chunk needs :meth:`feed_full`."""
        body = self.body
        if self.mode != BODY or self._held or body is None or not self.sink.started:
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
            self._held, text = text[n:], text[:n]
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
        held = self._held
        if held:
            if not scanner.held_whole(held + text):
                return False
            self._held = held + text
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
        if self.mode != BODY or body is None or self._held or self.sink.started:
            return None
        scanner = body.scanner
        if body.items is not None or scanner is None or body.named or self.sink.ended:
            return None
        if not body.call.opener or not scanner.whole(text):
            return None
        n = len(text)
        self.examined += n
        self.given += n
        calls.add_text(self, body, text)
        return self.sink.take()

    def finish(self, *, cut: bool = False) -> list[Piece]:
        """The stream ended (``cut``: by ``max_tokens``): decide what is still open."""
        held, self._held = self._held, ""
        if not self.sink.ended:
            self._finish(held, cut)
        return self.sink.take()

    def _finish(self, held: str, cut: bool) -> None:
        mode = self.mode
        if mode == LEAD:
            self._start_thinking()
            mode = THINK
        if mode == BODY or (mode == BODY_START and self.body is not None):
            calls.body_ended(self, held, cut)
        elif mode == BODY_START:  # a chain's separator with no call after it: text
            pending, self.sink.pending = "".join(self.sink.pending), []
            self.sink.text(pending + held)
        elif mode == THINK:
            self._thinking(held)
            self.sink.mark(self.blank)
            self._end_thinking()
        elif mode == AFTER:
            self.close_after(held)
        elif mode == SECTION:
            self._section_text(held)
        else:
            self.sink.text(held)
        if self.gap:  # blanks at the end of an unclosed section
            gap, self.gap = self.gap, ""
            self.sink.shown(gap)
        if self.replay:  # a reply-start body that is no call, read again as text
            replay, self.replay = self.replay, ""
            self._read(replay)
            self._finish(self._held, cut)
            self._held = ""
        self.sink.flush_hidden()

    def _read(self, buf: str) -> None:
        i, n = 0, len(buf)
        while i < n and not self.sink.ended:
            mode = self.mode
            if mode == TEXT:
                j = self._in_text(buf, i)
            elif mode == THINK:
                j = self._in_thinking(buf, i)
            elif mode == BODY:
                j = calls.in_body(self, buf, i)
            elif mode == SECTION:
                j = self._in_section(buf, i)
            elif mode == AFTER:
                j = self._after(buf, i)
            elif mode == LEAD:
                j = self._in_lead(buf, i)
            else:
                j = calls.body_start(self, buf, i)
            if j < 0:
                self.examined += n - i
                self._held = buf[-j - 1 :]
                if not self.replay:
                    return
                j = -j - 1
            else:
                self.examined += j - i
            if self.replay:  # a reply-start body that is no call: read again as text
                buf = self.replay + buf[j:]
                self.replay = self._held = ""
                i, n = 0, len(buf)
                continue
            i = j

    @staticmethod
    def hold(at: int) -> int:
        """What a step returns to keep ``buf[at:]`` for the next chunk."""
        return -at - 1

    # -- visible text

    def _until(self, literals: Literals, buf: str, i: int, take: Any) -> Any:
        """Hand ``take`` the text before the next marker; returns the marker's match, or
        (no marker, or a region that ended) what the step returns."""
        found = literals.find(buf, i)
        end = found.start() if found is not None else literals.held(buf, i)
        if end > i:
            take(buf[i:end])
            if self.sink.ended:
                return i
        if found is not None:
            return found
        return self.hold(end) if end < len(buf) else len(buf)

    def _in_text(self, buf: str, i: int) -> int:
        found = self._until(self._tables.text, buf, i, self.sink.text)
        if isinstance(found, int):
            return found
        self._marker(found.group())
        return int(found.end())

    def _marker(self, marker: str) -> None:
        kind, what = self._tables.actions[marker]
        self.sink.pending.append(marker)
        if kind == "think":
            self._closers = self._think_literals = what
            self._start_thinking()
        elif kind == "call":
            calls.start_call(self, what)
        elif kind == "section":
            self._section = what
            self.mode = SECTION

    # -- thinking

    def _start_thinking(self) -> None:
        self._lead, self.blank = True, ""
        self.sink.start("thinking", {})
        self.mode = THINK
        if self.calls_in_thinking:
            self._think_literals = with_calls(self._closers, self._tables.call_openers)

    def _in_lead(self, buf: str, i: int) -> int:
        """The reply starts inside thinking unless its first marker says otherwise: a
        thinking opener is dropped (the model wrote it again), a call's, a section's or
        a framing marker shows that thinking was not open after all."""
        j = calls.skip_blanks(buf, i)
        if j == len(buf) and j - i < WINDOW:
            return self.hold(i)
        literals = self._tables.text
        if buf[j:] in literals.prefixes:
            return self.hold(i)
        found = literals.pattern.match(buf, j) if literals.pattern is not None else None
        marker = found.group() if found is not None else ""
        if marker and self._tables.actions[marker][0] != "think":
            self.mode = BODY_START if self.grammar.start else TEXT
            return i
        self._start_thinking()
        if marker:
            self.sink.mark(buf[i : j + len(marker)])
            return j + len(marker)
        return i

    def _in_thinking(self, buf: str, i: int) -> int:
        found = self._until(self._think_literals, buf, i, self._thinking)
        if isinstance(found, int):
            return found
        marker = found.group()
        self.sink.mark(self.blank + (marker if marker in self._closers.literals else ""))
        self.blank = ""
        if marker not in self._closers.literals:  # calls_in_thinking: a call opens
            self._end_thinking()
            self._resume = True
            self._marker(marker)
            return int(found.end())
        self._resume = False
        self.finished = ("end", None, {})
        self.mode = AFTER
        return int(found.end())

    def _thinking(self, text: str) -> None:
        if not text:
            return
        if self._lead:
            body = text.lstrip()
            self.sink.mark(text[: len(text) - len(body)])
            if not body:
                return
            text, self._lead = body, False
        body = text.rstrip()
        if not body:
            self.blank += text
            return
        self.sink.attribute("content", self.blank + body if self.blank else body)
        self.blank = text[len(body) :]

    def _end_thinking(self) -> None:
        self.sink.out.append(("end", None, {}))
        self.reset()

    # -- after a block's closer

    def _after(self, buf: str, i: int) -> int:
        """Blanks and framing after a closer belong to the block: thinking keeps every
        blank; a call keeps blanks only before a marker it takes."""
        n = len(buf)
        j = i
        while j < n and buf[j].isspace():
            j += 1
        self.blank += buf[i:j]
        if j == n:
            return n
        literals = self._tables.after
        found = literals.pattern.match(buf, j) if literals.pattern is not None else None
        if buf[j:] in literals.prefixes:
            return self.hold(j)
        if found is not None and self._takes(found.group()):
            marker = found.group()
            self.sink.mark(self.blank + marker)
            self.blank = ""
            if self._section is not None and marker == self._section.closer:
                self._section = None
            return found.end()
        then = self.body.call.then if self.body is not None else ""
        if then and buf.startswith(then, j):  # another call may follow the separator
            blank, self.blank = self.blank, ""
            self.close_after("")
            self.sink.pending.append(blank)
            self.chain, self.mode = then, BODY_START
            return j
        self.close_after("")
        return j

    def _takes(self, marker: str) -> bool:
        kind = self._tables.actions.get(marker, ("", None))[0]
        section, body = self._section, self.body
        return (
            kind == "hide"
            or (section is not None and marker == section.closer)
            or (body is not None and marker == body.call.tail)
        )

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
            self._section_text(blank + held)
        elif self.mode == THINK:
            self._thinking(blank + held)
        else:
            self.sink.text(blank + held)

    def reset(self) -> None:
        """A block ended: back to the section, the thinking or the text around it."""
        was_call = self.sink.kind == "tool_call"
        self.sink.kind, self.sink.started, self.body = "", False, None
        if self._section is not None:
            self.mode = SECTION
        elif was_call and self._resume:
            self._start_thinking()
        else:
            self.mode = TEXT

    # -- sections

    def _in_section(self, buf: str, i: int) -> int:
        section = self._section
        assert section is not None
        found = self._until(self._tables.sections[section.opener], buf, i, self._section_text)
        if isinstance(found, int):
            return found
        marker = found.group()
        self.sink.pending.append(self.gap + marker)
        self.gap = ""
        if marker == section.closer:
            self._section = None
            if self._resume:
                self._start_thinking()
            else:
                self.mode = TEXT
        else:
            calls.start_call(self, next(c for c in section.calls if c.opener == marker))
        return int(found.end())

    def _section_text(self, text: str) -> None:
        """Text in a section: blanks are framing when a marker follows them; other text
        is visible (only the named markers are hidden)."""
        body = text.rstrip()
        if body:
            self.sink.shown(self.gap + body)
            self.gap = ""
        self.gap += text[len(body) :]
