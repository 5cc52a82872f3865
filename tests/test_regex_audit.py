"""Every regular expression in the library, run against its worst cases.

The patterns are collected by importing every module and finding ``re.Pattern``
objects, so a new pattern fails :func:`test_every_pattern_is_audited` until it is listed
in ``USES`` with the operations the code applies to it. Each operation then runs on
adversarial inputs (long runs of each character the pattern mentions, behind prefixes
that get the matcher deep into the pattern); a catastrophic (exponential) or quadratic
pattern takes seconds there, a linear one microseconds. The audit runs in a child
process with a timeout so an exponential pattern fails the test instead of hanging it.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
import textwrap
from typing import Any

import pytest

import streamblocks

# module.attribute -> the operations the code applies ("match" covers match at an
# offset, "search" covers search/finditer/sub over a whole text).
USES: dict[str, tuple[str, ...]] = {
    "streamblocks.runs.inputs._ARRAY_OF_OBJECTS": ("match",),
    "streamblocks.sse._LINE_END": ("search",),
    "streamblocks.syntaxes.arguments._INDEX": ("fullmatch",),
    "streamblocks.syntaxes.arguments._INT": ("fullmatch",),
    "streamblocks.syntaxes.arguments._FLOAT": ("fullmatch",),
    "streamblocks.syntaxes.arguments._BAD_ESCAPE": ("search",),
    "streamblocks.core.yaml_text._PLAIN_ENTRY": ("fullmatch",),
    "streamblocks.syntaxes.fences._OPENING_FENCE": ("fullmatch",),
    "streamblocks.syntaxes.frontmatter._OPENING": ("match",),
    "streamblocks.syntaxes.frontmatter.FRONTMATTER_CLOSING": ("search",),
    "streamblocks.syntaxes.markdown._FRONTMATTER_OPENING": ("match",),
    "streamblocks.syntaxes.markdown.FRONTMATTER_CLOSING": ("search",),
    "streamblocks.core.yaml_text._BRACKETS": ("search",),
    "streamblocks.syntaxes.gadget._NAME": ("fullmatch",),
    "streamblocks.syntaxes.gadget._NAME_SO_FAR": ("fullmatch",),
    "streamblocks.syntaxes.preamble._KEYED": ("fullmatch",),
    "streamblocks.syntaxes.xml._ATTR_ANYWHERE": ("search",),
    "streamblocks.syntaxes.xml._ENTITY": ("search",),
    "streamblocks.syntaxes.xml._NAME_RUN": ("match",),
    "streamblocks.syntaxes.code_spans._TICK_OR_NEWLINE": ("search",),
    # model markup [markup]: names looked for at a body's start, heads and values read
    "streamblocks.markup.families._TEMPLATE": ("search",),
    "streamblocks.markup.arguments._STRING_STOP": ("search",),
    "streamblocks.markup.arguments._OBJECT_STOP": ("search",),
    "streamblocks.markup.grammar.KEYED_ARGUMENTS": ("match",),
    "streamblocks.markup.grammar._BLANKS": ("match",),
    "streamblocks.markup.items.KEYED_ARGUMENTS": ("match",),
    "streamblocks.markup.items._NAME": ("match",),
    "streamblocks.markup.items._NAME_SO_FAR": ("fullmatch",),
    "streamblocks.markup.items._STRING_STOP": ("search",),
    "streamblocks.markup.items._OBJECT_STOP": ("search",),
    "streamblocks.markup.formats.llama.KEYED_ARGUMENTS": ("match",),
    "streamblocks.markup.formats.qwen.KEYED_ARGUMENTS": ("match",),
    "streamblocks.markup.formats.harmony._ARGUMENTS": ("match",),
    "streamblocks.markup.formats.deepseek._INVOKE_NAME": ("search",),
    "streamblocks.markup.formats.deepseek._INVOKE_HEAD": ("match",),
    "streamblocks.markup.formats.deepseek._PARAMETER": ("match", "search"),
    "streamblocks.markup.formats.gemma._BARE": ("match",),
    "streamblocks.markup.formats.glm._KEY": ("match",),
    "streamblocks.markup.formats.glm._VALUE": ("match",),
    "streamblocks.markup.formats.harmony._RECIPIENT": ("match",),
    "streamblocks.markup.formats.harmony._NAME": ("search",),
    "streamblocks.markup.formats.kimi._K3_CALL_HEAD": ("match",),
    "streamblocks.markup.formats.minimax._HEAD": ("match",),
    "streamblocks.markup.formats.minimax._PARAMETER": ("match", "search"),
    "streamblocks.markup.formats.llama._BUILT_IN": ("match",),
    "streamblocks.markup.formats.minimax_m3._HEAD": ("match",),
    "streamblocks.markup.formats.minimax_m3._TAG": ("match",),
    "streamblocks.markup.formats.minimax_m3._UNFINISHED": ("match",),
    "streamblocks.markup.formats.minimax_m3._OPEN": ("search",),
    "streamblocks.markup.formats.llama._TAGGED_NAME": ("match",),
    # redaction [runs]: a JSON key named like a secret
    "streamblocks.runs.redact._SECRET_KEY": ("match",),
    # the page's scripts joined into one file [view]: read over the project's own sources
    "streamblocks.view.page._IMPORT": ("search",),
    "streamblocks.view.page._IMPORT_ANY": ("search",),
    "streamblocks.view.page._EXPORT_DECLARED": ("search",),
    "streamblocks.view.page._EXPORT_LIST": ("search",),
    "streamblocks.view.page._EXPORT_ANY": ("search",),
    "streamblocks.markup.formats.kimi._K3_ARGUMENT": ("match", "search"),
    "streamblocks.markup.formats.llama._JSON_NAME": ("search",),
    "streamblocks.markup.formats.llama._PYTHONIC_NAME": ("search",),
    "streamblocks.markup.formats.mistral._NAMED": ("match",),
    "streamblocks.markup.formats.qwen._FUNCTION": ("match",),
    "streamblocks.markup.formats.qwen._PARAMETER": ("search",),
    "streamblocks.markup.formats.qwen._LINE_PARAMETER": ("search",),
    "streamblocks.markup.formats.qwen._VALUE_FOLLOWER": ("match",),
    "streamblocks.markup.formats.qwen._NAME": ("search",),
    "streamblocks.markup.schema._INTEGER": ("match",),
    # arguments streamed [partial]: a string's escapes, the tags and ends of tagged values
    "streamblocks.markup.arguments._HIGH": ("match",),
    "streamblocks.markup.formats.glm._ITEM": ("search",),
    "streamblocks.markup.formats.gemma._ITEM": ("search",),
    "streamblocks.markup.formats.gemma._SYNTAX": ("search",),
    "streamblocks.markup.formats.llama._KEYWORD": ("search",),
    "streamblocks.markup.formats.llama._CODE": ("search",),
    "streamblocks.markup.formats.qwen._STOP": ("search",),
    "streamblocks.markup.formats.qwen._FOLLOWER": ("match",),
    "streamblocks.markup.formats.qwen._LINE_OPEN": ("match",),
    "streamblocks.markup.schema._NUMBER": ("match",),
    # the viewer: a first line that opens a pretty-printed JSON document
    "streamblocks.runs.live._DOCUMENT_START": ("match",),
    # the partial-JSON reader [partial]: runs of string text and blanks, number tokens
    "streamblocks.core.partial_json._RUN": ("match",),
    "streamblocks.core.partial_json._SPACE": ("match",),
    "streamblocks.core.partial_json._NUMBER": ("fullmatch",),
    "streamblocks.core.partial_json._NUMBER_CHARS": ("match",),
    "streamblocks.core.partial_json._HEX4": ("fullmatch",),
}
# Patterns built at run time by the scanner (scanner.py): the visible state's search
# (inline openers, or a newline before a line a marker may start), the block state's
# search for the next line a marker may start, and the held-tail search.
DYNAMIC = {
    "<|`|\n(?=[\\ !`~])": ("search",),
    "<\\|channel\\|>|<think>|<|\n": ("search",),
    "\n[!`~<-]": ("search",),
    # the preamble's opener and partial opener for the delimiter "!!" (preamble.py)
    r"!!([A-Za-z0-9_.\-]+):([A-Za-z0-9_.\-]+)((?::[^:]*)*)": ("fullmatch",),
    r"!(?:!(?:[A-Za-z0-9_.\-]+(?::(?:[A-Za-z0-9_.\-]+(?::.*|\s*))?)?)?)?": ("fullmatch",),
    "(?:<\\|channel\\|||<\\|channel|<thi|<th|<t|<)\\Z": ("search",),
}


def _collect() -> dict[str, re.Pattern[str]]:
    found: dict[str, re.Pattern[str]] = {}
    for info in pkgutil.walk_packages(streamblocks.__path__, "streamblocks."):
        if info.name.endswith("__main__") or ".ext." in info.name:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                found[f"{info.name}.{name}"] = value
    return found


def test_every_pattern_is_audited() -> None:
    assert set(_collect()) == set(USES)


AUDIT = textwrap.dedent(
    r"""
    import itertools, json, sys, time, re
    uses = json.loads(sys.argv[1])
    POOL = list("a0 \t:!<>/=\"'\\-.[{~&#`\n") + ["\x00"]
    PREFIXES = ["!!a:", "!!a:b:", "</a", "<a ", "a=", 'a="', "&#", "a: ", "0.1e", '"', "~", "["]

    def cases(n):
        yield from (c * n for c in POOL)
        yield from ((a + b) * (n // 2) for a, b in itertools.permutations(POOL, 2))
        yield from (p + c * n + s for p in PREFIXES for c in POOL for s in ("", "\x00"))

    def timed(pattern, op, text, repeat=1):
        best = float("inf")
        for _ in range(repeat):
            started = time.perf_counter()
            if op == "search":
                for _ in pattern.finditer(text):
                    pass
            else:
                getattr(pattern, op)(text)
            best = min(best, time.perf_counter() - started)
        return best

    worst = {}
    for source, ops in uses:
        pattern = re.compile(source, re.DOTALL if source.startswith("!(?:") else 0)
        small = sorted(
            ((timed(pattern, op, text), index, op) for index, text in enumerate(cases(1_000))
             for op in ops), reverse=True)[:3]
        large = list(cases(8_000))
        result = [0.0, 0.0, ""]
        for spent, index, op in small:
            text = large[index]
            t1 = timed(pattern, op, list(cases(1_000))[index], 5)
            t8 = timed(pattern, op, text, 5)
            if t8 > result[1]:
                result = [t8 / max(t1, 1e-7), t8, f"{op} {text[:8]!r}...{text[-4:]!r}"]
        worst[source] = result
    print(json.dumps(worst))
    """
)


@pytest.mark.slow  # timed: a busy 2-core host makes any timing noise (`pytest -m slow`)
def test_no_pattern_backtracks_catastrophically() -> None:
    import json

    collected = _collect()
    uses = [(collected[name].pattern, ops) for name, ops in USES.items()]
    uses += list(DYNAMIC.items())
    slow: dict[str, Any] = {}
    for _attempt in range(3):  # a shared host stalls now and then: a slow pattern must
        done = subprocess.run(  # be slow on every look, not once
            [sys.executable, "-c", AUDIT, json.dumps(uses)],
            capture_output=True,
            text=True,
            timeout=240,
            check=True,
        )
        worst = json.loads(done.stdout)
        # 8x the input: a linear pattern takes ~8x the time, a quadratic one ~64x
        slow = {source: case for source, case in worst.items() if case[0] > 20 and case[1] > 1e-3}
        if not slow:
            break
        uses = [(source, ops) for source, ops in uses if source in slow]
    assert not slow, f"patterns superlinear on their worst case (ratio, seconds, case): {slow}"
