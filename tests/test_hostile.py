"""Hostile content and hostile hooks: errors, never code execution, a hang or a crash."""

from __future__ import annotations

import time
from typing import Any

import pytest
from pydantic import BaseModel, model_validator

from helpers import assert_invariant, blocks, conserved, errors, run
from streamblocks import (
    BlockRegistry,
    DelimiterFrontmatterSyntax,
    GadgetSyntax,
    Limits,
    StreamBlockProcessor,
    XMLTagSyntax,
)
from streamblocks.core.errors import ErrorCode

LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
)
HOSTILE_YAML = {
    "python-object": "x: !!python/object/apply:os.system ['echo pwned > /tmp/pwned']\n",
    "python-name": "x: !!python/name:os.system\n",
    "billion-laughs": LAUGHS,
    "deep-flow": "x: " + "[" * 30_000 + "]" * 30_000 + "\n",
    "deep-mapping": "x: " + "{a: " * 10_000 + "1" + "}" * 10_000 + "\n",
}


class Anything(BaseModel):
    model_config = {"extra": "allow"}


def _processor(**register: Any) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("task", syntax=DelimiterFrontmatterSyntax(), metadata=Anything)
    registry.register("note", content=Anything, **register)
    return StreamBlockProcessor(registry, input_adapter=None)


@pytest.mark.parametrize("name", sorted(HOSTILE_YAML))
@pytest.mark.parametrize("where", ["frontmatter", "content"])
def test_hostile_yaml_is_a_block_error(name: str, where: str) -> None:
    body = HOSTILE_YAML[name]
    if where == "frontmatter":
        text = f"!!start\n---\nid: t1\nblock_type: task\n{body}---\nx\n!!end\n"
    else:
        text = f"!!n1:note\n{body}!!end\n"
    events = run(_processor(), [text])
    assert conserved(events) == text
    assert not blocks(events)
    (error,) = errors(events)
    assert error.code is ErrorCode.PARSE_FAILED
    assert error.raw == text


@pytest.mark.slow  # timed: out of the default run (`pytest -m slow`)
@pytest.mark.parametrize("name", sorted(HOSTILE_YAML))
def test_hostile_yaml_is_rejected_in_well_under_two_seconds(name: str) -> None:
    text = f"!!n1:note\n{HOSTILE_YAML[name]}!!end\n"
    started = time.perf_counter()
    run(_processor(), [text])
    assert time.perf_counter() - started < 2


def test_yaml_with_a_few_aliases_and_bracket_strings_is_fine() -> None:
    body = 'base: &b {k: 1}\nuse: *b\nagain: *b\ns: "' + "[" * 300 + '"\n'
    events = run(_processor(), [f"!!n1:note\n{body}!!end\n"])
    (block,) = blocks(events)
    assert block.content.use == {"k": 1}


def test_deep_json_in_gadget_arguments_is_an_error_or_a_string() -> None:
    class Args(BaseModel):
        items: list[Any]

    registry = BlockRegistry()
    registry.register("Tool", syntax=GadgetSyntax(), content=Args)
    processor = StreamBlockProcessor(registry, input_adapter=None)
    text = "!!!GADGET_START:Tool\n!!!ARG:items\n" + "[" * 100_000 + "\n!!!GADGET_END\n"
    events = run(processor, [text])
    assert conserved(events) == text
    assert [e.code for e in errors(events)] == [ErrorCode.VALIDATION_FAILED]


class Exploding(BaseModel):
    value: str = ""

    @classmethod
    def parse_content(cls, text: str) -> Exploding:
        raise KeyError("boom")


class BadMetadata(BaseModel):
    @model_validator(mode="before")
    @classmethod
    def explode(cls, data: Any) -> Any:
        raise LookupError("metadata hook exploded")


def _explode(*_: Any) -> Any:
    raise RuntimeError("hook exploded")


@pytest.mark.parametrize(
    ("register", "code"),
    [
        ({"content": Exploding}, ErrorCode.PARSE_FAILED),
        ({"metadata": BadMetadata}, ErrorCode.VALIDATION_FAILED),
        ({"validators": [_explode]}, ErrorCode.VALIDATION_FAILED),
        ({"on_start": _explode}, ErrorCode.HOOK_FAILED),
        ({"transform": _explode}, ErrorCode.HOOK_FAILED),
    ],
)
@pytest.mark.parametrize("syntax", ["preamble", "xml"])
def test_any_exception_in_a_user_hook_becomes_a_block_error(
    register: dict[str, Any], code: ErrorCode, syntax: str
) -> None:
    registry = BlockRegistry()
    if syntax == "xml":
        registry.register("note", syntax=XMLTagSyntax(), **register)
        text = 'a <note k="v">x\ny</note> b\n'
    else:
        registry.register("note", **register)
        text = "a\n!!n1:note\nx\n!!end\nb\n"
    processor = StreamBlockProcessor(registry, input_adapter=None)
    events = assert_invariant(processor, text)
    assert [e.code for e in errors(events)] == [code]
    assert "exploded" in errors(events)[0].message or "boom" in errors(events)[0].message


def test_nul_and_lone_surrogates_are_text_and_content() -> None:
    registry = BlockRegistry()
    registry.register("note")
    registry.register("think", syntax=XMLTagSyntax())
    limits = Limits(max_block_chars=64)
    processor = StreamBlockProcessor(registry, input_adapter=None, limits=limits)
    text = "\x00\ud800 <think>\udfff\x00</think>\n!!n\x00:note\n!!b1:note\n\udc80\n!!end\n\x00"
    events = assert_invariant(processor, text)
    assert [b.content for b in blocks(events)] == ["\udfff\x00", "\udc80\n"]
