"""Gadget-call blocks: ``!!!GADGET_START:`` / ``!!!ARG:`` / ``!!!GADGET_END``."""

from __future__ import annotations

import datetime
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

from helpers import assert_invariant, blocks, errors, normalise, run, visible_text
from streamblocks import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockRegistry,
    BlockStart,
    DelimiterPreambleSyntax,
    ErrorCode,
    GadgetSyntax,
    Limits,
    StreamBlockProcessor,
    TextDelta,
)
from streamblocks.content import Message, MessageAccumulator
from streamblocks.syntaxes import GadgetSyntax as ExportedGadgetSyntax
from streamblocks.syntaxes.arguments import MAX_DEPTH, build_arguments, coerce, split_pointer

CALCULATOR = """\
!!!GADGET_START:Calculator
!!!ARG:operation
multiply
!!!ARG:a
15
!!!ARG:b
23
!!!GADGET_END
"""


def processor(
    *names: str,
    syntax: GadgetSyntax | None = None,
    content: type[BaseModel] | None = None,
    unknown: str = "text",
    limits: Limits | None = None,
) -> StreamBlockProcessor:
    registry = BlockRegistry()
    for name in names or ("Calculator",):
        registry.register(name, syntax=syntax or GadgetSyntax(), content=content)
    return StreamBlockProcessor(registry, input_adapter=None, unknown=unknown, limits=limits)


def gadget(*args: tuple[str, str], name: str = "G") -> str:
    """A gadget call whose arguments are (pointer, value text) pairs."""
    parts = [f"!!!GADGET_START:{name}\n"]
    for pointer, value in args:
        parts.append(f"!!!ARG:{pointer}\n{value}\n")
    parts.append("!!!GADGET_END\n")
    return "".join(parts)


def content_of(text: str, **options: Any) -> Any:
    names = options.pop("names", ("G",))
    events = assert_invariant(processor(*names, **options), text)
    found = blocks(events)
    assert len(found) == 1, events
    return found[0].content


def error_of(text: str, **options: Any) -> BlockError:
    names = options.pop("names", ("G",))
    events = assert_invariant(processor(*names, **options), text)
    found = errors(events)
    assert len(found) == 1, events
    assert not blocks(events)
    return found[0]


# ---------------------------------------------------------------------- the example


def test_calculator_example() -> None:
    events = assert_invariant(processor("Calculator"), CALCULATOR)
    (block,) = blocks(events)
    assert block.type == "Calculator"
    assert block.syntax == "gadget"
    assert block.content == {"operation": "multiply", "a": 15, "b": 23}
    assert block.attrs == {"name": "Calculator"}
    assert block.raw == CALCULATOR
    assert (block.start, block.end) == (0, len(CALCULATOR))
    assert block.id == "block-1"
    assert visible_text(events) == ""


def test_exported_from_package_and_syntaxes() -> None:
    assert ExportedGadgetSyntax is GadgetSyntax
    assert GadgetSyntax.name == "gadget"


def test_block_maps_to_a_tool_call() -> None:
    (block,) = blocks(run(processor("Calculator"), [CALCULATOR]))
    call = {"id": block.id, "name": block.type, "arguments": block.content}
    assert call == {
        "id": "block-1",
        "name": "Calculator",
        "arguments": {"operation": "multiply", "a": 15, "b": 23},
    }


def test_ids_are_deterministic_per_stream() -> None:
    text = CALCULATOR + "then\n" + CALCULATOR
    proc = processor("Calculator")
    first = [b.id for b in blocks(run(proc, [text]))]
    second = [b.id for b in blocks(run(proc, list(text)))]
    assert first == second == ["block-1", "block-2"]


# ---------------------------------------------------------------------- pointers


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            [("config/timeout", "30"), ("config/retries", "3")],
            {"config": {"timeout": 30, "retries": 3}},
        ),
        ([("items/0", "a"), ("items/1", "b")], {"items": ["a", "b"]}),
        (
            [("users/0/name", "Ann"), ("users/0/age", "31"), ("users/1/name", "Bob")],
            {"users": [{"name": "Ann", "age": 31}, {"name": "Bob"}]},
        ),
        ([("a/b/c/d/e", "deep")], {"a": {"b": {"c": {"d": {"e": "deep"}}}}}),
        ([("m/0/1/k", "x")], None),  # index gap inside: m/0 is a new array, 1 skips 0
        ([("m/0/0/k", "x"), ("m/0/1/k", "y")], {"m": [[{"k": "x"}, {"k": "y"}]]}),
        (
            [("a~1b", "slash"), ("c~0d", "tilde"), ("e~01", "both")],
            {"a/b": "slash", "c~d": "tilde", "e~1": "both"},
        ),
        ([("/lead", "1")], {"lead": 1}),
        ([("list/-", "x"), ("list/-", "y")], {"list": ["x", "y"]}),
        ([("obj/01", "not an index")], {"obj": {"01": "not an index"}}),
        ([("o/k", "1"), ("o/0", "2")], {"o": {"k": 1, "0": 2}}),
        ([("empty//key", "v")], {"empty": {"": {"key": "v"}}}),
    ],
)
def test_pointers(args: list[tuple[str, str]], expected: Any) -> None:
    text = gadget(*args)
    if expected is None:
        assert error_of(text).message == "Array index gap: expected 0, got 1"
    else:
        assert content_of(text) == expected


def test_split_pointer() -> None:
    assert split_pointer("a/b~1c/~0") == ["a", "b/c", "~"]
    assert split_pointer("/x") == ["x"]
    assert split_pointer("~01") == ["~1"]  # ~1 is decoded before ~0


def test_no_arguments_is_an_empty_object() -> None:
    assert content_of("!!!GADGET_START:G\n!!!GADGET_END\n") == {}
    assert content_of("!!!GADGET_START:G\n\n  \n!!!GADGET_END\n") == {}


def test_empty_value_is_an_empty_string() -> None:
    text = "!!!GADGET_START:G\n!!!ARG:a\n!!!ARG:b\n\n!!!GADGET_END\n"
    assert content_of(text) == {"a": "", "b": ""}


# ---------------------------------------------------------------------- coercion


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("true", True),
        ("false", False),
        ("42", 42),
        ("-17", -17),
        ("0", 0),
        ("3.14", 3.14),
        ("-0.5", -0.5),
        ("1e3", 1000.0),
        ("2.5E-2", 0.025),
        ("007", "007"),
        ("1.", "1."),
        (".5", ".5"),
        ("+1", "+1"),
        ("1e999", "1e999"),
        ("True", "True"),
        ("null", "null"),
        ("hello world", "hello world"),
        ("  42  ", "  42  "),
        ("[1, 2]", "[1, 2]"),
        ("", ""),
    ],
)
def test_single_line_coercion(value: str, expected: Any) -> None:
    assert coerce(value) == expected
    assert type(coerce(value)) is type(expected)
    got = content_of(gadget(("v", value)))["v"]
    assert got == expected
    assert type(got) is type(expected)


def test_multiline_values_are_never_coerced() -> None:
    text = gadget(("n", "42\n43"), ("t", "true\n"), ("code", "def f():\n    return 1\n"))
    assert content_of(text) == {"n": "42\n43", "t": "true\n", "code": "def f():\n    return 1\n"}


def test_multiline_keeps_inner_newlines_and_loses_exactly_one() -> None:
    text = "!!!GADGET_START:G\n!!!ARG:body\nline 1\n\nline 3\n\n\n!!!GADGET_END\n"
    assert content_of(text) == {"body": "line 1\n\nline 3\n\n"}


def test_crlf_line_endings() -> None:
    text = "!!!GADGET_START:G\r\n!!!ARG:a\r\n15\r\n!!!ARG:b\r\nx\r\ny\r\n!!!GADGET_END\r\n"
    assert content_of(text) == {"a": 15, "b": "x\r\ny"}


def test_marker_lines_tolerate_trailing_whitespace() -> None:
    text = "!!!GADGET_START:G  \n!!!ARG:a \t\n1\n!!!GADGET_END   \n"
    assert content_of(text) == {"a": 1}


def test_unclosed_last_line_without_newline() -> None:
    text = "!!!GADGET_START:G\n!!!ARG:a\n1\n!!!GADGET_END"
    assert content_of(text) == {"a": 1}


# ---------------------------------------------------------------------- schema-aware


class Address(BaseModel):
    street: str
    zip: str


class Order(BaseModel):
    code: str
    count: int
    price: float
    paid: bool
    note: str | None = None
    discount: float | None = None
    when: datetime.date | None = None
    tags: list[str] = Field(default_factory=list)
    sizes: list[int] = Field(default_factory=list)
    address: Address | None = None
    extra: dict[str, Any] = Field(default_factory=dict)
    labels: dict[str, str] = Field(default_factory=dict)
    mode: Literal["fast", "slow"] = "fast"
    level: Literal[1, 2] = 1
    either: int | str = 0


def test_schema_aware_coercion() -> None:
    text = gadget(
        ("code", "007"),
        ("count", "3"),
        ("price", "10"),
        ("paid", "true"),
        ("note", "42"),
        ("discount", "null"),
        ("when", "2024-05-01"),
        ("tags/0", "1"),
        ("tags/1", "true"),
        ("sizes/0", "38"),
        ("address/street", "1 Main St"),
        ("address/zip", "02134"),
        ("extra/n", "5"),
        ("extra/0", "zero"),
        ("labels/1", "2"),
        ("level", "2"),
        ("either", "12"),
    )
    order = content_of(text, content=Order)
    assert isinstance(order, Order)
    assert order.code == "007"
    assert order.count == 3
    assert order.price == 10.0
    assert order.paid is True
    assert order.note == "42"
    assert order.discount is None
    assert order.when == datetime.date(2024, 5, 1)
    assert order.tags == ["1", "true"]
    assert order.sizes == [38]
    assert order.address == Address(street="1 Main St", zip="02134")
    assert order.extra == {"n": 5, "0": "zero"}  # a mapping: numeric tokens are keys
    assert order.labels == {"1": "2"}
    assert order.level == 2
    assert order.either == 12


def test_schema_json_value_for_container_fields() -> None:
    text = gadget(
        ("code", "x"), ("count", "1"), ("price", "1"), ("paid", "false"), ("sizes", "[1, 2]")
    )
    assert content_of(text, content=Order).sizes == [1, 2]


def test_schema_str_field_keeps_str_without_model_it_is_coerced() -> None:
    class Code(BaseModel):
        code: str

    assert content_of(gadget(("code", "42")), content=Code) == Code(code="42")
    assert content_of(gadget(("code", "42"))) == {"code": 42}


def test_schema_aliases() -> None:
    class Aliased(BaseModel):
        user_id: str = Field(alias="userId")

    assert content_of(gadget(("userId", "12")), content=Aliased) == Aliased(userId="12")


def test_validation_failure_is_block_error_with_pydantic_message() -> None:
    text = gadget(("code", "x"), ("count", "many"), ("price", "1"), ("paid", "true"))
    error = error_of(text, content=Order)
    assert error.code is ErrorCode.VALIDATION_FAILED
    assert "count" in error.message
    assert "Input should be a valid integer" in error.message
    assert error.raw == text
    assert error.block_type == "G"


def test_missing_required_argument_is_validation_failed() -> None:
    text = gadget(("operation", "add"), name="Calculator")
    error = error_of(text, names=("Calculator",), content=_Calc)
    assert error.code is ErrorCode.VALIDATION_FAILED
    assert "Field required" in error.message


class _Calc(BaseModel):
    operation: Literal["add", "multiply"]
    a: int
    b: int


# ---------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([("name", "a"), ("name", "b")], "Duplicate pointer: name"),
        ([("name", "a"), ("/name", "b")], "Duplicate pointer: name"),
        ([("items/0", "a"), ("items/0", "b")], "Duplicate pointer: items/0"),
        ([("items/0", "a"), ("items/2", "b")], "Array index gap: expected 1, got 2"),
        ([("items/1", "a")], "Array index gap: expected 0, got 1"),
        ([("a", "1"), ("a/b", "2")], "Conflicting pointer: a/b (a already holds a value)"),
        ([("a/b", "1"), ("a", "2")], "Conflicting pointer: a (already holds an object)"),
        ([("a/0", "1"), ("a", "2")], "Conflicting pointer: a (already holds an array)"),
        ([("a/0", "1"), ("a/x", "2")], "Conflicting pointer: a/x (a is an array)"),
        ([("", "1")], "Empty pointer"),
        ([("/", "1")], "Empty pointer"),
        ([("a~2", "1")], "Invalid escape in pointer: a~2 (only ~0 and ~1)"),
    ],
)
def test_parse_errors(args: list[tuple[str, str]], message: str) -> None:
    text = gadget(*args)
    error = error_of("before\n" + text + "after\n")
    assert error.code is ErrorCode.PARSE_FAILED
    assert error.message == message
    assert error.raw == text
    assert error.block_id == "block-1"
    assert error.block_type == "G"


def test_text_before_the_first_argument() -> None:
    error = error_of("!!!GADGET_START:G\nstray\n!!!ARG:a\n1\n!!!GADGET_END\n")
    assert error.code is ErrorCode.PARSE_FAILED
    assert error.message == "Text before the first argument: 'stray'"


def test_unclosed_gadget() -> None:
    text = "!!!GADGET_START:G\n!!!ARG:a\n1\n"
    error = error_of(text)
    assert error.code is ErrorCode.UNCLOSED
    assert error.raw == text


def test_too_large_gadget_flows_on_as_text() -> None:
    value = "x" * 100
    text = gadget(("a", value)) + "after\n"
    events = assert_invariant(processor("G", limits=Limits(max_block_chars=64)), text)
    (error,) = errors(events)
    assert error.code is ErrorCode.TOO_LARGE
    assert visible_text(events).endswith("!!!GADGET_END\nafter\n")


def test_overlong_argument_line_is_a_parse_error() -> None:
    pointer = "p" * 40
    text = gadget((pointer, "1"))
    error = error_of(text, limits=Limits(max_marker_chars=24))
    assert error.code is ErrorCode.PARSE_FAILED
    assert "longer than the marker size limit" in error.message


def test_pointer_nesting_is_limited() -> None:
    deepest = "/".join(["a"] * MAX_DEPTH)
    (block,) = blocks(run(processor("G"), [gadget((deepest, "1"))]))
    node = block.content
    for _ in range(MAX_DEPTH):
        node = node["a"]
    assert node == 1
    error = error_of(gadget((deepest + "/a", "1")))
    assert error.code is ErrorCode.PARSE_FAILED
    assert error.message.startswith(f"Pointer nested deeper than {MAX_DEPTH} levels: a/a/a")


def test_a_500_level_pointer_is_an_error_and_the_message_serialises() -> None:
    text = "before\n" + gadget(("/".join(["k"] * 500), "1")) + "after\n"
    events = assert_invariant(processor("G"), text)
    (error,) = errors(events)
    assert error.code is ErrorCode.PARSE_FAILED
    assert "nested deeper than" in error.message
    accumulator = MessageAccumulator()
    for event in events:
        accumulator.add(event)
    message = Message.model_validate_json(accumulator.message.model_dump_json())
    assert message == accumulator.message


def test_json_value_nesting_counts_towards_the_limit() -> None:
    class Args(BaseModel):
        data: list[Any]

    shallow = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    (block,) = blocks(run(processor("G", content=Args), [gadget(("data", shallow))]))
    assert isinstance(block.content, Args)
    deep = "[" * 300 + "]" * 300
    error = error_of(gadget(("data", deep)), content=Args)
    assert error.code is ErrorCode.PARSE_FAILED
    assert error.message == f"Value nested deeper than {MAX_DEPTH} levels: data"


# ---------------------------------------------------------------------- markers


@pytest.mark.parametrize(
    "text",
    [
        "!!!gadget_start:G\n!!!ARG:a\n1\n!!!GADGET_END\n",
        "!!!GADGET_START:g\n!!!ARG:a\n1\n!!!GADGET_END\n",
        " !!!GADGET_START:G\n!!!ARG:a\n1\n!!!GADGET_END\n",
        "!!!GADGET_START:Unknown\n!!!ARG:a\n1\n!!!GADGET_END\n",
        "!!!GADGET_START:\n!!!GADGET_END\n",
        "!!!GADGET_START:G extra\n!!!GADGET_END\n",
        "text !!!GADGET_START:G\n!!!GADGET_END\n",
    ],
)
def test_not_a_gadget_stays_text(text: str) -> None:
    events = assert_invariant(processor("G"), text)
    assert visible_text(events) == text
    assert not blocks(events)
    assert not errors(events)


def test_marker_case_sensitive_inside_block() -> None:
    text = "!!!GADGET_START:G\n!!!ARG:a\n!!!arg:b\n!!!gadget_end\n!!!GADGET_END\n"
    assert content_of(text) == {"a": "!!!arg:b\n!!!gadget_end"}


def test_lines_that_only_resemble_markers_are_values() -> None:
    text = "!!!GADGET_START:G\n!!!ARG:a\n!!!GADGET_ENDING\n!!!ARG\n!!\n!!!GADGET_END\n"
    assert content_of(text) == {"a": "!!!GADGET_ENDING\n!!!ARG\n!!"}


def test_end_marker_may_name_the_gadget() -> None:
    assert content_of("!!!GADGET_START:G\n!!!ARG:a\n1\n!!!GADGET_END:G\n") == {"a": 1}
    assert content_of("!!!GADGET_START:G\n!!!ARG:a\n1\n!!!GADGET_END G \n") == {"a": 1}
    # naming another gadget is not the end: it is a value line
    text = "!!!GADGET_START:G\n!!!ARG:a\n!!!GADGET_END:H\n!!!GADGET_END\n"
    assert content_of(text, names=("G", "H")) == {"a": "!!!GADGET_END:H"}


def test_custom_markers() -> None:
    syntax = GadgetSyntax(start_prefix="<<<START:", end_prefix="<<<END:", arg_prefix="@param:")
    text = "go\n<<<START:Calculator\n@param:a\n15\n@param:b/0\nx\n<<<END:Calculator\ndone\n"
    events = assert_invariant(processor("Calculator", syntax=syntax), text)
    (block,) = blocks(events)
    assert block.content == {"a": 15, "b": ["x"]}
    assert visible_text(events) == "go\ndone\n"
    # the default markers are text for this syntax
    events = assert_invariant(processor("Calculator", syntax=syntax), CALCULATOR)
    assert visible_text(events) == CALCULATOR
    assert syntax.starts_with == "<"
    assert syntax == GadgetSyntax("<<<START:", "<<<END:", "@param:")


def test_custom_end_marker_without_name() -> None:
    syntax = GadgetSyntax(start_prefix="<<<START:", end_prefix="<<<END:", arg_prefix="@param:")
    text = "<<<START:G\n@param:a\n1\n<<<END:\n"
    assert content_of(text, syntax=syntax) == {"a": 1}


@pytest.mark.parametrize(
    "prefixes",
    [
        {"start_prefix": ""},
        {"arg_prefix": "a\nb"},
        {"end_prefix": " END"},
        {"arg_prefix": "!!!END", "end_prefix": "!!!END"},
        {"arg_prefix": "!!!ENDARG:", "end_prefix": "!!!END"},
    ],
)
def test_bad_prefixes_raise(prefixes: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="GadgetSyntax"):
        GadgetSyntax(**prefixes)


def test_unknown_gadget_policies() -> None:
    text = "!!!GADGET_START:Other\n!!!ARG:a\n1\n!!!GADGET_END\n"
    error = error_of(text, unknown="error")
    assert error.code is ErrorCode.UNKNOWN_TYPE
    assert error.raw == text
    block_content = content_of(text, unknown="block")
    assert block_content == {"a": 1}


def test_tag_remapping() -> None:
    registry = BlockRegistry()
    registry.register("calculator", tag="Calculator", syntax=GadgetSyntax())
    events = run(StreamBlockProcessor(registry, input_adapter=None), [CALCULATOR])
    (block,) = blocks(events)
    assert block.type == "calculator"
    assert block.attrs == {"name": "Calculator"}
    text = CALCULATOR.replace("!!!GADGET_END", "!!!GADGET_END:calculator")
    assert blocks(run(StreamBlockProcessor(registry, input_adapter=None), [text]))


# ---------------------------------------------------------------------- streaming


def test_streaming_events() -> None:
    proc = processor("Calculator")
    session = proc.session()
    session.feed("Let me compute.\n")
    started = session.feed("!!!GADGET_START:Calcul")
    assert not any(isinstance(e, BlockStart) for e in started)
    started = session.feed("ator\n")
    assert [type(e) for e in started] == [BlockStart]
    (start,) = started
    assert (start.block_id, start.block_type, start.syntax) == ("block-1", "Calculator", "gadget")
    assert start.attrs == {"name": "Calculator"}
    assert session.feed("!!!ARG:opera") == []
    assert session.feed("tion\n") == []
    assert session.feed("multi") == [
        BlockDelta("block-1", "Calculator", "content", "multi", "operation")
    ]
    assert session.feed("ply\n!!!ARG:a\n1") == [
        BlockDelta("block-1", "Calculator", "content", "ply\n", "operation"),
        BlockDelta("block-1", "Calculator", "content", "1", "a"),
    ]
    ended = session.feed("5\n!!!GADGET_END\nDone")
    assert ended[0] == BlockDelta("block-1", "Calculator", "content", "5\n", "a")
    assert isinstance(ended[1], BlockEnd)
    assert ended[1].block.content == {"operation": "multiply", "a": 15}
    assert ended[2:] == [TextDelta("Done")]
    assert not any(isinstance(e, BlockMetadata) for e in ended)


def test_deltas_carry_pointer_paths() -> None:
    text = gadget(("users/0/name", "Ann"), ("/users/0/bio", "line 1\nline 2"))
    events = normalise(run(processor("G"), list(text)))
    deltas = [(e.path, e.text) for e in events if isinstance(e, BlockDelta)]
    assert deltas == [("users/0/name", "Ann\n"), ("users/0/bio", "line 1\nline 2\n")]


def test_several_gadgets_with_prose_between() -> None:
    text = (
        "First I add.\n"
        + gadget(("a", "1"), ("b", "2"), name="Add")
        + "Then I search.\n"
        + gadget(("query", "cats"), name="Search")
        + "Done."
    )
    events = assert_invariant(processor("Add", "Search"), text)
    assert [(b.type, b.content) for b in blocks(events)] == [
        ("Add", {"a": 1, "b": 2}),
        ("Search", {"query": "cats"}),
    ]
    assert visible_text(events) == "First I add.\nThen I search.\nDone."


def test_gadgets_mixed_with_preamble_blocks() -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=DelimiterPreambleSyntax())
    registry.register("Calculator", syntax=GadgetSyntax())
    proc = StreamBlockProcessor(registry, input_adapter=None)
    text = "a\n!!n1:note\nremember\n!!end\nb\n" + CALCULATOR + "c\n!!n2:note\n!!!ARG:x\n!!end\n"
    events = assert_invariant(proc, text)
    assert [(b.id, b.type, b.content) for b in blocks(events)] == [
        ("n1", "note", "remember\n"),
        ("block-1", "Calculator", {"operation": "multiply", "a": 15, "b": 23}),
        ("n2", "note", "!!!ARG:x\n"),
    ]
    assert visible_text(events) == "a\nb\nc\n"


def test_gadget_inside_code_fence_is_shown() -> None:
    text = "```\n" + CALCULATOR + "```\nafter\n"
    events = assert_invariant(processor("Calculator"), text)
    assert not blocks(events)
    assert visible_text(events) == text


# ---------------------------------------------------------------------- system prompt


def test_system_prompt_lists_gadgets_with_argument_schemas() -> None:
    class Search(BaseModel):
        query: str = Field(description="what to look for")
        limit: int = 10
        filters: Address | None = None

    registry = BlockRegistry()
    registry.register(
        "Calculator",
        syntax=GadgetSyntax(),
        content=_Calc,
        description="Does arithmetic.",
        instructions="Use it for any multiplication.",
    )
    registry.register("Search", syntax=GadgetSyntax(), content=Search, description="Web search.")
    registry.register("hidden", syntax=GadgetSyntax())  # no description: recognised, unlisted
    prompt = registry.system_prompt()
    assert "!!!GADGET_START:<gadget name>" in prompt
    assert "!!!ARG:<argument>" in prompt
    assert "!!!GADGET_END" in prompt
    assert "items/0" in prompt
    assert "!!!GADGET_START:Calculator\n" in prompt  # the example uses a real gadget
    assert "- Calculator: Does arithmetic.\n  Use it for any multiplication.\n" in prompt
    assert "argument fields: operation (Literal['add', 'multiply']); a (int); b (int)" in prompt
    assert "- Search: Web search." in prompt
    assert "query (str): what to look for" in prompt
    assert "limit (int, optional, default 10)" in prompt
    assert "filters (Address: {street (str); zip (str)} | None, optional, default null)" in prompt
    assert "hidden" not in prompt
    assert prompt.index("Calculator") < prompt.index("Search")


def test_system_prompt_with_custom_markers() -> None:
    registry = BlockRegistry()
    syntax = GadgetSyntax(start_prefix="<<<START:", end_prefix="<<<END:", arg_prefix="@param:")
    registry.register("Clock", syntax=syntax, description="Tells the time.")
    prompt = registry.system_prompt()
    assert "<<<START:Clock\n@param:" in prompt
    assert "!!!" not in prompt


def test_build_arguments_directly() -> None:
    pairs = [("a/0", ["1"]), ("a/1", ["x", "y"]), ("b", [])]
    assert build_arguments(pairs) == {"a": [1, "x\ny"], "b": ""}
