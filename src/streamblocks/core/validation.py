"""Checking a block against its type: metadata and content models, validators.

Called by the session at the edges of a block (once its header is read, once it
closes), never per chunk.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from .blocks import Block
from .errors import ErrorCode
from .registry import BlockType
from .yaml_text import load_yaml_mapping


def validate_metadata(
    block_type: BlockType, metadata: Mapping[str, Any] | None
) -> tuple[Any, tuple[ErrorCode, str] | None]:
    """The metadata value (the model's instance, or the mapping) and the problem, if
    any, as an error code and message."""
    if block_type.metadata is None:
        return (dict(metadata) if metadata else {}), None
    mapping = dict(metadata or {})
    try:
        return block_type.metadata.model_validate(mapping), None
    except ValidationError as exc:
        return None, (ErrorCode.VALIDATION_FAILED, f"metadata of {block_type.name!r}: {exc}")
    except Exception as exc:  # a model validator raising something pydantic does not wrap
        return None, (ErrorCode.VALIDATION_FAILED, f"metadata of {block_type.name!r}: {exc!r}")


def validate_content(model: type[BaseModel], content: Any) -> Any:
    """Validate a block's content against its content model.

    Structured content (a gadget's argument object) is validated as it is. Text goes
    to the model's ``parse_content(text)`` classmethod when it has one; otherwise it
    is read as YAML (which includes JSON) and the mapping validated.
    """
    if not isinstance(content, str):
        return model.model_validate(content)
    parse_content = getattr(model, "parse_content", None)
    if parse_content is not None:
        return parse_content(content)
    return model.model_validate(load_yaml_mapping(content, "content"))


def run_validators(block_type: BlockType, block: Block) -> str | None:
    """The first validator's objection to ``block`` (``None`` when all accept it)."""
    for check in block_type.validators:
        label = getattr(check, "__name__", repr(check))
        try:
            verdict = check(block)
        except Exception as exc:
            return f"validator {label} rejected the block: {exc}"
        if verdict is False:
            return f"validator {label} rejected the block"
        if isinstance(verdict, str):
            return verdict
    return None
