"""Tools: schemas from signatures and models, validated runs that never raise, gadget calls."""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from streamblocks import FINISH_TOOL, BlockRegistry, StreamBlockProcessor, Tools, collect
from streamblocks.content import Message, ToolCallBlock, ToolResultBlock
from streamblocks.ext.gemini.schema import gemini_schema


def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


async def slow_upper(text: str) -> str:
    """Upper-case a text, later."""
    await asyncio.sleep(0)
    return text.upper()


def broken(path: str) -> str:
    """Always fails."""
    raise FileNotFoundError(path)


class Point(BaseModel):
    x: float
    y: float


class Plot(BaseModel):
    """Plot points with a style."""

    points: list[Point]
    style: Literal["line", "dots"] = "line"
    title: Annotated[str | None, Field(description="shown on top")] = None


TOOLS = Tools([add, slow_upper, broken, Plot])


def result(message: Message) -> ToolResultBlock:
    assert message.role == "tool"
    (block,) = message.content
    assert isinstance(block, ToolResultBlock)
    return block


def test_specs_come_from_signatures_docstrings_and_models() -> None:
    specs = {spec.name: spec for spec in TOOLS.specs()}
    assert list(specs) == ["add", "slow_upper", "broken", "Plot"]
    assert specs["add"].description == "Add two integers."
    schema = specs["add"].schema
    assert schema["properties"]["a"]["type"] == "integer"
    assert schema["required"] == ["a"]
    assert schema["properties"]["b"]["default"] == 1
    assert specs["Plot"].description == "Plot points with a style."
    assert "$defs" in specs["Plot"].schema


def test_schemas_in_each_provider_format() -> None:
    openai = TOOLS.schemas("openai")[0]
    assert openai["type"] == "function" and openai["function"]["name"] == "add"
    responses = TOOLS.schemas("openai-responses")[0]
    assert responses["name"] == "add" and responses["parameters"]["required"] == ["a"]
    anthropic = TOOLS.schemas("anthropic")[0]
    assert anthropic["name"] == "add" and anthropic["input_schema"]["type"] == "object"
    (gemini,) = TOOLS.schemas("gemini")
    names = [d["name"] for d in gemini["function_declarations"]]
    assert names == ["add", "slow_upper", "broken", "Plot"]
    with pytest.raises(ValueError, match="provider must be one of"):
        TOOLS.schemas("cohere")


def test_finish_tool_is_added_with_the_output_schema() -> None:
    specs = TOOLS.specs(Point)
    assert specs[-1].name == FINISH_TOOL
    assert specs[-1].schema["required"] == ["x", "y"]
    with pytest.raises(ValueError, match="reserved"):
        Tools([type(FINISH_TOOL, (BaseModel,), {"__annotations__": {"a": int}})])


def test_gemini_schema_subset() -> None:
    plot = gemini_schema(Plot.model_json_schema())
    point = plot["properties"]["points"]["items"]
    assert point["properties"]["x"] == {"title": "X", "type": "number"}  # $ref inlined
    title = plot["properties"]["title"]
    assert title["nullable"] is True and title["type"] == "string"
    assert title["description"] == "shown on top"
    assert plot["properties"]["style"]["enum"] == ["line", "dots"]
    text = repr(plot)
    for key in ("$defs", "$ref", "additionalProperties", "anyOf"):
        assert key not in text
    add_schema = gemini_schema(TOOLS["add"].spec.schema)
    assert add_schema["property_ordering"] == ["a", "b"]


def test_gemini_schema_rejects_recursion() -> None:
    class Node(BaseModel):
        children: list[Node] = []

    with pytest.raises(ValueError, match="recursive"):
        gemini_schema(Node.model_json_schema())


def test_run_validates_and_coerces() -> None:
    block = result(TOOLS.run(ToolCallBlock(id="c1", name="add", arguments={"a": "2", "b": 3})))
    assert (block.tool_call_id, block.name, block.content, block.is_error) == (
        "c1",
        "add",
        5,
        False,
    )
    block = result(TOOLS.run({"id": "c2", "name": "add", "arguments": '{"a": 4}'}))
    assert block.content == 5


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        (
            {"id": "c", "name": "add", "arguments": {"a": "two"}},
            "a: Input should be a valid integer",
        ),
        ({"id": "c", "name": "add", "arguments": {}}, "a: Field required"),
        ({"id": "c", "name": "add", "arguments": {"a": 1, "z": 2}}, "z: Extra inputs"),
        ({"id": "c", "name": "add", "arguments": "{not json"}, "not valid JSON"),
        ({"id": "c", "name": "nope", "arguments": {}}, "unknown tool 'nope'; the tools are: add"),
        ({"id": "c", "name": "broken", "arguments": {"path": "x"}}, "FileNotFoundError: x"),
        ({"id": "c", "name": "add", "error": "bad JSON"}, "bad JSON"),
    ],
)
def test_bad_calls_become_error_results(call: dict[str, object], reason: str) -> None:
    block = result(TOOLS.run(call))
    assert block.is_error is True
    assert reason in block.content


def test_model_tools_return_their_fields_or_run() -> None:
    block = result(
        TOOLS.run({"id": "p", "name": "Plot", "arguments": {"points": [{"x": 1, "y": "2"}]}})
    )
    assert block.content == {"points": [{"x": 1.0, "y": 2.0}], "style": "line", "title": None}

    class Greet(BaseModel):
        name: str

        def run(self) -> str:
            return f"hi {self.name}"

    assert (
        result(
            Tools([Greet]).run({"id": "g", "name": "Greet", "arguments": {"name": "Al"}})
        ).content
        == "hi Al"
    )


def test_async_tools_run_sync_and_async() -> None:
    call = {"id": "u", "name": "slow_upper", "arguments": {"text": "abc"}}
    assert result(TOOLS.run(call)).content == "ABC"
    assert result(asyncio.run(TOOLS.arun(call))).content == "ABC"
    sync_call = {"id": "a", "name": "add", "arguments": {"a": 1}}
    assert result(asyncio.run(TOOLS.arun(sync_call))).content == 2

    async def inside_a_loop() -> ToolResultBlock:
        return result(TOOLS.run(call))

    block = asyncio.run(inside_a_loop())
    assert block.is_error and "use `await tools.arun(call)`" in block.content


def test_misuse_raises() -> None:
    def star(*args: int) -> None:
        """No."""

    with pytest.raises(TypeError, match="plain or keyword-only"):
        Tools([star])
    with pytest.raises(ValueError, match="two tools are named 'add'"):
        Tools([add, add])
    with pytest.raises(TypeError, match="a function or a pydantic model"):
        Tools([42])


def test_gadget_calls_run_the_same_way() -> None:
    registry = TOOLS.register(BlockRegistry(), output=Point)
    prompt = TOOLS.prompt(output=Point)
    assert "!!!GADGET_START:add" in prompt and "a (int); b (int, optional, default 1)" in prompt
    assert f"- {FINISH_TOOL}:" in prompt
    text = (
        "Adding.\n!!!GADGET_START:add\n!!!ARG:a\n2\n!!!ARG:b\nthree\n!!!GADGET_END\n"
        "!!!GADGET_START:add\n!!!ARG:a\n2\n!!!GADGET_END\n"
    )
    step = collect([text], processor=StreamBlockProcessor(registry))
    assert [call.source for call in step.tool_calls] == ["gadget", "gadget"]
    first, second = (result(TOOLS.run(call)) for call in step.tool_calls)
    assert first.is_error and "b: Input should be a valid integer" in first.content
    assert second.content == 3 and not second.is_error


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(["add", "slow_upper", "broken", "Plot", "nope"]),
    arguments=json_values | st.text(max_size=12),
)
def test_run_never_raises(name: str, arguments: object) -> None:
    """Whatever a model sends, the loop gets a result message, never an exception."""
    block = result(TOOLS.run({"id": "c", "name": name, "arguments": arguments}))
    assert block.tool_call_id == "c" and block.name == name
    if block.is_error:
        assert isinstance(block.content, str) and block.content
