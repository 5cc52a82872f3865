"""Gemma 4: ``<|tool_call>call:NAME{key:value,…}<tool_call|>``, strings between
``<|"|>`` delimiters, bare numbers / ``true`` / ``false`` / ``null`` (another bare word
is a string), nested ``{…}`` and ``[…]``; thinking in the thought channel
``<|channel>thought…<channel|>``."""

from __future__ import annotations

import re
from typing import Any

from ...core.json_values import loads
from ..grammar import Call, CallFormat, Grammar, need
from ..scan import EndSpec
from ..schema import ToolSchemas
from ..tagged import Tagging, closed_by

_QUOTE = '<|"|>'
_BARE = re.compile(r"[^,}\]]*")
_MAX_DEPTH = 100


class _Notation:
    """Reads Gemma 4's object notation from ``text`` at ``at``."""

    def __init__(self, text: str, at: int) -> None:
        self.text = text
        self.at = at

    def value(self, depth: int) -> Any:
        need(depth < _MAX_DEPTH, "the arguments nest too deep")
        self._blanks()
        text, at = self.text, self.at
        if text.startswith(_QUOTE, at):
            end = text.find(_QUOTE, at + len(_QUOTE))
            need(end >= 0, "a string is not closed")
            self.at = end + len(_QUOTE)
            return text[at + len(_QUOTE) : end]
        if text.startswith("{", at):
            return self.mapping(depth)
        if text.startswith("[", at):
            return self.sequence(depth)
        found = _BARE.match(text, at)
        assert found is not None
        self.at = found.end()
        word = found.group().strip()
        need(bool(word), "a value is missing")
        try:
            return loads(word)
        except ValueError:
            return word

    def mapping(self, depth: int) -> dict[str, Any]:
        self.at += 1  # "{"
        found: dict[str, Any] = {}
        while True:
            self._blanks()
            if self._take("}"):
                return found
            colon = self.text.find(":", self.at)
            need(colon >= 0, "a key has no value")
            key = self.text[self.at : colon].strip()
            need(bool(key) and "<|" not in key, "a key is missing")
            self.at = colon + 1
            found[key] = self.value(depth + 1)
            self._blanks()
            if not self._take(","):
                need(self._take("}"), "a mapping is not closed")
                return found

    def sequence(self, depth: int) -> list[Any]:
        self.at += 1  # "["
        found: list[Any] = []
        while True:
            self._blanks()
            if self._take("]"):
                return found
            found.append(self.value(depth + 1))
            self._blanks()
            if not self._take(","):
                need(self._take("]"), "a list is not closed")
                return found

    def _blanks(self) -> None:
        text, at = self.text, self.at
        while at < len(text) and text[at].isspace():
            at += 1
        self.at = at

    def _take(self, char: str) -> bool:
        if self.text.startswith(char, self.at):
            self.at += 1
            return True
        return False


def _call(body: str, schemas: ToolSchemas) -> list[Call]:
    head = body.lstrip()
    need(head.startswith("call:"), "the call does not start with call:NAME")
    brace = head.find("{")
    need(brace > 0, "the call has no {…} arguments")
    name = head[len("call:") : brace].strip()
    need(bool(name), "the call has no name")
    reader = _Notation(head, brace)
    arguments = reader.mapping(0)
    need(not head[reader.at :].strip(), "text after the arguments")
    return [Call(name, arguments)]


def _value(schemas: ToolSchemas, tool: str, key: str, stated: str | None, text: str) -> Any:
    reader = _Notation(text, 0)
    value = reader.value(1)
    need(not text[reader.at :].strip(), "text after a value")
    return value


_SYNTAX = re.compile(r'<\|"\|>|[{}\[\],]')


class _ValueEnd:
    """Where a value that is no string ends: at a ``,`` or ``}`` outside its brackets
    and strings (read once from ``at``: while it has not ended, the place to go on from
    is the first number returned, and the text before it is the value's)."""

    def __init__(self) -> None:
        self.depth, self.quoted = 0, False

    def __call__(self, text: str, at: int) -> tuple[int, int, int]:
        i = at
        while True:
            if self.quoted:
                end = text.find(_QUOTE, i)
                if end < 0:
                    return max(i, len(text) - len(_QUOTE)), -1, -1
                self.quoted, i = False, end + len(_QUOTE)
                continue
            found = _SYNTAX.search(text, i)
            if found is None:
                return max(i, len(text) - len(_QUOTE)), -1, -1
            mark, i = found.group(), found.end()
            if mark == _QUOTE:
                self.quoted = True
            elif mark in "{[":
                self.depth += 1
            elif self.depth == 0:  # the value's end (the mark belongs to its object)
                return 0, found.start(), found.start()
            elif mark != ",":
                self.depth -= 1


def _stated_string(schemas: ToolSchemas, tool: str, key: str, stated: str | None) -> bool:
    """A value written between the string quotes is a string."""
    return stated is not None


_ITEM = re.compile(r'[{,]([^:{}\[\],<]*):\s*(?:(<\|"\|>)|(?=[^\s<]))')
_TAGGING = Tagging(
    item=_ITEM,
    end=closed_by(_QUOTE),
    value=_value,
    string=_stated_string,
    held_end=_ValueEnd,
    tails=("<tool_call|>",),
)

TOOL_CALL = CallFormat(
    "<|tool_call>",
    EndSpec(closers=("<tool_call|>",), regions=((_QUOTE, (_QUOTE,)),)),
    _call,
    name=re.compile(r"\A\s*call:(?P<name>[^{<]+)\{"),
    name_ends="{",
    tagging=_TAGGING,
)

GEMMA4 = Grammar(thinking=(("<|channel>thought", "<channel|>"),), calls=(TOOL_CALL,))
