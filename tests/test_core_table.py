"""docs/core.md draws the session's state table: its rows are the code's rows
(``streamblocks.core.table.ROWS``), by name both ways, with the same fast steps, and
each step the table names is a function of the core."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from streamblocks.core.table import ROWS

PAGE = Path(__file__).parent.parent / "docs" / "core.md"


def _page_rows() -> dict[str, list[str]]:
    """The rows of the page's table under "The state table": name → its cells."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## The state table", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and re.fullmatch(r"`[A-Z_]+`", cells[0]):
            rows[cells[0].strip("`")] = cells
    return rows


def test_the_page_draws_every_row_and_no_other() -> None:
    assert sorted(_page_rows()) == sorted(row.name for row in ROWS)


def test_the_rows_are_numbered_in_order() -> None:
    assert [row.number for row in ROWS] == list(range(len(ROWS)))
    assert len({row.name for row in ROWS}) == len(ROWS)


def test_the_page_names_each_rows_fast_step() -> None:
    page = _page_rows()
    for row in ROWS:
        named = re.findall(r"`([\w.]+)`", page[row.name][2])
        assert named == list(row.step), row.name


def test_each_fast_step_is_a_function_of_the_core() -> None:
    for row in ROWS:
        for step in row.step:
            module, _, name = step.partition(".")
            found = importlib.import_module(f"streamblocks.core.{module}")
            for part in name.split("."):
                found = getattr(found, part)
            assert callable(found), step
