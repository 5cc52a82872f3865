"""Every registry mistake is one line that names the fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli_helpers import run
from streamblocks import BlockRegistry, XMLTagSyntax
from streamblocks.core.errors import RegistryError

GOODREG = """
from streamblocks import BlockRegistry

registry = BlockRegistry()
registry.register("note", description="A note.")


def make():
    return registry


def nothing():
    return None
"""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "goodreg.py").write_text(GOODREG, encoding="utf-8")
    (tmp_path / "brokenreg.py").write_text("import no_such_dependency_xyz\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path / "elsewhere"))  # the folder itself is not on it
    return tmp_path


def error_of(capsys: Any, spec: str) -> str:
    code, _, err = run(capsys, "prompt", "--registry", spec)
    assert code == 2
    assert err.count("\n") == 1, err  # one line
    assert "Traceback" not in err and "_streamblocks_registry_" not in err
    return err


@pytest.mark.parametrize("spec", ["goodreg.py:regisrty", "goodreg:regisrty"])
def test_a_misspelt_attribute_names_the_ones_that_exist(
    capsys: Any, folder: Path, spec: str
) -> None:
    err = error_of(capsys, spec)
    assert "has no 'regisrty'" in err and "did you mean 'registry'?" in err
    assert "registries there: registry" in err


def test_a_module_in_the_current_folder_is_importable(capsys: Any, folder: Path) -> None:
    for spec in ("goodreg:registry", "goodreg:make"):
        code, out, err = run(capsys, "prompt", "--registry", spec)
        assert (code, err) == (0, "") and "A note." in out


def test_a_missing_module_says_where_it_was_looked_for(capsys: Any, folder: Path) -> None:
    err = error_of(capsys, "nosuchreg:registry")
    assert "no module 'nosuchreg' in the current folder or on the Python path" in err
    assert "--registry path/to/nosuchreg.py:registry" in err


def test_a_missing_dependency_is_named(capsys: Any, folder: Path) -> None:
    for spec in ("brokenreg.py:registry", "brokenreg:registry"):
        err = error_of(capsys, spec)
        assert "imports 'no_such_dependency_xyz', which is not installed" in err


def test_a_function_returning_something_else(capsys: Any, folder: Path) -> None:
    assert "nothing() returned a NoneType, not a BlockRegistry" in error_of(
        capsys, "goodreg.py:nothing"
    )


@pytest.mark.parametrize(
    ("syntax", "expected"),
    [
        (
            "frontmatter",
            "did you mean DelimiterFrontmatterSyntax() or MarkdownFrontmatterSyntax()?",
        ),
        ("xml", "did you mean XMLTagSyntax()?"),
        (XMLTagSyntax, "pass an instance: XMLTagSyntax()"),
        (3, "got int"),
        ([], "got an empty sequence"),
    ],
)
def test_a_wrong_syntax_lists_the_syntax_classes(syntax: Any, expected: str) -> None:
    with pytest.raises(RegistryError) as info:
        BlockRegistry().register("patch", syntax=syntax)
    message = str(info.value)
    assert expected in message and "\n" not in message
    if not isinstance(syntax, type):
        for name in ("DelimiterPreambleSyntax()", "XMLTagSyntax()", "GadgetSyntax()"):
            assert name in message
