"""What surrounds the calls, for :class:`~streamblocks.markup.reader.Reader`: thinking
(its start, its text, its closer), what follows a block's closer (blanks and framing that
belong to it), and the sections that wrap calls. Functions of the reader's state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import calls
from .body import AFTER, BODY_START, TEXT, THINK, WINDOW
from .grammar import with_calls

if TYPE_CHECKING:
    from .reader import Reader


def start_thinking(r: Reader) -> None:
    r.lead, r.blank = True, ""
    r.sink.start("thinking", {})
    r.mode = THINK
    if r.calls_in_thinking:
        r.think_literals = with_calls(r.closers, r.tables.call_openers)


def in_lead(r: Reader, buf: str, i: int) -> int:
    """The reply starts inside thinking unless its first marker says otherwise: a
    thinking opener is dropped (the model wrote it again), a call's, a section's or
    a framing marker shows that thinking was not open after all."""
    j = calls.skip_blanks(buf, i)
    if j == len(buf) and j - i < WINDOW:
        return r.hold(i)
    literals = r.tables.text
    if buf[j:] in literals.prefixes:
        return r.hold(i)
    found = literals.pattern.match(buf, j) if literals.pattern is not None else None
    marker = found.group() if found is not None else ""
    if marker and r.tables.actions[marker][0] != "think":
        r.mode = BODY_START if r.grammar.start else TEXT
        return i
    start_thinking(r)
    if marker:
        r.sink.mark(buf[i : j + len(marker)])
        return j + len(marker)
    return i


def in_thinking(r: Reader, buf: str, i: int) -> int:
    found = r.until(r.think_literals, buf, i, thinking)
    if isinstance(found, int):
        return found
    marker = found.group()
    r.sink.mark(r.blank + (marker if marker in r.closers.literals else ""))
    r.blank = ""
    if marker not in r.closers.literals:  # calls_in_thinking: a call opens
        end_thinking(r)
        r.resume = True
        r.marker(marker)
        return int(found.end())
    r.resume = False
    r.finished = ("end", None, {})
    r.mode = AFTER
    return int(found.end())


def thinking(r: Reader, text: str) -> None:
    if not text:
        return
    if r.lead:
        body = text.lstrip()
        r.sink.mark(text[: len(text) - len(body)])
        if not body:
            return
        text, r.lead = body, False
    body = text.rstrip()
    if not body:
        r.blank += text
        return
    r.sink.attribute("content", r.blank + body if r.blank else body)
    r.blank = text[len(body) :]


def end_thinking(r: Reader) -> None:
    r.sink.out.append(("end", None, {}))
    r.reset()


def after(r: Reader, buf: str, i: int) -> int:
    """Blanks and framing after a closer belong to the block: thinking keeps every
    blank; a call keeps blanks only before a marker it takes."""
    n = len(buf)
    j = i
    while j < n and buf[j].isspace():
        j += 1
    r.blank += buf[i:j]
    if j == n:
        return n
    literals = r.tables.after
    found = literals.pattern.match(buf, j) if literals.pattern is not None else None
    if buf[j:] in literals.prefixes:
        return r.hold(j)
    if found is not None and takes(r, found.group()):
        marker = found.group()
        r.sink.mark(r.blank + marker)
        r.blank = ""
        if r.section is not None and marker == r.section.closer:
            r.section = None
        return found.end()
    then = r.body.call.then if r.body is not None else ""
    if then and buf.startswith(then, j):  # another call may follow the separator
        blank, r.blank = r.blank, ""
        r.close_after("")
        r.sink.pending.append(blank)
        r.chain, r.mode = then, BODY_START
        return j
    r.close_after("")
    return j


def takes(r: Reader, marker: str) -> bool:
    kind = r.tables.actions.get(marker, ("", None))[0]
    section, body = r.section, r.body
    return (
        kind == "hide"
        or (section is not None and marker == section.closer)
        or (body is not None and marker == body.call.tail)
    )


def in_section(r: Reader, buf: str, i: int) -> int:
    section = r.section
    assert section is not None
    found = r.until(r.tables.sections[section.opener], buf, i, section_text)
    if isinstance(found, int):
        return found
    marker = found.group()
    r.sink.pending.append(r.gap + marker)
    r.gap = ""
    if marker == section.closer:
        r.section = None
        if r.resume:
            start_thinking(r)
        else:
            r.mode = TEXT
    else:
        calls.start_call(r, next(c for c in section.calls if c.opener == marker))
    return int(found.end())


def section_text(r: Reader, text: str) -> None:
    """Text in a section: blanks are framing when a marker follows them; other text
    is visible (only the named markers are hidden)."""
    body = text.rstrip()
    if body:
        r.sink.shown(r.gap + body)
        r.gap = ""
    r.gap += text[len(body) :]
