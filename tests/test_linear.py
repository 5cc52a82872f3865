"""Invariant 3, counted rather than timed: the work grows linearly with the input on
every input, whatever the chunk size.

The session counts the characters its scanner looks at (``Session.examined``:
searched, handed to an inline syntax, offered to a line syntax). For every character
that means something to some syntax, every opener prefix repeated, and every construct
left unclosed, with all five syntaxes registered and fed in chunks of 1, 4 and 1,024
characters, doubling the input at most doubles that count (plus a little), and the count
per input character stays small: no rescans, no quadratic joins.

The same holds for model-markup call bodies (``examined`` counts what a body's reading
looks at again, ``Scanner.rejoined`` the text a region holds copied again) and for the
AG-UI output of a gadget (``BlockEvents.work``: the argument JSON it works out), each on
the shapes that once made them quadratic (issue 39).
"""

from __future__ import annotations

from typing import Any

import pytest

from streamblocks import (
    BlockRegistry,
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    GadgetSyntax,
    Limits,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    XMLTagSyntax,
)
from streamblocks.markup import Markup

MARKER = 64
LIMITS = Limits(max_marker_chars=MARKER, max_block_chars=100_000, max_metadata_chars=4_096)


def _all_five() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note", syntax=DelimiterPreambleSyntax())
    registry.register("task", syntax=DelimiterFrontmatterSyntax())
    registry.register("code", syntax=MarkdownFrontmatterSyntax())
    registry.register("cite", syntax=XMLTagSyntax())
    registry.register("Search", syntax=GadgetSyntax())
    return StreamBlockProcessor(registry, input_adapter=None, limits=LIMITS)


PROCESSOR = _all_five()

CHARACTERS = [*"!`<>/-:=\"'[]{}\n\r~ \t&#;*_|", "\r\n", "\u00a0", "｜", "é"]
PREFIXES = [
    "!!",
    "!!n",
    "!!n1:",
    "!!n1:no",
    "!!n1:note:",
    "!!s",
    "!!start",
    "!!!",
    "!!!GADGET_START:",
    "!!!GADGET_START:Sea",
    "!!!ARG:",
    "``",
    "```",
    "~~~",
    "   ``",
    "<",
    "<c",
    "<ci",
    "<cite",
    "<cite ",
    "<cite a",
    "<cite a=",
    "</",
    "</ci",
    "&",
    "-",
    "---",
]
UNCLOSED = [
    ("tag", "<cite a='1' b=", "x "),
    ("attribute quote", '<cite a="', "v "),
    ("attribute quote, single", "<cite a='", "v "),
    ("inline block", "<cite>", "x </cit "),
    ("code span", "`", "x `` "),
    ("fence", "```code\n", "line\n"),
    ("shown fence", "```python\n", "print(1) <cite>\n"),
    ("header", "!!n1:note:", "p"),
    ("preamble block", "!!n1:note\n", "body !!en\n"),
    ("frontmatter", "!!start\n---\n", "key: value\n"),
    ("frontmatter, blank lines", "!!start\n", "\n"),
    ("gadget argument", "!!!GADGET_START:Search\n!!!ARG:q\n", "value\n"),
    ("gadget header", "!!!GADGET_START:Search\n", "!!!ARG:a/0/b\n1\n"),
]

CASES: list[tuple[str, str, str]] = (
    [(f"run of {c!r}", "", c) for c in CHARACTERS]
    + [(f"repeated {p!r}", "", p) for p in PREFIXES]
    + [(f"repeated {p!r} + space", "", p + " ") for p in PREFIXES]
    + [(f"unclosed {name}", head, unit) for name, head, unit in UNCLOSED]
)


def _examined(text: str, size: int) -> int:
    session = PROCESSOR.session()
    for i in range(0, len(text), size):
        session.feed(text[i : i + size])
    session.close()
    return session.examined


def _text(head: str, unit: str, length: int) -> str:
    return head + unit * ((length - len(head)) // len(unit))


@pytest.mark.parametrize("size", [1, 4, 1024])
@pytest.mark.parametrize(("name", "head", "unit"), CASES, ids=[case[0] for case in CASES])
def test_work_grows_linearly(name: str, head: str, unit: str, size: int) -> None:
    small_text, large_text = _text(head, unit, 3_000), _text(head, unit, 6_000)
    small, large = _examined(small_text, size), _examined(large_text, size)
    assert large <= 2.3 * small + 8 * MARKER, (small, large)
    # (a held line start is offered again as it grows: a few looks per character)
    assert large <= 12 * len(large_text), (large, len(large_text))


def test_token_sized_runs_of_backticks_with_xml_are_linear() -> None:
    """The case that went super-linear before the one-scanner core: backticks with the
    XML syntax registered, in 4-character chunks."""
    counts = [_examined("`" * length, 4) for length in (4_000, 8_000, 16_000)]
    assert counts[1] <= 2.3 * counts[0] and counts[2] <= 2.3 * counts[1], counts
    assert counts[2] <= 4 * 16_000, counts


def test_a_block_fed_a_character_at_a_time_is_read_once() -> None:
    """Inside blocks every character is looked at a bounded number of times."""
    for text in ("<cite>" + "x" * 5_000 + "</cite>", "!!n1:note\n" + "y\n" * 2_500 + "!!end\n"):
        assert _examined(text, 1) <= 3 * len(text)


# -- model markup: call bodies whose held text could be read again on every chunk ---------

_NS = "]<]minimax[>["  # (MiniMax M3's namespace token)


def _tool(name: str, properties: dict[str, Any]) -> dict[str, Any]:
    schema = {"type": "object", "properties": properties}
    return {"type": "function", "function": {"name": name, "parameters": schema}}


MARKUP_CASES: list[tuple[str, str | Markup, str, str, str]] = [
    (
        "mistral: a later array item writing its arguments before its name",
        "mistral",
        '[TOOL_CALLS][{"name": "a", "arguments": {}}, {"arguments": {"q": "',
        "xy ",
        '"}, "name": "b"}]',
    ),
    (
        "qwen3-coder: a value holding </function>, then blanks",
        "qwen3",
        "<tool_call>\n<function=f>\n<parameter=a>\nx</function>",
        " ",
        "y\n</parameter>\n</function>\n</tool_call>",
    ),
    (
        "qwen3-coder: a value holding </parameter>, then blanks",
        "qwen3",
        "<tool_call>\n<function=f>\n<parameter=a>\nx</parameter>",
        " \n",
        "y\n</parameter>\n</function>\n</tool_call>",
    ),
    (
        "qwen3-coder: a schema-typed value held to its end",
        Markup("qwen3", tools=[_tool("f", {"a": {"type": "array"}})]),
        "<tool_call>\n<function=f>\n<parameter=a>\n[",
        "1, ",
        "1]\n</parameter>\n</function>\n</tool_call>",
    ),
    (
        "qwen3-coder: a schema-typed value held, then </parameter> and blanks",
        Markup("qwen3", tools=[_tool("f", {"a": {"type": "integer"}})]),
        "<tool_call>\n<function=f>\n<parameter=a>\n1</parameter>",
        " ",
        "\n</parameter>\n</function>\n</tool_call>",
    ),
    (
        "glm: a schema-typed value held to its end",
        Markup("glm", tools=[_tool("f", {"a": {"type": "array"}})]),
        "<tool_call>f<arg_key>a</arg_key><arg_value>[",
        "1, ",
        "1]</arg_value></tool_call>",
    ),
    (
        "gemma4: a value that is no string, held to its end",
        "gemma4",
        "<|tool_call>call:f{a:[",
        "1,",
        "1]}<tool_call|>",
    ),
    (
        "llama4: a pythonic value held to its end",
        "llama",
        "[f(a=[",
        "1, ",
        "1])]",
    ),
    (
        "minimax-m3: a value of elements, held to its end",
        "minimax-m3",
        f'{_NS}<tool_call>{_NS}<invoke name="f">{_NS}<a>',
        f"{_NS}<item>1{_NS}</item>",
        f"{_NS}</a>{_NS}</invoke>{_NS}</tool_call>",
    ),
    (
        "minimax-m3: a schema-typed value held to its end",
        Markup("minimax-m3", tools=[_tool("f", {"a": {"type": "array"}})]),
        f'{_NS}<tool_call>{_NS}<invoke name="f">{_NS}<a>[',
        "1, ",
        f"1]{_NS}</a>{_NS}</invoke>{_NS}</tool_call>",
    ),
    (
        "hermes: a JSON body of many strings",
        "hermes",
        '<tool_call>{"name": "f", "arguments": {"a": [',
        '"s", ',
        '"s"]}}</tool_call>',
    ),
]


def test_a_json_body_read_whole_is_searched_for_its_closer_once() -> None:
    """A body of many strings in one chunk: the closer is looked for once, not from
    every quote (``BodyScanner.work``: the characters its searches passed over)."""
    from streamblocks.markup.formats.qwen import TOOL_CALL
    from streamblocks.markup.scan import BodyScanner

    work = []
    for count in (4_000, 16_000):
        body = '{"name": "f", "arguments": {"a": [' + '"s", ' * count + '"s"]}}</tool_call>'
        scanner = BodyScanner(TOOL_CALL.spec_for("{"))
        assert scanner.scan(body, 0) is not None
        work.append(scanner.work)
    assert work[1] <= 4.6 * work[0] and work[1] <= 2 * len(body), work


def _markup_examined(family: str | Markup, text: str, size: int) -> int:
    """``examined``, and the characters of held region text copied again."""
    processor = StreamBlockProcessor(
        BlockRegistry(), markup=family, limits=Limits(max_block_chars=2**24)
    )
    session = processor.session()
    events = [e for at in range(0, len(text), size) for e in session.feed(text[at : at + size])]
    events += session.close()
    kinds = [(e.type, getattr(e, "block_type", None)) for e in events]
    assert ("BLOCK_END", "tool_call") in kinds and not [k for k in kinds if k[0] == "BLOCK_ERROR"]
    return session.examined + session._scan.rejoined


@pytest.mark.parametrize("size", [1, 4, 1 << 30])
@pytest.mark.parametrize(
    ("name", "family", "head", "unit", "tail"), MARKUP_CASES, ids=[c[0] for c in MARKUP_CASES]
)
def test_markup_work_grows_linearly(
    name: str, family: str | Markup, head: str, unit: str, tail: str, size: int
) -> None:
    small_text = head + unit * (4_000 // len(unit)) + tail
    large_text = head + unit * (16_000 // len(unit)) + tail
    small = _markup_examined(family, small_text, size)
    large = _markup_examined(family, large_text, size)
    assert large <= 4.6 * small, (small, large)
    assert large <= 12 * len(large_text), (large, len(large_text))


# -- the AG-UI output of a gadget: its arguments' JSON worked out from each delta ----------

GADGET_CASES = [
    ("a long value of text", "!!!ARG:q\n", "abc \r\n"),
    ("a long value on one line", "!!!ARG:q\n", "abc "),
    ("a long line that may be a number", "!!!ARG:q\n-", "12-"),
    ("a long JSON line", "!!!ARG:q\n[", "1, "),
    ("many arguments", "", "!!!ARG:a{i}\nv{i}\n"),
    ("many list items", "", "!!!ARG:items/{i}/k\n{i}\n"),
]


def _agui_work(head: str, unit: str, length: int, size: int) -> tuple[int, int]:
    from streamblocks.ext.agui import AGUIOutputAdapter

    registry = BlockRegistry()
    registry.register("Search", syntax=GadgetSyntax())
    processor = StreamBlockProcessor(
        registry, input_adapter=None, limits=Limits(max_block_chars=2**24)
    )
    parts, i = [head], 0
    while sum(map(len, parts)) < length:
        parts.append(unit.format(i=i) if "{i}" in unit else unit)
        i += 1
    text = "!!!GADGET_START:Search\n" + "".join(parts) + "\n!!!GADGET_END\n"
    adapter = AGUIOutputAdapter().for_stream()
    session = processor.session()
    out = []
    for at in range(0, len(text), size):
        for event in session.feed(text[at : at + size]):
            out += adapter.to_protocol_event(event)
    for event in session.close():
        out += adapter.to_protocol_event(event)
    assert [type(e).__name__ for e in out].count("ToolCallEndEvent") == 1
    return adapter._blocks.work, len(text)


@pytest.mark.parametrize("size", [1, 4, 1024])
@pytest.mark.parametrize(
    ("name", "head", "unit"), GADGET_CASES, ids=[case[0] for case in GADGET_CASES]
)
def test_agui_gadget_arguments_work_grows_linearly(
    name: str, head: str, unit: str, size: int
) -> None:
    small, _ = _agui_work(head, unit, 4_000, size)
    large, large_len = _agui_work(head, unit, 16_000, size)
    assert large <= 4.6 * small, (small, large)
    assert large <= 6 * large_len, (large, large_len)
