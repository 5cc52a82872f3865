"""The Claude CLI and Codex CLI adapters give what they gave before their per-line work
was cut (``tests/adapters/previous``, read from the history): the same events, in the
same order, with the same attrs, usage and stop reason, and the same warnings, on the
recorded transcripts, on the benchmark's generated ones, and on generated transcripts
whose lines are broken in every way (fields dropped, values of the wrong type, unknown
types, lines that are not JSON), fed as parsed lines or as raw text cut anywhere."""

from __future__ import annotations

import copy
import io
import json
import sys
import warnings
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from streamblocks import BlockRegistry, StreamBlockProcessor, StreamStarted
from streamblocks.ext._base import whole_arguments
from streamblocks.ext._jsonl import FILE_NAMES, LANGUAGES, language_for
from streamblocks.ext.claude_cli import ClaudeCLIInputAdapter
from streamblocks.ext.codex_cli import CodexCLIInputAdapter
from streamblocks.runs import live as source

from . import subagent_transcripts as sub
from . import transcripts as t
from .previous import _base as old_base
from .previous import claude_cli as old_claude
from .previous import codex_cli as old_codex
from .previous import source as old_source

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import bench_view

ADAPTERS = {
    "claude": (ClaudeCLIInputAdapter, old_claude.ClaudeCLIInputAdapter),
    "codex": (CodexCLIInputAdapter, old_codex.CodexCLIInputAdapter),
}


def registry() -> BlockRegistry:
    reg = BlockRegistry()
    reg.register("note")
    return reg


def observe(adapter: Any, items: list[Any]) -> tuple[list[Any], list[tuple[Any, str]]]:
    """The events of ``items`` read through ``adapter``, and the warnings on the way."""
    items = copy.deepcopy(items)  # (neither adapter may see what the other changed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        events = list(StreamBlockProcessor(registry(), input_adapter=adapter).process(items))
    events = [StreamStarted("s") if isinstance(e, StreamStarted) else e for e in events]
    module = type(adapter).__module__  # (named in the session's own warnings)
    return events, [(w.category, str(w.message).replace(module, "…")) for w in caught]


def assert_same(kind: str, items: list[Any]) -> list[Any]:
    new, old = ADAPTERS[kind]
    found = observe(new(), items)
    assert found == observe(old(), items)
    return found[0]


def as_text(lines: list[Any]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


RECORDED = {
    "claude": [
        t.claude_tool_run(),
        t.claude_partial_run(),
        t.claude_error_run(),
        sub.claude_subagent_run(),
        sub.claude_subagent_partial_run(),
    ],
    "codex": [t.codex_run(), t.codex_legacy_run()],
}
GENERATED = {"claude": bench_view.claude_transcript, "codex": bench_view.codex_transcript}


@pytest.mark.parametrize(
    ("kind", "number"), [(k, n) for k, runs in RECORDED.items() for n in range(len(runs))]
)
def test_recorded_transcripts_give_what_they_gave(kind: str, number: int) -> None:
    lines = RECORDED[kind][number]
    events = assert_same(kind, lines)
    assert len(events) >= 5
    text = as_text(lines)
    assert_same(kind, [text])  # raw text, whole
    assert_same(kind, [text[i : i + 7] for i in range(0, len(text), 7)])  # cut anywhere
    data = text.encode()
    assert_same(kind, [data[i : i + 5] for i in range(0, len(data), 5)])  # bytes, cut anywhere
    assert_same(kind, [lines])  # one JSON array


@pytest.mark.parametrize("kind", ["claude", "codex"])
def test_generated_transcripts_give_what_they_gave(kind: str) -> None:
    text = GENERATED[kind](60_000)
    lines = [json.loads(line) for line in text.splitlines()]
    assert_same(kind, lines)
    assert_same(kind, [text[i : i + 4096] for i in range(0, len(text), 4096)])


# ---------------------------------------------------------------------- broken lines

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "x", "error", "Bash"]),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.just("type"), inner),
    max_leaves=3,
)


def _nodes(value: Any) -> list[Any]:
    """Every dict and list inside ``value``, ``value`` first."""
    found = [value] if isinstance(value, (dict, list)) else []
    children = value.values() if isinstance(value, dict) else value if found else []
    for child in children:
        found.extend(_nodes(child))
    return found


@st.composite
def broken(draw: Any, line: Any) -> Any:
    """``line`` with one of its fields dropped or set to another JSON value."""
    line = copy.deepcopy(line)
    nodes = [node for node in _nodes(line) if node]
    if not nodes:
        return line
    node = draw(st.sampled_from(nodes))
    at = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
    if isinstance(node, dict) and draw(st.booleans()):
        del node[at]
    else:
        node[at] = draw(JSON_VALUES)
    return line


def _pool(kind: str) -> list[Any]:
    lines = [line for run in RECORDED[kind] for line in run]
    text = GENERATED[kind](6_000)
    return lines + [json.loads(line) for line in text.splitlines()]


POOLS = {kind: _pool(kind) for kind in ADAPTERS}


@st.composite
def transcripts(draw: Any, kind: str) -> list[Any]:
    pool = POOLS[kind]
    lines: list[Any] = []
    for _ in range(draw(st.integers(1, 25))):
        line = draw(st.sampled_from(pool))
        how = draw(st.sampled_from(["as is", "as is", "broken", "value", "type"]))
        if how == "broken":
            line = draw(broken(line))
        elif how == "value":
            line = draw(JSON_VALUES)
        elif how == "type":
            line = {**line, "type": draw(st.sampled_from(["bogus", "item.bogus", "", None]))}
        lines.append(line)
    return lines


def _fed(draw: Any, lines: list[Any]) -> list[Any]:
    """The lines as parsed objects, or as raw text (some not JSON) cut anywhere."""
    if draw(st.booleans()):
        return [line for line in lines if isinstance(line, dict)] or [{}]
    text = "".join(
        (json.dumps(line) if draw(st.integers(0, 9)) else '{"type": "assistant", ') + "\n"
        for line in lines
    )
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=6)))
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]


@pytest.mark.parametrize("kind", ["claude", "codex"])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_broken_transcripts_give_what_they_gave(kind: str, data: Any) -> None:
    lines = data.draw(transcripts(kind))
    assert_same(kind, _fed(data.draw, lines))


# ---------------------------------------------------------------------- the helpers


def _language_by_paths(path: str) -> str | None:
    """``language_for`` as it was: with ``PurePosixPath``."""
    name = PurePosixPath(path.replace("\\", "/")).name.lower()
    if name in FILE_NAMES:
        return FILE_NAMES[name]
    suffix = PurePosixPath(name).suffix
    return LANGUAGES.get(suffix) if suffix else None


@given(st.lists(st.sampled_from(["/", ".", "\\", "a", "py", ".py", "Makefile", "x.TS", ".."])))
def test_language_for_reads_names_as_paths_do(parts: list[str]) -> None:
    path = "".join(parts)
    assert language_for(path) == _language_by_paths(path)


ARGUMENTS = st.dictionaries(
    st.text(max_size=3),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
        max_leaves=6,
    ),
    max_size=4,
)


@given(ARGUMENTS)
def test_whole_arguments_write_the_same_json(arguments: dict[str, Any]) -> None:
    assert whole_arguments("k", arguments) == old_base.whole_arguments("k", arguments)


def test_codex_reads_every_type_it_names() -> None:
    from streamblocks.ext.codex_cli import adapter, types

    assert adapter._LINES.keys() == types.EVENT_TYPES
    assert adapter._ITEMS.keys() == types.ITEM_TYPES


# ---------------------------------------------------------------------- the viewer's reader

LINES = st.sampled_from(
    [
        '{"type": "assistant", "message": {"content": []}}',
        '  {"type": "item.completed", "item": {"id": 1}}  ',
        '{"role": "assistant", "content": []}',  # an exported run
        '{"role": "user", "content": [], "type": "x"}',
        '[{"type": "a"}, {"type": "b"}]',
        "[1, 2]",
        '{"a": 1} trailing',
        '{"a": 1}{"b": 2}',
        '{"a": [' * 3,
        '{"a": NaN, "b": -Infinity}',
        '{"\\ud800": "\\u00e9"}',
        "\ufeff{}",
        "{}",
        "{",
        "null",
        '"text"',
        "",
        "   ",
        "not json",
        '{"type": "é✓👩‍💻"}',
    ]
)


@given(
    st.lists(LINES, min_size=1, max_size=12),
    st.sampled_from(["\n", "\r\n"]),
    st.lists(st.integers(1, 40), min_size=1, max_size=5),
)
def test_the_viewer_reads_json_lines_as_it_did(
    lines: list[str], end: str, sizes: list[int]
) -> None:
    """``source.read`` gives the same items (events, exported runs, warnings with their
    line numbers) as before, however its input arrives in pieces."""
    data = ('{"type": "first"}' + end + end.join(lines)).encode()

    class Pieces(io.RawIOBase):  # a pipe handing over a few bytes at a time
        def __init__(self) -> None:
            self.at, self.turn = 0, 0

        def read(self, size: int = -1) -> bytes:
            step = sizes[self.turn % len(sizes)]
            self.turn += 1
            piece = data[self.at : self.at + step]
            self.at += len(piece)
            return piece

    assert list(source.read(Pieces())) == list(old_source.read(Pieces()))
    assert list(source.lines(iter([data.decode()]))) == list(
        old_source.lines(iter([data.decode()]))
    )
