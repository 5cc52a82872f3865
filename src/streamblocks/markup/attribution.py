"""What a reader has decided about the characters it read, in order, as pieces:

- ``("text", s)``: visible text (in a region of the session's scanner, the region ends
  at visible text, and ``s`` and what follows go back to the scanner; but for text in a
  tool-call section, which the region itself reports as visible);
- ``("marker", s)``: ``raw`` of the open block that is not content (markers, blanks,
  a call's body); ``("content", s)``: the open thinking block's text;
- ``("hide", s)``: framing that belongs to no block (a header before visible text);
- ``("start", kind, attrs)``: a block opens (``"thinking"``; ``"tool_call"`` once its
  name is known); ``("end", content, attrs)``: it closes;
  ``("fail", message, unclosed)``: it closes as an error with its whole ``raw``;
- ``("args", json)``: the open call's argument object, the next piece of its JSON text
  (no character of the reply: the arguments streamed as ``BLOCK_DELTA``).
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

Piece = tuple[Any, ...]


@mypyc_attr(allow_interpreted_subclasses=True)
class Attribution:
    """The pieces decided so far and the characters read but not decided yet.

    ``pending`` holds framing or a call's head until a block starts (they become its
    ``raw``) or visible text comes (framing is then hidden). In a region (``region``),
    visible text ends the region instead of becoming a piece.
    """

    __slots__ = ("attributed", "ended", "kind", "out", "pending", "region", "started")

    def __init__(self, *, region: bool) -> None:
        self.region = region
        self.out: list[Piece] = []
        self.pending: list[str] = []
        self.attributed = 0  # characters attributed (not as text) so far
        self.ended = False  # region: visible text came, the region ended
        self.kind = ""  # the open block ("thinking", "tool_call") or ""
        self.started = False

    def take(self) -> list[Piece]:
        """The pieces decided since the last call."""
        out, self.out = self.out, []
        return out

    def attribute(self, kind: str, text: str) -> None:
        self.attributed += len(text)
        self.out.append((kind, text))

    def mark(self, text: str) -> None:
        """``raw`` that is not content: the open block's, or the next one's."""
        if not text:
            return
        if self.started:
            self.attribute("marker", text)
        else:
            self.pending.append(text)

    def start(self, kind: str, attrs: dict[str, Any]) -> None:
        head = "".join(self.pending)
        self.pending = []
        if head:
            self.attribute("marker", head)
        self.kind, self.started = kind, True
        self.out.append(("start", kind, attrs))

    def flush_hidden(self) -> None:
        frame = "".join(self.pending)
        self.pending = []
        if frame:
            self.attribute("hide", frame)

    def shown(self, text: str) -> None:
        """Visible text inside a region that goes on (text in a tool-call section)."""
        if not text:
            return
        self.flush_hidden()
        self.attributed += len(text)
        self.out.append(("text", text))

    def text(self, text: str) -> None:
        """Visible text; in a region, the region ends where it begins."""
        if not text:
            return
        self.flush_hidden()
        if self.region:
            self.ended = True
        else:
            self.out.append(("text", text))
