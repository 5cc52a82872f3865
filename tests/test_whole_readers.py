"""A syntax that reads its whole block at once (``LineSyntax.read_whole``, ``whole.block``)
gives the events the line step gives: the same events in the same feeds at every
chunking, on generated documents full of what a reader must leave to the line step
(near-miss openers and closers, parameters, metadata that fails its model, hooks,
unknown types, broken frontmatter, fences shown or closing early, tight limits,
unclosed blocks)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from helpers import fast_feeds as feeds
from streamblocks import (
    BlockRegistry,
    DelimiterPreambleSyntax,
    Limits,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    TextDelta,
    XMLTagSyntax,
)
from streamblocks.core import scan_plan
from streamblocks.core.line_syntax import LineSyntax, OpenedBlock, WholeBlock
from streamblocks.core.registry import TypeTable
from streamblocks.syntaxes.base import REJECT, LineParser, Verdict
from streamblocks.syntaxes.fences import ShownFence
from streamblocks.syntaxes.frontmatter import _FrontmatterBlock
from streamblocks.syntaxes.markdown import _FenceBlock
from streamblocks.syntaxes.preamble import _PreambleBlock
from test_long_and_short_chunks import processor as notes_tasks_and_code

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Level(BaseModel):
    """Metadata of a ``level`` block: its one positional parameter must be a number."""

    id: str
    block_type: str
    level: int


def _failing(attrs: Any) -> None:
    """An ``on_start`` hook that fails (the block is reported ``HOOK_FAILED``)."""
    raise RuntimeError("no")


def processor(limits: Limits | None = None, unknown: str = "text") -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("level", metadata=Level)
    registry.register("hooked", on_start=lambda attrs: None)
    registry.register("failing", on_start=_failing)
    registry.register("checked", validators=[lambda block: "no" not in block.content])
    return notes_tasks_and_code(limits, unknown, registry)


PROCESSORS = [
    processor(),
    processor(unknown="error"),
    processor(unknown="block"),
    processor(Limits(max_block_chars=48, max_marker_chars=16, max_metadata_chars=24)),
    processor(Limits(max_block_chars=16, max_marker_chars=16, max_metadata_chars=16)),
]

LINES = st.sampled_from(
    [
        "text\n",
        "no\n",
        "\n",
        "  \n",
        "!!end x\n",
        " !!end\n",
        "!!endx\n",
        "!!en\n",
        "!!b2:note\n",
        "---\n",
        "--- x\n",
        "``\n",
        "   ```\n",
        "    ```\n",
        "~~~\n",
        "```` \n",
        "東 🙂 e\u0301\r\n",
        "x" * 30 + "\n",
    ]
)
OPENERS = st.sampled_from(
    [
        "!!b1:note",
        "!!b1:note:p:q",
        "!!b1:note:k=v",
        "!!b1:note:id=x",
        "!!b1:note:" + "p" * 12,
        "!!b1:level:3",
        "!!b1:level:high",
        "!!b1:level:3:extra",
        "!!b1:hooked",
        "!!b1:failing",
        "!!b1:checked",
        "!!b1:nope",
        "!!b1:note  ",
        "!!b1:note\r",
    ]
)
CLOSERS = st.sampled_from(["!!end\n", "!!end  \n", "!!end\r\n", "!!end", "", " !!end\n"])
FRONTMATTERS = st.sampled_from(
    [
        "id: t1\nblock_type: task\n",
        "block_type: task\n",
        "id: t1\nblock_type: nope\n",
        "id: [\n",
        "id: t1\n",
        "id: t1\nblock_type: task\n!!end\n",
        "id: t1\nblock_type: code\n```\n",
        "",
    ]
)


@st.composite
def preamble(draw: st.DrawFn) -> str:
    body = "".join(draw(st.lists(LINES, max_size=4)))
    return draw(OPENERS) + "\n" + body + draw(CLOSERS)


@st.composite
def frontmatter(draw: st.DrawFn) -> str:
    blank = draw(st.sampled_from(["", "\n", " \n\n"]))
    fence = draw(st.sampled_from(["---\n", "--- \n", "-- \n"]))
    head = draw(FRONTMATTERS)
    body = "".join(draw(st.lists(LINES, max_size=3)))
    return f"!!start\n{blank}{fence}{head}---\n{body}" + draw(CLOSERS)


@st.composite
def fence(draw: st.DrawFn) -> str:
    run = draw(st.sampled_from(["```", "````", "~~~"]))
    info = draw(st.sampled_from(["code", "python", "", "code extra", "nope"]))
    head = draw(st.sampled_from(["", "---\n" + draw(FRONTMATTERS) + "---\n", "---\n"]))
    body = "".join(draw(st.lists(LINES, max_size=3)))
    closer = draw(st.sampled_from([run, run + "`", run + " ", "  " + run, "", run[:2]]))
    return f"{run}{info}\n{head}{body}" + (f"{closer}\n" if closer else "")


PROSE = st.sampled_from(["say ", "a\n", "prose !!b1:note\n", "\n", "<x> y\n", "\r\n"])
DOCUMENTS = st.lists(st.one_of(PROSE, LINES, preamble(), frontmatter(), fence()), max_size=6).map(
    "".join
)


@pytest.mark.parametrize(
    "text",
    [
        "!!b1:note:src/a.py\nline\n!!end \nafter",
        "!!start\n\n---\nid: t1\nblock_type: task\n---\nline\n!!end\nafter",
        "```code\n---\nid: c1\n---\nline\n  ```\nafter",
        "```code\nline\n```\nafter",
    ],
)
def test_the_block_in_hand_is_read_without_its_parser(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """No line of a simple block in hand reaches a parser: its syntax read it whole."""
    events = PROCESSORS[0].session().feed(text)[1:]
    kinds = [e.type for e in events]
    assert kinds[0] == "BLOCK_START" and "BLOCK_END" in kinds and kinds[-1] == "TEXT_DELTA"
    block = next(e.block for e in events if e.type == "BLOCK_END")  # type: ignore[attr-defined]
    assert block.raw == text[: text.index("after")]
    assert (block.start, block.end) == (0, len(block.raw))
    assert block.content == "line\n"
    for parser in (_PreambleBlock, _FrontmatterBlock, _FenceBlock):
        monkeypatch.setattr(parser, "__init__", _refuse)
    assert PROCESSORS[0].session().feed(text)[1:] == events


@pytest.mark.parametrize(
    "text", ["```python\nprint(1)\n!!b1:note\n```\nafter", "~~~\n~~~\nafter", "```\n````\nafter"]
)
def test_a_shown_fence_in_hand_is_visible_text_without_a_parser(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """A fence that names no type, in hand to its closing line, is visible text read in
    one step (its reader says so: a ``WholeBlock`` with no header)."""
    table = TypeTable({})
    found = MarkdownFrontmatterSyntax().read_whole(text, 0, text.index("\n"), table)
    assert isinstance(found, WholeBlock) and found.header is None
    assert text[found.closer : found.end].strip() and text[found.end :] == "after"
    events = PROCESSORS[0].session().feed(text)[1:]
    assert events == [TextDelta(text)]
    for parser in (_FenceBlock, ShownFence):
        monkeypatch.setattr(parser, "__init__", _refuse)
    assert PROCESSORS[0].session().feed(text)[1:] == events


def test_a_shown_fence_is_read_line_by_line_where_tags_are_read_inside_fences() -> None:
    """With an inline syntax that reads inside fences, the shown fence goes the line
    step, which reads its lines for openers."""
    registry = BlockRegistry()
    registry.register("code", syntax=MarkdownFrontmatterSyntax())
    registry.register("cite", syntax=XMLTagSyntax(code_aware=False))
    events = (
        StreamBlockProcessor(registry, input_adapter=None)
        .session()
        .feed("```python\n<cite>x</cite>\n```\nafter")
    )
    assert [e.block.content for e in events if e.type == "BLOCK_END"] == ["x"]  # type: ignore[attr-defined]


def _refuse(self: object, *args: object, **kwargs: object) -> None:
    raise AssertionError(f"the line step made a {type(self).__name__}")


def test_a_reader_names_the_parts_of_the_block() -> None:
    table = TypeTable({"note": BlockRegistry().register("note")})
    text = "!!b1:note:x\nline\n!!end \nafter"
    found = DelimiterPreambleSyntax().read_whole(text, 0, text.index("\n"), table)
    assert isinstance(found, WholeBlock)
    assert (found.body, found.closer, found.end) == (12, 17, 24)
    assert found.header is not None
    assert found.header.block_id == "b1" and found.header.attrs == {"params": ["x"]}
    assert DelimiterPreambleSyntax().read_whole("!!start\n", 0, 7, table) is REJECT
    opened = DelimiterPreambleSyntax().read_whole("!!b1:note\nno end\n", 0, 9, table)
    assert isinstance(opened, OpenedBlock) and opened.body == 10
    assert opened.parser.started and opened.parser.header is not None
    assert opened.parser.header.block_id == "b1"


class _NoXIds(DelimiterPreambleSyntax):
    """A user's syntax that reads openers its own way: ids starting with ``x`` are text."""

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        if line.startswith("!!x"):
            return REJECT
        return super().open(line, complete, types)


def test_a_subclass_that_reads_openers_its_own_way_is_not_read_whole() -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=_NoXIds())
    proc = StreamBlockProcessor(registry, input_adapter=None)
    text = "!!x1:note\nline\n!!end\n!!b1:note\nline\n!!end\n"
    events = feeds(proc, [text], whole=True)
    assert events == feeds(proc, [text], whole=False)
    ends = [e.block.id for e in proc.session().feed(text) if e.type == "BLOCK_END"]  # type: ignore[attr-defined]
    assert ends == ["b1"]
    assert proc.session()._scan.readers is None  # (no syntax of its plan reads whole)


def test_which_syntaxes_read_whole() -> None:
    class Plain(DelimiterPreambleSyntax):
        def read_whole(self, *args: Any) -> WholeBlock | Verdict | None:
            return None

    def reads_whole(syntax: LineSyntax) -> bool:
        return scan_plan.defines_together(type(syntax), "open", "read_whole", LineSyntax)

    assert reads_whole(DelimiterPreambleSyntax())
    assert reads_whole(MarkdownFrontmatterSyntax())
    assert not reads_whole(_NoXIds())
    assert not reads_whole(Plain())  # (it defines read_whole, not open)
