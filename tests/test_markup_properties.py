"""Model markup at any chunking: texts dense in the marker fragments of every family, on
top of the five registered syntaxes and alone, give the same events whole, one character
per chunk and at random splits, and lose nothing but the named framing markers."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamblocks import (
    BlockRegistry,
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    GadgetSyntax,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    XMLTagSyntax,
)
from streamblocks.core.events import BlockDelta, BlockEnd
from streamblocks.markup import FAMILIES, Markup
from streamblocks.markup.formats import GRAMMARS
from streamblocks.testing import conserved, normalise, run_chunks
from streamblocks.testing.invariants import split_random

COMMON = [*'<>/|{}[]":=\\`\n a', "</", "<|", "<｜", "!!", "```", "\n\n", "  "]
FRAGMENTS = {
    "qwen3": [
        "<think>",
        "</think>",
        "<tool_call>",
        "</tool_call>",
        '{"name": "f", "arguments": {"a": "',
        '"}}',
        "<function=f>",
        "<parameter=a>",
        "</parameter>",
        "</function>",
    ],
    "deepseek": [
        "<｜tool▁calls▁begin｜>",
        "<｜tool▁call▁begin｜>",
        "f<｜tool▁sep｜>",
        "<｜tool▁call▁end｜>",
        "<｜tool▁calls▁end｜>",
        "<｜DSML｜function_calls>",
        '<｜DSML｜invoke name="f">',
        '<｜DSML｜parameter name="a" string="true">',
        "</｜DSML｜parameter>",
        "</｜DSML｜invoke>",
        "</｜DSML｜function_calls>",
        "<think>",
        "</think>",
        "```json\n",
    ],
    "kimi": [
        "<|tool_calls_section_begin|>",
        "<|tool_call_begin|>",
        "functions.f:0",
        "<|tool_call_argument_begin|>",
        "<|tool_call_end|>",
        "<|tool_calls_section_end|>",
        "<|open|>think<|sep|>",
        "<|close|>think<|sep|>",
        "<|open|>tools<|sep|>",
        '<|open|>call tool="f"<|sep|>',
        '<|open|>argument key="a"<|sep|>',
        "<|close|>argument<|sep|>",
        "<|close|>call<|sep|>",
        "<|open|>response<|sep|>",
    ],
    "glm": [
        "<think>",
        "</think>",
        "<tool_call>",
        "f",
        "<arg_key>",
        "</arg_key>",
        "<arg_value>",
        "</arg_value>",
        "</tool_call>",
    ],
    "llama": [
        '{"name": "f", "parameters": {',
        "}}",
        "; ",
        "<|python_tag|>",
        "[f(a=",
        "'x'",
        ")]",
        "<|python_start|>",
        "<|python_end|>",
        "<|eot_id|>",
    ],
    "mistral": [
        "[THINK]",
        "[/THINK]",
        "[TOOL_CALLS]",
        "f[ARGS]",
        "[CALL_ID]",
        "c1",
        '[{"name": "f", "arguments": {}}]',
        "<think>",
        "</think>",
    ],
    "gemma4": [
        "<|tool_call>",
        "call:f{",
        '<|"|>',
        "<tool_call|>",
        "<|channel>thought",
        "<channel|>",
        "a:",
    ],
    "gpt-oss": [
        "<|channel|>analysis<|message|>",
        "<|end|>",
        "<|start|>assistant",
        "<|channel|>commentary to=functions.f",
        "<|message|>",
        "<|call|>",
        "<|channel|>final<|message|>",
        "<|return|>",
        " to=",
        "<|constrain|>json",
        "<|channel|>final json<|message|>",
    ],
    "minimax": [
        "<think>",
        "</think>",
        "<minimax:tool_call>",
        "</minimax:tool_call>",
        '<invoke name="f">',
        "</invoke>",
        '<parameter name="a">',
        "</parameter>",
    ],
    "minimax-m3": [
        "<mm:think>",
        "</mm:think>",
        "]<]minimax[>[<tool_call>",
        "]<]minimax[>[</tool_call>",
        ']<]minimax[>[<invoke name="f">',
        "]<]minimax[>[</invoke>",
        "]<]minimax[>[<a>",
        "]<]minimax[>[</a>",
        "]<]minimax[>[<item>",
        "]<]minimax[>[</item>",
        "]<]minimax[>[",
    ],
    "seed": [
        "<seed:think>",
        "</seed:think>",
        "<seed:tool_call>",
        "</seed:tool_call>",
        "<function=f>",
        "<parameter=a>",
        "</parameter>",
        "</function>",
        "<seed:eos>",
    ],
    "hunyuan": [
        "<think>",
        "</think>",
        "<answer>",
        "</answer>",
        "<tool_calls>",
        "</tool_calls>",
        '[{"name": "f", "arguments": {',
        "}}]",
        "<tool_call>f<tool_sep>",
        "</tool_call>",
        "<arg_key>a</arg_key>",
        "<arg_value>",
        "</arg_value>",
        "<tool_calls:opensource>",
    ],
    "command": [
        "<|START_THINKING|>",
        "<|END_THINKING|>",
        "<|START_ACTION|>",
        "<|END_ACTION|>",
        '[{"tool_call_id": "0", "tool_name": "f", "parameters": {',
        "}}]",
        "<|START_RESPONSE|>",
        "<|END_RESPONSE|>",
    ],
    "nemotron": [
        "<think>",
        "</think>",
        "<TOOLCALL>",
        "</TOOLCALL>",
        '[{"name": "f", "arguments": {',
        "}}]",
    ],
    "phi4": [
        "functools[",
        '{"name": "f", "arguments": {',
        "}}",
        ", ",
        "]",
        "<think>",
        "</think>",
    ],
    "lfm2": [
        "<think>",
        "</think>",
        "<|tool_call_start|>",
        "<|tool_call_end|>",
        "[f(a=",
        "'x'",
        ")]",
        "<|im_end|>",
    ],
}
SYNTAX_FRAGMENTS = [
    "\n!!n1:note\n",
    "\n!!end\n",
    "\n!!start\n---\nid: t1\nblock_type: task\n---\n",
    "```code\n",
    "---\n",
    "<cite>",
    "</cite>",
    "\n!!!GADGET_START:Search\n",
    "\n!!!ARG:q\n",
    "\n!!!GADGET_END\n",
]


def registry(with_syntaxes: bool) -> BlockRegistry:
    found = BlockRegistry()
    if with_syntaxes:
        found.register("note", syntax=DelimiterPreambleSyntax())
        found.register("task", syntax=DelimiterFrontmatterSyntax())
        found.register("code", syntax=MarkdownFrontmatterSyntax())
        found.register("cite", syntax=XMLTagSyntax())
        found.register("Search", syntax=GadgetSyntax())
    return found


def framing(family: str) -> re.Pattern[str]:
    grammar = GRAMMARS[family]
    markers = sorted(grammar.markers(), key=len, reverse=True)
    # A marker and an empty call list after it is framing only, as an empty <think></think>
    # is: no call, nothing to keep (phi4's `functools[]`, nemotron's `<TOOLCALL>[]`); so
    # is an empty list where a bare list of calls may open the reply (Llama's `[]`).
    empty = [re.escape(marker) + r"\s*\[?\s*\]" for marker in markers]
    if any(not f.opener and isinstance(f.ends, Mapping) and "[" in f.ends for f in grammar.start):
        empty.append(r"^\s*\[\s*\]")  # (`match` at a later offset never meets `^`)
    return re.compile(r"\s*(?:" + "|".join([*empty, *map(re.escape, markers)]) + ")")


def only_framing_lost(text: str, kept: str, hidden: re.Pattern[str]) -> bool:
    """``kept`` is ``text`` with some framing markers (and blanks before them) left out:
    every way of reading ``text`` against ``kept`` is followed, offset by offset."""
    reach: list[set[int]] = [set() for _ in range(len(text) + 1)]
    reach[0].add(0)
    for i in range(len(text)):
        if not reach[i]:
            continue
        skip = hidden.match(text, i)
        for j in reach[i]:
            if j < len(kept) and text[i] == kept[j]:
                reach[i + 1].add(j + 1)
            if skip is not None:
                for end in range(i + 1, skip.end() + 1):  # (a blank run, then a marker)
                    if hidden.fullmatch(text, i, end):
                        reach[end].add(j)
    return len(kept) in reach[len(text)]


CASES = [(family, syntaxes) for family in FAMILIES for syntaxes in (False, True)]
# One budget of examples shared by the cases (it was 1,300 each when there were 16): a new
# family adds cases, not minutes. MARKUP_EXAMPLES sets the count per case instead.
EXAMPLES = int(os.environ.get("MARKUP_EXAMPLES", str(20_800 // len(CASES))))


@pytest.mark.parametrize(("family", "syntaxes"), CASES)
def test_marker_fragments_at_every_chunking(family: str, syntaxes: bool) -> None:
    pieces = FRAGMENTS[family] + COMMON + (SYNTAX_FRAGMENTS if syntaxes else [])
    processor = StreamBlockProcessor(registry(syntaxes), markup=Markup(family))
    hidden = framing(family)

    @settings(max_examples=EXAMPLES, deadline=None)
    @given(
        text=st.lists(st.sampled_from(pieces), max_size=24).map("".join),
        cuts=st.lists(st.integers(1, 300), max_size=8),
    )
    def check(text: str, cuts: list[int]) -> None:
        whole = run_chunks(processor, [text])
        assert only_framing_lost(text, conserved(whole), hidden)
        expected = normalise(whole)
        assert normalise(run_chunks(processor, list(text))) == expected
        points = sorted({c for c in cuts if c < len(text)})
        chunks = [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]
        assert normalise(run_chunks(processor, chunks)) == expected

    check()


# -- streamed arguments: joined, the deltas are the arguments' JSON ------------------------

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.text(max_size=12)
)
_KEYS = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=6)
JSON_ARGS = st.dictionaries(
    _KEYS,
    st.recursive(
        _SCALARS,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
        max_leaves=8,
    ),
    max_size=4,
)
_PLAIN = st.text(alphabet='abcé ü"\\{}[]:,1-', min_size=1, max_size=12).filter(
    lambda s: s.strip() == s
)
TEXT_ARGS = st.dictionaries(st.text(alphabet="abk_", min_size=1, max_size=5), _PLAIN, max_size=4)


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


WRITERS = {
    "qwen3-hermes": (
        "qwen3",
        True,
        lambda a: f"<tool_call>\n{_dumps({'name': 'f', 'arguments': a})}\n</tool_call>",
    ),
    "qwen3-coder": (
        "qwen3",
        False,
        lambda a: (
            "<tool_call>\n<function=f>\n"
            + "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in a.items())
            + "</function>\n</tool_call>"
        ),
    ),
    "deepseek-v31": (
        "deepseek",
        True,
        lambda a: (
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>"
            + _dumps(a)
            + "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
        ),
    ),
    "deepseek-v3": (
        "deepseek",
        True,
        lambda a: (
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function"
            "<｜tool▁sep｜>f\n```json\n"
            + _dumps(a)
            + "\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
        ),
    ),
    "dsml": (
        "deepseek",
        False,
        lambda a: (
            '<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n'
            + "".join(
                f'<｜DSML｜parameter name="{k}" string="true">{v}</｜DSML｜parameter>\n'
                for k, v in a.items()
            )
            + "</｜DSML｜invoke>\n</｜DSML｜function_calls>"
        ),
    ),
    "kimi-k2": (
        "kimi",
        True,
        lambda a: (
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
            "<|tool_call_argument_begin|>"
            + _dumps(a)
            + "<|tool_call_end|><|tool_calls_section_end|>"
        ),
    ),
    "kimi-k3": (
        "kimi",
        False,
        lambda a: (
            '<|open|>tools<|sep|><|open|>call tool="f"<|sep|>'
            + "".join(
                f'<|open|>argument key="{k}"<|sep|>{v}<|close|>argument<|sep|>'
                for k, v in a.items()
            )
            + "<|close|>call<|sep|><|close|>tools<|sep|>"
        ),
    ),
    "glm": (
        "glm",
        False,
        lambda a: (
            "<tool_call>f"
            + "".join(f"<arg_key>{k}</arg_key><arg_value>{v}</arg_value>" for k, v in a.items())
            + "</tool_call>"
        ),
    ),
    "llama-json": ("llama", True, lambda a: _dumps({"name": "f", "parameters": a})),
    "llama-pythonic": (
        "llama",
        True,
        lambda a: "[f(" + ", ".join(f"{k}={v!r}" for k, v in a.items()) + ")]",
    ),
    "mistral": ("mistral", True, lambda a: "[TOOL_CALLS]f[ARGS]" + _dumps(a)),
    "mistral-array": (
        "mistral",
        True,
        lambda a: "[TOOL_CALLS]" + _dumps([{"name": "f", "arguments": a}]),
    ),
    "gemma4": (
        "gemma4",
        False,
        lambda a: (
            "<|tool_call>call:f{"
            + ",".join(f'{k}:<|"|>{v}<|"|>' for k, v in a.items())
            + "}<tool_call|>"
        ),
    ),
    "minimax": (
        "minimax",
        False,
        lambda a: (
            '<minimax:tool_call>\n<invoke name="f">\n'
            + "".join(f'<parameter name="{k}">{v}</parameter>\n' for k, v in a.items())
            + "</invoke>\n</minimax:tool_call>"
        ),
    ),
    "minimax-m3": (
        "minimax-m3",
        False,
        lambda a: (
            ']<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="f">'
            + "".join(f"]<]minimax[>[<{k}>{v}]<]minimax[>[</{k}>" for k, v in a.items())
            + "]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>"
        ),
    ),
    "seed": (
        "seed",
        False,
        lambda a: (
            "<seed:tool_call>\n<function=f>\n"
            + "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in a.items())
            + "</function>\n</seed:tool_call>"
        ),
    ),
    "hunyuan-a13b": (
        "hunyuan",
        True,
        lambda a: "<tool_calls>" + _dumps([{"name": "f", "arguments": a}]) + "</tool_calls>",
    ),
    "hunyuan-hy3": (
        "hunyuan",
        False,
        lambda a: (
            "<tool_calls><tool_call>f<tool_sep>"
            + "".join(f"<arg_key>{k}</arg_key><arg_value>{v}</arg_value>" for k, v in a.items())
            + "</tool_call></tool_calls>"
        ),
    ),
    "command": (
        "command",
        True,
        lambda a: (
            "<|START_ACTION|>"
            + _dumps([{"tool_call_id": "0", "tool_name": "f", "parameters": a}])
            + "<|END_ACTION|>"
        ),
    ),
    "nemotron": (
        "nemotron",
        True,
        lambda a: "<TOOLCALL>" + _dumps([{"name": "f", "arguments": a}]) + "</TOOLCALL>",
    ),
    "phi4": ("phi4", True, lambda a: "functools[" + _dumps({"name": "f", "arguments": a}) + "]"),
    "lfm2": (
        "lfm2",
        True,
        lambda a: (
            "<|tool_call_start|>["
            + "f("
            + ", ".join(f"{k}={v!r}" for k, v in a.items())
            + ")]<|tool_call_end|>"
        ),
    ),
    "gpt-oss": (
        "gpt-oss",
        True,
        lambda a: (
            "<|channel|>commentary to=functions.f <|constrain|>json"
            "<|message|>" + _dumps(a) + "<|call|>"
        ),
    ),
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_argument_deltas_join_to_the_arguments(writer: str) -> None:
    family, json_values, write = WRITERS[writer]
    processor = StreamBlockProcessor(BlockRegistry(), markup=family)

    @settings(max_examples=60, deadline=None)
    @given(arguments=JSON_ARGS if json_values else TEXT_ARGS, seed=st.integers(0, 1000))
    def check(arguments: dict[str, object], seed: int) -> None:
        if writer in ("llama-pythonic", "lfm2"):  # (keyword arguments: names, not any text)
            arguments = {f"k{i}": v for i, v in enumerate(arguments.values())}
        text = write(arguments)
        for chunks in ([text], list(text), split_random(text, seed, 8)):
            events = run_chunks(processor, chunks)
            ends = [e for e in events if isinstance(e, BlockEnd)]
            assert [e.block.content for e in ends] == [arguments], chunks
            if writer == "command":
                assert [e.block.attrs["id"] for e in ends] == ["0"]
            [block] = [e.block for e in ends]
            deltas = [e for e in events if isinstance(e, BlockDelta)]
            assert {d.block_id for d in deltas} == {block.id}
            assert json.loads("".join(d.text for d in deltas)) == arguments
            assert conserved(events) == text or writer.startswith(
                ("kimi", "deepseek", "dsml", "command")
            )

    check()
