"""One tool call's body as it arrives: where it ends, its name once written, its parse."""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from .arguments import STREAMED
from .grammar import Call, CallFormat
from .items import Items
from .scan import METER, BodyScanner, Meter
from .schema import ToolSchemas

_NO_SCHEMAS: ToolSchemas = {}

TEXT, THINK, BODY_START, BODY, AFTER, SECTION, LEAD = range(7)
"""What a reader is reading: visible text, thinking, the blanks before a call's body, the
body, what follows a closer, a section between calls, the start of a reply that the
prompt left inside thinking (until its first marker or text shows whether it is)."""

WINDOW = 512
"""How far into a body its name is looked for."""
START_WINDOW = 64
"""A bare call at the reply's start shows its name this early, or is text."""


@mypyc_attr(allow_interpreted_subclasses=True)
class CallBody:
    """The text of one call's body, read once: ``begin`` when its first character
    shows how it ends, ``scan`` for its end, ``add`` what belongs to it."""

    __slots__ = (
        *(
            "arguments",
            "call",
            "held",
            "items",
            "named",
            "parts",
            "scanner",
            "schemas",
            "size",
            "work",
        ),
    )

    def __init__(self, call: CallFormat, schemas: ToolSchemas = _NO_SCHEMAS) -> None:
        self.call = call
        self.parts: list[str] = []
        self.size = 0
        self.named = call.name is None  # the name search is over
        self.scanner: BodyScanner | None = None
        self.work = 0  # characters the parse looked at
        self.schemas = schemas
        self.arguments = STREAMED
        self.held = ""  # argument text read before the call's start
        self.items: Items | None = None  # an array of calls, read item by item

    def begin(self, first: str) -> None:
        spec = self.call.spec_for(first)
        assert spec is not None
        self.scanner = BodyScanner(spec)
        self.arguments = self.call.argument_stream(self.schemas, first)
        if first == "[" and self.call.item is not None:
            self.items = Items(self.call.item)

    def add(self, text: str) -> dict[str, Any] | bool | None:
        """Add ``text``; the name attributes (``name``, maybe ``id``) when they show now,
        ``False`` when a bare call at the reply's start turns out to be no call."""
        self.parts.append(text)
        self.size += len(text)
        if self.named:
            return None
        pattern = self.call.name
        assert pattern is not None
        head = "".join(self.parts)[:WINDOW]
        found = pattern.search(head)
        if found is not None:
            self.named = True
            groups = found.groupdict().items()
            return {key[:4] if key.startswith("name") else key: v for key, v in groups if v}
        if not self.call.opener and len(head) >= START_WINDOW:
            return False
        self.named = len(head) >= WINDOW
        return None

    def unnamed(self, text: str) -> bool:
        """Whether ``text``, added next, leaves the name unknown and its search going
        on (:meth:`add` would return ``None``). The head so far has none, so a name can
        only end in ``text``: without a character of the format's ``name_ends`` there is
        none, and the head is not searched again."""
        call = self.call
        if self.size + len(text) >= (WINDOW if call.opener else START_WINDOW):
            return False
        ends = call.name_ends
        if ends:
            for end in ends:
                if end in text:
                    break
            else:
                return True
        pattern = call.name
        assert pattern is not None
        return pattern.search("".join(self.parts) + text) is None

    def closed_in_value(self) -> bool:
        """At the end of the stream: the body's last text is its closer, read as part of
        a value left open (a missing ``</arg_value>``). The body is then cut before it
        and the call may still read."""
        scanner = self.scanner
        if scanner is None or scanner.region is None:
            return False
        text = "".join(self.parts).rstrip()
        for closer in scanner.spec.closers:
            if text.endswith(closer):
                self.parts = [text[: -len(closer)]]
                return True
        return False

    def spent(self) -> int:
        """The characters reading the body looked at beyond one pass (held text read
        again), for ``Session.examined``. (The end's search, :attr:`BodyScanner.work`,
        is not in it: it depends on how the chunks came, which ``examined`` must not.)"""
        spent = 0
        if self.items is not None:
            spent += self.items.work
        return spent + self.arguments.work

    def parse(self, schemas: ToolSchemas) -> list[Call]:
        """The calls the body holds; ``ValueError`` saying why it is broken. :attr:`work`:
        the characters the parse looked at (one pass, and what it counts beyond it)."""
        text = "".join(self.parts)
        meter = Meter()
        token = METER.set(meter)
        try:
            return self.call.parse(text, schemas)
        finally:
            METER.reset(token)
            self.work = len(text) + meter.count


def reply_start(formats: tuple[CallFormat, ...], rest: str) -> tuple[CallFormat, str] | bool | None:
    """The bare call of ``formats`` that begins ``rest`` (blanks skipped) with its
    opener, ``False`` when none does, ``None`` when the next chunk decides."""
    if not rest:
        return None
    for call in formats:
        opener = call.opener
        if opener and rest.startswith(opener):
            return call, opener
        if opener and opener.startswith(rest):
            return None
        if not opener and call.spec_for(rest[0]) is not None:
            return call, ""
    return False
