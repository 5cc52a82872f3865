"""The compiled searches of the scanner's states, built once per set of markers and
kept (see :mod:`.scanner`): each finds, in one call, where its state must stop."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

Search = Callable[[str, int], "re.Match[str] | None"]
Stop = Callable[[str], "re.Match[str] | None"]


@functools.lru_cache(maxsize=256)
def visible_search(starts: str | None, openers: tuple[str, ...]) -> Search:
    """The one search of the visible state: an opener, or a newline before a line that
    a marker may start (any newline when ``starts`` is ``None``); and, at the text's
    end, the start of an opener inside which another one begins (MiniMax M3's
    ``]<]minimax[>[<tool_call>`` holds XML's ``<``), so that the shorter one found
    later does not release the longer one's start as text."""
    parts = [re.escape(opener) for opener in sorted(set(openers), key=len, reverse=True)]
    hiding = [o for o in sorted(set(openers)) if _hides_one(o, openers)]
    prefixes = {opener[:end] for opener in hiding for end in range(1, len(opener))}
    parts += [re.escape(p) + "\\Z" for p in sorted(prefixes, key=len, reverse=True)]
    if starts is None:
        parts.append("\n")
    elif starts:
        parts.append("\n(?=[" + re.escape(starts) + "])")
    if not parts:
        return nothing
    return re.compile("|".join(parts)).search


def _hides_one(opener: str, openers: tuple[str, ...]) -> bool:
    """Another opener begins inside ``opener`` and none begins it: a search would find
    that one while ``opener``'s start is still held."""
    inside = any(other in opener[1:] for other in openers)
    return inside and not any(opener.startswith(o) for o in openers if o != opener)


@functools.lru_cache(maxsize=256)
def line_search(starts: str) -> Search:
    """The newline before the next line that may be a marker (a character of
    ``starts`` begins it)."""
    return re.compile("\n[" + re.escape(starts) + "]").search if starts else nothing


@functools.lru_cache(maxsize=64)
def tail_search(openers: tuple[str, ...]) -> Search | None:
    """Finds a text's longest tail that is a proper prefix of an opener."""
    prefixes = {opener[:end] for opener in openers for end in range(1, len(opener))}
    if not prefixes:
        return None
    alternatives = "|".join(re.escape(p) for p in sorted(prefixes, key=len, reverse=True))
    return re.compile(f"(?:{alternatives})\\Z").search


@functools.lru_cache(maxsize=256)
def lean_visible_stop(starts: str | None, openers: tuple[str, ...]) -> Stop:
    """What ends plain visible text in one chunk: an opener, a line start a marker
    may begin (a newline before such a character, or at the chunk's end), or a tail
    that may be the start of an opener."""
    parts = [re.escape(opener) for opener in sorted(set(openers), key=len, reverse=True)]
    parts.append(
        "\n" if starts is None else "\n(?:[" + re.escape(starts) + "]|\\Z)" if starts else "\n\\Z"
    )
    prefixes = {opener[:end] for opener in openers for end in range(1, len(opener))}
    parts += [re.escape(p) + "\\Z" for p in sorted(prefixes, key=len, reverse=True)]
    return re.compile("|".join(parts)).search


@functools.lru_cache(maxsize=256)
def lean_content_stop(starts: str | None) -> Stop:
    """What ends a line block's plain content in one chunk: a newline before a
    line that may be the block's marker, or at the chunk's end."""
    if starts is None:
        return re.compile("\n").search
    if not starts:
        return re.compile("\n\\Z").search
    return re.compile("\n(?:[" + re.escape(starts) + "]|\\Z)").search


@functools.lru_cache(maxsize=256)
def parser_searches(
    starts: str | None, openers: tuple[str, ...]
) -> tuple[Search, Search, Stop, Stop]:
    """The searches of the lines in a line parser whose markers start with ``starts``:
    visible text in it (a shown code fence, ``openers`` the inline openers read there),
    the next line that may be a marker, and the stops of the lean content and visible
    steps."""
    block = line_search(starts) if starts is not None else nothing
    shown = lean_visible_stop(starts, openers)
    return visible_search(starts, openers), block, lean_content_stop(starts), shown


def nothing(text: str, pos: int = 0) -> re.Match[str] | None:
    return None
