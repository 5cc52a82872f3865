"""How fast can pure CPython read the benchmark document at all?

A lower bound for ``bench_core.py``'s long-chunk case: the whole ~1 MB document read in
one piece (no chunk boundaries, no held state), every block found with one regular
expression for its opener and one search for its closer, the same events built the
cheapest way (``tuple.__new__``), no limits, no hooks, no validation and no error
handling. It is not a parser anyone should use; it is the most a parser written in
Python could hope for on this machine, so the session's figures can be read against it.

Run: ``python benchmarks/bench_floor.py``.
"""

from __future__ import annotations

import re
import time

from documents import document, processor

from streamblocks import Block, BlockDelta, BlockEnd, BlockMetadata, BlockStart, TextDelta

_new = tuple.__new__
_CANDIDATE = re.compile(r"\n(?=[!`])")
_PREAMBLE = re.compile(r"!!([\w.-]+):([\w.-]+)((?::[^:\n]*)*)[ \t]*\n")
_FRONTMATTER = re.compile(r"!!start[ \t]*\n---[ \t]*\n((?:[^-\n][^\n]*\n)*)---[ \t]*\n")
_FENCE = re.compile(r"```([^`\n]*)\n(?:---\n((?:[^-`\n][^\n]*\n)*)---\n)?")
_END = re.compile(r"\n!!end[ \t]*(?:\n|\Z)")
_FENCE_END = re.compile(r"\n```[ \t]*(?:\n|\Z)")
_ENTRY = re.compile(r"(\w+): (\S+)")


def _block(out: list[object], text: str, start: int, head: int, stop: re.Match[str], name: str,
           block_id: str, metadata: dict[str, object]) -> int:  # fmt: skip
    body, end = text[head : stop.start() + 1], stop.end()
    out.append(_new(BlockStart, (block_id, name, "floor", {})))
    out.append(_new(BlockMetadata, (block_id, name, metadata)))
    out.append(_new(BlockDelta, (block_id, name, "content", body, None)))
    block = Block(block_id, name, "floor", metadata, body, {}, text[start:end], start, end)
    out.append(_new(BlockEnd, (block,)))
    return end


def read(text: str) -> list[object]:
    out: list[object] = []
    i, n = 0, len(text)
    while i < n:
        if i == 0 and text[:1] in "!`":
            at = 0
        else:  # (i is a line start: the search from the newline before it)
            found = _CANDIDATE.search(text, max(i - 1, 0))
            at = n if found is None else found.end()
        if at > i:
            out.append(_new(TextDelta, (text[i:at],)))
        if at >= n:
            break
        if (m := _PREAMBLE.match(text, at)) is not None:
            meta = {"id": m[1], "block_type": m[2], "params": m[3].split(":")[1:]}
            i = _block(out, text, at, m.end(), _END.search(text, m.end() - 1), m[2], m[1], meta)
        elif (m := _FRONTMATTER.match(text, at)) is not None:
            meta = dict(_ENTRY.findall(m[1]))
            stop = _END.search(text, m.end() - 1)
            i = _block(out, text, at, m.end(), stop, meta["block_type"], meta["id"], meta)
        elif (m := _FENCE.match(text, at)) is not None:
            stop = _FENCE_END.search(text, m.end() - 1)
            if m[1] == "code":
                meta = dict(_ENTRY.findall(m[2] or ""))
                i = _block(out, text, at, m.end(), stop, "code", meta.get("id", ""), meta)
            else:
                out.append(_new(TextDelta, (text[at : stop.end()],)))
                i = stop.end()
        else:
            i = text.find("\n", at) + 1 or n
            out.append(_new(TextDelta, (text[at:i],)))
    return out


def _outline(events: list[object]) -> tuple[str, list[tuple[str, str]]]:
    """The visible text and each block's type and raw text: what both readings share."""
    text = "".join(event.text for event in events if isinstance(event, TextDelta))
    return text, [(e.block.type, e.block.raw) for e in events if isinstance(e, BlockEnd)]


def main() -> None:
    text = document(1_000_000)
    mb = len(text.encode()) / 1e6
    best, events = float("inf"), []
    for _ in range(5):
        started = time.perf_counter()
        events = read(text)
        best = min(best, time.perf_counter() - started)
    blocks = sum(1 for event in events if isinstance(event, BlockEnd))
    assert _outline(events) == _outline(list(processor().process([text]))), "not the same reading"
    print(
        f"floor: {mb / best:.1f} MB/s ({blocks} blocks, {len(events)} events, {best * 1e3:.1f} ms)"
    )


if __name__ == "__main__":
    main()
