"""The reader: a reply's text in, attributed pieces out, following a
:class:`~streamblocks.markup.grammar.Grammar`.

Sans-IO and chunk-blind: ``feed`` takes any piece of the reply, ``finish`` decides what
is still open. Every character read is attributed once, in order, by a :data:`Piece`:

- ``("text", s)``: visible text (in a region of the session's scanner: the region ends
  here, and ``s`` and what follows go back to the scanner);
- ``("marker", s)``: ``raw`` of the open block that is not content (markers, blanks,
  a call's body); ``("content", s)``: the open thinking block's text;
- ``("hide", s)``: framing that belongs to no block (a header before visible text);
- ``("start", kind, attrs)``: a block opens (``"thinking"``; ``"tool_call"`` once its
  name is known); ``("end", content, attrs)``: it closes;
  ``("fail", message, unclosed)``: it closes as an error with its whole ``raw``.

Text is released as soon as it cannot start a marker; a call's body is read once, as it
arrives, by a :class:`~streamblocks.markup.scan.BodyScanner` and parsed when it ends.
After a block's closer, blanks and framing markers (``<|end|>``, a section's closer)
that follow belong to the block, so its ``BLOCK_END`` waits for the next character.
"""

from __future__ import annotations

from typing import Any

from .body import WINDOW, CallBody, reply_start
from .grammar import CallFormat, Grammar, Section, tables
from .scan import Literals
from .schema import ToolSchemas

Piece = tuple[Any, ...]

_TEXT, _THINK, _BODY_START, _BODY, _AFTER, _SECTION = range(6)


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
    ) -> None:
        self.grammar = grammar
        self.schemas = schemas
        self.region = region
        self.ended = False  # region: visible text came, the region ended
        self.attributed = 0  # characters attributed (not as text) so far
        self.examined = 0  # characters the steps looked at (re-reads included), for tests
        self._held = ""
        self._out: list[Piece] = []
        self._pending: list[str] = []  # read, not yet attributed: framing or a call's head
        self._kind = ""  # the current block ("thinking", "tool_call") or ""
        self._started = False
        self._section: Section | None = None
        self._body: CallBody | None = None
        self._lead = True  # thinking: blanks at its start are not content
        self._blank = ""  # blanks held at the end of thinking / after a closer
        self._finished: Piece | None = None  # the end of a block, waiting for what follows
        self._replay = ""  # text to read again (a reply-start body that is no call)
        self._tables = tables(grammar)
        self._think_literals: Literals = self._tables.thinking_closers
        self._mode = _TEXT
        if starts_in_thinking and grammar.thinking:
            self._start_thinking()
        elif at_reply_start and grammar.start:
            self._mode = _BODY_START

    # -- driving

    def feed(self, text: str) -> list[Piece]:
        """Read the next piece of the reply."""
        delta = self.thinking_only(text)
        if delta is not None:
            return [("content", delta)] if delta else []
        buf = self._held + text if self._held else text
        self._held = ""
        if buf and not self.ended:
            self._read(buf)
        out, self._out = self._out, []
        return out

    def thinking_only(self, text: str) -> str | None:
        """The common case in one step: inside thinking, a chunk that cannot hold its
        closer is thinking text. Returns the content it gives (``""``: blanks held), or
        ``None`` when the chunk needs :meth:`feed`'s full reading."""
        if self._mode != _THINK or self._held or self._lead:
            return None
        literals = self._think_literals
        stop = literals.firsts
        if len(stop) == 1 and stop in text:
            return None
        if len(stop) > 1 and literals.first.search(text) is not None:  # type: ignore[union-attr]
            return None
        self.examined += len(text)
        body = text.rstrip()
        if not body:
            self._blank += text
            return ""
        delta = self._blank + body if self._blank else body
        self._blank = text[len(body) :]
        self.attributed += len(delta)
        return delta

    def finish(self, *, cut: bool = False) -> list[Piece]:
        """The stream ended (``cut``: by ``max_tokens``): decide what is still open."""
        held, self._held = self._held, ""
        if not self.ended:
            self._finish(held, cut)
        out, self._out = self._out, []
        return out

    def _finish(self, held: str, cut: bool) -> None:
        mode = self._mode
        if mode == _BODY or (mode == _BODY_START and self._body is not None):
            self._body_ended(held, cut)
        elif mode == _THINK:
            self._thinking(held)
            self._mark(self._blank)
            self._end_thinking()
        elif mode == _AFTER:
            self._close_after(held)
        elif mode == _SECTION:
            self._pending.append(held)
        else:
            self._text(held)
        if self._replay:  # a reply-start body that is no call, read again as text
            replay, self._replay = self._replay, ""
            self._read(replay)
            self._finish(self._held, cut)
            self._held = ""
        self._flush_hidden()

    def _read(self, buf: str) -> None:
        i, n = 0, len(buf)
        while i < n and not self.ended:
            mode = self._mode
            if mode == _TEXT:
                j = self._in_text(buf, i)
            elif mode == _THINK:
                j = self._in_thinking(buf, i)
            elif mode == _BODY:
                j = self._in_body(buf, i)
            elif mode == _SECTION:
                j = self._in_section(buf, i)
            elif mode == _AFTER:
                j = self._after(buf, i)
            else:
                j = self._body_start(buf, i)
            if j < 0:
                self.examined += n - i
                self._held = buf[-j - 1 :]
                if not self._replay:
                    return
                j = -j - 1
            else:
                self.examined += j - i
            if self._replay:  # a reply-start body that is no call: read again as text
                buf = self._replay + buf[j:]
                self._replay = self._held = ""
                i, n = 0, len(buf)
                continue
            i = j

    @staticmethod
    def _hold(at: int) -> int:
        """What a step returns to keep ``buf[at:]`` for the next chunk."""
        return -at - 1

    # -- attribution

    def _attribute(self, kind: str, text: str) -> None:
        self.attributed += len(text)
        self._out.append((kind, text))

    def _mark(self, text: str) -> None:
        if not text:
            return
        if self._started:
            self._attribute("marker", text)
        else:
            self._pending.append(text)

    def _start(self, kind: str, attrs: dict[str, Any]) -> None:
        head = "".join(self._pending)
        self._pending = []
        if head:
            self._attribute("marker", head)
        self._kind, self._started = kind, True
        self._out.append(("start", kind, attrs))

    def _flush_hidden(self) -> None:
        frame = "".join(self._pending)
        self._pending = []
        if frame:
            self._attribute("hide", frame)

    def _text(self, text: str) -> None:
        """Visible text; in a region, the region ends where it begins."""
        if not text:
            return
        self._flush_hidden()
        if self.region:
            self.ended = True
        else:
            self._out.append(("text", text))

    # -- visible text

    def _in_text(self, buf: str, i: int) -> int:
        literals = self._tables.text
        found = literals.find(buf, i)
        if found is None:
            keep = literals.held(buf, i)
            self._text(buf[i:keep])
            if self.ended:
                return i
            return self._hold(keep) if keep < len(buf) else len(buf)
        at = found.start()
        if at > i:
            self._text(buf[i:at])
            if self.ended:
                return i
        self._marker(found.group())
        return found.end()

    def _marker(self, marker: str) -> None:
        kind, what = self._tables.actions[marker]
        self._pending.append(marker)
        if kind == "think":
            self._think_literals = what
            self._start_thinking()
        elif kind == "call":
            self._start_call(what)
        elif kind == "section":
            self._section = what
            self._mode = _SECTION

    # -- thinking

    def _start_thinking(self) -> None:
        self._lead, self._blank = True, ""
        self._start("thinking", {})
        self._mode = _THINK

    def _in_thinking(self, buf: str, i: int) -> int:
        literals = self._think_literals
        found = literals.find(buf, i)
        if found is None:
            keep = literals.held(buf, i)
            self._thinking(buf[i:keep])
            return self._hold(keep) if keep < len(buf) else len(buf)
        self._thinking(buf[i : found.start()])
        self._mark(self._blank + found.group())
        self._blank = ""
        self._finished = ("end", None, {})
        self._mode = _AFTER
        return found.end()

    def _thinking(self, text: str) -> None:
        if not text:
            return
        if self._lead:
            body = text.lstrip()
            self._mark(text[: len(text) - len(body)])
            if not body:
                return
            text, self._lead = body, False
        body = text.rstrip()
        if not body:
            self._blank += text
            return
        self._attribute("content", self._blank + body if self._blank else body)
        self._blank = text[len(body) :]

    def _end_thinking(self) -> None:
        self._out.append(("end", None, {}))
        self._reset()

    # -- after a block's closer

    def _after(self, buf: str, i: int) -> int:
        """Blanks and framing after a closer belong to the block: thinking keeps every
        blank; a call keeps blanks only before a marker it takes."""
        n = len(buf)
        j = i
        while j < n and buf[j].isspace():
            j += 1
        self._blank += buf[i:j]
        if j == n:
            return n
        literals = self._tables.after
        found = literals.pattern.match(buf, j) if literals.pattern is not None else None
        if buf[j:] in literals.prefixes:
            return self._hold(j)
        if found is not None and self._takes(found.group()):
            marker = found.group()
            self._mark(self._blank + marker)
            self._blank = ""
            if self._section is not None and marker == self._section.closer:
                self._section = None
            return found.end()
        self._close_after("")
        return j

    def _takes(self, marker: str) -> bool:
        kind = self._tables.actions.get(marker, ("", None))[0]
        section, body = self._section, self._body
        return (
            kind == "hide"
            or (section is not None and marker == section.closer)
            or (body is not None and marker == body.call.tail)
        )

    def _close_after(self, held: str) -> None:
        blank, self._blank = self._blank, ""
        if self._kind == "thinking":
            self._mark(blank)
            blank = ""
        finished = self._finished
        assert finished is not None
        self._out.append(finished)
        self._finished = None
        was_call = self._kind == "tool_call"
        self._reset()
        if self._section is not None and was_call:
            self._pending.append(blank + held)
        else:
            self._text(blank + held)

    def _reset(self) -> None:
        self._kind, self._started, self._body = "", False, None
        self._mode = _SECTION if self._section is not None else _TEXT

    # -- calls

    def _start_call(self, call: CallFormat) -> None:
        self._body = CallBody(call)
        self._kind = "tool_call"
        self._mode = _BODY_START

    def _body_start(self, buf: str, i: int) -> int:
        """Blanks before a body; its first character chooses how it ends."""
        n = len(buf)
        j = i
        while j < n and buf[j].isspace():
            j += 1
        body = self._body
        if body is None:  # the start of the reply: maybe a bare call
            found = reply_start(self.grammar, buf[j:])
            if found is None and n - i <= WINDOW:
                return self._hold(i)
            if not found:
                self._mode = _TEXT
                return i
            assert isinstance(found, tuple)
            self._start_call(found[0])
            self._pending.append(buf[i : j + len(found[1])])
            return j + len(found[1])
        self._mark(buf[i:j])
        if j < n:
            body.begin(buf[j])
            self._mode = _BODY
        return j

    def _in_body(self, buf: str, i: int) -> int:
        body = self._body
        assert body is not None and body.scanner is not None
        found = body.scanner.scan(buf, i)
        if found is None:
            keep = body.scanner.keep
            self._add_body(buf[i:keep])
            return self._hold(keep) if keep < len(buf) else len(buf)
        closer_at, end = found
        self._add_body(buf[i:closer_at])
        if self._mode != _BODY:  # a reply-start body that is no call
            return closer_at
        self._mark(buf[closer_at:end])
        self._end_call(quiet=False)
        return end

    def _add_body(self, text: str) -> None:
        body = self._body
        if not text or body is None:
            return
        self._mark(text)
        name = body.add(text)
        if name is False:
            self._unclaim()
        elif name:
            self._start("tool_call", name)  # type: ignore[arg-type]

    def _body_ended(self, held: str, cut: bool) -> None:
        """The stream ended inside a call's body."""
        body = self._body
        assert body is not None
        self._add_body(held)
        if self._body is None:
            return
        call = body.call
        complete = body.scanner is not None and (call.at_end or body.closed_in_value())
        if not cut and complete and self._end_call(quiet=True):
            if self._finished is not None:
                self._close_after("")
            return
        if not call.opener and not self._started:  # a bare start that is no call: text
            self._unclaim()
            return
        what = f"a call opened by {call.opener!r}" if call.opener else "a call"
        self._fail(f"the stream ended inside {what}", unclosed=True)

    def _unclaim(self) -> None:
        """A reply-start body that is no call: visible text after all."""
        text = "".join(self._pending)
        self._pending = []
        self._reset()
        if self.region:
            self._text(text)  # the region ends; the scanner reads the text again
        else:
            self._replay = text

    def _fail(self, message: str, *, unclosed: bool) -> None:
        if not self._started:
            self._start("tool_call", {})
        self._out.append(("fail", message, unclosed))
        self._reset()

    def _end_call(self, *, quiet: bool) -> bool:
        body = self._body
        assert body is not None
        try:
            calls = body.parse(self.schemas)
        except ValueError as exc:
            if quiet:
                return False
            if not body.call.opener and not self._started:
                self._unclaim()
            else:
                self._fail(f"a broken tool call: {exc}", unclosed=False)
            return True
        if not calls:
            self._fail("no tool call in the markup", unclosed=False)
            return True
        for index, found in enumerate(calls):
            attrs: dict[str, Any] = {"name": found.name}
            if found.call_id is not None:
                attrs["id"] = found.call_id
            if not self._started:
                self._start("tool_call", attrs)
            finished = ("end", found.arguments, attrs)
            if index < len(calls) - 1:
                self._out.append(finished)
                self._started = False
            else:
                self._finished = finished
        self._blank = ""
        self._mode = _AFTER
        return True

    # -- sections

    def _in_section(self, buf: str, i: int) -> int:
        section = self._section
        assert section is not None
        literals = self._tables.sections[section.opener]
        found = literals.find(buf, i)
        if found is None:
            keep = literals.held(buf, i)
            self._pending.append(buf[i:keep])
            return self._hold(keep) if keep < len(buf) else len(buf)
        self._pending.append(buf[i : found.start()])
        marker = found.group()
        self._pending.append(marker)
        if marker == section.closer:
            self._section = None
            self._mode = _TEXT
        else:
            self._start_call(next(c for c in section.calls if c.opener == marker))
        return found.end()
