"""The JSON payloads an :class:`~streamblocks.ext.agui.AGUIOutputAdapter` puts into
AG-UI events: the ``streamblocks.block_*`` custom events, the run's result and its token
usage. Plain data only (pydantic models dumped, unknown objects as text), so any AG-UI
client can read them."""

from __future__ import annotations

from typing import Any

from pydantic_core import to_jsonable_python

from ...core.events import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockStart,
    StreamFinished,
    Usage,
)

_MAX_SAFE_INTEGER = 2**53 - 1


def jsonable(value: Any) -> Any:
    """Plain JSON data for any value (pydantic models dumped, unknown objects as text)."""
    return to_jsonable_python(value, fallback=str)


def block_payload(event: BlockEnd) -> dict[str, Any]:
    """The JSON payload of ``streamblocks.block_end``: the whole :class:`Block`."""
    block = event.block
    return {
        "id": block.id,
        "type": block.type,
        "syntax": block.syntax,
        "metadata": jsonable(block.metadata),
        "content": jsonable(block.content),
        "attrs": jsonable(dict(block.attrs)),
        "raw": block.raw,
        "start": block.start,
        "end": block.end,
    }


def start_payload(event: BlockStart) -> dict[str, Any]:
    """``streamblocks.block_start``."""
    return {
        "block_id": event.block_id,
        "block_type": event.block_type,
        "syntax": event.syntax,
        "attrs": jsonable(dict(event.attrs)),
    }


def metadata_payload(event: BlockMetadata) -> dict[str, Any]:
    """``streamblocks.block_metadata``."""
    return {
        "block_id": event.block_id,
        "block_type": event.block_type,
        "metadata": jsonable(event.metadata),
    }


def delta_payload(event: BlockDelta) -> dict[str, Any]:
    """``streamblocks.block_delta``."""
    return {
        "block_id": event.block_id,
        "block_type": event.block_type,
        "section": event.section,
        "text": event.text,
        "path": event.path,
    }


def error_payload(event: BlockError) -> dict[str, Any]:
    """``streamblocks.block_error``."""
    return {
        "block_id": event.block_id,
        "block_type": event.block_type,
        "code": event.code.value,
        "message": event.message,
        "raw": event.raw,
    }


def run_result(event: StreamFinished) -> dict[str, Any]:
    """``RUN_FINISHED.result``: the stop reason, usage, counts and the provider's ids."""
    return {
        "stop_reason": event.stop_reason.value,
        "usage": jsonable(event.usage) if event.usage is not None else None,
        "counts": event.counts._asdict(),
        "session_id": event.session_id,
        "run_id": event.run_id,
    }


def token_usage(core: Any, usage: Usage | None) -> list[Any] | None:
    """Our :class:`Usage` as AG-UI ``TokenUsage`` entries (``None`` when unknown)."""
    if usage is None:
        return None
    fields = {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
        "reasoning_tokens": usage.reasoning_tokens,
        "cached_input_tokens": usage.cache_read_tokens,
        "cache_write_input_tokens": usage.cache_write_tokens,
    }
    # AG-UI counts are JSON-safe non-negative integers: a provider's odd count is left out,
    # and so is a count the installed SDK's TokenUsage has no field for (before 1.0).
    known = core.TokenUsage.model_fields
    present = {
        name: value
        for name, value in fields.items()
        if value is not None and 0 <= value <= _MAX_SAFE_INTEGER and name in known
    }
    return [core.TokenUsage(**present)] if present else None
