"""A call body's own text as the reader takes it, for
:class:`~streamblocks.markup.reader.Reader`: the open call's ``raw``, its name once it
shows, its streamed arguments; and a bare call at the reply's start that turns out to
be no call, given back as visible text."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .body import CallBody
    from .reader import Reader


def add_text(r: Reader, body: CallBody, text: str) -> None:
    """``text`` of the body: the open call's ``raw``, its name, its arguments."""
    r.sink.mark(text)
    name = body.add(text)
    if name is False:
        unclaim(r)
        return
    if name:
        r.sink.start("tool_call", name)  # type: ignore[arg-type]
        body.arguments.named(name.get("name", ""))  # type: ignore[union-attr]
    arguments = body.arguments.feed(text)
    if arguments or body.held:
        if r.sink.started:
            r.sink.out.append(("args", body.held + arguments))
            body.held = ""
        else:
            body.held += arguments


def unclaim(r: Reader) -> None:
    """A reply-start body that is no call: visible text after all."""
    text = "".join(r.sink.pending)
    r.sink.pending = []
    r.reset()
    if r.region:
        r.sink.text(text)  # the region ends; the scanner reads the text again
    else:
        r.replay = text
