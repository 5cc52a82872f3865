"""A gadget's partials and its AG-UI arguments are worked out incrementally (issue 39):
each checked, on every delta of many gadgets and chunkings, against the definition —
the object of the values so far rebuilt from scratch, and ``json_prefix`` of it
extending what was sent."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import BaseModel

from streamblocks import BlockRegistry, GadgetSyntax, StreamBlockProcessor
from streamblocks.core.events import BlockDelta
from streamblocks.core.json_prefix import json_prefix
from streamblocks.syntaxes.arguments import build_arguments
from streamblocks.syntaxes.base import ParseFailure
from streamblocks.syntaxes.gadget_json import GadgetJson


class Shape(BaseModel):
    s: str = ""
    n: int = 0
    items: list[int] = []


POINTERS = ["a", "b", "c/x", "c/y", "d/0", "d/1", "d/-", "e/0/k", "e/1/k", "s", "n", "items"]
VALUES = ["abc", "15", "-3", "true", "tru", "x\ny", "15\nmore", "[1, 2]", "", "a\r", 'é"\\\t']
VALUES += ["007", "x\n\n", "\r\n", "1" * 4400]


def _shown(text: str) -> bool:
    first, newline, _ = text.partition("\n")
    if newline:
        return True
    if not first or first[0] in "-0123456789[{":
        return False
    return not any(word.startswith(first) for word in ("true", "false", "null"))


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines[-1] == "" and len(lines) > 1:
        lines.pop()
    return lines


def defined_partial(log: list[tuple[str, str | None]], index: int, model: Any) -> Any:
    """The partial by its definition: every value begun but the last is finished (a
    delta's text goes to the last value of its pointer); the last is in when it can
    only be text or its line is complete; the longest prefix without a conflict."""
    pairs: list[tuple[str, list[str]]] = []
    for text, path in log[:index]:
        if not text:
            pairs.append((path or "", []))
            continue
        for pointer, pieces in reversed(pairs):
            if pointer == path:
                pieces.append(text)
                break
    written = [(pointer, _lines("".join(pieces))) for pointer, pieces in pairs[:-1]]
    if pairs and _shown("".join(pairs[-1][1])):
        written.append((pairs[-1][0], _lines("".join(pairs[-1][1]))))
    for size in range(len(written), -1, -1):
        try:
            return build_arguments(written[:size], model)
        except ParseFailure:
            continue
    return {}


def _gadgets(seed: int) -> list[tuple[str, int, Any]]:
    rng = random.Random(seed)
    found = []
    for _ in range(60):
        count = rng.randint(1, 5)
        pick = rng.sample if rng.random() < 0.7 else lambda pool, k: rng.choices(pool, k=k)
        pointers = pick(POINTERS, count)
        body = "".join(f"!!!ARG:{p}\n{rng.choice(VALUES)}\n" for p in pointers)
        end = "!!!GADGET_END\n" if rng.random() < 0.8 else ""
        model = Shape if rng.random() < 0.3 else None
        found.append(("!!!GADGET_START:G\n" + body + end, rng.choice([1, 3, 4, 7, 64]), model))
    return found


@pytest.mark.parametrize("seed", range(4))
def test_partials_and_agui_arguments_follow_their_definition(seed: int) -> None:
    for text, size, model in _gadgets(seed):
        registry = BlockRegistry()
        registry.register("G", syntax=GadgetSyntax(), content=model)
        session = StreamBlockProcessor(registry, input_adapter=None).session()
        events = [e for at in range(0, len(text), size) for e in session.feed(text[at : at + size])]
        events += session.close()
        deltas = [e for e in events if isinstance(e, BlockDelta) and e.partial_at is not None]
        if not deltas:
            continue
        source = deltas[0].partial_at.source
        log, writer = list(source.log), GadgetJson()
        sent = written = ""
        for delta in deltas:
            index = delta.partial_at.index
            wanted = defined_partial(log, index, model)
            added = writer.advance(source, index)
            assert delta.partial == wanted, (text, size, index)
            prefix = json_prefix(wanted)
            if len(prefix) > len(sent) and prefix.startswith(sent):
                sent = prefix
            if added is None:  # (a value it does not follow: the caller compares)
                break
            written += added
            assert written == sent, (text, size, index)
