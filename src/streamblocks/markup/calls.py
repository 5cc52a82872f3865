"""Reading tool calls, for :class:`~streamblocks.markup.reader.Reader`: a body from its
first character to its end, then its parse into calls (or a broken call, or, for a bare
call at the reply's start, visible text after all). Functions of the reader's state."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .body import AFTER, BODY, BODY_START, TEXT, WINDOW, CallBody, reply_start
from .grammar import CallFormat
from .head import add_text, unclaim
from .items import add_items, release

if TYPE_CHECKING:
    from .reader import Reader


def start_call(r: Reader, call: CallFormat) -> None:
    r.body = CallBody(call, r.schemas)
    r.sink.kind = "tool_call"
    r.mode = BODY_START


def body_start(r: Reader, buf: str, i: int) -> int:
    """Blanks before a body; its first character chooses how it ends."""
    n = len(buf)
    j = skip_blanks(buf, i)
    body = r.body
    if body is None:  # the start of the reply, or a chain's separator: maybe a bare call
        formats = r.grammar.start
        if r.chain:
            formats = r.grammar.chained
            j = skip_blanks(buf, j + len(r.chain))
        found = reply_start(formats, buf[j:])
        if found is None and n - i <= WINDOW:
            return r.hold(i)
        if not found:
            if r.chain:  # no call after the separator: it and the blanks are text
                r.chain = ""
                unclaim(r)
            r.mode = TEXT
            return i
        assert isinstance(found, tuple)
        r.chain = ""
        start_call(r, found[0])
        r.sink.pending.append(buf[i : j + len(found[1])])
        return j + len(found[1])
    r.sink.mark(buf[i:j])
    if j < n:
        body.begin(buf[j])
        r.mode = BODY
    return j


def skip_blanks(buf: str, i: int) -> int:
    n = len(buf)
    while i < n and buf[i].isspace():
        i += 1
    return i


def in_body(r: Reader, buf: str, i: int) -> int:
    body = r.body
    assert body is not None and body.scanner is not None
    found = body.scanner.scan(buf, i)
    if found is None:
        keep = body.scanner.keep
        add_body(r, buf[i:keep])
        return r.hold(keep) if keep < len(buf) else len(buf)
    closer_at, end = found
    add_body(r, buf[i:closer_at])
    if r.mode != BODY:  # a reply-start body that is no call
        return closer_at
    r.sink.mark(buf[closer_at:end])
    end_call(r, quiet=False)
    return end


def add_body(r: Reader, text: str) -> None:
    body = r.body
    if not text or body is None:
        return
    if body.items is not None:
        add_items(r, body, body.items, text)
    else:
        add_text(r, body, text)


def body_ended(r: Reader, held: str, cut: bool) -> None:
    """The stream ended inside a call's body."""
    body = r.body
    assert body is not None
    add_body(r, held)
    if r.body is None:
        return
    call = body.call
    complete = body.scanner is not None and (call.at_end or body.closed_in_value())
    if not cut and complete and end_call(r, quiet=True):
        if r.finished is not None:
            r.close_after("")
        return
    if not call.opener and not r.sink.started:  # a bare start that is no call: text
        unclaim(r)
        return
    what = f"a call opened by {call.opener!r}" if call.opener else "a call"
    fail(r, f"the stream ended inside {what}", unclosed=True)


def fail(r: Reader, message: str, *, unclosed: bool) -> None:
    if r.body is not None and r.body.items is not None:
        release(r, r.body.items)
    if not r.sink.started:
        r.sink.start("tool_call", {})
    r.sink.out.append(("fail", message, unclosed))
    r.reset()


def end_call(r: Reader, *, quiet: bool) -> bool:
    body = r.body
    assert body is not None
    items = body.items
    try:
        calls = body.parse(r.schemas)
    except ValueError as exc:
        r.work += body.work
        if quiet:
            return False
        if not body.call.opener and not r.sink.started:
            unclaim(r)
        else:
            fail(r, f"a broken tool call: {exc}", unclosed=False)
        return True
    r.work += body.work
    if items is not None and items.broken:
        fail(r, f"a broken tool call: {items.broken}", unclosed=False)
        return True
    if not calls:
        if not r.sink.started:  # an empty list ("[]"): the model called none, framing
            r.reset()
            return True
        fail(r, "no tool call in the markup", unclosed=False)
        return True
    if items is not None:  # the calls that ended before the array's end
        calls = calls[items.ended :]
    for index, found in enumerate(calls):
        attrs: dict[str, Any] = {"name": found.name}
        if found.call_id is not None:
            attrs["id"] = found.call_id
        if not r.sink.started:
            r.sink.start("tool_call", attrs)
        if index == 0:  # the call whose arguments the body streamed
            rest = body.arguments.rest(found.arguments)
            if rest is None:
                fail(r, f"a broken tool call: {body.arguments.problem}", unclosed=False)
                return True
            if body.held or rest:
                r.sink.out.append(("args", body.held + rest))
        else:  # the JSON the arguments amount to, at once
            r.sink.out.append(("args", json.dumps(found.arguments, ensure_ascii=False)))
        finished = ("end", found.arguments, attrs)
        if index < len(calls) - 1:
            r.sink.out.append(finished)
            r.sink.started = False
        else:
            r.finished = finished
    r.blank = ""
    r.mode = AFTER
    return True
