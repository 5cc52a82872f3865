"""LangChain content blocks as native pieces, and the blocks a stream has open.

One :class:`OpenBlocks` per stream reads the standard (v1) content blocks —
``text`` with citation ``annotations``, ``reasoning``, ``tool_call_chunk`` / ``tool_call``
/ ``invalid_tool_call``, ``server_tool_call`` / ``server_tool_call_chunk`` /
``server_tool_result``, ``refusal``, images and files — and the provider-native blocks of
LangChain's older format (``thinking``, Anthropic's ``tool_use``...). At most one thinking,
one refusal and one tool call is open at a time: a block of another kind closes them.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from ...adapters.protocols import Native, NativeDelta, NativeEnd, NativeStart
from .._base import field, tool_call_start, tool_result, whole_arguments
from .types import DATA_BLOCKS, DATA_FIELDS, LEGACY_TOOL_BLOCKS, THINKING_BLOCKS

_THINKING = "thinking"
_REFUSAL = "refusal"


def thinking_text(block: Any, key: str) -> str:
    text = field(block, key)
    if isinstance(text, str):
        return text
    summary = field(block, "summary")  # OpenAI Responses reasoning, LangChain's v0 format
    if isinstance(summary, list):
        return "".join(str(part.get("text", "")) for part in summary if isinstance(part, Mapping))
    return ""


def signature_of(block: Any) -> str | None:
    """A thinking block's signature: ``extras.signature`` (v1) or ``signature`` (v0)."""
    extras = field(block, "extras")
    signature = field(extras, "signature") if isinstance(extras, Mapping) else None
    if not isinstance(signature, str):
        signature = field(block, "signature")
    return signature if isinstance(signature, str) and signature else None


def _citation_attrs(note: Mapping[str, Any]) -> dict[str, Any]:
    attrs = {k: v for k, v in note.items() if k not in ("type", "cited_text", "extras")}
    extras = note.get("extras")
    if isinstance(extras, Mapping):
        attrs.update((k, v) for k, v in extras.items() if k not in attrs)
    return attrs


def _call_start(key: Hashable, call_id: Any, name: Any, server: bool) -> NativeStart:
    """A call's start; a call the provider runs (web search...) has ``"server": True``."""
    return tool_call_start(key, call_id, name, **({"server": True} if server else {}))


class OpenBlocks:
    """The native blocks a LangChain stream has open, and how each content block becomes
    native pieces (appended to the ``natives`` list each method is given)."""

    def __init__(self) -> None:
        self.thinking_open = False
        self.signature = ""
        self.refusal_open = False
        self.refused = False  # the current message refused: its stop reason is `refusal`
        self.tool: Hashable | None = None
        self.calls = 0  # tool calls of the current message
        self.serial = 0  # keys of whole blocks (citations, results, whole calls)
        self.server_names: dict[str, str] = {}  # server tool call id -> its tool's name
        self.pending: list[Native] = []  # citations of text the session has not read yet

    # -- closing -------------------------------------------------------------------------

    def close_thinking(self, natives: list[Native], signature: str | None = None) -> None:
        if signature:
            self.signature += signature
        if self.thinking_open:
            self.thinking_open = False
            signature, self.signature = self.signature, ""
            attrs = {"signature": signature} if signature else None
            natives.append(NativeEnd(_THINKING, None, attrs))

    def close_tool(self, natives: list[Native], attrs: Mapping[str, Any] | None = None) -> None:
        if self.tool is not None:
            natives.append(NativeEnd(self.tool, None, attrs))
            self.tool = None

    def close_all(self, natives: list[Native]) -> None:
        self.close_thinking(natives)
        if self.refusal_open:
            self.refusal_open = False
            natives.append(NativeEnd(_REFUSAL))
        self.close_tool(natives)

    def flush(self, natives: list[Native]) -> None:
        """The citations held back from the last text (they follow it)."""
        if self.pending:
            natives += self.pending
            self.pending = []

    def new_key(self, kind: str) -> tuple[str, str]:
        self.serial += 1
        return (kind, f"#{self.serial}")

    # -- kinds of blocks -------------------------------------------------------------------

    def thinking(self, natives: list[Native], text: str, signature: str | None = None) -> None:
        if self.refusal_open or self.tool is not None:
            self.close_all(natives)
        if not self.thinking_open:
            self.thinking_open = True
            natives.append(NativeStart(_THINKING, "thinking"))
        if text:
            natives.append(NativeDelta(_THINKING, text))
        if signature:
            self.signature += signature

    def refusal(self, natives: list[Native], text: str) -> None:
        """A ``refusal`` block: its text streams into one native ``refusal`` block, and
        the message's stop reason becomes ``refusal``."""
        self.refused = True
        if not self.refusal_open:
            self.close_all(natives)
            self.refusal_open = True
            natives.append(NativeStart(_REFUSAL, "refusal"))
        if text:
            natives.append(NativeDelta(_REFUSAL, text))

    def tool_piece(
        self, natives: list[Native], call_id: Any, name: Any, args: Any, index: Any, server: bool
    ) -> None:
        """A piece of a streamed call: pieces of one call share an ``index``; a piece
        without one (integrations that send each call whole) is a call of its own."""
        kind = "server_tool_call" if server else "tool_call"
        if index is not None:
            key: Hashable = (kind, index)
            new = key != self.tool
        else:
            new = self.tool is None or bool(call_id or name)
            key = self.new_key(kind) if new else self.tool
        if new:
            self.close_all(natives)
            if not server:
                self.calls += 1
            elif isinstance(call_id, str) and isinstance(name, str):
                self.server_names[call_id] = name
            self.tool = key
            natives.append(
                tool_call_start(key, call_id, name, **({"server": True} if server else {}))
            )
        if isinstance(args, str) and args:
            natives.append(NativeDelta(key, args))

    def whole_call(self, natives: list[Native], block: Any, server: bool) -> None:
        """A call that arrives whole (``tool_call``, ``server_tool_call``): its arguments
        as one delta, then its end."""
        self.close_all(natives)
        call_id, name = field(block, "id"), field(block, "name")
        kind = "server_tool_call" if server else "tool_call"
        key = self.new_key(kind)
        if server and isinstance(call_id, str) and isinstance(name, str):
            self.server_names[call_id] = name
        elif not server:
            self.calls += 1
        natives.append(_call_start(key, call_id, name, server))
        natives += whole_arguments(key, field(block, "args"))

    def invalid_call(self, natives: list[Native], block: Any) -> None:
        """An ``invalid_tool_call``: its raw arguments stream as the call's JSON, so the
        session reports arguments that do not parse as a ``BLOCK_ERROR``; the call's
        ``error`` (LangChain's reason) is in its attrs."""
        self.close_all(natives)
        self.tool_piece(
            natives, field(block, "id"), field(block, "name"), field(block, "args"), None, False
        )
        error = field(block, "error")
        self.close_tool(natives, {"error": error} if isinstance(error, str) else None)

    def server_result(self, natives: list[Native], block: Any) -> None:
        self.close_all(natives)
        call_id = field(block, "tool_call_id")
        name = self.server_names.get(call_id) if isinstance(call_id, str) else None
        if name is None:
            extras = field(block, "extras")
            kind = field(extras, "block_type") if isinstance(extras, Mapping) else None
            name = kind.removesuffix("_tool_result") if isinstance(kind, str) else None
        failed = field(block, "status") == "error"
        natives += tool_result(
            self.new_key("tool_result"), call_id, name, field(block, "output"), failed
        )

    def data(self, natives: list[Native], block: Any, kind: str) -> None:
        """An image, audio, video or file block: a native block of that type whose
        content is the base64 data (or the URL) and whose attrs are the other fields."""
        self.close_all(natives)
        items = block.items() if isinstance(block, Mapping) else ()
        payload = next((field(block, k) for k in DATA_FIELDS if field(block, k)), "")
        attrs = {k: v for k, v in items if k not in ("type", "base64", "data", "index")}
        block_id = field(block, "id")
        key = self.new_key(kind)
        natives.append(
            NativeStart(key, kind, block_id if isinstance(block_id, str) else None, attrs)
        )
        natives.append(NativeEnd(key, payload))

    def citations(self, natives: list[Native], annotations: Any) -> None:
        """A text block's ``annotations``: each ``citation`` a ``citation`` block (content:
        the cited text; attrs: url, title, indexes...), any other an ``annotation`` block."""
        for note in annotations if isinstance(annotations, list) else ():
            if not isinstance(note, Mapping):
                continue
            if note.get("type") == "citation":
                kind, content = "citation", note.get("cited_text") or ""
                attrs = _citation_attrs(note)
            else:
                kind, content, attrs = "annotation", note.get("value", dict(note)), {}
            key = self.new_key(kind)
            natives.append(NativeStart(key, kind, None, attrs))
            natives.append(NativeEnd(key, content))

    # -- one block -----------------------------------------------------------------------

    def read(self, natives: list[Native], block: Any, text_before: bool) -> str | None:
        """One content block: its text (``""`` for none), or ``None`` for a block that is
        not read (the event passes through). ``text_before``: text of the same event came
        before it, so its citations wait for the next event (they follow that text)."""
        if isinstance(block, str):
            return block
        kind = field(block, "type")
        if kind == "non_standard":  # a provider's own block LangChain did not translate
            value = field(block, "value")
            kind = field(value, "type")
            if kind not in THINKING_BLOCKS and kind not in LEGACY_TOOL_BLOCKS:
                return None
            block = value
        if kind == "text":
            piece = field(block, "text")
            text = piece if isinstance(piece, str) else ""
            if text:
                self.close_all(natives)
            annotations = field(block, "annotations") or field(block, "citations")
            if annotations:
                self.citations(self.pending if text or text_before else natives, annotations)
            return text
        if kind in THINKING_BLOCKS:
            self.thinking(natives, thinking_text(block, THINKING_BLOCKS[kind]), signature_of(block))
        elif kind in ("tool_call_chunk", "server_tool_call_chunk"):
            self.tool_piece(
                natives, field(block, "id"), field(block, "name"), field(block, "args"),
                field(block, "index"), kind == "server_tool_call_chunk",
            )  # fmt: skip
        elif kind in ("tool_call", "server_tool_call"):
            self.whole_call(natives, block, kind == "server_tool_call")
        elif kind == "invalid_tool_call":
            self.invalid_call(natives, block)
        elif kind == "server_tool_result":
            self.server_result(natives, block)
        elif kind == "refusal":
            piece = field(block, "refusal")
            self.refusal(natives, piece if isinstance(piece, str) else "")
        elif kind in DATA_BLOCKS:
            self.data(natives, block, kind)
        elif kind not in LEGACY_TOOL_BLOCKS:
            return None
        return ""


__all__ = ["OpenBlocks", "signature_of", "thinking_text"]
