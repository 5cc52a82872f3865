"""Block syntaxes: the formats a model writes blocks in."""

from __future__ import annotations

from ..core.line_syntax import LineSyntax
from ..core.syntax import InlineSyntax, wire_defaults
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
from .fences import CodeFenceAwareness
from .frontmatter import DelimiterFrontmatterSyntax
from .gadget import GadgetSyntax
from .markdown import MarkdownFrontmatterSyntax
from .preamble import DelimiterPreambleSyntax
from .xml import XMLTagSyntax

wire_defaults(syntax=DelimiterPreambleSyntax, code_fences=CodeFenceAwareness)

__all__ = [
    "DelimiterFrontmatterSyntax",
    "DelimiterPreambleSyntax",
    "GadgetSyntax",
    "Header",
    "InlineSyntax",
    "LineParser",
    "LineSyntax",
    "MarkdownFrontmatterSyntax",
    "ParseFailure",
    "Syntax",
    "TypeTable",
    "Verdict",
    "XMLTagSyntax",
    "literal_line",
    "literal_line_pattern",
]
