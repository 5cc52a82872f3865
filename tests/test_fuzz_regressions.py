"""Inputs the fuzzer (``fuzz/``) or the audits found problems with, and the seed
corpus, through the fuzz harness's checks: nothing raises, conservation, chunking
invariance. Add a finding as a file in ``tests/fuzz_cases/`` (the raw fuzzer input)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "fuzz"))
import harness  # noqa: E402

CASES = sorted((ROOT / "tests" / "fuzz_cases").iterdir())


@pytest.mark.parametrize("path", CASES, ids=[path.name for path in CASES])
def test_fuzz_case(path: Path) -> None:
    harness.one_input(path.read_bytes())


@pytest.mark.parametrize("option", range(len(harness.PROCESSORS)))
@pytest.mark.parametrize(
    "text",
    [
        "x: " + '"\\"' * 2_000,  # the quadratic quoted-string regex of the YAML depth check
        "<c " + "a" * 3_000,  # a long attribute name
        "\ud800\udc00\x00<think>\udfff</think>\x00",
        "\ufeff!!b1:note\n\ufeff\n!!end\n",
        "<" * 300 + "!" * 300 + "`" * 300,
        "```\n---\n" + "[" * 150 + "\n---\n```\n",
        "```c_START2Calcc\r\n",  # fuzzer: max_marker_chars=16 and a \r split from its \n
        "```c_START2Calcc" + "\r" * 40,
    ],
)
def test_known_hard_inputs(text: str, option: int) -> None:
    harness.check(text, option)
