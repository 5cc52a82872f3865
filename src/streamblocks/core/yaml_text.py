"""Reading YAML mappings (frontmatters, text content for a content model) safely and
in bounded time: no tag runs code, deep nesting and alias expansion are refused."""

from __future__ import annotations

import re
from typing import Any

from .syntax import ParseFailure

_PLAIN_ENTRY = re.compile(
    r"([A-Za-z_][\w-]*): [ \t]*([A-Za-z_][\w./-]*|0|-?[1-9][0-9]{0,17})[ \t]*", re.ASCII
)
_YAML_WORDS = frozenset(
    word
    for base in ("yes", "no", "true", "false", "on", "off", "null")
    for word in (base, base.capitalize(), base.upper())
)
MAX_YAML_DEPTH = 100
"""Deepest nesting of flow collections (``[``/``{``) a YAML text may have: deeper
texts are rejected before loading (PyYAML's cost grows with the square of the depth)."""
_BRACKETS = re.compile(r"""[\[\]{}"'\n]""")


def load_yaml_mapping(text: str, what: str, first_line: int = 1) -> dict[str, Any]:
    """Read ``text`` as a YAML mapping with the safe loader (no tag runs code).

    ``first_line`` is the block line ``text`` starts on, so errors name the line as the
    model wrote it. Raises :class:`ParseFailure`.
    """
    simple = _plain_mapping(text)
    if simple is not None:
        return simple
    _check_nesting(text, what)
    import yaml  # (on first use: most streams hold no YAML beyond plain ``key: value``)

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available
    try:
        value = yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        where = f" at line {first_line + mark.line} of the block" if mark is not None else ""
        raise ParseFailure(f"invalid YAML in {what}{where}: {problem}") from None
    except (RecursionError, ValueError, TypeError) as exc:
        raise ParseFailure(f"invalid YAML in {what}: {exc}") from None
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ParseFailure(f"{what} must be a YAML mapping, got {type(value).__name__}")
    if "*" in text:
        _check_expansion(value, len(text) + 1_000, what)
    return {str(key): item for key, item in value.items()}


def _check_nesting(text: str, what: str) -> None:
    """Reject flow collections nested deeper than :data:`MAX_YAML_DEPTH`.

    Brackets in quoted scalars do not count (a quote runs to its closing quote or the
    end of the line); a bracket in a plain scalar may, which errs on the safe side only
    for texts with over a hundred unbalanced brackets. One pass over the brackets,
    quotes and newlines: linear in the text.
    """
    if text.count("[") + text.count("{") <= MAX_YAML_DEPTH:
        return
    depth = 0
    quote = ""
    for found in _BRACKETS.finditer(text):
        char = found.group()
        at = found.start()
        if quote:
            if char == "\n" or (char == quote and (quote == "'" or _unescaped(text, at))):
                quote = ""
        elif char == "[" or char == "{":
            depth += 1
            if depth > MAX_YAML_DEPTH:
                raise ParseFailure(
                    f"invalid YAML in {what}: collections nested deeper than {MAX_YAML_DEPTH}"
                )
        elif char == "]" or char == "}":
            depth = max(depth - 1, 0)
        elif char != "\n":
            quote = char


def _unescaped(text: str, at: int) -> bool:
    """Whether the ``"`` at ``at`` is not escaped (an even run of backslashes before
    it; each run is counted by the one quote that follows it)."""
    before = at
    while before > 0 and text[before - 1] == "\\":
        before -= 1
    return (at - before) % 2 == 0


def _check_expansion(value: Any, budget: int, what: str) -> None:
    """Reject a document whose aliases expand it past ``budget`` nodes (a "billion
    laughs" document is a few hundred characters that expand to 10⁹ nodes: loading it
    is cheap, as aliases are shared, but validating or serialising it is not)."""
    stack = [value]
    while stack:
        item = stack.pop()
        budget -= 1
        if budget < 0:
            raise ParseFailure(f"invalid YAML in {what}: aliases expand it too far")
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set)):
            stack.extend(item)


def _plain_mapping(text: str) -> dict[str, Any] | None:
    """The mapping of a frontmatter made only of ``key: word`` and ``key: integer``
    lines, read without the YAML machinery (most frontmatters are; a YAML load costs
    tens of microseconds). ``None`` for anything else, which YAML then reads; words
    YAML gives a meaning to (``yes``, ``null``…) are left to YAML too."""
    mapping: dict[str, Any] = {}
    for line in text.splitlines():
        if not line:
            continue
        found = _PLAIN_ENTRY.fullmatch(line)
        if found is None:
            return None
        key, value = found.groups()
        if key in _YAML_WORDS or value in _YAML_WORDS:
            return None
        first = value[0]
        mapping[key] = int(value) if first.isdigit() or first == "-" else value
    return mapping
