"""Every Python snippet in the README and the docs runs, and the examples run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
DEADLINE = 300
"""Seconds an example gets: long for a loaded machine, and only spent on failure."""
SNIPPET = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def snippets() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for index, match in enumerate(SNIPPET.finditer(page.read_text("utf-8"))):
            found.append((f"{page.relative_to(ROOT)}#{index}", match.group(1)))
    return found


@pytest.mark.parametrize(("where", "code"), snippets(), ids=[w for w, _ in snippets()])
def test_snippet_runs(where: str, code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(code, where, "exec", dont_inherit=True), {"__name__": "__snippet__"})


def examples() -> list[Path]:
    """Every runnable example: ``examples/*.py`` and each folder's ``main.py`` (a folder
    without one, like the ``third_party_adapter`` package, is not a script)."""
    found = sorted((ROOT / "examples").glob("*.py"))
    found += sorted((ROOT / "examples").glob("*/main.py"))
    return found


@pytest.mark.parametrize(
    "example", examples(), ids=[str(p.relative_to(ROOT / "examples")) for p in examples()]
)
def test_example_runs_offline(example: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        env.pop(key, None)  # offline: each example replays its bundled recording
    done = subprocess.run(
        [sys.executable, str(example)],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        cwd=example.parent,
        env=env,
    )
    assert done.returncode == 0, f"{example}: {done.stderr}"
    assert done.stdout.strip(), f"{example} printed nothing"


def test_agui_example_without_fastapi() -> None:
    """The AG-UI endpoint example needs FastAPI only for the app: without it, it builds
    and checks the same SSE body."""
    example = ROOT / "examples" / "agui_fastapi" / "main.py"
    code = (
        "import runpy, sys\n"
        "sys.modules['fastapi'] = None  # import fastapi -> ImportError\n"
        f"runpy.run_path({str(example)!r}, run_name='__main__')\n"
    )
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("ANTHROPIC_API_KEY", None)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        cwd=example.parent,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "FastAPI is not installed" in done.stdout
    assert "TOOL_CALL_START disk_usage" in done.stdout
    assert "all valid" in done.stdout


def test_cli_demo_runs_offline() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "streamblocks", "demo", "--delay", "0", "--hide-text"],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert done.returncode == 0, done.stderr
    assert "patch p1" in done.stdout
    assert "5 blocks, 0 errors" in done.stdout
    assert "stop: end_turn" in done.stdout


def test_cli_extract_json(tmp_path: Path) -> None:
    source = tmp_path / "reply.txt"
    source.write_text("hi\n!!n1:note\nx\n!!end\n!!n2:note\nunclosed", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "streamblocks", "extract", str(source), "--json", "--strict"],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert sum('"type": "BLOCK_END"' in line for line in lines) == 1
    assert any('"UNCLOSED"' in line for line in lines)
    missing = subprocess.run(
        [sys.executable, "-m", "streamblocks", "extract", str(tmp_path / "nope.txt")],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert missing.returncode == 2
    assert "cannot read" in missing.stderr


def test_no_page_includes_files_with_snippet_lines() -> None:
    """Read directly (on a forge, in an editor) a ``--8<--`` line shows as itself: the
    pages hold the literal code, kept equal to the files by the test below."""
    assert [str(p.relative_to(ROOT)) for p in PAGES if "--8<--" in p.read_text("utf-8")] == []


def test_the_markup_page_holds_the_example_and_its_output_as_they_are() -> None:
    page = (ROOT / "docs" / "markup.md").read_text("utf-8")
    example = page.split("## Example", 1)[1]
    code = example.split("```{.python .no-format}\n", 1)[1].split("```", 1)[0]
    printed = example.split("```text\n", 1)[1].split("```", 1)[0]
    assert code == (ROOT / "examples" / "markup_qwen.py").read_text("utf-8")
    assert printed == (ROOT / "examples" / "markup_qwen.out").read_text("utf-8")


@pytest.mark.parametrize("folder", ["agui_fastapi", "agui_resume"])
def test_agui_example_without_the_agui_extra_says_so_in_one_line(folder: str) -> None:
    example = ROOT / "examples" / folder / "main.py"
    code = (
        "import runpy, sys\n"
        "sys.modules['ag_ui'] = None  # a core install: import ag_ui -> ModuleNotFoundError\n"
        f"runpy.run_path({str(example)!r}, run_name='__main__')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        cwd=example.parent,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"examples/{folder} needs the [agui] extra (ag_ui is not installed): "
        "from the checkout run  pip install '.[agui]'\n"
    )
