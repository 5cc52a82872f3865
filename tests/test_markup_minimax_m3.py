"""MiniMax M3 (issue 38): its namespace token, the bare ``</mm:think>`` of the template's
adaptive mode, its ``thinking_mode`` switch, and its markup beside registered syntaxes."""

from __future__ import annotations

from typing import Any

import pytest

from streamblocks import BlockRegistry, StreamBlockProcessor, XMLTagSyntax, collect
from streamblocks.markup import markup_for, thinking_of
from streamblocks.testing import normalise, run_chunks

NS = "]<]minimax[>["
CALL = f'{NS}<tool_call>\n{NS}<invoke name="f">{NS}<a>x{NS}</a>{NS}</invoke>\n{NS}</tool_call>'


def read(text: str, markup: Any = "minimax-m3", chunks: list[str] | None = None) -> Any:
    processor = StreamBlockProcessor(BlockRegistry(), markup=markup)
    return collect(chunks if chunks is not None else [text], processor=processor)


def test_a_reply_that_does_not_think_starts_with_a_bare_closer_never_shown() -> None:
    for text in ("</mm:think>Hello.", "\n</mm:think>\n\nHello."):
        step = read(text)
        assert step.text.strip() == "Hello." and step.thinking == ""


def test_the_call_beside_an_xml_syntax_reads_at_every_chunking() -> None:
    # XML's opener "<" lies inside the namespace token: the token's start, held at a
    # chunk's end, once came out as text when the next chunk completed that "<"
    registry = BlockRegistry()
    registry.register("cite", syntax=XMLTagSyntax())
    processor = StreamBlockProcessor(registry, markup="minimax-m3")
    text = "See <cite>a</cite>. " + CALL
    whole = normalise(run_chunks(processor, [text]))
    assert normalise(run_chunks(processor, list(text))) == whole
    step = collect(list(text), processor=processor)
    assert [(c.name, c.arguments) for c in step.tool_calls] == [("f", {"a": "x"})]
    assert NS not in step.text


@pytest.mark.parametrize(
    ("mode", "switch"), [("enabled", True), ("disabled", False), ("adaptive", None)]
)
def test_thinking_mode_is_the_request_switch(mode: str, switch: bool | None) -> None:
    kwargs = {"extra_body": {"chat_template_kwargs": {"thinking_mode": mode}}}
    assert thinking_of(kwargs) is switch
    markup = markup_for("MiniMaxAI/MiniMax-M3", thinking=thinking_of(kwargs))
    assert markup is not None and markup.starts_in_thinking is bool(switch)
    step = read("Plan.</mm:think>Done.", markup)
    assert (step.thinking, step.text) == (("Plan.", "Done.") if switch else ("", "Plan.Done."))


@pytest.mark.parametrize(
    ("prompt", "opened"), [("]~b]ai\n<mm:think>", True), ("]~b]ai\n</mm:think>", False)]
)
def test_the_generation_prompt_says_whether_thinking_is_open(prompt: str, opened: bool) -> None:
    markup = markup_for("MiniMaxAI/MiniMax-M3", generation_prompt=prompt)
    assert markup is not None and markup.starts_in_thinking is opened


def test_minimax_m2_ids_keep_their_own_family() -> None:
    found = markup_for("MiniMaxAI/MiniMax-M2.5")
    assert found is not None and found.family == "minimax"
    step = read("<think>x</think>" + CALL, found)  # M2 reads no M3 markup
    assert not step.tool_calls and NS in step.text


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (f"{NS}<a>{NS}<b>1{NS}</a>", "</a> closes no open <a>"),
        (f"{NS}<a>1{NS}</a>{NS}<a>2{NS}</a>", "'a' is written twice"),
        (f"{NS}<a>x{NS}<b>1{NS}</b>{NS}</a>", "text beside the elements of <a>"),
        (f"{NS}<a>x{NS}</a>stray", "text beside the arguments"),
    ],
)
def test_a_broken_call_is_one_error_naming_why(body: str, why: str) -> None:
    text = f'{NS}<tool_call>{NS}<invoke name="f">{body}{NS}</invoke>{NS}</tool_call>after'
    for chunks in ([text], list(text)):
        step = read(text, chunks=chunks)
        [call] = step.tool_calls
        assert call.error is not None and why in call.error
        assert step.text == "after"


def test_an_argument_named_invoke_does_not_end_the_call() -> None:
    body = f"{NS}<invoke>{NS}<x>1{NS}</x>{NS}</invoke>{NS}<b>2{NS}</b>"
    text = f'{NS}<tool_call>{NS}<invoke name="f">{body}{NS}</invoke>{NS}</tool_call>'
    for chunks in ([text], list(text)):
        step = read(text, chunks=chunks)
        assert [(c.name, c.arguments) for c in step.tool_calls] == [
            ("f", {"invoke": {"x": "1"}, "b": "2"})
        ]
