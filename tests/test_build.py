"""Which build runs (pure Python or compiled by mypyc), and what importing costs.

CI runs the whole suite against each build and sets ``STREAMBLOCKS_EXPECT_COMPILED``
(``1``/``0``) so that a run cannot test the pure source while it means the compiled one.
Import costs are held by counting the modules loaded, never by timing.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import streamblocks
from streamblocks import BlockType, DelimiterPreambleSyntax, XMLTagSyntax
from streamblocks.cli import main

SRC = Path(__file__).resolve().parent.parent / "src"
HOT = [
    "streamblocks.core.session",
    "streamblocks.core.scanner",
    "streamblocks.core.events",
    "streamblocks.core.processor",
    "streamblocks.syntaxes.xml",
    "streamblocks.syntaxes.preamble",
    "streamblocks.markup.reader",
    "streamblocks.markup.tagged",
    "streamblocks.markup.syntax",
]


def _is_extension(module: str) -> bool:
    path = getattr(importlib.import_module(module), "__file__", "") or ""
    return path.endswith(tuple(EXTENSION_SUFFIXES))


def test_the_build_is_the_one_ci_expects() -> None:
    expected = os.environ.get("STREAMBLOCKS_EXPECT_COMPILED")
    if expected is None:
        pytest.skip("set STREAMBLOCKS_EXPECT_COMPILED=1 (or 0) to name the build under test")
    assert streamblocks.compiled is (expected == "1")


def test_the_hot_modules_are_all_compiled_or_all_pure() -> None:
    assert {module: _is_extension(module) for module in HOT} == dict.fromkeys(
        HOT, streamblocks.compiled
    )


def test_version_says_which_build(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    build = "compiled" if streamblocks.compiled else "pure Python"
    assert capsys.readouterr().out.strip() == f"streamblocks {streamblocks.__version__} ({build})"


def test_users_subclass_the_syntaxes_in_either_build() -> None:
    class Shout(DelimiterPreambleSyntax):
        def describe(self, types: Sequence[BlockType]) -> str:
            return super().describe(types).upper()

    class Tags(XMLTagSyntax):
        pass

    registry = streamblocks.BlockRegistry()
    registry.register("note", syntax=Shout(delimiter="@@"), description="a note")
    registry.register("cite", syntax=Tags(), description="a citation")
    assert "@@END" in registry.system_prompt()
    processor = streamblocks.StreamBlockProcessor(registry)
    events = processor.session().feed("<cite>x</cite>\n@@a:note\nhi\n@@end\n")
    ended = [e.block for e in events if e.type is streamblocks.EventType.BLOCK_END]
    assert [(b.type, b.content) for b in ended] == [("cite", "x"), ("note", "hi\n")]


def _loaded(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


LATER = (
    "streamblocks.loop",
    "streamblocks.step",
    "streamblocks.request",
    "streamblocks.tools",
    "streamblocks.content",
    "streamblocks.markup",
    "streamblocks.cli",
    "streamblocks.view",
    "streamblocks.ext",
)


def test_import_loads_only_the_core() -> None:
    loaded = _loaded("import streamblocks")
    assert not [m for m in loaded if m.startswith(LATER)]
    assert not {"importlib.metadata", "yaml", "asyncio", "rich"} & loaded


def test_process_loads_no_content_model() -> None:
    code = (
        "import streamblocks as sb\n"
        "r = sb.BlockRegistry(); r.register('note')\n"
        "list(sb.StreamBlockProcessor(r).process(['!!a:note\\nx\\n!!end\\n']))"
    )
    loaded = _loaded(code)
    assert not [m for m in loaded if m.startswith(LATER)]


def test_version_loads_no_command() -> None:
    loaded = _loaded(
        "from streamblocks.cli import main\n"
        "try:\n    main(['--version'])\nexcept SystemExit:\n    pass"
    )
    assert not [m for m in loaded if m.startswith(("streamblocks.cli.commands", *LATER[:-3]))]
    assert "rich" not in loaded


def test_every_public_name_loads_on_first_use() -> None:
    assert set(streamblocks.__all__) <= set(dir(streamblocks))
    for name in streamblocks.__all__:
        assert getattr(streamblocks, name) is not None, name
    assert callable(streamblocks.request)  # the function, not the submodule of that name
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = streamblocks.nope  # type: ignore[attr-defined]


SNAPSHOT = r"""
import sys
import streamblocks as sb
r = sb.BlockRegistry(); r.register("note")
p = sb.StreamBlockProcessor(r, input_adapter=None)
if sys.argv[1] == "make":
    s = p.session("s1"); s.feed("hi\n!!a:note\nfirst ")
    sys.stdout.buffer.write(s.snapshot())
else:
    s = p.restore(sys.stdin.buffer.read())
    events = s.feed("line\n!!end\n") + s.close()
    print(sb.compiled, [e.block.content for e in events if e.type is sb.EventType.BLOCK_END])
"""


@pytest.mark.skipif(not streamblocks.compiled, reason="needs the compiled build installed")
@pytest.mark.parametrize("direction", ["pure to compiled", "compiled to pure"])
def test_a_snapshot_restores_in_the_other_build(direction: str) -> None:
    """The pure source (``src/``) beside the installed compiled build: a snapshot made by
    one resumes in the other."""
    pure = {**os.environ, "PYTHONPATH": str(SRC)}
    compiled = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    maker, restorer = (pure, compiled) if direction == "pure to compiled" else (compiled, pure)
    made = subprocess.run(
        [sys.executable, "-c", SNAPSHOT, "make"], env=maker, capture_output=True, check=True
    )
    done = subprocess.run(
        [sys.executable, "-c", SNAPSHOT, "restore"],
        env=restorer,
        input=made.stdout,
        capture_output=True,
        check=True,
    )
    expect_compiled = direction == "pure to compiled"
    assert done.stdout.decode().strip() == f"{expect_compiled} ['first line\\n']"
