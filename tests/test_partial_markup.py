"""Model-markup calls stream their arguments (DESIGN.md, "Model markup"): in every format
that writes arguments, the deltas come before ``BLOCK_END``, join to the final arguments
(the JSON formats: the object as written; the tagged formats and pythonic lists: exactly
``json.dumps(arguments, ensure_ascii=False)``), ``partial`` is monotone and ends equal to
them, and the answer is the same at every chunking — closers inside strings included.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from partial_helpers import ARGUMENTS, STRINGS, VALUES, assert_monotone
from streamblocks import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockRegistry,
    StreamBlockProcessor,
    TextDelta,
)
from streamblocks.markup import Markup
from streamblocks.testing import conserved, normalise


def qwen3(arguments: dict[str, Any]) -> str:
    call = json.dumps({"name": "f", "arguments": arguments}, ensure_ascii=False)
    return f"Hi <tool_call>\n{call}\n</tool_call> bye"


def mistral(arguments: dict[str, Any]) -> str:
    return f"Hi [TOOL_CALLS]f[ARGS]{json.dumps(arguments)}"


def kimi(arguments: dict[str, Any]) -> str:
    return (
        "Hi <|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
        f"<|tool_call_argument_begin|>{json.dumps(arguments, ensure_ascii=False)}"
        "<|tool_call_end|><|tool_calls_section_end|> bye"
    )


def gpt_oss(arguments: dict[str, Any]) -> str:
    body = json.dumps(arguments, ensure_ascii=False)
    return f"<|channel|>commentary to=functions.f <|constrain|>json<|message|>{body}<|call|>"


JSON_FAMILIES = {"qwen3": qwen3, "mistral": mistral, "kimi": kimi, "gpt-oss": gpt_oss}


def run(family: str, text: str, size: int) -> list[Any]:
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    return list(StreamBlockProcessor(BlockRegistry(), markup=family).process(chunks))


def check_call(events: list[Any], arguments: dict[str, Any]) -> None:
    ends = [e.block for e in events if isinstance(e, BlockEnd) and e.block.type == "tool_call"]
    assert [b.content for b in ends] == [arguments]
    values = [e.partial for e in events if isinstance(e, BlockDelta) and e.block_id == ends[0].id]
    assert_monotone(values, arguments)


@pytest.mark.parametrize("family", JSON_FAMILIES)
@settings(max_examples=20, deadline=None)
@given(arguments=ARGUMENTS, size=st.integers(2, 9))
def test_json_families_with_closers_inside_strings(
    family: str, arguments: dict[str, Any], size: int
) -> None:
    text = JSON_FAMILIES[family](arguments)
    for chunk in (1, size):
        check_call(run(family, text, chunk), arguments)


@settings(max_examples=20, deadline=None)
@given(
    arguments=st.dictionaries(
        st.text("abcxyz_", min_size=1, max_size=6),
        st.text(max_size=10).filter(lambda s: "<" not in s).map(lambda s: s + "</tool_call>x"),
        min_size=1,
        max_size=3,
    )
)
def test_a_tagged_family_streams_the_json_it_amounts_to(arguments: dict[str, str]) -> None:
    pairs = "".join(
        f"<arg_key>{k}</arg_key><arg_value>{v}</arg_value>" for k, v in arguments.items()
    )
    text = f"Hi <tool_call>f{pairs}</tool_call> bye"
    check_call(run("glm", text, 1), arguments)


# -- every format that writes arguments: deltas are the final JSON, at every chunking


def hermes_string(arguments: dict[str, Any]) -> str:
    inner = json.dumps(arguments, ensure_ascii=False)
    call = json.dumps({"name": "f", "arguments": inner}, ensure_ascii=False)
    return f"<tool_call>\n{call}\n</tool_call> bye"


def deepseek_v3(arguments: dict[str, Any]) -> str:
    body = json.dumps(arguments, ensure_ascii=False)
    return (
        "Hi <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n"
        f"```json\n{body}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜> bye"
    )


def mistral_array(arguments: dict[str, Any]) -> str:
    calls = [{"name": "f", "arguments": arguments}, {"name": "g", "arguments": {}}]
    return f"[TOOL_CALLS]{json.dumps(calls, ensure_ascii=False)}"


WRITTEN_AS_JSON = {
    "hermes-string": ("qwen3", hermes_string),
    "deepseek-v3": ("deepseek", deepseek_v3),
    "mistral-array": ("mistral", mistral_array),
}


def text_of(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def coder(arguments: dict[str, Any]) -> str:
    items = "".join(f"<parameter={k}>\n{text_of(v)}\n</parameter>\n" for k, v in arguments.items())
    return f"Hi <tool_call>\n<function=f>\n{items}</function>\n</tool_call> bye"


def glm(arguments: dict[str, Any]) -> str:
    items = "".join(
        f"<arg_key>{k}</arg_key>\n<arg_value>{text_of(v)}</arg_value>\n"
        for k, v in arguments.items()
    )
    return f"Hi <tool_call>f\n{items}</tool_call> bye"


def dsml(arguments: dict[str, Any]) -> str:
    items = "".join(
        f'<｜DSML｜parameter name="{k}" string="{str(isinstance(v, str)).lower()}">'
        f"{text_of(v)}</｜DSML｜parameter>\n"
        for k, v in arguments.items()
    )
    return (
        'Hi <｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n'
        f"{items}</｜DSML｜invoke>\n</｜DSML｜function_calls> bye"
    )


def k3(arguments: dict[str, Any]) -> str:
    items = "".join(
        f'<|open|>argument key="{k}"<|sep|>{text_of(v)}<|close|>argument<|sep|>'
        for k, v in arguments.items()
    )
    call = f'<|open|>call tool="f"<|sep|>{items}<|close|>call<|sep|>'
    return f"Hi <|open|>tools<|sep|>{call}<|close|>tools<|sep|> bye"


def gemma_value(value: Any) -> str:
    if isinstance(value, str):
        return f'<|"|>{value}<|"|>'
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{gemma_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(map(gemma_value, value)) + "]"
    return json.dumps(value)


def gemma(arguments: dict[str, Any]) -> str:
    return f"Hi <|tool_call>call:f{gemma_value(arguments)}<tool_call|> bye"


TAGGED = {"qwen3-coder": ("qwen3", coder), "glm": ("glm", glm), "dsml": ("deepseek", dsml)}
TAGGED["kimi-k3"] = ("kimi", k3)
TAGGED["gemma4"] = ("gemma4", gemma)
CLOSERS = {  # what a value may not hold in each format (it would end the value)
    "qwen3-coder": ("</parameter>", "<parameter="),
    "glm": ("</arg_value>",),
    "dsml": ("</｜DSML｜parameter>",),
    "kimi-k3": ("<|close|>argument<|sep|>",),
    "gemma4": ('<|"|>',),
}
KIND = {str: "string", bool: "boolean", int: "integer", float: "number", dict: "object"}
KIND.update({list: "array", type(None): "null"})


def tools_for(arguments: dict[str, Any]) -> list[dict[str, Any]]:
    """A schema that types every argument but the ones named ``u…`` (no schema: text)."""
    properties = {k: {"type": KIND[type(v)]} for k, v in arguments.items() if not k.startswith("u")}
    return [
        {"type": "function", "function": {"name": "f", "parameters": {"properties": properties}}}
    ]


def tagged_arguments(fmt: str) -> st.SearchStrategy[dict[str, Any]]:
    keys = st.text("abcuxyz_", min_size=1, max_size=5)
    strings = STRINGS.filter(lambda s: not any(c in s for c in CLOSERS[fmt]))
    nested = VALUES
    if fmt == "gemma4":  # its notation: keys are bare words, strings between delimiters
        nested = st.recursive(
            st.one_of(st.none(), st.booleans(), st.integers(), st.floats(-1e9, 1e9), strings),
            lambda inner: st.one_of(
                st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)
            ),
            max_leaves=8,
        )
    values = st.one_of(nested.filter(lambda v: not isinstance(v, str)), strings)
    return st.dictionaries(keys, values, max_size=4).filter(
        lambda d: all(isinstance(v, str) for k, v in d.items() if k.startswith("u"))
    )


def streamed(family: str, text: str, chunks: list[str], tools: Any) -> list[Any]:
    processor = StreamBlockProcessor(BlockRegistry(), markup=Markup(family, tools=tools))
    return list(processor.process(chunks))


def check_streamed(events: list[Any], arguments: dict[str, Any], *, exact: bool) -> str:
    ends = [e.block for e in events if isinstance(e, BlockEnd) and e.block.type == "tool_call"]
    assert ends and ends[0].content == arguments
    first = ends[0].id
    deltas = [e for e in events if isinstance(e, BlockDelta) and e.block_id == first]
    last = max(i for i, e in enumerate(events) if isinstance(e, BlockDelta) and e.block_id == first)
    end_at = next(
        i for i, e in enumerate(events) if isinstance(e, BlockEnd) and e.block.id == first
    )
    assert last < end_at
    joined = "".join(d.text for d in deltas)
    if exact:
        assert joined == json.dumps(arguments, ensure_ascii=False)
    assert json.loads(joined) == arguments
    assert_monotone([d.partial for d in deltas], arguments)
    return joined


def splits(text: str, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    points = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, 12)))
    bounds = [0, *points, len(text)]
    return [[text], list(text), [text[a:b] for a, b in itertools.pairwise(bounds)]]


@pytest.mark.parametrize("fmt", TAGGED)
@settings(max_examples=40, deadline=None)
@given(data=st.data(), seed=st.integers(0, 1000))
def test_tagged_formats_stream_the_final_json(fmt: str, data: st.DataObject, seed: int) -> None:
    family, write = TAGGED[fmt]
    arguments = data.draw(tagged_arguments(fmt))
    text = write(arguments)
    tools = tools_for(arguments)
    answers = set()
    for chunks in splits(text, seed):
        answers.add(check_streamed(streamed(family, text, chunks, tools), arguments, exact=True))
    assert len(answers) == 1


@pytest.mark.parametrize("fmt", WRITTEN_AS_JSON)
@settings(max_examples=30, deadline=None)
@given(arguments=ARGUMENTS, seed=st.integers(0, 1000))
def test_json_written_formats_stream_as_written(
    fmt: str, arguments: dict[str, Any], seed: int
) -> None:
    family, write = WRITTEN_AS_JSON[fmt]
    text = write(arguments)
    for chunks in splits(text, seed):
        check_streamed(streamed(family, text, chunks, None), arguments, exact=False)


def mistral_item(index: int, arguments: dict[str, Any], how: int) -> dict[str, Any]:
    """One call of an array, written in one of the ways the format allows."""
    name = f"t{index}"
    if how == 1:  # an id, and the name after the arguments
        return {"arguments": arguments, "id": f"c{index}", "name": name}
    if how == 2:  # the arguments as a JSON string
        return {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}
    return {"name": name, "arguments": arguments}


# Two items that name themselves after ~1,100 characters of arguments each: the first
# call's block starts at its item's end (it once waited for the second item's name, and
# the array outgrew max_marker_chars as one unnamed head: an error, then visible text).
LATE_NAMED = {f"</tool_call> {i}": "<|call|>" * 8 for i in range(12)}


@settings(max_examples=30, deadline=None)
@given(
    calls=st.lists(st.tuples(ARGUMENTS, st.integers(0, 2)), min_size=2, max_size=3),
    seed=st.integers(0, 1000),
)
@example(calls=[(LATE_NAMED, 1), (LATE_NAMED, 1)], seed=306)
def test_every_call_of_a_mistral_array_streams_as_written(
    calls: list[tuple[dict[str, Any], int]], seed: int
) -> None:
    items = [mistral_item(i, a, how) for i, (a, how) in enumerate(calls)]
    text = "[TOOL_CALLS]" + json.dumps(items, ensure_ascii=False, indent=1)
    answers = []
    for chunks in splits(text, seed):
        events = streamed("mistral", text, chunks, None)
        answers.append(normalise(events))
        assert conserved(events) == text  # all of it the calls' raw, no visible text:
        assert not any(isinstance(e, TextDelta) for e in events)
        ends = [e.block for e in events if isinstance(e, BlockEnd)]
        assert [(b.content, b.attrs.get("id")) for b in ends] == [
            (a, item.get("id")) for (a, _), item in zip(calls, items, strict=True)
        ]
        for block, (arguments, _) in zip(ends, calls, strict=True):
            deltas = [e for e in events if isinstance(e, BlockDelta) and e.block_id == block.id]
            assert json.loads("".join(d.text for d in deltas)) == arguments
            assert_monotone([d.partial for d in deltas], arguments)
    assert all(answer == answers[0] for answer in answers)
    # before the array's "]": every call has streamed its arguments, all but the last ended
    session = StreamBlockProcessor(BlockRegistry(), markup="mistral").session()
    early = [e for chunk in text[:-1] for e in session.feed(chunk)]
    ended = [e.block.id for e in early if isinstance(e, BlockEnd)]
    streaming = {e.block_id for e in early if isinstance(e, BlockDelta)}
    assert len(ended) == len(calls) - 1 and len(streaming) == len(calls)
    assert not any(isinstance(e, BlockError) for e in early)


@pytest.mark.parametrize(
    ("body", "ended", "why"),
    [
        ('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {]', ["a"], "ended"),
        ('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x" 1}}]', ["a"], "JSON"),
        ('[{"name": "a", "arguments": {}}, 5]', [], "not an object"),
        ('[{"name": "a", "arguments": {}}, {"arguments": {}}]', [], "has no name"),
        ('[{"name": "a", "arguments": 3}, {"name": "b"}]', [], "not an object"),
        ('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": "{x"}]', ["a"], "string"),
        ('[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}', ["a"], "ended"),
        ('[{"name": "a", "arguments": {"x": 1}}, {"na', [], "ended"),
    ],
)
def test_a_broken_mistral_array_is_an_error_that_keeps_its_text(
    body: str, ended: list[str], why: str
) -> None:
    text = "[TOOL_CALLS]" + body
    answers = []
    for chunks in splits(text, 7):
        events = streamed("mistral", text, chunks, None)
        answers.append(normalise(events))
        assert conserved(events) == text  # all of it the calls' raw, no visible text:
        assert not any(isinstance(e, TextDelta) for e in events)
        assert [e.block.attrs["name"] for e in events if isinstance(e, BlockEnd)] == ended
        [error] = [e for e in events if isinstance(e, BlockError)]
        assert why in str(error)
    assert all(answer == answers[0] for answer in answers)


def test_a_tagged_value_is_seen_while_it_is_written() -> None:
    processor = StreamBlockProcessor(BlockRegistry(), markup="qwen3")
    head = "<tool_call>\n<function=write>\n<parameter=path>\na.txt\n</parameter>\n"
    events = list(processor.session().feed(head + "<parameter=content>\nline one\nline"))
    deltas = [e for e in events if isinstance(e, BlockDelta)]
    assert deltas[-1].partial == {"path": "a.txt", "content": "line one\nline"}
    assert not any(isinstance(e, BlockEnd) for e in events)


def test_a_key_written_twice_is_a_broken_call() -> None:
    text = "<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value>"
    text += "<arg_key>a</arg_key><arg_value>2</arg_value></tool_call>"
    events = list(StreamBlockProcessor(BlockRegistry(), markup="glm").process([text]))
    errors = [e for e in events if type(e).__name__ == "BlockError"]
    assert len(errors) == 1 and "'a' is written twice" in str(errors[0])


def python_of(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {python_of(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(python_of, value)) + "]"
    return repr(value)


@pytest.mark.parametrize("opener", ["", "<|python_start|>"])
@settings(max_examples=30, deadline=None)
@given(
    arguments=st.dictionaries(st.text("abxyz_", max_size=4).map("k".__add__), VALUES, max_size=4),
    seed=st.integers(0, 1000),
)
def test_pythonic_calls_send_each_argument_as_it_ends(
    opener: str, arguments: dict[str, Any], seed: int
) -> None:
    items = ", ".join(f"{k}={python_of(v)}" for k, v in arguments.items())
    text = f"{opener}[f({items}), g(x=1)]" + ("<|python_end|>" if opener else "")
    answers = set()
    for chunks in splits(text, seed):
        answers.add(check_streamed(streamed("llama", text, chunks, None), arguments, exact=True))
    assert len(answers) == 1


@pytest.mark.parametrize("fmt", [*TAGGED, "pythonic"])
def test_agui_sends_tagged_arguments_as_they_arrive(fmt: str) -> None:
    from streamblocks.ext.agui import AGUIOutputAdapter

    arguments = {"path": "notes/a.md", "content": "line one\nline two " * 4}
    if fmt == "pythonic":
        family, text = "llama", f"[f(path='notes/a.md', content={arguments['content']!r})]"
    else:
        family, write = TAGGED[fmt]
        text = write(arguments)
    events = streamed(family, text, [text[i : i + 4] for i in range(0, len(text), 4)], None)
    out = AGUIOutputAdapter()
    sent = [e for event in events for e in out.to_protocol_event(event)]
    names = [type(e).__name__ for e in sent]
    end = names.index("ToolCallEndEvent")
    args = [e.delta for e in sent[:end] if type(e).__name__ == "ToolCallArgsEvent"]
    assert len(args) > (2 if fmt != "pythonic" else 1)
    assert json.loads("".join(args)) == arguments


@pytest.mark.parametrize(
    ("family", "head"),
    [
        (
            "deepseek",
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>write\n"
            '```json\n{"path": "a.txt", "content": "li',
        ),
        (
            "qwen3",
            '<tool_call>\n{"name": "write", "arguments": '
            + json.dumps('{"path": "a.txt", "content": "li')[:-1],
        ),
    ],
)
def test_a_call_starts_and_streams_before_its_end(family: str, head: str) -> None:
    session = StreamBlockProcessor(BlockRegistry(), markup=family).session()
    events = [e for chunk in (head[:20], head[20:]) for e in session.feed(chunk)]
    starts = [e for e in events if type(e).__name__ == "BlockStart"]
    assert [s.attrs.get("name") for s in starts] == ["write"]
    deltas = [e for e in events if isinstance(e, BlockDelta)]
    assert deltas[-1].partial == {"path": "a.txt", "content": "li"}


# -- MiniMax M3: values nested as elements, typed by a schema as deep as they are

NS = "]<]minimax[>["
M3_SCALARS = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**60), max_value=2**60),
    st.floats(allow_nan=False, allow_infinity=False),
    STRINGS.filter(lambda s: NS not in s),
)
M3_KEYS = st.text("abcxyz_", min_size=1, max_size=5)
M3_VALUES = st.recursive(
    M3_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(M3_KEYS, inner, max_size=3)
    ),
    max_leaves=10,
)


def m3_xml(value: Any) -> str:
    """A value as MiniMax M3's chat template writes it."""
    if isinstance(value, dict):
        return "".join(f"{NS}<{k}>{m3_xml(v)}{NS}</{k}>" for k, v in value.items())
    if isinstance(value, list):
        return "".join(f"{NS}<item>{m3_xml(v)}{NS}</item>" for v in value)
    return value if isinstance(value, str) else json.dumps(value)


def schema_of(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return {"type": "object", "properties": {k: schema_of(v) for k, v in value.items()}}
    if isinstance(value, list):
        return {"type": "array", "prefixItems": [schema_of(v) for v in value]}
    return {"type": KIND[type(value)]}


@settings(max_examples=40, deadline=None)
@given(arguments=st.dictionaries(M3_KEYS, M3_VALUES, max_size=4), seed=st.integers(0, 1000))
def test_minimax_m3_streams_the_final_json(arguments: dict[str, Any], seed: int) -> None:
    text = f'Hi {NS}<tool_call>\n{NS}<invoke name="f">{m3_xml(arguments)}{NS}</invoke>\n'
    text += f"{NS}</tool_call> bye"
    tools = [{"type": "function", "function": {"name": "f", "parameters": schema_of(arguments)}}]
    answers = set()
    for chunks in splits(text, seed):
        events = streamed("minimax-m3", text, chunks, tools)
        answers.add(check_streamed(events, arguments, exact=True))
        assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Hi  bye"
    assert len(answers) == 1


def test_minimax_m3_nested_value_is_seen_whole_at_its_end() -> None:
    head = f'{NS}<tool_call>{NS}<invoke name="f">{NS}<note>a b{NS}</note>{NS}<ship>{NS}<city>P'
    session = StreamBlockProcessor(BlockRegistry(), markup="minimax-m3").session()
    events = session.feed(head)
    deltas = [e for e in events if isinstance(e, BlockDelta)]
    assert "".join(d.text for d in deltas) == '{"note": "a b", "ship": '
    events = session.feed(f"aris{NS}</city>{NS}</ship>")
    assert [d.text for d in events if isinstance(d, BlockDelta)] == ['{"city": "Paris"}']
