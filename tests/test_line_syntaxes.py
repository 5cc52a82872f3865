"""The three line syntaxes, each case run whole and over every chunking."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from helpers import assert_invariant, blocks, errors, run, visible_text
from streamblocks import (
    BlockDelta,
    BlockMetadata,
    BlockRegistry,
    BlockStart,
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    ErrorCode,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
)


def make(unknown: str = "text", **register: object) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note", **register)  # type: ignore[arg-type]
    registry.register("task", syntax=DelimiterFrontmatterSyntax())
    registry.register("code", syntax=MarkdownFrontmatterSyntax())
    registry.register("debugInfo", tag="debug-info")
    return StreamBlockProcessor(registry, input_adapter=None, unknown=unknown)


# ---------------------------------------------------------------- preamble


def test_design_example_strips_block_without_blank_line() -> None:
    events = assert_invariant(make(), "a\n!!b1:note\nx\n!!end\nz")
    assert visible_text(events) == "a\nz"
    (block,) = blocks(events)
    assert (block.id, block.type, block.content) == ("b1", "note", "x\n")
    assert block.raw == "!!b1:note\nx\n!!end\n"
    assert (block.start, block.end) == (2, 20)
    assert block.metadata == {"id": "b1", "block_type": "note", "params": []}


def test_preamble_params_and_event_order() -> None:
    events = assert_invariant(make(), "!!p1:note:src/a.py:12\nline one\nline two\n!!end")
    kinds = [type(e).__name__ for e in events]
    assert kinds == [
        "tuple",
        "BlockStart",
        "BlockMetadata",
        "BlockDelta",
        "BlockEnd",
        "StreamFinished",
    ]
    start = events[1]
    assert isinstance(start, BlockStart)
    assert start.attrs == {"params": ["src/a.py", "12"]}
    assert start.syntax == "delimiter_preamble"
    assert blocks(events)[0].content == "line one\nline two\n"
    assert blocks(events)[0].raw.endswith("!!end")


def test_tag_remaps_marker_but_type_is_the_key() -> None:
    (block,) = blocks(assert_invariant(make(), "!!d1:debug-info\nx\n!!end\n"))
    assert block.type == "debugInfo"
    assert block.metadata["block_type"] == "debugInfo"


@pytest.mark.parametrize(
    "text",
    [
        "!!b1:note\nx\n!!end \n",
        "!!b1:note\r\nx\r\n!!end\r\n",
        "\ufeff!!b1:note\nx\n!!end\n",
        "!!b1:note   \nx\n!!end\t\n",
    ],
)
def test_forgiving_line_endings_bom_and_trailing_space(text: str) -> None:
    events = assert_invariant(make(), text)
    (block,) = blocks(events)
    assert block.content.rstrip("\r\n") == "x"
    assert visible_text(events) in ("", "\ufeff")


@pytest.mark.parametrize(
    "text",
    [
        "say !!b1:note in prose\n",
        " !!b1:note\nx\n!!end\n",
        "!!b1 note\n",
        "!!!b1:note\n",
        "!!end\n",
        "!!b1:unknown\nx\n!!end\n",
        "!!b1:notes\nx\n!!end\n",
    ],
)
def test_near_misses_stay_text(text: str) -> None:
    events = assert_invariant(make(), text)
    assert visible_text(events) == text
    assert not blocks(events)
    assert not errors(events)


def test_almost_closer_is_content() -> None:
    (block,) = blocks(assert_invariant(make(), "!!b1:note\n!!en\n!!end x\n !!end\n!!end\n"))
    assert block.content == "!!en\n!!end x\n !!end\n"


def test_other_markers_inside_a_block_are_content() -> None:
    text = "!!b1:note\n!!b2:note\n```code\n!!end\n"
    (block,) = blocks(assert_invariant(make(), text))
    assert block.content == "!!b2:note\n```code\n"


def test_unclosed_block_is_reported_with_raw() -> None:
    events = assert_invariant(make(), "intro\n!!b1:note\nhalf a bl")
    (error,) = errors(events)
    assert error.code is ErrorCode.UNCLOSED
    assert error.raw == "!!b1:note\nhalf a bl"
    assert (error.block_id, error.block_type) == ("b1", "note")


# ---------------------------------------------------------------- unknown types


def test_unknown_type_as_error() -> None:
    events = assert_invariant(make(unknown="error"), "!!b1:mystery\nx\n!!end\nafter")
    (error,) = errors(events)
    assert error.code is ErrorCode.UNKNOWN_TYPE
    assert error.block_type == "mystery"
    assert visible_text(events) == "after"


def test_unknown_type_as_generic_block() -> None:
    (block,) = blocks(assert_invariant(make(unknown="block"), "!!b1:mystery\nx\n!!end\n"))
    assert (block.type, block.content) == ("mystery", "x\n")


def test_unknown_policy_is_checked() -> None:
    with pytest.raises(ValueError, match="unknown"):
        StreamBlockProcessor(BlockRegistry(), unknown="ignore")


# ---------------------------------------------------------------- frontmatter


def test_delimiter_frontmatter_block() -> None:
    text = "!!start\n---\nid: t1\nblock_type: task\npriority: 2\n---\ndo it\n!!end\n"
    events = assert_invariant(make(), text)
    (block,) = blocks(events)
    assert block.id == "t1"
    assert block.metadata == {"id": "t1", "block_type": "task", "priority": 2}
    assert block.content == "do it\n"
    metadata = [e for e in events if isinstance(e, BlockMetadata)]
    assert metadata[0].metadata["priority"] == 2


def test_start_without_frontmatter_is_text_and_rescanned() -> None:
    events = assert_invariant(make(), "!!start\nnot yaml\n!!b3:note\nq\n!!end\n")
    assert visible_text(events) == "!!start\nnot yaml\n"
    assert blocks(events)[0].id == "b3"


def test_malformed_yaml_names_the_line() -> None:
    text = "!!start\n---\nid: t1\nblock_type: [task\n---\nbody\n!!end\nafter\n"
    events = assert_invariant(make(), text)
    (error,) = errors(events)
    assert error.code is ErrorCode.PARSE_FAILED
    assert "line" in error.message
    assert "YAML" in error.message
    assert error.raw == text[: -len("after\n")]
    assert not [e for e in events if isinstance(e, BlockStart)]


def test_yaml_python_tags_are_rejected_not_run() -> None:
    tag = "!!python/object/apply:os.system ['echo']"
    text = f"!!start\n---\nid: t1\nblock_type: task\nx: {tag}\n---\nb\n!!end\n"
    (error,) = errors(assert_invariant(make(), text))
    assert error.code is ErrorCode.PARSE_FAILED


def test_frontmatter_unclosed_before_end() -> None:
    (error,) = errors(assert_invariant(make(), "!!start\n---\nid: t1\n!!end\n"))
    assert error.code is ErrorCode.PARSE_FAILED
    assert "not closed" in error.message


def test_frontmatter_without_block_type() -> None:
    (error,) = errors(assert_invariant(make(), "!!start\n---\nid: t1\n---\nx\n!!end\n"))
    assert "block_type" in error.message


# ---------------------------------------------------------------- markdown fences


def test_fence_with_registered_info_string() -> None:
    events = assert_invariant(make(), "see:\n```code\nprint(1)\n```\ndone")
    (block,) = blocks(events)
    assert (block.type, block.content, block.attrs) == ("code", "print(1)\n", {"info": "code"})
    assert visible_text(events) == "see:\ndone"


def test_fence_frontmatter_wins_over_info_string() -> None:
    text = "```python\n---\nid: c9\nblock_type: code\n---\nx = 1\n```\n"
    (block,) = blocks(assert_invariant(make(), text))
    assert (block.id, block.type, block.content) == ("c9", "code", "x = 1\n")


def test_other_fences_stay_visible_and_hide_markers() -> None:
    text = "```python\nprint(1)\n!!b1:note\nx\n!!end\n```\nafter\n"
    events = assert_invariant(make(), text)
    assert visible_text(events) == text
    assert not blocks(events)


def test_fence_closes_only_on_same_char_at_least_as_long() -> None:
    text = "````code\n```\n~~~~\n````\n"
    (block,) = blocks(assert_invariant(make(), text))
    assert block.content == "```\n~~~~\n"


def test_fence_without_frontmatter_close_treats_dashes_as_content() -> None:
    (block,) = blocks(assert_invariant(make(), "```code\n---\nfoo\n```"))
    assert block.content == "---\nfoo\n"


def test_fence_showing_yaml_is_text() -> None:
    text = "```yaml\n---\nkey: [1, 2\n---\n```\n"
    assert visible_text(assert_invariant(make(), text)) == text


def test_unclosed_registered_fence() -> None:
    (error,) = errors(assert_invariant(make(), "```code\nx\n"))
    assert error.code is ErrorCode.UNCLOSED


def test_fence_with_only_frontmatter_start_at_end_is_text() -> None:
    text = "```python\n---\nfoo: 1\n"
    assert visible_text(assert_invariant(make(), text)) == text


# ---------------------------------------------------------------- several syntaxes


def test_syntaxes_mix_in_one_stream() -> None:
    text = (
        "intro\n!!n1:note\nA\n!!end\nmid\n!!start\n---\nid: t1\nblock_type: task\n---\nB\n"
        "!!end\n```code\nC\n```\nend"
    )
    events = assert_invariant(make(), text)
    assert [b.id for b in blocks(events)] == ["n1", "t1", "block-1"]
    assert visible_text(events) == "intro\nmid\nend"


def test_earliest_opener_wins_ties_by_registration_order() -> None:
    class Loud(DelimiterPreambleSyntax):
        name = "loud"

    registry = BlockRegistry()
    registry.register("note", syntax=Loud())
    registry.register("memo", syntax=DelimiterPreambleSyntax())
    registry.register("note2", tag="note", syntax=DelimiterPreambleSyntax())
    processor = StreamBlockProcessor(registry, input_adapter=None)
    (block,) = blocks(assert_invariant(processor, "!!a:note\nx\n!!end\n"))
    assert block.syntax == "loud"


# ---------------------------------------------------------------- validation


class NoteMeta(BaseModel):
    id: str
    block_type: str
    params: list[str]


class Points(BaseModel):
    x: int
    y: int


def test_metadata_model_validated_and_emitted_before_content() -> None:
    events = assert_invariant(make(metadata=NoteMeta), "!!b1:note:p\nhi\n!!end\n")
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("BlockMetadata") < kinds.index("BlockDelta")
    (block,) = blocks(events)
    assert block.metadata == NoteMeta(id="b1", block_type="note", params=["p"])


def test_metadata_validation_failure_is_reported_at_close() -> None:
    class Strict(BaseModel):
        id: int

    events = assert_invariant(make(metadata=Strict), "!!b1:note\nhi\n!!end\n")
    (error,) = errors(events)
    assert error.code is ErrorCode.VALIDATION_FAILED
    assert "id" in error.message
    assert error.raw == "!!b1:note\nhi\n!!end\n"
    assert any(isinstance(e, BlockDelta) for e in events)


def test_content_model_reads_yaml_or_json() -> None:
    (block,) = blocks(assert_invariant(make(content=Points), "!!b1:note\nx: 1\ny: 2\n!!end\n"))
    assert block.content == Points(x=1, y=2)
    (block,) = blocks(
        assert_invariant(make(content=Points), '!!b1:note\n{"x": 3, "y": 4}\n!!end\n')
    )
    assert block.content == Points(x=3, y=4)


def test_content_model_failure_keeps_raw() -> None:
    (error,) = errors(assert_invariant(make(content=Points), "!!b1:note\nx: one\n!!end\n"))
    assert error.code is ErrorCode.VALIDATION_FAILED
    assert error.raw == "!!b1:note\nx: one\n!!end\n"


def test_content_model_parse_content_hook() -> None:
    class Lines(BaseModel):
        lines: list[str]

        @classmethod
        def parse_content(cls, text: str) -> Lines:
            return cls(lines=text.splitlines())

    (block,) = blocks(assert_invariant(make(content=Lines), "!!b1:note\na\nb\n!!end\n"))
    assert block.content == Lines(lines=["a", "b"])


def test_validators() -> None:
    def not_empty(block: object) -> str | None:
        return None if getattr(block, "content", "").strip() else "empty note"

    def raises(block: object) -> None:
        raise ValueError("boom")

    events = assert_invariant(make(validators=[not_empty]), "!!b1:note\n\n!!end\n")
    assert errors(events)[0].message == "empty note"
    assert blocks(assert_invariant(make(validators=[not_empty]), "!!b1:note\nok\n!!end\n"))
    (error,) = errors(assert_invariant(make(validators=[raises]), "!!b1:note\nok\n!!end\n"))
    assert "raises" in error.message and "boom" in error.message
    (error,) = errors(
        assert_invariant(make(validators=[lambda block: False]), "!!b1:note\nok\n!!end\n")
    )
    assert error.code is ErrorCode.VALIDATION_FAILED


def test_on_start_hook_sees_attrs_and_failure_becomes_hook_error() -> None:
    seen: list[object] = []
    assert blocks(run(make(on_start=seen.append), ["!!b1:note:a\nx\n!!end\n"]))
    assert seen == [{"params": ["a"]}]

    def explode(attrs: object) -> None:
        raise RuntimeError("nope")

    (error,) = errors(run(make(on_start=explode), ["!!b1:note\nx\n!!end\ntail"]))
    assert error.code is ErrorCode.HOOK_FAILED
    assert "on_start" in error.message


def test_transform_keep_replace_suppress() -> None:
    kept = run(make(transform=lambda block: None), ["a\n!!b1:note\nx\n!!end\nz"])
    assert [type(e).__name__ for e in kept[1:-1]] == [
        "TextDelta",
        "BlockStart",
        "BlockEnd",
        "TextDelta",
    ]
    replaced = run(
        make(transform=lambda block: [f"[{block.content.strip()}]\n"]),
        ["a\n!!b1:note\nx\n!!end\nz"],
    )
    assert visible_text(replaced) == "a\n[x]\nz"
    assert not blocks(replaced)
    suppressed = run(make(transform=lambda block: []), ["a\n!!b1:note\nx\n!!end\nz"])
    assert visible_text(suppressed) == "a\nz"
    assert [type(e).__name__ for e in suppressed[1:-1]] == ["TextDelta"]

    def broken(block: object) -> None:
        raise KeyError("bad")

    (error,) = errors(run(make(transform=broken), ["!!b1:note\nx\n!!end\n"]))
    assert error.code is ErrorCode.HOOK_FAILED
    assert "transform" in error.message
