"""Masking secrets in a run before it is shared: ``--redact``.

``streamblocks view RUN --redact`` (the page, the saved HTML file) and ``streamblocks
extract RUN --markdown --redact`` pass the run's events through :func:`redact_events`:
API keys of the common providers, bearer tokens and ``Authorization`` values, PEM
private keys, ``.env``-style ``NAME_SECRET=`` / ``*_KEY=`` / ``*_TOKEN=`` /
``PASSWORD=`` values, e-mail addresses and home directories in paths are masked in
visible text, block content, tool arguments and results, metadata, attributes and raw
provider events alike. :attr:`Redactor.counts` says how many distinct values of each
kind were masked.

Text that streams (the visible text, a block's deltas) goes through a
:class:`Stream`: a secret split across deltas is found whole. A stream holds back only
a bounded tail — :data:`TAIL` characters, plus a match that reaches the end of what
arrived and may still grow (at most a pattern's longest match) — and reads each
character at most about twice: no rescan of what was released.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..core.blocks import Block
from ..core.events import (
    BlockDelta,
    BlockEnd,
    BlockError,
    BlockMetadata,
    BlockStart,
    Passthrough,
    StreamFinished,
    TextDelta,
)
from .usage import TurnUsage

_ENDS_TEXT = (BlockStart, BlockEnd, BlockError, StreamFinished, TurnUsage)

KINDS = ("API key", "token", "private key", "secret", "e-mail", "home directory")
TAIL = 256  # characters a stream holds back: longer than any secret's unmatched start
_SETTLED = 16  # a match this far from the end of what arrived cannot grow any more
_CONTEXT = 16  # released characters kept for the patterns' look-behinds
_PEM_BODY = r"(?:[A-Za-z0-9+/=\s:,.-]|\\[nr/])"
_PATTERNS: list[tuple[str, str]] = [
    (
        "private key",
        rf"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----{_PEM_BODY}{{0,12000}}?"
        r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----"
        rf"|-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----{_PEM_BODY}{{0,12000}}",
    ),
    (
        "token",
        r"(?i:\bauthorization)[\"']?\s*[:=]\s*[\"']?"
        r"(?:(?i:bearer|basic|token|bot|digest)\s+)?(?P<v>[A-Za-z0-9._~+/=-]{8,4096})",
    ),
    ("token", r"(?i:\bbearer)\s+(?P<v>[A-Za-z0-9._~+/=-]{16,4096})"),
    (
        "secret",
        r"(?<![\w$])[A-Z0-9_]*(?:SECRET|_KEY|TOKEN|PASSWORD|PASSWD)[A-Z0-9_]*="
        r"[\"']?(?P<v>(?![$<{])[^\s\"'\\`]{1,4096})",
    ),
    (
        "API key",
        r"\bsk-[A-Za-z0-9_-]{20,400}|\bAIza[0-9A-Za-z_-]{35,100}"
        r"|\bgh[pousr]_[A-Za-z0-9]{30,255}|\bgithub_pat_[A-Za-z0-9_]{22,255}"
        r"|\bxox[abposr]-[A-Za-z0-9-]{10,255}|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"
        r"|\bhf_[A-Za-z0-9]{30,100}",
    ),
    (
        "e-mail",
        r"(?<![A-Za-z0-9._%+-])(?!git@)[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}"
        r"(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b",
    ),
]
_HOME = (
    r"(?<![\w./-])(?P<v>/home/[^/\s\"'\\:]+|/Users/[^/\s\"'\\:]+"
    r"|[A-Za-z]:(?:\\\\?)Users(?:\\\\?)[^\\/\s\"':]+{mine})"
)
_SECRET_KEY = re.compile(
    r"(?i)^(?:.*[-_])?(?:password|passwd|secret|api[-_]?key|access[-_]?token|auth[-_]?token"
    r"|refresh[-_]?token|client[-_]?secret|authorization|private[-_]?key)$"
)


def _mask(kind: str) -> str:
    return "~" if kind == "home directory" else f"[REDACTED {kind}]"


def _compile(home: str | None) -> tuple[re.Pattern[str], dict[str, str]]:
    """One alternation of every pattern (group ``pN``, its value ``vN``) and the kind
    of each group."""
    mine = ""
    if home and home not in ("/", "") and not re.match(r"/home/|/Users/", home):
        mine = "|" + re.escape(home.rstrip("/\\")) + r"(?=[/\\\s\"':]|$)"
    patterns = [*_PATTERNS, ("home directory", _HOME.replace("{mine}", mine))]
    kinds, parts = {}, []
    for number, (kind, pattern) in enumerate(patterns):
        kinds[f"p{number}"] = kind
        parts.append(f"(?P<p{number}>{pattern.replace('(?P<v>', f'(?P<v{number}>')})")
    return re.compile("|".join(parts)), kinds


class Redactor:
    """Masks secrets in strings, values and events, and counts what it masked.

    ``home``: this machine's home directory, masked as ``~`` besides any ``/home/NAME``,
    ``/Users/NAME`` and ``C:\\Users\\NAME`` (default: the current user's)."""

    def __init__(self, home: str | None = None) -> None:
        self.pattern, self.kinds = _compile(str(Path.home()) if home is None else home)
        self.found: dict[str, set[str]] = {kind: set() for kind in KINDS}

    @property
    def counts(self) -> dict[str, int]:
        """How many distinct values of each kind were masked."""
        return {kind: len(values) for kind, values in self.found.items()}

    def masked(self, match: re.Match[str]) -> str:
        """The text of ``match`` with its secret masked (and counted)."""
        group = match.lastgroup or ""
        kind = self.kinds[group]
        value = "v" + group[1:]
        start, end = match.span(value) if match.groupdict().get(value) is not None else match.span()
        secret = match.string[start:end]
        self.found[kind].add(re.sub(r"\\[nr]|\s", "", secret))
        whole = match.group()
        offset = match.start()
        return whole[: start - offset] + _mask(kind) + whole[end - offset :]

    def text(self, text: str) -> str:
        """``text`` with every secret masked (a whole string: nothing held back)."""
        return self.pattern.sub(self.masked, text) if text else text

    def value(self, value: Any, key: str = "") -> Any:
        """A copy of ``value`` with every string in it masked (dicts, lists and
        pydantic models walked); a string under a key that names a secret
        (``password``, ``api_key``, ``client_secret``…) is masked whole."""
        if isinstance(value, str):
            if value and key and _SECRET_KEY.match(key) and not value.startswith("[REDACTED"):
                self.found["secret"].add(value)
                return _mask("secret")
            return self.text(value)
        if isinstance(value, dict):
            return {k: self.value(v, str(k)) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(self.value(v) for v in value)
        fields = getattr(type(value), "model_fields", None)
        if isinstance(fields, dict):  # a pydantic model
            return value.model_copy(update={n: self.value(getattr(value, n), n) for n in fields})
        return value

    def stream(self) -> Stream:
        return Stream(self)

    def block(self, block: Block) -> Block:
        return dataclasses.replace(
            block,
            metadata=self.value(block.metadata),
            content=self.value(block.content),
            attrs=self.value(dict(block.attrs)),
            raw=self.text(block.raw),
        )


class Stream:
    """One run of streaming text (the visible text, one part of a block): ``feed``
    each piece, ``close`` at its end; what they return, joined, is the whole text
    masked as :meth:`Redactor.text` masks it."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor
        self.pending = ""  # arrived, not released
        self.context = ""  # the last released characters (for look-behinds)

    def feed(self, piece: str) -> str:
        self.pending += piece
        if len(self.pending) < 2 * TAIL:
            return ""
        return self._release(final=False)

    def close(self) -> str:
        return self._release(final=True) if self.pending else ""

    def _release(self, final: bool) -> str:
        context = self.context
        buffer = context + self.pending
        size = len(buffer)
        limit = size if final else size - TAIL
        out = []
        at = len(context)
        for match in self.redactor.pattern.finditer(buffer, at):
            if not final and (match.start() >= limit or match.end() > size - _SETTLED):
                limit = min(limit, match.start())  # may still grow: held from its start
                break
            out.append(buffer[at : match.start()])
            out.append(self.redactor.masked(match))
            at = match.end()
        if limit > at:
            out.append(buffer[at:limit])
            at = limit
        self.pending = buffer[at:]
        self.context = buffer[max(0, at - _CONTEXT) : at]
        return "".join(out)


def redact_events(events: Iterable[Any], redactor: Redactor) -> Iterator[Any]:
    """``events`` with every secret masked (see the module). A block's deltas lose
    their ``partial`` value: a partial string may end inside a secret not yet
    recognisable."""
    text: Stream | None = None
    parts: dict[tuple[Any, ...], Stream] = {}
    for event in events:
        kind = type(event)
        if kind is TextDelta:
            text = text or redactor.stream()
            out = text.feed(event.text)
            if out:
                yield TextDelta(out)
            continue
        if kind is BlockDelta:
            key = (event.block_id, event.section, event.path)
            stream = parts.get(key) or parts.setdefault(key, redactor.stream())
            out = stream.feed(event.text)
            if out:
                yield event._replace(text=out, partial_at=None)
            continue
        if text is not None and kind in _ENDS_TEXT:
            rest = text.close()
            text = None
            if rest:
                yield TextDelta(rest)
        if kind is BlockEnd or kind is BlockError:
            block_id = event.block.id if kind is BlockEnd else event.block_id
            for key in [key for key in parts if key[0] == block_id]:
                rest = parts.pop(key).close()
                if rest:
                    block_type = event.block.type if kind is BlockEnd else event.block_type
                    yield BlockDelta(block_id, block_type or "", key[1], rest, key[2])
        yield _redacted(event, redactor)
    if text is not None and (rest := text.close()):
        yield TextDelta(rest)


def _redacted(event: Any, redactor: Redactor) -> Any:
    """An event other than a delta, masked."""
    kind = type(event)
    if kind is BlockStart:
        return event._replace(attrs=redactor.value(dict(event.attrs)))
    if kind is BlockMetadata:
        return event._replace(metadata=redactor.value(event.metadata))
    if kind is BlockEnd:
        return BlockEnd(redactor.block(event.block))
    if kind is BlockError:
        return event._replace(message=redactor.text(event.message), raw=redactor.text(event.raw))
    if kind is Passthrough:
        return Passthrough(redactor.value(event.event))
    if kind is StreamFinished and event.error:
        return event._replace(error=redactor.text(event.error))
    return event
