"""Deterministic benchmark documents: prose with blocks of every line syntax."""

from __future__ import annotations

import random

from streamblocks import (
    BlockRegistry,
    DelimiterFrontmatterSyntax,
    MarkdownFrontmatterSyntax,
    StreamBlockProcessor,
    XMLTagSyntax,
)

PHRASE = (
    "the stream carries text and blocks while the model keeps writing about data files "
    "tools plans citations and the weather in Zürich — naïve café 東京 🙂"
)
WORDS = PHRASE.split()


def registry() -> BlockRegistry:
    registry = BlockRegistry()
    registry.register("note")
    registry.register("patch")
    registry.register("task", syntax=DelimiterFrontmatterSyntax())
    registry.register("code", syntax=MarkdownFrontmatterSyntax())
    return registry


def processor() -> StreamBlockProcessor:
    return StreamBlockProcessor(registry(), input_adapter=None)


def _prose(rng: random.Random, lines: int) -> str:
    out = []
    for _ in range(lines):
        out.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))))
    return "\n".join(out) + "\n"


def document(target_chars: int, seed: int = 7) -> str:
    """About ``target_chars`` of prose with a block every ~1 KB, cycling the syntaxes
    (and a shown ```python fence every seventh block, which must stay text)."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    n = 0
    while size < target_chars:
        n += 1
        body = _prose(rng, rng.randint(3, 8))
        kind = n % 4
        if kind == 0:
            block = f"!!n{n}:note\n{body}!!end\n"
        elif kind == 1:
            block = f"!!p{n}:patch:src/app.py:12\n{body}!!end\n"
        elif kind == 2:
            block = (
                f"!!start\n---\nid: t{n}\nblock_type: task\npriority: {n % 5}\n---\n{body}!!end\n"
            )
        else:
            block = f"```code\n---\nid: c{n}\n---\n{body}```\n"
        piece = _prose(rng, rng.randint(5, 10)) + block
        if n % 7 == 0:
            piece += "```python\nprint('shown code, not a block')\n!!x1:note\n```\n"
        parts.append(piece)
        size += len(piece)
    return "".join(parts)


def xml_processor() -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("cite", syntax=XMLTagSyntax())
    registry.register("done", syntax=XMLTagSyntax())
    registry.register("note")
    return StreamBlockProcessor(registry, input_adapter=None)


def xml_document(target_chars: int, seed: int = 11) -> str:
    """Prose with an inline tag about every 200 characters, and markup-like noise."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = n = 0
    while size < target_chars:
        n += 1
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 34)))
        if n % 3 == 0:
            tag = f'<cite url="https://example.org/{n}">{words[:40]}</cite>'
        elif n % 3 == 1:
            tag = "<done/>" if n % 2 else "if a < b and <div> stays text"
        else:
            tag = f"`<cite>` in code, <cite id='c{n}'>x &amp; y</cite>"
        piece = f"{words} {tag}{'.' if n % 5 else chr(10)} "
        parts.append(piece)
        size += len(piece)
    return "".join(parts)


def chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]
