"""A small stand-in for the session's scanner, for one inline syntax: enough of the
protocol of :mod:`streamblocks.core.syntax` to check that the markup syntax keeps it
(offsets, NOT_MINE, pending text scanned again, every character attributed once)."""

from __future__ import annotations

from typing import Any

from streamblocks.core.registry import TypeTable
from streamblocks.core.syntax import BODY, GO_ON, NOT_MINE, InlineOut, InlineSyntax


class Out(InlineOut):
    def __init__(self, driver: Driver) -> None:
        self.d = driver

    def _take(self, n: int) -> str:
        d = self.d
        assert n <= len(d.unattributed), "attributed more than was read"
        taken, d.unattributed = d.unattributed[:n], d.unattributed[n:]
        return taken

    def text(self, n: int) -> None:  # (text in a tool-call section)
        assert self.d.open is None, "visible text inside a block"
        self.d._text(self._take(n))

    def marker(self, n: int) -> None:
        self.d.raw.append(self._take(n))

    def content(self, n: int) -> None:
        piece = self._take(n)
        assert self.d.open is not None, "content with no block open"
        self.d.raw.append(piece)
        self.d.content.append(piece)
        self.d.events.append(("delta", piece))

    def stream(self, text: str) -> None:
        assert self.d.open is not None, "arguments with no call open"
        self.d.events.append(("args", text))

    def hide(self, n: int) -> None:
        self.d.events.append(("hide", self._take(n)))

    def start(self, header: Any) -> None:
        assert self.d.open is None, "a block opened inside another"
        self.d.open = header
        self.d.events.append(("start", header.name, dict(header.attrs)))

    def end(self, content: Any = BODY, attrs: Any = None) -> None:
        d = self.d
        assert d.open is not None
        value = "".join(d.content) if content is BODY else content
        d.events.append(
            ("end", d.open.name, value, {**d.open.attrs, **(attrs or {})}, "".join(d.raw))
        )
        d.open, d.raw, d.content = None, [], []

    def fail(self, code: Any, message: str) -> None:
        d = self.d
        assert d.open is not None
        d.events.append(("error", code.value, "".join(d.raw)))
        d.open, d.raw, d.content = None, [], []

    @property
    def block_open(self) -> bool:
        return self.d.open is not None


class Driver:
    """Feeds chunks; scans visible text for the syntax's openers."""

    def __init__(self, syntax: InlineSyntax) -> None:
        self.types = TypeTable({})
        self.syntax = syntax
        self.openers = list(syntax.openers(self.types))
        self.events: list[tuple[Any, ...]] = []
        self.unattributed = ""  # read by the open region, not yet attributed
        self.buffer = ""  # visible text not yet scanned
        self.raw: list[str] = []
        self.content: list[str] = []
        self.open: Any = None
        self.out = Out(self)
        self.region = syntax.initial(self.types)
        self.initial = self.region is not None

    def feed(self, chunk: str) -> None:
        self.buffer += chunk
        self._scan(final=False)

    def close(self, stop_reason: Any = None) -> list[tuple[Any, ...]]:
        self._scan(final=True)
        while self.region is not None:  # (text read again may open another region)
            self.region.close(self.out, stop_reason)
            self.region = None
            if self.open is not None:
                self.out.fail(type("C", (), {"value": "UNCLOSED"}), "unclosed")
            pending, self.unattributed = self.unattributed, ""
            self.buffer = pending + self.buffer
            if pending and not self.initial:
                self._text(self.buffer[0])  # (the opener of a region that decided nothing)
                self.buffer = self.buffer[1:]
            self.initial = False
            self._scan(final=True)
        return self.events

    def _scan(self, *, final: bool) -> None:
        while self.buffer:
            if self.region is not None:
                text, self.buffer = self.buffer, ""
                self.unattributed += text
                end = self.region.read(text, 0, len(text), self.out)
                if end == GO_ON:
                    return
                if end == NOT_MINE:
                    assert self.initial
                    end = 0
                self.region = None
                self.initial = False
                rest = self.unattributed[: len(self.unattributed) - (len(text) - end)]
                self.buffer = rest + text[end:]
                self.unattributed = ""
                continue
            at, opener = self._find()
            if opener is None:
                keep = len(self.buffer) if final else self._held()
                self._text(self.buffer[:keep])
                self.buffer = self.buffer[keep:]
                return
            self._text(self.buffer[:at])
            self.buffer = self.buffer[at:]
            self.region = self.syntax.reader(opener, self.types)

    def _find(self) -> tuple[int, str | None]:
        best = (len(self.buffer), None)
        for opener in self.openers:
            at = self.buffer.find(opener)
            if at >= 0 and at < best[0]:
                best = (at, opener)
        return best

    def _held(self) -> int:
        for at in range(max(0, len(self.buffer) - 40), len(self.buffer)):
            tail = self.buffer[at:]
            if any(o.startswith(tail) and o != tail for o in self.openers):
                return at
        return len(self.buffer)

    def _text(self, text: str) -> None:
        if text:
            self.events.append(("text", text))
