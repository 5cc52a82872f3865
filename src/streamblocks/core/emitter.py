"""Events out: the session part that turns the scanner's decisions into events.

The scanner decides what each piece of text is; the :class:`Emitter` emits it: visible
text and block content are gathered per call into as few ``TEXT_DELTA`` /
``BLOCK_DELTA`` events as possible, blocks are announced, validated, transformed and
finished here, and the stream offset and counters are kept here. It knows no syntax:
a block reaches it as an :class:`~.open_block.OpenBlock` with a header.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr
from pydantic import ValidationError

from .blocks import Block, new_block
from .errors import ErrorCode
from .events import (
    CONTENT_SECTION,
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockStart,
    Event,
    TextDelta,
    new_event,
)
from .open_block import OpenBlock
from .partials import Source, source_for
from .registry import BlockType
from .syntax import BODY, Header, ParseFailure
from .validation import run_validators, validate_content, validate_metadata


@mypyc_attr(allow_interpreted_subclasses=True)
class Emitter:
    """One stream's outgoing events, offset and counters."""

    __slots__ = (
        "blocks",
        "delta_key",
        "delta_source",
        "deltas",
        "errors",
        "next_id",
        "out",
        "pos",
        "texts",
        "whole_block",
    )

    def __init__(self) -> None:
        self.out: list[Event] = []
        self.texts: list[str] = []
        self.deltas: list[str] = []
        self.delta_key: tuple[str, str, str | None] = ("", "", None)
        self.delta_source: Source | None = None  # where the deltas' partial is read from
        self.pos = 0
        """Characters of the stream's text consumed so far (the next character's offset)."""
        self.next_id = 0
        self.blocks = 0
        self.errors = 0
        self.whole_block = OpenBlock(None, "", 0, 0)
        """The record :meth:`whole` reads its blocks in, one after another: begun and
        closed in one call, a block read whole needs none of its own."""

    # ------------------------------------------------------------------ text and deltas

    def text(self, text: str) -> None:
        """Visible stream text (advances the stream offset)."""
        if text:
            if self.deltas:
                self.flush_deltas()
            self.texts.append(text)
            self.pos += len(text)

    def delta(self, block: OpenBlock, text: str) -> None:
        """Streamed content of ``block`` (already counted in its raw)."""
        parser = block.parser  # (OpenBlock.path, inline)
        key = (block.block_id, block.type_name, parser.path if parser is not None else None)
        if self.texts:
            self.flush_texts()
        elif self.deltas and key != self.delta_key:
            self.flush_deltas()
        self.delta_key = key
        self.delta_source = block.partial
        self.deltas.append(text)

    def last_delta(self, block: OpenBlock, text: str) -> None:
        """Streamed content of ``block`` that closes next, when no delta is held: out at
        once, as :meth:`delta` and :meth:`flush_deltas` would give it (nothing can join it)."""
        if self.texts:
            self.flush_texts()
        parser = block.parser
        path = parser.path if parser is not None else None
        source = block.partial
        at = source.add(text, path) if source is not None else None
        fields = (block.block_id, block.type_name, CONTENT_SECTION, text, path, at)
        self.out.append(new_event(BlockDelta, fields))

    def emit(self, event: Event) -> None:
        if self.texts:
            self.flush_texts()
        if self.deltas:
            self.flush_deltas()
        self.out.append(event)

    def error(
        self, block_id: str | None, type_name: str | None, code: ErrorCode, message: str, raw: str
    ) -> None:
        self.errors += 1
        self.emit(BlockError(block_id, type_name, code, message, raw))

    def flush_texts(self) -> None:
        texts = self.texts
        self.out.append(new_event(TextDelta, (texts[0] if len(texts) == 1 else "".join(texts),)))
        texts.clear()

    def flush_deltas(self) -> None:
        if self.deltas:
            block_id, type_name, path = self.delta_key
            text = "".join(self.deltas)
            self.deltas.clear()
            source = self.delta_source
            at = source.add(text, path) if source is not None else None
            self.out.append(
                new_event(BlockDelta, (block_id, type_name, CONTENT_SECTION, text, path, at))
            )

    def flush(self) -> None:
        if self.texts:
            self.flush_texts()
        if self.deltas:
            self.flush_deltas()

    def new_id(self) -> str:
        self.next_id += 1
        return f"block-{self.next_id}"

    # ------------------------------------------------------------------ blocks

    def begin(self, block: OpenBlock, header: Header, *, hooks: bool = True) -> None:
        """The header is complete: resolve the type, validate metadata, announce.
        ``hooks=False``: a block that closes at once (``<tag/>``), so ``on_start`` is
        not called."""
        block.header = header
        block.started = True
        block_id = header.block_id
        if not block_id:
            self.next_id += 1  # (new_id, inline)
            block_id = f"block-{self.next_id}"
        block.block_id = block_id
        block.opener_len = block.raw_len
        error = header.error
        metadata = header.metadata
        block_type = block.block_type = header.block_type
        if block_type is None:
            type_name = block.type_name = header.name
            streamed = block.streamed = bool(type_name)  # a block with no type is not announced
            if error is None:
                error = (ErrorCode.UNKNOWN_TYPE, f"unknown block type {type_name!r}")
        else:
            type_name = block.type_name = block_type.name
            streamed = block.streamed = block_type.transform is None  # (BlockType.streamed)
            if error is None:
                if block_type.metadata is None:  # (validate_metadata without a model, inline)
                    block.metadata = dict(metadata) if metadata else {}
                else:
                    block.metadata, error = validate_metadata(block_type, metadata)
        block.error = error
        if streamed:
            block.partial = source_for(block.syntax_name, type_name, block.parser)
            if self.texts:
                self.flush_texts()
            if self.deltas:
                self.flush_deltas()
            self.out.append(
                new_event(BlockStart, (block_id, type_name, block.syntax_name, header.attrs))
            )
        if hooks and block_type is not None and block_type.on_start is not None:
            try:
                block_type.on_start(header.attrs)
            except Exception as exc:
                if block.error is None:
                    block.error = (
                        ErrorCode.HOOK_FAILED,
                        f"on_start of {block_type.name!r}: {exc!r}",
                    )
        if streamed and block.error is None and metadata is not None:
            self.out.append(new_event(BlockMetadata, (block_id, type_name, block.metadata)))

    def whole(self, syntax_name: str, header: Header, raw: str, content: str) -> None:
        """A block read whole with no parser, its ``raw`` text (opener, ``content``,
        closing line) from the stream offset on: :meth:`begin`, :meth:`last_delta` and
        :meth:`close` in one call, in :attr:`whole_block` (no ``OpenBlock`` built per
        block; what it held is let go after)."""
        block = self.whole_block
        block.syntax_name = syntax_name
        block.start = self.pos
        block.raw = [raw]  # (the opener's length, raw_len, is not asked: content is given)
        self.begin(block, header)
        if content and block.streamed:
            self.last_delta(block, content)  # (begin flushed what was held)
        self.pos += len(raw)
        self.close(block, content)
        block.raw = []
        block.header = block.metadata = block.partial = None

    def close(self, block: OpenBlock, body: Any, attrs: Any = None) -> None:
        """``block`` closed (its raw complete): report it, finished or rejected.
        ``body`` is its content text or parsed object; ``BODY`` asks its parser."""
        raw = "".join(block.raw)  # (OpenBlock.joined, inline: the block is done)
        if not block.started:
            self.error(None, None, ErrorCode.PARSE_FAILED, block.not_started, raw)
            return
        if block.error is not None:
            self.error(block.block_id, block.type_name or None, *block.error, raw)
            return
        block_type = block.block_type
        assert block_type is not None
        parser = block.parser
        try:
            if body is BODY:
                if parser is not None:  # (OpenBlock.body_text of a line block, inline)
                    end = block.body_end
                    body = raw[block.opener_len : end if end >= 0 else len(raw)]
                else:
                    body = block.body_text(raw)
            content = parser.parse(body) if parser is not None else body
            if block_type.content is not None:
                content = validate_content(block_type.content, content)
        except ParseFailure as failure:  # one name per clause: mypyc types it once
            self._rejected(block, ErrorCode.PARSE_FAILED, str(failure), raw)
            return
        except ValidationError as invalid:
            self._rejected(block, ErrorCode.VALIDATION_FAILED, str(invalid), raw)
            return
        except Exception as exc:  # a user parse_content, or a parser's own bug
            message = f"reading the content of {block.type_name!r} failed: {exc!r}"
            self._rejected(block, ErrorCode.PARSE_FAILED, message, raw)
            return
        header = block.header
        written = dict(header.attrs) if header is not None else {}
        if attrs:
            written.update(attrs)
        start = block.start
        finished = new_block(
            block.block_id, block.type_name, block.syntax_name, block.metadata, content,
            written, raw, start, start + len(raw),
        )  # fmt: skip
        problem = run_validators(block_type, finished) if block_type.validators else None
        if problem is not None:
            self._rejected(block, ErrorCode.VALIDATION_FAILED, problem, raw)
        elif block_type.transform is None:
            self.blocks += 1
            if self.texts:
                self.flush_texts()
            if self.deltas:
                self.flush_deltas()
            self.out.append(new_event(BlockEnd, (finished,)))
        else:
            self._transform(block_type, finished)

    def _rejected(self, block: OpenBlock, code: ErrorCode, message: str, raw: str) -> None:
        self.error(block.block_id, block.type_name, code, message, raw)

    def _transform(self, block_type: BlockType, block: Block) -> None:
        """A held block of a type with a transform: emit only the transform's verdict."""
        assert block_type.transform is not None
        try:
            verdict = block_type.transform(block)
            replacement = None if verdict is None else list(verdict)
            if replacement is not None:
                _check_replacement(replacement)
        except Exception as exc:
            message = f"transform of {block_type.name!r}: {exc!r}"
            self.error(block.id, block.type, ErrorCode.HOOK_FAILED, message, block.raw)
            return
        if replacement is None:
            self.blocks += 1
            self.emit(BlockStart(block.id, block.type, block.syntax, block.attrs))
            self.emit(BlockEnd(block))
            return
        for item in replacement:
            if isinstance(item, str):
                if item:
                    self.flush_deltas()
                    self.texts.append(item)
            else:
                self.emit(item)

    def drop(self, block: OpenBlock, code: ErrorCode, message: str) -> None:
        """Reject ``block`` with what it holds as ``raw`` (a limit, the stream's end)."""
        self.flush_deltas()
        raw = block.joined()
        self.error(block.block_id or None, block.type_name or None, code, message, raw)


def _check_replacement(items: list[Any]) -> None:
    """A transform's list may hold only strings and events."""
    for item in items:
        if not isinstance(item, str) and not isinstance(getattr(item, "type", None), str):
            raise TypeError(f"a transform's list may hold only strings and events, got {item!r}")
