"""mkdocs hook: the Changelog page is CHANGELOG.md itself, so ``docs/changelog.md`` (read
directly, on a forge) is a plain pointer instead of a ``--8<--`` include line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHANGELOG = Path(__file__).resolve().parents[2] / "CHANGELOG.md"


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if page.file.src_path == "changelog.md":
        return CHANGELOG.read_text(encoding="utf-8")
    return markdown
