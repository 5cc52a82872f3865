"""Which registered types ``system_prompt()`` advertises, in which order, and how the
ones it leaves out are made visible (``unadvertised()``, ``streamblocks prompt``)."""

from __future__ import annotations

from pathlib import Path
from typing import Generic, TypeVar

import pytest
from pydantic import BaseModel, RootModel

from helpers import blocks, run
from streamblocks import (
    BlockRegistry,
    DelimiterFrontmatterSyntax,
    DelimiterPreambleSyntax,
    GadgetSyntax,
    StreamBlockProcessor,
    XMLTagSyntax,
)
from streamblocks.cli import main

T = TypeVar("T")


class Documented(BaseModel):
    """A file to write.

    Paths are relative to the project root."""

    path: str


class Plain(BaseModel):
    path: str


class Page(BaseModel, Generic[T]):
    """One page of results."""

    items: list[T]


def test_groups_follow_first_registration_and_types_registration_order() -> None:
    registry = BlockRegistry()
    registry.register("a", syntax=XMLTagSyntax(), description="A")
    registry.register("b", description="B")
    registry.register("c", syntax=XMLTagSyntax(), description="C")
    registry.register("d", syntax=[GadgetSyntax(), DelimiterPreambleSyntax()], description="D")
    registry.register("e", syntax=GadgetSyntax(), description="E")
    registry.register("f", syntax=DelimiterPreambleSyntax(), description="F")
    prompt = registry.system_prompt()
    xml, preamble, gadget = prompt.split("\n\n")
    assert xml.startswith("You can use the following XML tags")
    assert "!!<id>:<type>" in preamble
    assert "GADGET_START" in gadget
    assert [line[:5] for line in xml.splitlines()[1:]] == ["- <a>", "- <c>"]
    assert [line[:3] for line in preamble.splitlines() if line.startswith("- ")] == [
        "- b",
        "- d",
        "- f",
    ]
    assert [line[:3] for line in gadget.splitlines() if line.startswith("- ")] == ["- d", "- e"]


def test_a_model_docstring_is_the_description() -> None:
    registry = BlockRegistry()
    registry.register("write", content=Documented)
    registry.register("meta", syntax=DelimiterFrontmatterSyntax(), metadata=Documented)
    registry.register("own", content=Documented, description="Mine.")
    registry.register("page", content=Page[int])
    assert (
        registry["write"].description
        == "A file to write.\n\nPaths are relative to the project root."
    )
    assert registry["meta"].description == registry["write"].description
    assert registry["own"].description == "Mine."
    assert registry["page"].description == "One page of results."
    prompt = registry.system_prompt()
    assert "- write: A file to write.\n  \n  Paths are relative to the project root." in prompt
    assert "- meta: A file to write." in prompt
    assert "- own: Mine." in prompt
    assert registry.unadvertised() == {}


def test_the_content_model_docstring_wins_over_the_metadata_one() -> None:
    class Meta(BaseModel):
        """The metadata."""

    class Body(BaseModel):
        """The content."""

    registry = BlockRegistry()
    registry.register("x", metadata=Meta, content=Body)
    registry.register("y", metadata=Meta, content=Plain)
    assert registry["x"].description == "The content."
    assert registry["y"].description == "The metadata."


@pytest.mark.parametrize("model", [Plain, RootModel[list[int]], BaseModel])
def test_pydantics_own_docstrings_do_not_count(model: type[BaseModel]) -> None:
    registry = BlockRegistry()
    registry.register("quiet", content=model)
    assert registry["quiet"].description is None
    assert "quiet" not in registry.system_prompt()
    assert list(registry.unadvertised()) == ["quiet"]


def test_unadvertised_types_are_named_with_the_reason_and_still_intercepted() -> None:
    registry = BlockRegistry()
    registry.register("note", description="A note.")
    registry.register("silent")
    registry.register("told", instructions="Only when asked.")
    assert registry.unadvertised() == {
        "silent": "no description or instructions (pass description= or instructions=, "
        "or give its content/metadata model a docstring)"
    }
    assert "silent" not in registry.system_prompt()
    assert "- told: Only when asked." in registry.system_prompt()
    text = "!!s1:silent\nhidden\n!!end\n"
    (block,) = blocks(run(StreamBlockProcessor(registry), [text]))
    assert (block.type, block.content) == ("silent", "hidden\n")


def test_prompt_command_notes_left_out_types_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "reg.py"
    module.write_text(
        "from streamblocks import BlockRegistry\n"
        "registry = BlockRegistry()\n"
        "registry.register('note', description='A note.')\n"
        "registry.register('silent')\n",
        encoding="utf-8",
    )
    code = main(["prompt", "--registry", f"{module}:registry"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "- note: A note." in out
    assert "silent" not in out
    assert err == (
        "note: block type 'silent' is not in the prompt: no description or instructions "
        "(pass description= or instructions=, or give its content/metadata model a docstring)\n"
    )


def test_prompt_command_is_quiet_when_every_type_is_advertised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "reg.py"
    module.write_text(
        "from streamblocks import BlockRegistry\n"
        "registry = BlockRegistry()\n"
        "registry.register('note', description='A note.')\n",
        encoding="utf-8",
    )
    assert main(["prompt", "--registry", f"{module}:registry"]) == 0
    assert capsys.readouterr().err == ""
