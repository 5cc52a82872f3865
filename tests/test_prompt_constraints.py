"""``system_prompt()`` tells the model each field's constraints, one test per kind: a model
told ``priority (int, from 1 to 5)`` writes 3, not 9 (a ``VALIDATION_FAILED`` block)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from streamblocks import BlockRegistry, GadgetSyntax, Tools, XMLTagSyntax


class Level(str, Enum):
    low = "low"
    high = "high"


def entry(annotation: Any, field: Any = ...) -> str:
    """The prompt's text for one field ``x`` of a metadata model."""
    model = type("M", (BaseModel,), {"__annotations__": {"x": annotation}, "x": field})
    registry = BlockRegistry()
    registry.register("task", metadata=model, description="A task.")
    line = next(line for line in registry.system_prompt().splitlines() if "fields:" in line)
    return line.split("fields: ", 1)[1]


@pytest.mark.parametrize(
    ("annotation", "field", "expected"),
    [
        (int, Field(ge=1, le=5), "x (int, from 1 to 5)"),
        (int, Field(ge=1), "x (int, at least 1)"),
        (int, Field(le=5), "x (int, at most 5)"),
        (float, Field(gt=0, lt=1), "x (float, greater than 0, less than 1)"),
        (int, Field(multiple_of=5), "x (int, a multiple of 5)"),
        (Annotated[int, Field(ge=0, le=100)], ..., "x (int, from 0 to 100)"),
    ],
)
def test_ranges(annotation: Any, field: Any, expected: str) -> None:
    assert entry(annotation, field) == expected


@pytest.mark.parametrize(
    ("annotation", "field", "expected"),
    [
        (str, Field(min_length=3, max_length=40), "x (str, 3 to 40 characters)"),
        (str, Field(min_length=1), "x (str, at least 1 characters)"),
        (str, Field(min_length=2, max_length=2), "x (str, exactly 2 characters)"),
        (list[str], Field(max_length=4), "x (list[str], at most 4 items)"),
        (
            str | None,
            Field(None, max_length=9),
            "x (str | None, at most 9 characters, optional, default null)",
        ),
    ],
)
def test_lengths(annotation: Any, field: Any, expected: str) -> None:
    assert entry(annotation, field) == expected


def test_pattern() -> None:
    assert entry(str, Field(pattern=r"^[A-Z]{3}$")) == (
        "x (str, matching the regular expression ^[A-Z]{3}$)"
    )


def test_enum_values() -> None:
    assert entry(Level) == 'x (Level, one of "low", "high")'
    assert (
        entry(Level | None, None)
        == 'x (Level | None, one of "low", "high", optional, default null)'
    )


def test_literal_values() -> None:
    assert entry(Literal["bug", "feature"]) == "x (Literal['bug', 'feature'])"


@pytest.mark.parametrize(
    ("annotation", "field", "expected"),
    [
        (int, 3, "x (int, optional, default 3)"),
        (str, "draft", 'x (str, optional, default "draft")'),
        (bool, False, "x (bool, optional, default false)"),
        (Level, Level.low, 'x (Level, one of "low", "high", optional, default "low")'),
        (list[str], Field(default_factory=list), "x (list[str], optional)"),
    ],
)
def test_defaults(annotation: Any, field: Any, expected: str) -> None:
    assert entry(annotation, field) == expected


def test_xml_attributes_and_gadget_arguments_say_the_same() -> None:
    class Cite(BaseModel):
        page: int = Field(ge=1, description="The page.")

    registry = BlockRegistry()
    registry.register("cite", syntax=XMLTagSyntax(), metadata=Cite, description="A citation.")
    registry.register("Rate", syntax=GadgetSyntax(), content=Cite, description="Rate it.")
    prompt = registry.system_prompt()
    assert "Attributes: page (int, at least 1): The page." in prompt
    assert "page (int, at least 1): The page." in prompt.split("- Rate")[1]


def test_tool_prompts_state_the_constraints_of_a_signature() -> None:
    def rate(stars: Annotated[int, Field(ge=1, le=5)], note: str = "") -> str:
        """Rate a film."""
        return note * stars

    assert 'stars (int, from 1 to 5); note (str, optional, default "")' in Tools([rate]).prompt()
