"""Block syntaxes: the formats a model writes blocks in."""

from __future__ import annotations

from .base import (
    Header,
    LineParser,
    ParseFailure,
    Syntax,
    TypeTable,
    Verdict,
    literal_line,
    literal_line_pattern,
)
from .frontmatter import DelimiterFrontmatterSyntax
from .gadget import GadgetSyntax
from .markdown import MarkdownFrontmatterSyntax
from .preamble import DelimiterPreambleSyntax
from .xml import XMLTagSyntax

__all__ = [
    "DelimiterFrontmatterSyntax",
    "DelimiterPreambleSyntax",
    "GadgetSyntax",
    "Header",
    "LineParser",
    "MarkdownFrontmatterSyntax",
    "ParseFailure",
    "Syntax",
    "TypeTable",
    "Verdict",
    "XMLTagSyntax",
    "literal_line",
    "literal_line_pattern",
]
