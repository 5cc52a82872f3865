"""Long chunks against token-sized ones: a chunk holding whole blocks and the same text
fed a character at a time run the same scanner and must give the same blocks, errors
and visible text, under the edge cases of line syntaxes: long lines, limits within
reach, rejected or broken headers, shown code fences, CRLF and odd whitespace.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import blocks, conserved, errors, normalise, run, visible_text
from streamblocks import (
    BlockRegistry,
    DelimiterFrontmatterSyntax,
    Limits,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
)
from streamblocks.core.registry import BlockType
from streamblocks.syntaxes import (
    Header,
    LineParser,
    Syntax,
    TypeTable,
    Verdict,
    literal_line,
    literal_line_pattern,
)

LONG = " " * 30  # past max_marker_chars of the tight limits below
BODY = st.lists(
    st.sampled_from(
        [
            *("some text", " ", "\n", "\r\n", "!!", "!!end", "!!en", "```", "~~~~", "---"),
            *("é", "\t", "\x0c", f"!!end{LONG}\n", f"```{LONG}\n", f"---{LONG}\n"),
        ]
    ),
    max_size=10,
).map("".join)
END = st.sampled_from(["!!end", "!!end ", "!!end\t\x0b", "!!end\u2003", "!!end" + LONG])
FENCE = st.sampled_from(["```", "````", "~~~", "~~~~", "  ```", "    ```"])
CLOSER = st.sampled_from(["```", "````", "~~~", "~~~~~", "   ```", "``` x", "```\t\r"])
NEWLINE = st.sampled_from(["\n", "\r\n"])


@st.composite
def piece(draw: st.DrawFn) -> str:
    body = draw(BODY)
    body = body if not body or body.endswith("\n") else body + "\n"
    nl = draw(NEWLINE)
    kind = draw(st.integers(0, 7))
    if kind == 0:
        name = draw(st.sampled_from(["note", "nope", "task"]))
        params = draw(st.sampled_from(["", ":a.py", ":x:" + "p" * 20]))
        return f"!!b1:{name}{params}{nl}{body}{draw(END)}{draw(NEWLINE)}"
    if kind == 1:
        yaml = draw(st.sampled_from(["id: t\nblock_type: task\n", "block_type: x\n", "x: [\n", ""]))
        opening = draw(st.sampled_from(["---", "--- ", "x"]))
        return f"!!start{nl}{opening}{nl}{yaml}---{nl}{body}{draw(END)}\n"
    if kind == 2:
        info = draw(st.sampled_from(["code", "python", "", "code extra"]))
        return f"{draw(FENCE)}{info}{nl}{body.replace('`', chr(39))}{draw(CLOSER)}\n"
    if kind == 3:
        yaml = draw(st.sampled_from(["id: c1\n", "id: c1\nblock_type: code\n", "x: [\n", "```\n"]))
        info = draw(st.sampled_from(["code", "python", ""]))
        return f"```{info}\n---\n{yaml}---\n{body.replace('`', chr(39))}```\n"
    if kind == 4:
        return "!!b1:note\n" + draw(BODY)  # unclosed
    if kind == 5:
        return draw(st.sampled_from(["```", "!!end\n", "!!start\n", "---\n", "!!b2:note\n"]))
    return draw(BODY)


DOCUMENTS = st.lists(piece(), max_size=6).map("".join)


def processor(
    limits: Limits | None = None, unknown: str = "text", registry: BlockRegistry | None = None
) -> StreamBlockProcessor:
    """A processor of notes, tasks and code blocks (and of what ``registry`` holds)."""
    registry = BlockRegistry() if registry is None else registry
    registry.register("note")
    registry.register("task", syntax=DelimiterFrontmatterSyntax())
    registry.register("code", syntax=MarkdownFrontmatterSyntax())
    return StreamBlockProcessor(registry, input_adapter=None, limits=limits, unknown=unknown)


PROCESSORS = [
    processor(),
    processor(unknown="error"),
    processor(unknown="block"),
    processor(Limits(max_block_chars=60, max_marker_chars=16, max_metadata_chars=30)),
    processor(Limits(max_block_chars=200, max_marker_chars=40, max_metadata_chars=16)),
]
SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(DOCUMENTS)
def test_whole_chunk_reads_as_char_by_char(text: str) -> None:
    for proc in PROCESSORS:
        whole = run(proc, [text])
        assert conserved(whole) == text
        assert normalise(run(proc, list(text))) == normalise(whole)


def test_code_aware_fence_without_the_markdown_syntax() -> None:
    registry = BlockRegistry()
    registry.register("note")
    proc = StreamBlockProcessor(registry, input_adapter=None)
    text = "```\n!!b1:note\nx\n!!end\n```\n!!b2:note\ny\n!!end\n~~~\nopen fence\n"
    whole = run(proc, [text])
    assert [b.id for b in blocks(whole)] == ["b2"]
    assert visible_text(whole) == "```\n!!b1:note\nx\n!!end\n```\n~~~\nopen fence\n"
    assert normalise(run(proc, list(text))) == normalise(whole)


def test_a_block_in_one_chunk_is_read_in_one_pass() -> None:
    """The scanner looks at each character of a chunk holding whole blocks about once:
    the lines no marker can start go out in bulk, the marker lines are asked once."""
    text = "a\n!!b1:note\n!!x\n!!end\n```code\nbody\n```\nz\n" * 50
    session = processor().session()
    events = session.feed(text) + session.close()
    assert [b.content for b in blocks(events)] == ["!!x\n", "body\n"] * 50
    assert session.examined <= 2 * len(text)


def _subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_a_held_line_start_is_bounded_by_max_marker_chars() -> None:
    """A marker that keeps growing is given up the moment it passes the limit, not when
    its line ends: held text stays bounded (invariant 4) and flows on (invariant 5)."""
    session = processor(Limits(max_marker_chars=16)).session()
    session.feed("!!b1:note:")
    fed = [session.feed(char) for char in "p" * 6]
    assert fed == [[]] * 6  # 16 characters: still a marker
    crossing = session.feed("p")
    (error,) = errors(crossing)
    assert error.code.value == "MARKER_TOO_LARGE"
    assert error.raw == "!!b1:note:pppppp"
    assert visible_text(crossing) == "p"
    assert visible_text(session.feed("p")) == "p"


class _Titled(LineParser):
    """``@@ <type>``, a title line, then the body up to ``@@``; the block starts on the
    first body line and the title line turns out to be content (``opener_lines=1``):
    the case the long-chunk shortcut leaves to the line machine."""

    def __init__(self, block_type: BlockType) -> None:
        self.block_type = block_type
        self.lines = 0

    def on_line(self, line: str, complete: bool) -> Verdict:
        if self.started:
            verdict = literal_line(line, "@@", complete)
            return Verdict.CONTENT if verdict is Verdict.REJECT else verdict
        self.lines += 1
        if self.lines == 1:
            return Verdict.HOLD
        self.header = Header(self.block_type.marker, self.block_type, None, {}, None)
        self.opener_lines, self.then = 1, Verdict.CONTENT
        self.marker_starts, self.closing_line = "@", literal_line_pattern("@@")
        return Verdict.START


class _TitledSyntax(Syntax):
    name = "titled"
    starts_with = "@"

    def open(self, line: str, complete: bool, types: TypeTable) -> LineParser | Verdict:
        if not complete:
            return Verdict.PENDING if "@@ note".startswith(line) else Verdict.REJECT
        found = types.markers.get(line[3:]) if line.startswith("@@ ") else None
        return Verdict.REJECT if found is None else _Titled(found)

    def describe(self, types: Any) -> str:
        return "titled"


def test_a_custom_header_that_starts_late_is_read_line_by_line() -> None:
    registry = BlockRegistry()
    registry.register("note", syntax=_TitledSyntax())
    proc = StreamBlockProcessor(registry, input_adapter=None)
    text = "a\n@@ note\ntitle\nbody\n@@\nz\n"
    whole = run(proc, [text])
    assert [b.content for b in blocks(whole)] == ["title\nbody\n"]
    assert visible_text(whole) == "a\nz\n"
    assert normalise(run(proc, list(text))) == normalise(whole)
