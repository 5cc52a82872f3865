"""Block syntaxes: the formats a model writes blocks in."""

from __future__ import annotations

from .base import Header, LineParser, ParseFailure, Syntax, TypeTable, Verdict, literal_line
from .frontmatter import DelimiterFrontmatterSyntax
from .markdown import MarkdownFrontmatterSyntax
from .preamble import DelimiterPreambleSyntax

__all__ = [
    "DelimiterFrontmatterSyntax",
    "DelimiterPreambleSyntax",
    "Header",
    "LineParser",
    "MarkdownFrontmatterSyntax",
    "ParseFailure",
    "Syntax",
    "TypeTable",
    "Verdict",
    "literal_line",
]
